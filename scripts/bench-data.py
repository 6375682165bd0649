#!/usr/bin/env python3
"""Builds a Trend data directory holding a history, for the start-up and
database benchmarks: `bench-data.py TREND DIR WEIGHINS [YEARS] [HABITS]`.

The schema comes from the trend binary itself (one weigh-in through `-c`),
then the rows go straight into SQLite in one transaction: WEIGHINS weigh-ins
spread evenly over the last YEARS years up to now (a slow loss with daily
noise), and HABITS daily habits marked done on 6 days of 7 over the same span.
The last weigh-in is recorded through trend, as a person's morning leaves the
directory (trend then caches the samples it reads: `weight_samples_cache`).
"""
import os, random, sqlite3, subprocess, sys, time, uuid

def main():
    trend, directory, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    years = float(sys.argv[4]) if len(sys.argv) > 4 else 10
    habits = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    if os.path.exists(os.path.join(directory, "trend.sqlite")):
        return
    subprocess.run([trend, "--data-dir", directory, "-c", "weigh 80"], check=True, stdout=subprocess.DEVNULL)
    for index in range(habits):
        subprocess.run([trend, "--data-dir", directory, "-c", f"habit add Habit{index + 1} every day"],
                       check=True, stdout=subprocess.DEVNULL)
    database = sqlite3.connect(os.path.join(directory, "trend.sqlite"))
    database.execute("DELETE FROM weight_entries")
    now = time.time() - 3600
    span = years * 365.2425 * 86400
    rng = random.Random(19)
    rows = []
    for index in range(count - 1):
        instant = float(int(now - span + span * index / max(1, count - 1)))
        kilograms = round(95 - 15 * index / max(1, count) + rng.gauss(0, 0.6), 1)
        rows.append((uuid.UUID(int=rng.getrandbits(128)).hex, instant, kilograms, None))
    database.executemany("INSERT INTO weight_entries(id, instant, kilograms, note) VALUES (?, ?, ?, ?)", rows)
    if habits:
        ids = [row[0] for row in database.execute("SELECT id FROM habits")]
        first_day = int((now - span) // 86400)
        last_day = int(now // 86400) - 1
        database.execute("UPDATE habits SET created_day = ?", (first_day,))
        marks = [(habit, day, "done") for habit in ids for day in range(first_day, last_day + 1) if day % 7 != 3]
        database.executemany(f"INSERT INTO habit_records(habit_id, day, status) VALUES (?, ?, ?)", marks)
    database.commit()
    database.execute("VACUUM")
    database.close()
    subprocess.run([trend, "--data-dir", directory, "-c", "weigh 80.1"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)

main()
