#!/usr/bin/env bash
# Writes a data directory with a Trend binary (one built from this
# repository's history: see Tests/Fixtures/README.md, "Databases"), and keeps
# its trend.sqlite as Tests/Fixtures/databases/trend-schema-N.sqlite beside
# what that same binary then reported of it (--json), one document a line,
# in trend-schema-N.expected.jsonl. The clocks are fixed (faketime, UTC), so
# a second run writes the same weigh-ins, habits, marks and settings.
#
#   scripts/make-fixture-database.sh BINARY N
set -euo pipefail
binary=$1
version=$2
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/Fixtures/databases/trend-schema-$version"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
run() {
    local clock=$1
    shift
    TZ=UTC FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "@$clock" "$binary" --data-dir "$data" "$@"
}
run "2026-11-09 07:30:00" -c "weigh 82.4" -c "habit add Read every day" -c 'habit add "Drink water" every day target 8' \
    -c "habit add Gym 3/week" -c "habit add Drinks every day at-most 2" -c "habit add Piano mon,wed,fri" >/dev/null
run "2026-11-10 07:10:00" -c "weigh 82.1 note after the run" -c "habit done Read" -c 'habit done "Drink water" 6' >/dev/null
run "2026-11-11 21:45:00" -c "weigh 181.5 lb note café ☕, 5 km" -c "habit done Read" -c "habit skip Gym" \
    -c "habit done Drinks 1" -c "habit done Piano" >/dev/null
run "2026-11-13 06:55:00" -c "weigh 81.7" -c "weigh 81.9 yesterday" -c 'habit done "Drink water" 9' -c "habit done Gym" >/dev/null
# Tape measures, from schema 19 on (the measurements table): one in cm with a note, one typed in inches.
if [ "$version" -ge 19 ]; then
    run "2026-11-12 07:00:00" -c "measure waist 88 neck 38.5 note après le dîner" >/dev/null
    run "2026-11-13 07:05:00" -c "measure waist 34.5 in" -c "measure hips 101 yesterday 21:00" >/dev/null
fi
run "2026-11-14 08:00:00" -c "set unit lb" -c "goal 170" -c "progress 6m" -c "habit done Read yesterday" \
    -c "habit archive Piano" >/dev/null
# What the binary that wrote it reads back: weigh-ins, habits, each habit's days, settings (and the tape measures).
measurements=()
[ "$version" -ge 19 ] && measurements=(-c "measurements")
run "2026-11-14 08:05:00" --json -c "entries all" -c "habits" -c "habit show Read" -c 'habit show "Drink water"' \
    -c "habit show Gym" -c "habit show Drinks" -c "habit show Piano" -c "settings" "${measurements[@]}" > "$out.expected.jsonl"
# The WAL folded into the file, so the fixture is one file (as a stopped process would leave it after a checkpoint).
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA wal_checkpoint(TRUNCATE)"); c.close()' "$data/trend.sqlite"
cp "$data/trend.sqlite" "$out.sqlite"
echo "wrote $out.sqlite (user_version $(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$out.sqlite"))"
