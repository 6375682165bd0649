#!/usr/bin/env python3
"""The progress computation in pandas, as a data-minded user would write it
(`make bench-pandas`): from weigh-ins (UTC instants and kilograms) in
America/New_York to local days, daily means, the gap-aware 10 % trend
(`ewm` with the weigh-in days as times, a half-life of ln 2 / ln(1/0.9)
days, so each day without a weigh-in decays the weight of the past by 0.9),
the least-squares line through the last 56 days' means, and the 3-month
window the chart draws: what ProgressBenchmarks' `cold` case computes; and
again with the trend's formula written out day by day, as the gap-aware trend
is usually written when `ewm` with times is not known. The
history has the same shape as the Swift benchmark's (1-3 weigh-ins a day at
random morning times, a gap of up to 10 days now and then). Prints the
median nanoseconds per entry for each size, and, given the Swift figures
(`--swift-json` of ProgressBenchmarks --json), the ratio.

Usage: bench-pandas.py [--sizes 100000,1000000] [--repetitions N] [--swift-json FILE]
"""
import json, math, random, statistics, sys, time

import numpy as np
import pandas as pd

def history(count, seed=1):
    rng = random.Random(seed)
    start = pd.Timestamp("1990-01-01", tz="America/New_York")
    day, weight = 0, 90.0
    instants, kilograms = [], []
    while len(instants) < count:
        if rng.randrange(10) == 0:
            day += rng.randrange(10) + 1
        minutes = 6 * 60 + rng.randrange(120)
        for _ in range(rng.randrange(3) + 1):
            if len(instants) == count:
                break
            weight = min(max(weight + (rng.randrange(1000) / 1000 - 0.52) * 0.3, 50), 150)
            # Local wall time of that day, as seconds since 1970 (DST-aware through pandas once, here only to build input).
            instants.append(day * 86_400 + minutes * 60)
            kilograms.append(weight + rng.randrange(100) / 100)
            minutes += 60 * (rng.randrange(6) + 1)
        day += 1
    local = pd.to_datetime(np.array(instants, dtype="int64"), unit="s") + (start.tz_localize(None) - pd.Timestamp("1970-01-01"))
    utc = local.tz_localize("America/New_York", ambiguous="NaT", nonexistent="shift_forward").tz_convert("UTC")
    keep = ~utc.isna()
    return utc[keep].asi8 // 1_000_000_000, np.array(kilograms)[keep]

def gap_aware_trend(daily):
    """The Hacker's Diet trend written out, day by day, as its formula reads."""
    values, days = daily.to_numpy(), (daily.index - daily.index[0]).days.to_numpy()
    trend = np.empty(len(values))
    trend[0] = values[0]
    for i in range(1, len(values)):
        trend[i] = trend[i - 1] + (1 - 0.9 ** (days[i] - days[i - 1])) * (values[i] - trend[i - 1])
    return pd.Series(trend, index=daily.index)

def progress(seconds, kilograms, rowwise=False):
    """The cold case: instants and weights in, the 3-month snapshot out."""
    times = pd.to_datetime(seconds, unit="s", utc=True).tz_convert("America/New_York")
    frame = pd.DataFrame({"kilograms": kilograms}, index=times.normalize().tz_localize(None))
    daily = frame.groupby(level=0)["kilograms"].mean()
    halflife = math.log(2) / math.log(1 / 0.9)
    trend = gap_aware_trend(daily) if rowwise else \
        daily.ewm(halflife=pd.Timedelta(days=halflife), times=daily.index, adjust=False).mean()
    today = daily.index[-1]
    recent = daily[daily.index > today - pd.Timedelta(days=56)]
    x = (recent.index - today).days.to_numpy(dtype=float)
    slope, level = np.polyfit(x, recent.to_numpy(), 1) if len(recent) >= 2 else (0.0, recent.iloc[-1])
    window = trend[trend.index > today - pd.Timedelta(days=90)]
    return {"points": len(window), "change": window.iloc[-1] - window.iloc[0], "slope": slope, "level": level,
            "average": daily[daily.index > today - pd.Timedelta(days=90)].mean()}

def main():
    sizes = [100_000, 1_000_000]
    repetitions = 5
    swift = {}
    arguments = sys.argv[1:]
    while arguments:
        argument = arguments.pop(0)
        if argument == "--sizes":
            sizes = [int(x) for x in arguments.pop(0).split(",")]
        elif argument == "--repetitions":
            repetitions = int(arguments.pop(0))
        elif argument == "--swift-json":
            # ProgressBenchmarks --json: the document is the line that starts with '{'.
            with open(arguments.pop(0)) as source:
                document = json.loads(next(line for line in source if line.startswith("{")))
            swift = {r["entries"]: r["nsPerEntry"] for r in document["results"] if r["name"] == "cold"}
    print(f"pandas {pd.__version__}, numpy {np.__version__}")
    print(f"{'pandas version':34} {'entries':>10} {'pandas ns/entry':>16} {'swift ns/entry':>15} {'pandas / swift':>15}")
    for size in sizes:
        seconds, kilograms = history(size)
        for label, rowwise in (("vectorised (ewm with times)", False), ("the trend's formula, day by day", True)):
            progress(seconds, kilograms, rowwise)  # Warm-up.
            samples = []
            for _ in range(repetitions):
                start = time.perf_counter()
                progress(seconds, kilograms, rowwise)
                samples.append((time.perf_counter() - start) * 1e9 / len(seconds))
            median = statistics.median(samples)
            theirs = swift.get(size)
            ratio = f"{median / theirs:14.1f}x" if theirs else ""
            print(f"{label:34} {len(seconds):10,} {median:16.1f} {theirs if theirs else '':>15} {ratio}")

main()
