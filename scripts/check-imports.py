#!/usr/bin/env python3
"""Every target names, in Package.swift, each target of this package it imports, and every import is used.

SwiftPM's --explicit-target-dependency-import-check accepts an import that is
reachable through another dependency; this check does not. It also keeps the
arrows downward: a library target may import only targets listed above it in
DESIGN.md §1. And a file that imports a target of this package names something
of it: one of its public types, a public function or value at its top level, or
a public member it adds to another module's type (`import X` for nothing is a
dependency that only looks real). Run by `make test`; prints what is wrong and
exits 1.
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
order = ["CSQLite", "CCrypto", "CArchive", "SystemLibraries", "Vocabulary", "Cryptography", "CNotify", "Desktop", "TextFormats", "Storage", "Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits",
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
                                        "History", "Insights", "Sync", "Overview", "AppCore", "Cryptography", "Desktop", "SystemLibraries", "TextFormats"}}
for name in order:
    if name not in targets:
        continue
    for dep in targets[name]["dependencies"]:
        other = (dep.get("byName") or dep.get("target") or [None])[0]
        if other in order and (order.index(other) >= order.index(name) or other in allowed_sideways.get(name, set())):
            problems.append(f"{name} depends on {other}: imports must point down (DESIGN.md §1)")

# One DynamicLibrary (DESIGN.md §1): a system library is opened in SystemLibraries only; the C targets are handed
# their functions.
for root, _, files in os.walk("Sources"):
    for file in files:
        path = os.path.join(root, file)
        if root.startswith("Sources/SystemLibraries") or not file.endswith((".swift", ".c", ".h")):
            continue
        with open(path, encoding="utf-8") as source:
            for number, line in enumerate(source, 1):
                if re.search(r"\b(dlopen|dlsym)\s*\(", line):
                    problems.append(f"{path}:{number} opens a library itself: use SystemLibraries' DynamicLibrary")

# Unused imports: what each target declares in public, as a file would name it.
def swift_files(path):
    for root, _, files in os.walk(path):
        for file in files:
            if file.endswith(".swift"):
                yield os.path.join(root, file)


def target_path(name, target):
    return target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)


type_declaration = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:(?:final|indirect)\s+)*(?:class|struct|enum|protocol|typealias|actor)\s+(\w+)", re.M)
member_declaration = re.compile(r"\bpublic\s+(?:(?:static|final|nonisolated|mutating|override|@\w+)\s+)*(?:func|var|let|init|subscript|typealias|struct|enum|class)\s*`?(\w*)")
public_names = {}
for name, target in targets.items():
    if target["type"] != "regular":
        continue
    texts = [open(path, encoding="utf-8").read() for path in swift_files(target_path(name, target))]
    own = set()
    for text in texts:
        own.update(type_declaration.findall(text))
    names = set(own)
    for text in texts:
        extended = None  # The type a top-level `extension` block adds to.
        for line in text.split("\n"):
            opened = re.match(r"^(?:public\s+)?extension\s+([\w.]+)", line)
            if opened:
                extended = opened.group(1).split(".")[0]
            elif line.startswith("}"):
                extended = None
            elif extended is None:
                top = re.match(r"^public\s+(?:(?:nonisolated|@\w+)\s+)*(?:func|var|let)\s+`?(\w+)", line)
                if top:
                    names.add(top.group(1))
            elif extended not in own:
                for member in member_declaration.finditer(line):
                    # A member it adds to another module's type; an initialiser is named by that type.
                    names.add(member.group(1) or extended)
    public_names[name] = names
for name, target in targets.items():
    if target["type"] not in ("regular", "executable", "test"):
        continue
    for path in swift_files(target_path(name, target)):
        text = open(path, encoding="utf-8").read()
        body = re.sub(r"//.*", "", re.sub(r"^\s*(?:@testable\s+)?import\s+\w+\s*$", "", text, flags=re.M))
        words = set(re.findall(r"\w+", body))
        for imported in re.finditer(r"^\s*import\s+(\w+)\s*$", text, re.M):
            module = imported.group(1)
            if public_names.get(module) and not public_names[module] & words:
                problems.append(f"{path} imports {module} and names nothing of it")

for problem in problems:
    print("check-imports: " + problem)
sys.exit(1 if problems else 0)
