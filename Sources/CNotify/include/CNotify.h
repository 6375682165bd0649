#ifndef TREND_CNOTIFY_H
#define TREND_CNOTIFY_H

#include <stddef.h>

/* The freedesktop notification service (org.freedesktop.Notifications) on
   the D-Bus session bus, through libdbus-1, opened with dlopen on first use:
   no run that sends no reminder loads it. Every function says what went
   wrong in `error` (at most `size` bytes, NUL-terminated) when it fails.
   One bus is used from one thread at a time. */

typedef struct trend_bus trend_bus;

/* A private connection to the session bus ($DBUS_SESSION_BUS_ADDRESS), or
   NULL when libdbus or the bus is not there. The connection never ends the
   process when the bus goes away. */
trend_bus *trend_bus_open(char *error, size_t size);
void trend_bus_close(trend_bus *bus);

/* Notify(app, 0, "", summary, body, actions, {}, timeout): `actions` holds
   `count` strings, key and label in turn. Returns the server's id (> 0), or
   0 when the call failed (no notification service, a refusal, no answer
   within `reply_ms`). */
unsigned int trend_bus_notify(trend_bus *bus, const char *app, const char *summary, const char *body,
                              const char *const *actions, int count, int timeout_ms, int reply_ms,
                              char *error, size_t size);

/* Asks the bus for the service's ActionInvoked signals. 1 when done. */
int trend_bus_listen(trend_bus *bus, char *error, size_t size);

/* Waits at most `timeout_ms` for the next ActionInvoked(id, key): 1 with
   them filled in, 0 when none came, -1 when the connection is gone. */
int trend_bus_next_action(trend_bus *bus, int timeout_ms, unsigned int *id, char *key, size_t size);

/* SIGTERM, SIGINT and SIGHUP set a flag instead of ending the process (a
   long-running `trend remind --watch` ends cleanly between two waits). */
void trend_stop_on_signals(void);
int trend_stop_requested(void);

#endif
