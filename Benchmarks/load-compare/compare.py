#!/usr/bin/env python3
"""Benchmarks/run load-compare: whole processes loading the load benchmark's 10,000 definitions as 20 files.

Times, in one run and alternating, the fastest of ROUNDS (default 7) runs of each:
  - `switchboard validate --flags DIR` (SWITCHBOARD_BIN), on every core, and pinned to one core with `taskset -c 0`
    (the loader then reads the files one after the other, as it did before issue 36);
  - `yams-load FILE...` (YAMS_LOAD_BIN: `Yams.load` of each file, an executable that does not link Switchboard);
  - `python3 -c` with PyYAML's CSafeLoader on each file.
Prints load.process_ms, load.one_core_process_ms, load.yams_process_ms, load.pyyaml_process_ms, load.cpu_s and
load.wall_s (of switchboard's fastest run, from the kernel's accounting of the child), load.cores_used (their
ratio), each peer's time over switchboard's, and load.steal_pct: the share of the machine's CPU time that its
hypervisor gave to others while the runs were timed (/proc/stat's steal). Above a percent or so, the two-core figures
say more about the neighbours than about switchboard: its two threads need both cores at once, each peer only one.
Environment: DEFINITIONS_DIR (a folder with the 20 files).
"""
import os
import resource
import shutil
import subprocess
import sys
import time

folder = os.environ["DEFINITIONS_DIR"]
files = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".yaml"))
rounds = int(os.environ.get("ROUNDS", "7"))
pyyaml = ("import sys, yaml\n"
          "n = 0\n"
          "for path in sys.argv[1:]:\n"
          "    with open(path, 'rb') as f: n += len(yaml.load(f, Loader=yaml.CSafeLoader))\n"
          "print(n)\n")
commands = {
    "switchboard": [os.environ["SWITCHBOARD_BIN"], "validate", "--flags", folder],
    "one_core": ["taskset", "-c", "0", os.environ["SWITCHBOARD_BIN"], "validate", "--flags", folder],
    "yams": [os.environ["YAMS_LOAD_BIN"]] + files,
    "pyyaml": [sys.executable, "-c", pyyaml] + files,
}
if shutil.which("taskset") is None:
    del commands["one_core"]


def run(command):
    """Wall seconds and CPU seconds (user and system) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{command[0]} failed ({done.returncode}):\n{done.stderr.decode()[:2000]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_ticks():
    """All CPUs' (busy and idle, steal) clock ticks so far, from /proc/stat; None where there is none."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(field) for field in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal (guest time is already counted in user).
    return sum(fields[:8]), fields[7] if len(fields) > 7 else 0


best = {name: (float("inf"), 0.0) for name in commands}
for name in commands:  # a warm-up each: the files and binaries in the page cache
    run(commands[name])
ticks_before = cpu_ticks()
for _ in range(rounds):
    for name, command in commands.items():
        wall, cpu = run(command)
        if wall < best[name][0]:
            best[name] = (wall, cpu)

ticks_after = cpu_ticks()

ms = {name: best[name][0] * 1000 for name in commands}
wall, cpu = best["switchboard"]
print(f"load.files: {len(files)}")
print(f"load.yaml_mb: {sum(os.path.getsize(f) for f in files) / 1048576:.2f}")
print(f"load.process_ms: {ms['switchboard']:.1f}")
if "one_core" in ms:
    print(f"load.one_core_process_ms: {ms['one_core']:.1f}")
print(f"load.yams_process_ms: {ms['yams']:.1f}")
print(f"load.pyyaml_process_ms: {ms['pyyaml']:.1f}")
print(f"load.cpu_s: {cpu:.3f}")
print(f"load.wall_s: {wall:.3f}")
print(f"load.cores_used: {cpu / wall:.2f}")
print(f"load.yams_ratio: {ms['yams'] / ms['switchboard']:.1f}")
print(f"load.pyyaml_ratio: {ms['pyyaml'] / ms['switchboard']:.1f}")
if "one_core" in ms:
    print(f"load.one_core_ratio: {ms['one_core'] / ms['switchboard']:.2f}")
if ticks_before and ticks_after and ticks_after[0] > ticks_before[0]:
    print(f"load.steal_pct: {100 * (ticks_after[1] - ticks_before[1]) / (ticks_after[0] - ticks_before[0]):.1f}")
