#ifndef TREND_CNOTIFY_H
#define TREND_CNOTIFY_H

#include <stddef.h>

/* The freedesktop notification service (org.freedesktop.Notifications) on
   the D-Bus session bus, through libdbus-1, opened on first use by SystemLibraries' DynamicLibrary:
   no run that sends no reminder loads it. Every function that can fail says
   what went wrong in a `trend_bus_failure`: its kind (from the D-Bus error's
   name, never from its words) and its words, for the person. One bus is used
   from one thread at a time. */

typedef struct trend_bus trend_bus;

/* Looks `name` up in `library` (an opened library's handle); NULL when it holds no such symbol. */
typedef void *trend_bus_symbol_lookup(void *library, const char *name);

/* Takes libdbus's functions from `library` through `lookup`, once, before the first trend_bus_open: 1 when it
   holds every one needed (now or before), 0 when it does not (then trend_bus_open fails as with no library). */
int trend_bus_take_library(void *library, trend_bus_symbol_lookup *lookup);

/* What kind of failure it was. */
enum {
    TREND_BUS_NO_LIBRARY = 1,   /* libdbus-1 is not installed */
    TREND_BUS_NO_SESSION = 2,   /* DBUS_SESSION_BUS_ADDRESS is not set */
    TREND_BUS_UNREACHABLE = 3,  /* the session bus is not there */
    TREND_BUS_NO_SERVICE = 4,   /* no one owns org.freedesktop.Notifications */
    TREND_BUS_REFUSED = 5,      /* the service answered with an error */
    TREND_BUS_NO_ANSWER = 6,    /* no answer in time */
    TREND_BUS_DISCONNECTED = 7, /* the connection went away */
    TREND_BUS_OUT_OF_MEMORY = 8
};

typedef struct {
    int kind;
    char words[512];
} trend_bus_failure;

/* A private connection to the session bus ($DBUS_SESSION_BUS_ADDRESS), or
   NULL. The connection never ends the process when the bus goes away. */
trend_bus *trend_bus_open(trend_bus_failure *failure);
void trend_bus_close(trend_bus *bus);

/* The bus's own id (org.freedesktop.DBus.GetId): another login's bus has
   another. */
const char *trend_bus_id(const trend_bus *bus);

/* GetCapabilities: the service's capabilities, separated by spaces, in `out`
   (at most `size` bytes). 1 when done. */
int trend_bus_capabilities(trend_bus *bus, char *out, size_t size, int reply_ms, trend_bus_failure *failure);

/* Notify(app, replaces, "", summary, body, actions, {}, timeout): `actions`
   holds `count` strings, key and label in turn. Returns the server's id
   (> 0) and, in `server`, the unique bus name that answered (the owner of
   org.freedesktop.Notifications), or 0. */
unsigned int trend_bus_notify(trend_bus *bus, const char *app, unsigned int replaces, const char *summary, const char *body,
                              const char *const *actions, int count, int timeout_ms, int reply_ms,
                              char *server, size_t server_size, trend_bus_failure *failure);

/* CloseNotification(id), sent to `server`. 1 when the service took it. */
int trend_bus_close_notification(trend_bus *bus, const char *server, unsigned int id, int reply_ms, trend_bus_failure *failure);

/* Asks the bus for the service's ActionInvoked and NotificationClosed
   signals. 1 when done. */
int trend_bus_listen(trend_bus *bus, trend_bus_failure *failure);

/* Waits at most `timeout_ms` for the next signal: 1 for ActionInvoked(id,
   key), 2 for NotificationClosed(id, reason) (the reason's number in `key`),
   with the unique bus name that sent it in `sender`; 0 when none came, -1
   when the connection is gone. */
int trend_bus_next_event(trend_bus *bus, int timeout_ms, unsigned int *id, char *key, size_t key_size,
                         char *sender, size_t sender_size);

/* SIGTERM, SIGINT and SIGHUP set a flag instead of ending the process (a
   long-running `trend remind --watch` ends cleanly between two waits). */
void trend_stop_on_signals(void);
int trend_stop_requested(void);

#endif
