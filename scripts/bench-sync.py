#!/usr/bin/env python3
"""Sync benchmark (`make bench-sync`, issue 29): what sync costs a command, next to its floor in the same run.

- nothing new: `trend -c today` on ten thousand weigh-ins with a sync folder set (two other devices
  seen, nothing new from them) against a copy of that data directory with the sync folder unset; the median of
  RUNS runs each, and the difference (target: at most 1 ms);
- a long history joining: a device whose sync folder holds another installation's 100,000 weigh-ins
  applies them (`trend -c "sync now"`), against importing the same rows from a CSV into a new data
  directory (`trend -c "import FILE"`), the floor (target: at most 2x);
- signatures: what checking the signatures of that join's segments costs (the SHA-256 of their bytes and one
  Ed25519 verification each, with the same libcrypto through Python's hashlib and cryptography, timed in this
  process), against the join (target: at most 10 %);
- a device that never compacted: 100,000 segments of one change each, written and signed as Trend writes them
  (format 2, an Ed25519 key of their own), joined by `sync now` until it has them all: the time and the peak
  resident memory of the trend processes (target: at most 5 s and 150 MB).

Usage: bench-sync.py TREND WORKDIR [--rows N] [--runs N] [--check]
"""
import hashlib, json, os, random, shutil, sqlite3, statistics, subprocess, sys, time, uuid

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

args = sys.argv[1:]
trend, work = os.path.abspath(args[0]), os.path.abspath(args[1])
rows = int(args[args.index("--rows") + 1]) if "--rows" in args else 100_000
runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 30
check = "--check" in args


def run(data, *commands, output=False):
    """Runs trend on `data` with `commands`: the seconds it took (and its output, with `output`)."""
    argv = [trend, "--data-dir", data]
    for command in commands:
        argv += ["-c", command]
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{result.stderr[-2000:]}")
    return (seconds, result.stdout) if output else seconds


def tiny_segments(folder, count):
    """`count` segments of one weigh-in each, as SyncWorker writes them: header, the change, the signature line
    (Ed25519 over "trend sync segment\\n" and the SHA-256 of the bytes before it, SyncSegment.signatureContext)."""
    installation = str(uuid.UUID(int=random.Random(47).getrandbits(128)))
    own = os.path.join(folder, "trend", installation)
    os.makedirs(own)
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    start_ms = 1_700_000_000_000
    for n in range(1, count + 1):
        ms = start_ms + n * 60_000
        header = {"trend-sync": 2, "installation": installation, "device": "old-phone", "first": n, "last": n,
                  "count": 1, "at": ms + 5, "key": public}
        change = {"t": "weight_entries", "k0": f"tiny-{n}", "ms": ms, "n": 0, "o": installation, "op": "set",
                  "c.body_fat": None, "c.id": f"tiny-{n}", "c.instant": ms / 1000, "c.kilograms": 80 + (n % 40) / 10,
                  "c.note": None, "c.typed_unit": "kg"}
        body = (json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(change, separators=(",", ":")) + "\n").encode()
        signature = key.sign(b"trend sync segment\n" + hashlib.sha256(body).digest())
        with open(os.path.join(own, f"{n}-{n}.jsonl"), "wb") as out:
            out.write(body + b'{"signature":"' + signature.hex().encode() + b'"}\n')
    return own


def signature_seconds(folder):
    """What checking every segment's signature below `folder` costs: the SHA-256 of its bytes before the signature
    line and one Ed25519 verification, each segment read into memory first (as the reader holds it)."""
    files = []
    for root, _, names in os.walk(folder):
        files += [os.path.join(root, name) for name in names if name.endswith(".jsonl")]
    loaded = []
    for path in files:
        with open(path, "rb") as source:
            data = source.read()
        cut = data.rindex(b"\n", 0, len(data) - 1) + 1
        header = json.loads(data[:data.index(b"\n")])
        signature = bytes.fromhex(json.loads(data[cut:])["signature"])
        loaded.append((memoryview(data)[:cut], signature, bytes.fromhex(header["key"])))
    start = time.perf_counter()
    for body, signature, key in loaded:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, b"trend sync segment\n" + hashlib.sha256(body).digest())
    return time.perf_counter() - start, sum(len(body) for body, _, _ in loaded), len(loaded)


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

# Signatures: checking those segments' signatures, against the join.
signed_s, signed_bytes, signed_files = signature_seconds(sync)
share = signed_s / apply_s
verdict = "ok" if share <= 0.10 else "MISSED"
failed |= share > 0.10
print(f"sync, signatures      {signed_files} segments, {signed_bytes / 1e6:.1f} MB checked in {signed_s * 1000:6.1f} ms: "
      f"{share:.1%} of the join (target <= 10 %) {verdict}")

# A device that never compacted: 100,000 segments of one change each.
tiny = int(args[args.index("--tiny") + 1]) if "--tiny" in args else 100_000
folder, lone = (os.path.join(work, name) for name in ("sync-tiny", "lone"))
os.makedirs(folder)
run(lone, f"set sync-folder {folder}")
tiny_segments(folder, tiny)
joined_s, peak_mb, rounds = 0.0, 0.0, 0
while rounds < 20:
    # The process's own peak resident set, from wait4 (its output goes to files, so nothing waits on a pipe).
    argv = [trend, "--data-dir", lone, "-c", "sync now"]
    errors = os.path.join(work, "tiny.err")
    with open(errors, "w") as err:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        joined_s += time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    rounds += 1
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{open(errors).read()[-2000:]}")
    peak_mb = max(peak_mb, usage.ru_maxrss / 1024)
    with sqlite3.connect(os.path.join(lone, "trend.sqlite")) as db:
        held = db.execute("SELECT count(*) FROM weight_entries WHERE id LIKE 'tiny-%'").fetchone()[0]
    if held >= tiny:
        break
verdict = "ok" if joined_s <= 5 and peak_mb <= 150 and held == tiny else "MISSED"
failed |= verdict != "ok"
print(f"sync, {tiny:,} tiny segments  {held:,} joined in {joined_s:6.2f} s over {rounds} sync{'s' if rounds > 1 else ''}, "
      f"peak {peak_mb:.0f} MB (target <= 5 s, 150 MB) {verdict}")
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed and check else 0)
