#!/usr/bin/env python3
"""Every target names, in Package.swift, each target of this package it imports.

SwiftPM's --explicit-target-dependency-import-check accepts an import that is
reachable through another dependency; this check does not. It also keeps the
arrows downward: a library target may import only targets listed above it in
DESIGN.md §1. Run by `make test`; prints what is wrong and exits 1.
"""
import json, os, re, subprocess, sys

package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], text=True))
targets = {t["name"]: t for t in package["targets"]}
problems = []
for name, target in targets.items():
    if target["type"] == "system":
        continue
    path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
    declared = set()
    for dep in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dep:
                declared.add(dep[kind][0])
    imported = set()
    for root, _, files in os.walk(path):
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(root, file), encoding="utf-8") as source:
                    for line in source:
                        match = re.match(r"\s*(?:@testable\s+|@_exported\s+)?import\s+(\w+)", line)
                        if match and match.group(1) in targets:
                            imported.add(match.group(1))
    for missing in sorted(imported - declared - {name}):
        problems.append(f"{name} imports {missing} but does not declare it in Package.swift")

# The downward order of DESIGN.md §1: each library target may depend only on earlier ones.
order = ["CSQLite", "CCrypto", "CArchive", "SystemLibraries", "Vocabulary", "Cryptography", "CNotify", "Desktop", "Storage", "Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits",
         "DailyTips", "Backup", "History", "Insights", "Sync", "Overview", "AppCore", "CommandLanguage", "TrendREPL"]
# Features side by side never import each other (WeightImport is WeightLog's files in and out, so it sits on it).
allowed_sideways = {"Progress": {"WeightImport"}, "Habits": {"WeightLog", "WeightImport", "Progress"},
                    "DailyTips": {"WeightLog", "WeightImport", "Progress", "Habits"},
                    "Backup": {"WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips"},
                    # Exports write the weight log's files out; History undoes the journal: neither names another feature.
                    "Exports": {"WeightImport"},
                    "History": {"Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips", "Backup"},
                    # Insights is values in: it names no table and no other feature.
                    "Insights": {"Storage", "Settings", "WeightLog", "WeightImport", "Progress", "Habits", "DailyTips", "Backup"},
                    # Sync merges rows it is told about (`SyncedTable`): it names no feature and no feature's table.
                    "Sync": {"Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips", "Backup", "History", "Insights"},
                    # The views over several Features read them; they import, write and sync nothing.
                    "Overview": {"Storage", "WeightImport", "Exports", "Backup", "History", "Sync"},
                    # The command language knows no feature, no storage and no application: only the words.
                    "CommandLanguage": {"Storage", "Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips", "Backup",
                                        "History", "Insights", "Sync", "Overview", "AppCore", "Cryptography", "Desktop", "SystemLibraries"}}
for name in order:
    if name not in targets:
        continue
    for dep in targets[name]["dependencies"]:
        other = (dep.get("byName") or dep.get("target") or [None])[0]
        if other in order and (order.index(other) >= order.index(name) or other in allowed_sideways.get(name, set())):
            problems.append(f"{name} depends on {other}: imports must point down (DESIGN.md §1)")

for problem in problems:
    print("check-imports: " + problem)
sys.exit(1 if problems else 0)
