#!/usr/bin/env bash
# scripts/test-postgres.sh start [DIR] | stop DIR | restart DIR | pause DIR | resume DIR | installed
#
# A throwaway PostgreSQL cluster for Switchboard's tests and benchmarks, on a free loopback port.
#   start    initdb into DIR (default: a new temporary folder), start the server, create the role and database
#            `switchboard` (password `switchboard`), and print the URL on standard output:
#            postgres://switchboard:switchboard@127.0.0.1:PORT/switchboard
#            The cluster's folder is the second line, for `stop`.
#   stop     stop the server and remove DIR.
#   restart  `pg_ctl restart` (for outage tests): the server goes away and comes back on the same port.
#   pause    stop the server but keep its data (an outage, until `resume`).
#   resume   start the paused server again on the same port.
#   installed  exit 0 when PostgreSQL's server binaries are there (tests that start clusters of their own ask).
#
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user. Needs PostgreSQL's
# server binaries (Debian: apt-get install postgresql); PG_BIN overrides where they are.
set -euo pipefail

# Close every inherited descriptor above standard error: the server this starts outlives the script, and must not
# hold open a descriptor that its caller waits on (Foundation's Process watches one to see the script exit).
for fd in /proc/$$/fd/*; do
    fd="${fd##*/}"
    if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

bin="${PG_BIN:-}"
if [ -z "$bin" ]; then
    if command -v pg_ctl >/dev/null; then bin="$(dirname "$(readlink -f "$(command -v pg_ctl)")")"
    else bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"; fi
fi
[ -x "$bin/pg_ctl" ] || { echo "PostgreSQL's server is missing: apt-get install postgresql" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

command="${1:-}"
case "$command" in
    start)
        dir="${2:-$(mktemp -d /tmp/switchboard-pg.XXXXXX)}"
        mkdir -p "$dir"
        [ "$(id -u)" = 0 ] && chown postgres: "$dir"
        port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        printf 'switchboard\n' >"$dir/.password"
        [ "$(id -u)" = 0 ] && chown postgres: "$dir/.password"
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
            --pwfile="$dir/.password" >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null \
            || { cat "$dir/server.log" >&2; rm -rf "$dir"; exit 1; }
        # From here on a failure stops the server it started.
        trap 'as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1; rm -rf "$dir"' ERR
        as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q <<SQL >/dev/null
CREATE ROLE switchboard LOGIN PASSWORD 'switchboard';
CREATE DATABASE switchboard OWNER switchboard;
SQL
        echo "$port" >"$dir/port"
        trap - ERR
        echo "postgres://switchboard:switchboard@127.0.0.1:$port/switchboard"
        echo "$dir"
        ;;
    stop)
        dir="${2:?usage: scripts/test-postgres.sh stop DIR}"
        [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$dir"
        ;;
    restart)
        dir="${2:?usage: scripts/test-postgres.sh restart DIR}"
        port="$(cat "$dir/port")"
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -m fast \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1" restart >/dev/null
        ;;
    pause)
        dir="${2:?usage: scripts/test-postgres.sh pause DIR}"
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
        ;;
    resume)
        dir="${2:?usage: scripts/test-postgres.sh resume DIR}"
        port="$(cat "$dir/port")"
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
        ;;
    installed)
        ;;
    *)
        echo "usage: scripts/test-postgres.sh start [DIR] | stop DIR | restart DIR | pause DIR | resume DIR | installed" >&2
        exit 2
        ;;
esac
