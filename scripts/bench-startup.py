#!/usr/bin/env python3
"""Start-up benchmark (`make bench-startup`): times `trend` commands on data
directories of known size next to a bare Foundation hello, in the same run,
hyperfine-style (warm-up runs, then the median of many), and prints each
median with its ratio to hello and the target it must meet.

The ratio is to the hello the issue names, a dynamically linked `swiftc -O`
build; trend's release build links the Swift libraries statically, so a
hello linked the same way (--static-hello) is timed too and its ratio shown
beside, to keep that gain in view.

Usage: bench-startup.py TREND HELLO WORKDIR [--static-hello HELLO] [--runs N]
"""
import os, statistics, subprocess, sys, time

def median_ms(command, runs):
    for _ in range(3):
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)

def peak_rss_mb(command):
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024

def main():
    trend, hello, work = sys.argv[1], sys.argv[2], sys.argv[3]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 30
    here = os.path.dirname(os.path.abspath(__file__))
    data = {}
    for name, count, years, habits in [("10 years", 18000, 10, 4), ("100k", 100000, 30, 0), ("habits", 3650, 30, 20)]:
        directory = os.path.join(work, name.replace(" ", "-"))
        subprocess.run([sys.executable, os.path.join(here, "bench-data.py"), trend, directory, str(count), str(years),
                        str(habits)], check=True)
        data[name] = directory
    cases = [
        ("trend --version", [trend, "--version"], 1.2),
        ("trend -c help", [trend, "--data-dir", data["10 years"], "-c", "help"], 1.3),
        ("trend -c today, 10 years (18k weigh-ins, 4 habits)", [trend, "--data-dir", data["10 years"], "-c", "today"], 2.0),
        ("trend -c today, 100k weigh-ins", [trend, "--data-dir", data["100k"], "-c", "today"], 2.5),
        ("trend status, 10 years", [trend, "--data-dir", data["10 years"], "status"], 2.0),
        ("trend -c habits, 10 years", [trend, "--data-dir", data["10 years"], "-c", "habits"], 2.0),
        ("trend -c 'habit show Habit1', 10 years", [trend, "--data-dir", data["10 years"], "-c", "habit show Habit1"], 2.0),
        ("trend -c habits, 20 habits x 30 years", [trend, "--data-dir", data["habits"], "-c", "habits"], 2.0),
        ("trend -c 'habit show Habit1', 20 habits x 30 years", [trend, "--data-dir", data["habits"], "-c", "habit show Habit1"], 2.0),
    ]
    # Reminders with nothing due cost at most 1.5x `trend status` (issue 50), measured beside it in this run.
    remind = [trend, "--data-dir", data["habits"], "remind"]
    status = [trend, "--data-dir", data["habits"], "status"]
    subprocess.run([trend, "--data-dir", data["habits"], "-c", "habit remind Habit1 at 23:59"], check=True, capture_output=True)
    static_hello = sys.argv[sys.argv.index("--static-hello") + 1] if "--static-hello" in sys.argv else None
    base = median_ms([hello], runs)
    static_base = median_ms([static_hello], runs) if static_hello else None
    print(f"{'command':58} {'median':>9} {'x hello':>8} {'target':>7}  peak RSS  {'x static hello':>14}")
    print(f"{'hello (Foundation, prints the date)':58} {base:8.1f}ms {1:8.2f}")
    if static_base:
        print(f"{'hello, Swift libraries linked statically':58} {static_base:8.1f}ms {static_base / base:8.2f}")
    failed = 0
    measured = {}
    for label, command, target in cases:
        value = median_ms(command, runs)
        measured[label] = value
        ratio = value / base
        mark = "ok" if ratio <= target else "OVER"
        failed += ratio > target
        beside = f"{value / static_base:14.2f}" if static_base else ""
        print(f"{label:58} {value:8.1f}ms {ratio:8.2f} {target:6.1f}x  {peak_rss_mb(command):5.0f} MB  {mark:4} {beside}")
    # What `habit show` costs beyond `habits` at ten years: its own habit's days and the weigh-ins its insights read
    # (issue 49 asks for the same speed; reported, not failed).
    shown, listed = measured["trend -c 'habit show Habit1', 10 years"], measured["trend -c habits, 10 years"]
    print(f"{'habit show against habits, 10 years':58} {shown / listed:8.2f}x habits (target about 1x; reported)")
    reminding, stating = median_ms(remind, runs), median_ms(status, runs)
    mark = "ok" if reminding <= 1.5 * stating else "OVER"
    failed += reminding > 1.5 * stating
    print(f"{'trend remind, nothing due (20 habits x 30 years)':58} {reminding:8.1f}ms {reminding / stating:8.2f}x status "
          f"({stating:.1f}ms; target 1.5x)  {mark}")
    sys.exit(1 if failed and "--check" in sys.argv else 0)

main()
