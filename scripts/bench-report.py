#!/usr/bin/env python3
"""The report's bounds (`make bench-report`, issue 51): ten years of daily
weigh-ins and 20 habits, `export report.html all`, timed (the median of 5
after a warm-up), its size and its peak memory, against the targets: a page
of at most 3 MB, written in at most 1 s and 150 MB.

Usage: bench-report.py TREND WORKDIR
"""
import os, statistics, subprocess, sys, time

trend, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(work, "ten-years-20-habits")
subprocess.run([sys.executable, os.path.join(here, "bench-data.py"), trend, data, "3650", "10", "20"], check=True)
page = os.path.join(work, "report.html")
command = [trend, "--data-dir", data, "-c", f"export {page} all"]
subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
samples = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    samples.append(time.perf_counter() - start)
seconds = statistics.median(samples)
rss = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
megabytes = int(rss.stderr.strip().splitlines()[-1]) / 1024
size = os.path.getsize(page) / 1_048_576
failed = seconds > 1 or megabytes > 150 or size > 3
print(f"report, 10 years x 20 habits   written in {seconds:5.2f} s (<= 1 s), {size:5.2f} MB page (<= 3 MB), "
      f"{megabytes:5.0f} MB peak (<= 150 MB) {'MISSED' if failed else 'ok'}")
sys.exit(1 if failed and "--check" in sys.argv else 0)
