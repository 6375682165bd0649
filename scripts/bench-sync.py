#!/usr/bin/env python3
"""Sync benchmark (`make bench-sync`, issue 29): what sync costs a command, next to its floor in the same run.

- nothing new: `trend -c today` on ten thousand weigh-ins with a sync folder set (two other devices
  seen, nothing new from them) against a copy of that data directory with the sync folder unset; the median of
  RUNS runs each, and the difference (target: at most 1 ms);
- a long history joining: a device whose sync folder holds another installation's 100,000 weigh-ins
  applies them (`trend -c "sync now"`), against importing the same rows from a CSV into a new data
  directory (`trend -c "import FILE"`), the floor (target: at most 2x).

Usage: bench-sync.py TREND WORKDIR [--rows N] [--runs N] [--check]
"""
import os, random, shutil, statistics, subprocess, sys, time

args = sys.argv[1:]
trend, work = os.path.abspath(args[0]), os.path.abspath(args[1])
rows = int(args[args.index("--rows") + 1]) if "--rows" in args else 100_000
runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 30
check = "--check" in args


def run(data, *commands):
    argv = [trend, "--data-dir", data]
    for command in commands:
        argv += ["-c", command]
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{result.stderr[-2000:]}")
    return seconds


def write_csv(path, count):
    rng = random.Random(29)
    start = 1_500_000_000
    with open(path, "w") as out:
        out.write("date,weight,unit,note\n")
        for index in range(count):
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + index * 3_000))
            out.write(f"{stamp},{80 + rng.gauss(0, 1):.1f},kg,\n")


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failed = False

# Nothing new: the same ten thousand weigh-ins, with and without a sync folder.
small = os.path.join(work, "small.csv")
write_csv(small, 10_000)
plain, synced, sync = (os.path.join(work, name) for name in ("plain", "synced", "sync-small"))
os.makedirs(sync)
run(synced, f"import {small}", f"set sync-folder {sync}")
for other in ("laptop", "server"):
    data = os.path.join(work, other)
    run(data, f"set sync-folder {sync}", f"set device-name {other}", "weigh 80.0")
run(synced, "sync now")
run(synced, "sync now")
# The floor holds the very same rows (the others' weigh-ins of today among them, which `today` shows) with
# no sync folder: the difference is the sync's alone.
shutil.copytree(synced, plain)
run(plain, "set sync-folder off")
times = {"plain": [], "synced": []}
for _ in range(runs):
    times["plain"].append(run(plain, "today"))
    times["synced"].append(run(synced, "today"))
plain_ms = statistics.median(times["plain"]) * 1000
synced_ms = statistics.median(times["synced"]) * 1000
extra = synced_ms - plain_ms
verdict = "ok" if extra <= 1.0 else "MISSED"
failed |= extra > 1.0
print(f"sync, nothing new     today {synced_ms:7.1f} ms with a sync folder, {plain_ms:7.1f} ms without: "
      f"{extra:+.2f} ms (target <= 1 ms) {verdict}")

# A long history joining, next to importing the same rows.
big = os.path.join(work, "big.csv")
write_csv(big, rows)
source, joiner, floor, sync = (os.path.join(work, name) for name in ("source", "joiner", "floor", "sync-big"))
os.makedirs(sync)
# The joiner is set up first, while the folder is empty (it syncs at exit too), then the history arrives.
run(joiner, f"set sync-folder {sync}")
run(source, f"import {big}", f"set sync-folder {sync}", "sync now")
floor_s = run(floor, f"import {big}")
apply_s = run(joiner, "sync now")
ratio = apply_s / floor_s
verdict = "ok" if ratio <= 2 else "MISSED"
failed |= ratio > 2
print(f"sync, {rows:,} joining  applied in {apply_s:6.2f} s; importing them {floor_s:6.2f} s: {ratio:.2f}x (target <= 2x) {verdict}")
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed and check else 0)
