#!/usr/bin/python3
"""A recording notification server for the tests: it owns
org.freedesktop.Notifications on the session bus it is started on (the
freedesktop Desktop Notifications specification, 1.2), answers Notify with a
new id, and writes each call as one JSON line to the file given. A line
`invoke ID KEY` written to its standard input emits ActionInvoked(ID, KEY)
and then NotificationClosed(ID, 2), as a desktop does when a person clicks an
action. CloseNotification is written as a line {"close": ID}. With --markup
it advertises the `body-markup` capability, as GNOME, KDE and dunst do.
Debian's python3-dbus-next (asyncio, no GLib).

usage: notification-recorder.py RECORD_FILE [--markup]
It prints "ready" on standard output once it owns the name.
"""
import asyncio
import json
import sys

from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, method, signal


class Notifications(ServiceInterface):
    def __init__(self, record, markup):
        super().__init__("org.freedesktop.Notifications")
        self.record = record
        self.markup = markup
        self.next_id = 1

    def write(self, line):
        with open(self.record, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
               actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":
        notification = replaces_id if replaces_id else self.next_id
        if not replaces_id:
            self.next_id += 1
        self.write({"id": notification, "app": app_name, "summary": summary, "body": body,
                    "actions": actions, "timeout": expire_timeout, "replaces": replaces_id})
        return notification

    @method()
    def GetCapabilities(self) -> "as":
        return ["actions", "body", "body-markup"] if self.markup else ["actions", "body"]

    @method()
    def GetServerInformation(self) -> "ssss":
        return ["trend-test-recorder", "trend", "1.0", "1.2"]

    @method()
    def CloseNotification(self, id: "u"):
        self.write({"close": id})
        self.NotificationClosed(id, 3)

    @signal()
    def ActionInvoked(self, id: "u", action_key: "s") -> "us":
        return [id, action_key]

    @signal()
    def NotificationClosed(self, id: "u", reason: "u") -> "uu":
        return [id, reason]


async def main():
    bus = await MessageBus().connect()
    server = Notifications(sys.argv[1], "--markup" in sys.argv[2:])
    bus.export("/org/freedesktop/Notifications", server)
    await bus.request_name("org.freedesktop.Notifications")
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        words = line.decode().split()
        if len(words) == 3 and words[0] == "invoke":
            server.ActionInvoked(int(words[1]), words[2])
            server.NotificationClosed(int(words[1]), 2)
    bus.disconnect()


asyncio.run(main())
