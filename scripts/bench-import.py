#!/usr/bin/env python3
"""Import and export benchmark (`make bench-import`): a generated CSV of ROWS
weigh-ins (default 1,000,000) is imported by `trend` and, in the same run, by
`sqlite3 :memory: .import` (the floor), into a new data directory (whose
first snapshot the import writes) and into one whose snapshot of the day is
taken already (the usual morning); then the JSON export, its re-import,
a preview, a 700 MB Apple Health export.xml shaped like a real one, a file of `<`
(an XML scan must stay linear), and `progress all fat` beside `progress all` on
ROWS weigh-ins that all carry body fat. Each case prints its wall time, peak RSS and
the target of issue 18 (the floor and the two CSV imports as medians of three runs
taken in turns); `--check` exits 1 when a target is missed.

Usage: bench-import.py TREND WORKDIR [--rows N] [--check]
"""
import os, random, shutil, subprocess, sys, time

def timed(command, stdin=None):
    """Wall seconds and peak RSS (MB) of one run, through /usr/bin/time."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdin=stdin, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr[-2000:]}")
    return seconds, int(result.stderr.strip().splitlines()[-1]) / 1024

def write_csv(path, rows, body_fat=False):
    """ROWS weigh-ins 250 s apart; with `body_fat`, each carries a body fat % (a scale that measures it every time)."""
    rng = random.Random(19)
    start = 1_500_000_000
    with open(path, "w") as out:
        out.write("date,weight,unit,note" + (",body_fat" if body_fat else "") + "\n")
        for index in range(rows):
            instant = start + index * 250
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(instant))
            note = "after the run" if index % 50 == 0 else ""
            fat = f",{25 + rng.gauss(0, 1):.1f}" if body_fat else ""
            out.write(f"{stamp},{80 + rng.gauss(0, 1):.1f},kg,{note}{fat}\n")

def median_seconds(command, runs=7):
    """The median wall time of `runs` runs, after one to warm the page cache."""
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - start)
    return sorted(samples)[runs // 2]

def write_health(path, megabytes):
    """A Health export.xml of about `megabytes`, shaped like a real one: mostly steps, heart rate and
    energy records with metadata, one body-mass record in about 170 (4,122 of 695,825 in a real 200 MB export)."""
    rng = random.Random(23)
    start = 1_500_000_000
    kinds = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
             "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceWalkingRunning"]
    with open(path, "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n'
                  '<!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED>\n]>\n'
                  '<HealthData locale="en_US">\n')
        index = 0
        while out.tell() < megabytes * 1_000_000:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S +0000", time.gmtime(start + index * 120))
            if index % 170 == 0:
                out.write(f' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" sourceVersion="1.2" unit="kg" '
                          f'creationDate="{stamp}" startDate="{stamp}" endDate="{stamp}" value="{80 + rng.gauss(0, 1):.1f}"/>\n')
            else:
                out.write(f' <Record type="{kinds[index % 4]}" sourceName="Phone" sourceVersion="17.1" unit="count" '
                          f'creationDate="{stamp}" startDate="{stamp}" endDate="{stamp}" value="{rng.randint(10, 900)}">\n'
                          f'  <MetadataEntry key="HKWasUserEntered" value="0"/>\n </Record>\n')
            index += 1
        out.write("</HealthData>\n")

def main():
    trend, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    rows = int(sys.argv[sys.argv.index("--rows") + 1]) if "--rows" in sys.argv else 1_000_000
    os.makedirs(work, exist_ok=True)
    csv = os.path.join(work, f"weights-{rows}.csv")
    if not os.path.exists(csv):
        write_csv(csv, rows)
    health = os.path.join(work, "export-700mb.xml")
    if not os.path.exists(health):
        write_health(health, 700)
    angles = os.path.join(work, "angles.xml")
    with open(angles, "w") as out:
        out.write("<?xml version=\"1.0\"?>\n<HealthData>\n" + "<" * 1_000_000)
    fat_csv = os.path.join(work, f"weights-fat-{rows}.csv")
    if not os.path.exists(fat_csv):
        write_csv(fat_csv, rows, body_fat=True)
    for name in ("import", "morning", "reimport", "preview", "health", "fat"):
        shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    exported = os.path.join(work, "export.json")

    # The floor and the import into a new data directory, three times over, taking turns; then the usual
    # morning three times. The medians are compared.
    data = lambda name: ["--data-dir", os.path.join(work, name)]
    floors, imports, mornings = [], [], []
    for _ in range(3):
        floors.append(timed(["sqlite3", ":memory:", ".mode csv", f".import {csv} weights"]))
        shutil.rmtree(os.path.join(work, "import"), ignore_errors=True)
        imports.append(timed([trend] + data("import") + ["-c", f"import {csv}"]))
    for _ in range(3):
        # The usual morning: today's snapshot is taken already, so the import writes none (at most one a day).
        shutil.rmtree(os.path.join(work, "morning"), ignore_errors=True)
        subprocess.run([trend] + data("morning") + ["-c", "weigh 80"], check=True, stdout=subprocess.DEVNULL)
        mornings.append(timed([trend] + data("morning") + ["-c", f"import {csv}"]))
    median = lambda runs: sorted(runs)[len(runs) // 2]
    floor, floor_rss = median(floors)
    cases = [
        ("sqlite3 :memory: .import (the floor, median of 3)", floor, floor_rss, None, None),
    ]
    seconds, rss = median(imports)
    cases.append((f"trend import, {rows:,} rows CSV (first snapshot)", seconds, rss, 2 * floor, 300))
    seconds, rss = median(mornings)
    cases.append((f"  the same, today's snapshot already taken", seconds, rss, 2 * floor, 300))
    print("runs (floor / first snapshot / morning): " + "; ".join(
        f"{f[0]:.2f} / {i[0]:.2f} / {m[0]:.2f} s" for f, i, m in zip(floors, imports, mornings)))
    seconds, rss = timed([trend] + data("import") + ["-c", f"export {exported}"])
    cases.append(("trend export FILE.json", seconds, rss, 3, 300))
    seconds, rss = timed([trend] + data("reimport") + ["-c", f"import {exported}"])
    cases.append(("trend import of that JSON", seconds, rss, 10, 500))
    seconds, rss = timed([trend] + data("preview") + ["-c", f"import {csv} preview"])
    cases.append(("trend import … preview (CSV)", seconds, rss, None, 300))
    seconds, rss = timed([trend] + data("health") + ["-c", f"import {health} preview"])
    size = os.path.getsize(health) / 1_000_000
    cases.append((f"trend preview of a {size:.0f} MB Health export.xml", seconds, rss, 10, 200))
    start = time.perf_counter()
    subprocess.run([trend] + data("health") + ["-c", f"import {angles} preview"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    cases.append(("trend preview of 1 MB of '<' (refused)", time.perf_counter() - start, 0, 1, None))

    # Body composition as fast as weight (issue 31): `progress all fat` over ROWS weigh-ins that all carry
    # body fat, within 1.5x of `progress all` over the same directory, both medians of the same run.
    subprocess.run([trend] + data("fat") + ["-c", f"import {fat_csv}"], check=True, stdout=subprocess.DEVNULL)
    weight = median_seconds([trend] + data("fat") + ["-c", "progress all"])
    fat = median_seconds([trend] + data("fat") + ["-c", "progress all fat"])
    print(f"progress all, {rows:,} weigh-ins with body fat: {weight:.3f} s (median of 7); "
          f"progress all fat: {fat:.3f} s, {fat / weight:.2f}x (target 1.5x)  {'ok' if fat <= 1.5 * weight else 'OVER'}")

    print(f"{'case':52} {'time':>9} {'x floor':>8} {'target':>9} {'peak RSS':>9} {'target':>8}")
    missed = 0
    for label, seconds, rss, time_target, rss_target in cases:
        over = (time_target is not None and seconds > time_target) or (rss_target is not None and rss > rss_target)
        missed += over
        time_text = f"{time_target:8.1f}s" if time_target is not None else " " * 9
        rss_text = f"{rss_target:6d} MB" if rss_target is not None else " " * 8
        print(f"{label:52} {seconds:8.2f}s {seconds / floor:8.1f} {time_text} {rss:6.0f} MB {rss_text}  {'OVER' if over else 'ok'}")
    missed += fat > 1.5 * weight
    sys.exit(1 if missed and "--check" in sys.argv else 0)

main()
