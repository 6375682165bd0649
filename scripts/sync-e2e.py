#!/usr/bin/env python3
"""Two Trend installations kept in step by two real Syncthing instances (DESIGN.md §8, issue 29).

Each Syncthing has its own home, listens on loopback only, with relays, NAT and global and
local discovery off; the GUI and REST API are on 127.0.0.1 with an API key, and the two are
introduced by device id in config.xml. Each shares the sync folder of one Trend installation.
Trend weighs in and marks habits on both sides, edits one weigh-in on both while the link is
paused, then the link resumes; once Syncthing's REST API says the folder is idle and complete
on both, both Trend installations must show the same `entries all` and `habits`, each history
must name the other device's sync, and no `.sync-conflict` file may exist.

Usage: sync-e2e.py PATH/TO/trend
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import xml.etree.ElementTree as ET

TREND = os.path.abspath(sys.argv[1])
ROOT = tempfile.mkdtemp(prefix="trend-sync-e2e-")
FOLDER_ID = "trend-sync"
DEADLINE = 120


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Side:
    def __init__(self, name):
        self.name = name
        self.home = os.path.join(ROOT, name, "syncthing")
        self.data = os.path.join(ROOT, name, "trend-data")
        self.sync = os.path.join(ROOT, name, "Sync")
        os.makedirs(os.path.join(self.sync, ".stfolder"))
        self.gui_port, self.listen_port = free_port(), free_port()
        self.api_key = "trend-e2e-" + name
        subprocess.run(["syncthing", "generate", "--home=" + self.home, "--no-default-folder", "--skip-port-probing"],
                       check=True, capture_output=True)
        self.device_id = subprocess.run(["syncthing", "serve", "--home=" + self.home, "--device-id"],
                                        check=True, capture_output=True, text=True).stdout.strip()
        self.process = None

    def configure(self, peer):
        path = os.path.join(self.home, "config.xml")
        tree = ET.parse(path)
        config = tree.getroot()
        gui = config.find("gui")
        gui.find("address").text = "127.0.0.1:%d" % self.gui_port
        gui.find("apikey").text = self.api_key
        options = config.find("options")
        settings = {"listenAddress": "tcp://127.0.0.1:%d" % self.listen_port, "globalAnnounceEnabled": "false",
                    "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
                    "startBrowser": "false", "urAccepted": "-1", "autoUpgradeIntervalH": "0",
                    "crashReportingEnabled": "false", "reconnectionIntervalS": "1"}
        for key, value in settings.items():
            element = options.find(key)
            if element is None:
                element = ET.SubElement(options, key)
            element.text = value
        device = ET.SubElement(config, "device", id=peer.device_id, name=peer.name, compression="metadata",
                               introducer="false")
        ET.SubElement(device, "address").text = "tcp://127.0.0.1:%d" % peer.listen_port
        folder = ET.Element("folder", id=FOLDER_ID, label="Trend", path=self.sync, type="sendreceive",
                            rescanIntervalS="3600", fsWatcherEnabled="false", ignorePerms="false")
        ET.SubElement(folder, "device", id=self.device_id)
        ET.SubElement(folder, "device", id=peer.device_id)
        config.insert(0, folder)
        tree.write(path)

    def start(self):
        log = open(os.path.join(ROOT, self.name + "-syncthing.log"), "w")
        env = dict(os.environ, STNOUPGRADE="1", STNORESTART="1")
        self.process = subprocess.Popen(["syncthing", "serve", "--home=" + self.home, "--no-browser"],
                                        stdout=log, stderr=subprocess.STDOUT, env=env)

    def rest(self, path, method="GET"):
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.gui_port, path), method=method,
                                         headers={"X-API-Key": self.api_key})
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
            return json.loads(body) if body.strip() else None

    def trend(self, *commands, json_output=False):
        args = [TREND, "--data-dir", self.data] + (["--json"] if json_output else [])
        for command in commands:
            args += ["-c", command]
        run = subprocess.run(args, capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise SystemExit("%s: trend %s failed: %s%s" % (self.name, commands, run.stdout, run.stderr))
        return run.stdout

    def scan(self):
        self.rest("/rest/db/scan?folder=" + FOLDER_ID, method="POST")


def wait(what, test):
    start = time.time()
    while time.time() - start < DEADLINE:
        try:
            if test():
                return
        except OSError:
            pass  # Syncthing is still starting: its API is not up yet.
        time.sleep(0.3)
    raise SystemExit("timed out waiting for " + what)


def settled(a, b):
    """Both have scanned, and each holds everything the other has: the folder is idle and complete on both."""
    a.scan()
    b.scan()

    def done():
        for side, peer in ((a, b), (b, a)):
            status = side.rest("/rest/db/status?folder=" + FOLDER_ID)
            completion = side.rest("/rest/db/completion?folder=%s&device=%s" % (FOLDER_ID, peer.device_id))
            if status["state"] != "idle" or status["needTotalItems"] != 0 or completion["completion"] != 100:
                return False
        return True
    wait("the folder to be idle on both sides", done)


def main():
    a, b = Side("laptop"), Side("desktop")
    a.configure(b)
    b.configure(a)
    try:
        a.start()
        b.start()
        wait("both Syncthings to connect", lambda: a.rest("/rest/system/connections")["connections"][b.device_id]["connected"]
             and b.rest("/rest/system/connections")["connections"][a.device_id]["connected"])
        a.trend("set sync-folder " + a.sync, "set device-name laptop", "weigh 82.4", "habit add Read every day", "habit done Read",
                'habit add Water every day target 8', "habit done Water +2")
        # The folder is private: the desktop joins with the laptop's code, once Syncthing has brought the invite.
        code = json.loads(a.trend("sync invite", json_output=True))["invite"]["code"]
        settled(a, b)
        b.trend("set sync-folder " + b.sync, "set device-name desktop", "sync join " + code, "weigh 81.9 yesterday")
        settled(a, b)
        b.trend("sync now", "habit done Water +3", "habit done Read yesterday")
        a.trend("sync now")
        settled(a, b)
        a.trend("sync now")
        b.trend("sync now")
        entries = json.loads(a.trend("entries all", json_output=True))
        shared = next(entry for entry in entries["entries"] if abs(entry["kilograms"] - 82.4) < 1e-9)["id"]

        # The link paused, the same weigh-in edited on both sides; the later edit wins on both.
        a.rest("/rest/system/pause?device=" + b.device_id, method="POST")
        b.rest("/rest/system/pause?device=" + a.device_id, method="POST")
        a.trend("edit %s 82.6" % shared[:8])
        time.sleep(0.05)
        b.trend("edit %s 82.8" % shared[:8])
        a.rest("/rest/system/resume?device=" + b.device_id, method="POST")
        b.rest("/rest/system/resume?device=" + a.device_id, method="POST")
        wait("the link to come back", lambda: a.rest("/rest/system/connections")["connections"][b.device_id]["connected"])
        for _ in range(2):
            settled(a, b)
            a.trend("sync now")
            b.trend("sync now")
        settled(a, b)
        a.trend("sync now")
        b.trend("sync now")

        # Nothing readable in either copy of the folder: no weight, habit or device name (DESIGN §11).
        for side in (a, b):
            for root, _, names in os.walk(side.sync):
                for name in names:
                    if any(part.startswith(".st") for part in os.path.relpath(root, side.sync).split(os.sep)) or name.startswith(".st"):
                        continue  # Syncthing's own.
                    with open(os.path.join(root, name), "rb") as handle:
                        data = handle.read()
                    for secret in (b"laptop", b"desktop", b"Water", b"Read", b"82.8", b"81.9"):
                        if secret in data:
                            raise SystemExit("%s holds %r in plain" % (os.path.join(root, name), secret))

        shown = {side.name: (side.trend("entries all"), side.trend("habits")) for side in (a, b)}
        if shown["laptop"] != shown["desktop"]:
            raise SystemExit("the installations differ:\n--- laptop\n%s\n--- desktop\n%s" % shown["laptop"] + shown["desktop"])
        if "82.8" not in shown["laptop"][0] or "82.4" in shown["laptop"][0]:
            raise SystemExit("the later edit (82.8 kg) did not win:\n" + shown["laptop"][0])
        # Paused again: the laptop fixes the weight, the desktop writes a note on the same weigh-in; both survive.
        a.rest("/rest/system/pause?device=" + b.device_id, method="POST")
        b.rest("/rest/system/pause?device=" + a.device_id, method="POST")
        a.trend("edit %s 82.5" % shared[:8])
        b.trend("edit %s note new batteries in the scale" % shared[:8])
        a.rest("/rest/system/resume?device=" + b.device_id, method="POST")
        b.rest("/rest/system/resume?device=" + a.device_id, method="POST")
        wait("the link to come back", lambda: a.rest("/rest/system/connections")["connections"][b.device_id]["connected"])
        for _ in range(2):
            settled(a, b)
            a.trend("sync now")
            b.trend("sync now")
        for side in (a, b):
            entry = next(e for e in json.loads(side.trend("entries all", json_output=True))["entries"] if e["id"] == shared)
            if abs(entry["kilograms"] - 82.5) > 1e-9 or entry["note"] != "new batteries in the scale":
                raise SystemExit("%s lost a field of the two-field edit: %s" % (side.name, entry))

        # The laptop's data directory copied to a new one (cp -a) beside it, on the same sync folder: both go on.
        copy = os.path.join(ROOT, "laptop", "trend-data-copy")
        shutil.copytree(a.data, copy, symlinks=True)
        a.trend("weigh 82.0 yesterday 07:00")
        copied = Side.__new__(Side)
        copied.name, copied.data = "laptop copy", copy
        copied.trend("weigh 81.8 yesterday 07:30")
        for _ in range(3):
            settled(a, b)
            for side in (a, copied, b):
                side.trend("sync now")
        views = {side.name: side.trend("entries all") for side in (a, copied, b)}
        if len(set(views.values())) != 1 or "82.0" not in views["desktop"] or "81.8" not in views["desktop"]:
            raise SystemExit("a copied data directory lost a change or did not converge:\n%s" % views)

        # The reminder timer beside the prompt: `trend remind` every few moments while commands run on the same data
        # directory. They sync one at a time, so the installation never takes its own files for a copy's.
        a.trend("habit add Tea every day target 10")
        folders = sorted(os.listdir(os.path.join(a.sync, "trend")))
        said = []

        def loop(command):
            for _ in range(10):
                said.append(a.trend(command))
        loops = [threading.Thread(target=loop, args=(command,)) for command in ("remind", "habit done Tea +1", "habit done Tea +1")]
        for thread in loops:
            thread.start()
        for thread in loops:
            thread.join()
        if any("copied" in text for text in said):
            raise SystemExit("processes side by side took their own files for a copy's:\n%s" % [t for t in said if "copied" in t])
        for _ in range(2):
            a.trend("sync now")
            settled(a, b)
            b.trend("sync now")
        if sorted(os.listdir(os.path.join(a.sync, "trend"))) != folders:
            raise SystemExit("the installation forked beside the reminder timer: %s, before %s" % (os.listdir(os.path.join(a.sync, "trend")), folders))
        tea = json.loads(b.trend("habit show Tea", json_output=True))["habit"]["todayValue"]
        if tea != 20:
            raise SystemExit("two loops of ten Tea +1 beside the timer should make 20 on the desktop, not %s" % tea)

        water = json.loads(a.trend("habit show Water", json_output=True))["habit"]["todayValue"]
        if water != 5:
            raise SystemExit("Water +2 on one side and +3 on the other should make 5, not %s" % water)
        for side, other in ((a, "desktop"), (b, "laptop")):
            history = side.trend("history 50")
            if "from " + other not in history:
                raise SystemExit("%s's history does not name %s's sync:\n%s" % (side.name, other, history))
        conflicts = [os.path.join(root, name) for side in (a, b) for root, _, names in os.walk(side.sync)
                     for name in names if ".sync-conflict" in name]
        if conflicts:
            raise SystemExit("Syncthing made conflict copies: %s" % conflicts)
        print("sync-e2e: two Syncthings, two installations: the same entries and habits, Water 2+3=5, "
              "the later edit won, a two-field edit kept both, a copied data directory lost nothing, the timer beside two loops "
              "kept one installation and Tea 20, no conflict copy")
    finally:
        for side in (a, b):
            if side.process:
                side.process.terminate()
                try:
                    side.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    side.process.kill()
        shutil.rmtree(ROOT, ignore_errors=True)


main()
