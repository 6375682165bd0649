#!/usr/bin/env bash
# Builds the DocC archive of the library targets into .build/docs/Trend.doccarchive
# with the toolchain's own docc, from symbol graphs SwiftPM writes. Fails on any
# DocC warning, and on a public type without a doc comment.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(Vocabulary Storage Settings WeightLog Progress Habits DailyTips Backup Insights Sync AppCore CommandLanguage TrendREPL)
# SwiftPM also asks for the test modules' graphs, which only exist once the tests are built (make test builds
# them first; a fresh clone's `make docs` has none): its status is not the test, the library modules' graphs are.
mkdir -p .build
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>.build/dump-symbol-graph.log || true
source_dir=$(find .build -maxdepth 3 -type d -name symbolgraph | head -n 1)
for module in "${modules[@]}"; do
  if [ -z "$source_dir" ] || [ ! -f "$source_dir/$module.symbols.json" ]; then
    cat .build/dump-symbol-graph.log >&2
    echo "docs: no symbol graph for $module" >&2
    exit 1
  fi
done
graphs=.build/docs/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
for module in "${modules[@]}"; do
  cp "$source_dir/$module".symbols.json "$graphs/"
  # Extensions a module makes to another module's types (Module@Other.symbols.json).
  find "$source_dir" -name "$module@*.symbols.json" -exec cp {} "$graphs/" \;
done
python3 - "$graphs" <<'PY'
import glob, json, sys
missing = []
for path in sorted(glob.glob(sys.argv[1] + "/*.symbols.json")):
    graph = json.load(open(path))
    for symbol in graph["symbols"]:
        kind = symbol["kind"]["identifier"].split(".")[-1]
        if kind in ("struct", "class", "enum", "protocol", "actor", "typealias") and not symbol.get("docComment"):
            missing.append(".".join(symbol["pathComponents"]))
for name in missing:
    print(f"docs: the public type {name} has no doc comment saying what it is for")
sys.exit(1 if missing else 0)
PY
docc convert Docs/Trend.docc --additional-symbol-graph-dir "$graphs" --output-path .build/docs/Trend.doccarchive \
  --fallback-display-name Trend --fallback-bundle-identifier org.trend.Trend --warnings-as-errors
echo "docs: .build/docs/Trend.doccarchive"
