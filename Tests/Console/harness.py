"""What the console's browser tests share: a real `switchboard serve` on an ephemeral loopback port over a throwaway
project, headless Chromium through Playwright, and a tiny runner that prints `N passed, N failed`."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

BINARY = os.environ.get("SWITCHBOARD_BIN") or os.path.join(
    os.path.dirname(__file__), "..", "..", ".build", "debug", "switchboard")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ADMIN = "admin-secret-token"
READ = "read-secret-token"
# The people of the test server's access file, each with a token of their own (`switchboard access add`), so the
# audit records who wrote: the name a request claims is kept only as `claimed_actor`.
PEOPLE = ("alice", "bob", "carol", "dave", "tester", "someone-with-a-long-name")


def clean_environment(extra=None):
    """The process environment without any SWITCHBOARD_ variable of the machine, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SWITCHBOARD_")}
    env.update(extra or {})
    return env


class Server:
    """`switchboard serve` over a copy of the given definitions, stopped and removed by `stop()`."""

    def __init__(self, files, admin=ADMIN, read=None, env=None, args=(), relative=False, people=None):
        self.directory = tempfile.mkdtemp(prefix="switchboard-console-test-")
        self.flags = os.path.join(self.directory, "flags")
        self.state = os.path.join(self.directory, "state", "overrides.json")
        os.makedirs(self.flags)
        for name, text in files.items():
            self.write(name, text)
        extra = dict(env or {})
        if admin:
            extra["SWITCHBOARD_ADMIN_TOKEN"] = admin
        if read:
            extra["SWITCHBOARD_READ_TOKEN"] = read
        self.admin = admin
        # With an admin token, the people above come too (admins, OFREP left open); `people=()` for none.
        self.tokens = {}
        people = PEOPLE if people is None and admin and "--access-file" not in args else (people or ())
        if people:
            access = os.path.join(self.directory, "access.yaml")
            with open(access, "w") as out:
                out.write("anonymous_read: true\n")
            for name in people:
                added = subprocess.run([os.path.abspath(BINARY), "access", "add", name, "--role", "admin",
                                        "--access-file", access], capture_output=True, text=True,
                                       env=clean_environment(), timeout=30)
                assert added.returncode == 0, added.stderr
                self.tokens[name] = re.search(r"^token: (\S+)$", added.stdout, re.M).group(1)
            args = (*args, "--access-file", access)
        self.log_path = os.path.join(self.directory, "server.log")
        self.log = open(self.log_path, "w")
        # `relative`: run in the project folder with relative paths, so origins read `flags/app.yaml:3:5`.
        paths = ["--flags", "flags", "--state", "state/overrides.json"] if relative else [
            "--flags", self.flags, "--state", self.state]
        self.process = subprocess.Popen(
            [os.path.abspath(BINARY), "serve", *paths, "--port", "0", *args], cwd=self.directory,
            stdout=self.log, stderr=self.log, env=clean_environment(extra))
        self.port = None
        deadline = time.time() + 30
        while time.time() < deadline:
            text = open(self.log_path).read()
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text)
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None:
                raise RuntimeError("the server stopped:\n" + text)
            time.sleep(0.05)
        if not self.port:
            raise RuntimeError("the server did not start:\n" + open(self.log_path).read())
        self.url = f"http://127.0.0.1:{self.port}"

    def write(self, name, text):
        path = os.path.join(self.flags, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "w") as out:
            out.write(text)
        os.replace(path + ".tmp", path)

    def request(self, method, path, body=None, token=None, headers=None):
        """A request to the server: (status, JSON or None, headers)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        token = self.admin if token is None else token
        if token:
            request.add_header("Authorization", "Bearer " + token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None), dict(response.headers)
        except urllib.error.HTTPError as error:
            text = error.read()
            try:
                document = json.loads(text)
            except ValueError:
                document = None
            return error.code, document, dict(error.headers)

    def value(self, key):
        """The key's resolved value and layer, read through the admin API."""
        status, document, _ = self.request("GET", "/v1/flags/" + key)
        assert status == 200, (status, document)
        return document["value"], document["layer"]

    def set(self, key, value, actor="tester"):
        """Sets an override as `actor`, with their own token when they have one."""
        status, document, _ = self.request("PUT", "/v1/overrides/" + key, {"value": value, "actor": actor},
                                           token=self.tokens.get(actor))
        assert status == 200, (status, document)

    def audit(self):
        status, document, _ = self.request("GET", "/v1/audit?limit=1000")
        assert status == 200, (status, document)
        return document["records"]

    def cli(self, *args, actor="cli-user"):
        """Runs the `switchboard` command line on the same project, as another process."""
        return subprocess.run([BINARY, *args, "--flags", self.flags, "--state", self.state],
                              capture_output=True, text=True, env=clean_environment({"SWITCHBOARD_ACTOR": actor}),
                              timeout=30)

    def cli_write(self, *args, actor="cli-user"):
        """Runs a writing command (`set`, `reset`) of the command line as another process, and returns the moment
        its write returned (`time.monotonic()`), process start not included: the command prints its line right
        after the write, and `stdbuf -oL` sends that line at once instead of at the process's exit."""
        process = subprocess.Popen(["stdbuf", "-oL", BINARY, *args, "--flags", self.flags, "--state", self.state],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=clean_environment({"SWITCHBOARD_ACTOR": actor}))
        line = process.stdout.readline()
        written = time.monotonic()
        _, errors = process.communicate(timeout=30)
        assert process.returncode == 0 and line, (process.returncode, line, errors)
        return written

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])


class Page:
    """A browser context with the console open, and what it recorded: dialogs and console errors."""

    def __init__(self, browser, server, viewport=None):
        self.server = server
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(5000)
        self.dialogs = []
        self.errors = []
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))

    def open(self):
        self.page.goto(self.server.url + "/")
        return self.page

    def sign_in(self, token=None, actor="alice"):
        """Signs in with `token`, or else as `actor` with their own token (the admin token on a server without
        people)."""
        page = self.open()
        page.fill("#token", token or self.server.tokens.get(actor) or ADMIN)
        page.click("#sign-in-form button[type=submit]")
        page.wait_for_selector("#flag-rows tr")
        return page

    def row(self, key):
        return self.page.locator(f'#flag-rows tr[data-key="{key}"]')

    def value_text(self, key):
        return self.row(key).locator("td.value").inner_text()

    def select(self, key):
        """Opens the key's page from the list, as a person would: search for it, then click it."""
        if self.page.is_hidden("#search"):
            self.page.evaluate("key => { location.hash = '#/?q=' + encodeURIComponent(key); }", key)
            self.page.wait_for_selector("#search", state="visible")
        self.page.fill("#search", key)
        self.row(key).locator("td.key button").click()
        self.page.wait_for_function(
            "key => document.getElementById('detail-key').textContent === key && "
            "document.getElementById('explain-rows').children.length > 0", arg=key)

    def close(self):
        self.context.close()


def run(tests):
    """Runs `(name, function)` pairs; prints each result and `N passed, N failed`; returns the failures."""
    from playwright.sync_api import sync_playwright
    only = os.environ.get("CONSOLE_TEST")
    passed = failed = 0
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for name, test in tests:
            if only and only not in name:
                continue
            start = time.time()
            try:
                test(browser)
                passed += 1
                print(f"PASS {name} ({time.time() - start:.1f} s)", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {name} ({time.time() - start:.1f} s)", flush=True)
                traceback.print_exc(file=sys.stdout)
        browser.close()
    print(f"{passed} passed, {failed} failed", flush=True)
    return failed
