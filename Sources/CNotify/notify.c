/* See CNotify.h. libdbus is opened once, by SystemLibraries' DynamicLibrary; each function it needs
   is looked up by name through the lookup it hands over, and called through a pointer of its own type. */
#include "CNotify.h"

#include <dbus/dbus.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DBUS_FUNCTIONS(X) \
    X(dbus_error_init) X(dbus_error_free) X(dbus_error_is_set) X(dbus_error_has_name) X(dbus_bus_get_private) \
    X(dbus_bus_get_id) X(dbus_free) X(dbus_connection_set_exit_on_disconnect) X(dbus_connection_close) \
    X(dbus_connection_unref) X(dbus_connection_send_with_reply_and_block) X(dbus_connection_read_write) \
    X(dbus_connection_pop_message) X(dbus_connection_get_is_connected) X(dbus_message_new_method_call) \
    X(dbus_message_unref) X(dbus_message_get_sender) X(dbus_message_iter_init_append) X(dbus_message_iter_append_basic) \
    X(dbus_message_iter_open_container) X(dbus_message_iter_close_container) X(dbus_message_iter_init) \
    X(dbus_message_iter_recurse) X(dbus_message_iter_get_arg_type) X(dbus_message_iter_get_basic) \
    X(dbus_message_iter_next) X(dbus_message_is_signal) X(dbus_bus_add_match)

static struct {
#define DECLARE(name) __typeof__(name) *name;
    DBUS_FUNCTIONS(DECLARE)
#undef DECLARE
} dbus;

static int opened = 0;

int trend_bus_take_library(void *library, trend_bus_symbol_lookup *lookup) {
    if (opened) return 1;
    if (library == NULL || lookup == NULL) return 0;
#define LOOK_UP(name) if ((*(void **)&dbus.name = lookup(library, #name)) == NULL) return 0;
    DBUS_FUNCTIONS(LOOK_UP)
#undef LOOK_UP
    opened = 1;
    return 1;
}

struct trend_bus {
    DBusConnection *connection;
    char id[64];
};

static void say(trend_bus_failure *failure, int kind, const char *what, const DBusError *cause) {
    if (failure == NULL) return;
    failure->kind = kind;
    if (cause != NULL && cause->message != NULL && cause->name != NULL) {
        snprintf(failure->words, sizeof failure->words, "%s: %s [%s]", what, cause->message, cause->name);
    } else if (cause != NULL && cause->message != NULL) {
        snprintf(failure->words, sizeof failure->words, "%s: %s", what, cause->message);
    } else {
        snprintf(failure->words, sizeof failure->words, "%s", what);
    }
}

/* The kind of a failed call, from the D-Bus error's name. */
static int kind_of(const DBusError *cause) {
    static const char *const no_service[] = {
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.ServiceNotFound", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
    };
    static const char *const no_answer[] = {
        "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut",
    };
    for (size_t index = 0; index < sizeof no_service / sizeof *no_service; index++) {
        if (dbus.dbus_error_has_name(cause, no_service[index])) return TREND_BUS_NO_SERVICE;
    }
    for (size_t index = 0; index < sizeof no_answer / sizeof *no_answer; index++) {
        if (dbus.dbus_error_has_name(cause, no_answer[index])) return TREND_BUS_NO_ANSWER;
    }
    if (dbus.dbus_error_has_name(cause, "org.freedesktop.DBus.Error.Disconnected")) return TREND_BUS_DISCONNECTED;
    if (dbus.dbus_error_has_name(cause, "org.freedesktop.DBus.Error.NoMemory")) return TREND_BUS_OUT_OF_MEMORY;
    return TREND_BUS_REFUSED;
}

trend_bus *trend_bus_open(trend_bus_failure *failure) {
    if (opened != 1) {
        say(failure, TREND_BUS_NO_LIBRARY, "libdbus-1 could not be loaded (Debian's libdbus-1-3)", NULL);
        return NULL;
    }
    if (getenv("DBUS_SESSION_BUS_ADDRESS") == NULL || getenv("DBUS_SESSION_BUS_ADDRESS")[0] == '\0') {
        say(failure, TREND_BUS_NO_SESSION, "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)", NULL);
        return NULL;
    }
    DBusError cause;
    dbus.dbus_error_init(&cause);
    DBusConnection *connection = dbus.dbus_bus_get_private(DBUS_BUS_SESSION, &cause);
    if (connection == NULL) {
        say(failure, TREND_BUS_UNREACHABLE, "the session bus could not be reached", &cause);
        dbus.dbus_error_free(&cause);
        return NULL;
    }
    dbus.dbus_connection_set_exit_on_disconnect(connection, FALSE);
    trend_bus *bus = calloc(1, sizeof *bus);
    if (bus == NULL) {
        dbus.dbus_connection_close(connection);
        dbus.dbus_connection_unref(connection);
        say(failure, TREND_BUS_OUT_OF_MEMORY, "out of memory", NULL);
        return NULL;
    }
    bus->connection = connection;
    char *id = dbus.dbus_bus_get_id(connection, NULL);
    if (id != NULL) {
        snprintf(bus->id, sizeof bus->id, "%s", id);
        dbus.dbus_free(id);
    }
    return bus;
}

void trend_bus_close(trend_bus *bus) {
    if (bus == NULL) return;
    dbus.dbus_connection_close(bus->connection);
    dbus.dbus_connection_unref(bus->connection);
    free(bus);
}

const char *trend_bus_id(const trend_bus *bus) { return bus->id; }

/* Sends `call` (taking it) and waits for the answer; NULL with `failure` said. */
static DBusMessage *send_and_wait(trend_bus *bus, DBusMessage *call, int reply_ms, const char *what, trend_bus_failure *failure) {
    DBusError cause;
    dbus.dbus_error_init(&cause);
    DBusMessage *reply = dbus.dbus_connection_send_with_reply_and_block(bus->connection, call, reply_ms, &cause);
    dbus.dbus_message_unref(call);
    if (reply == NULL) {
        int kind = dbus.dbus_error_is_set(&cause) ? kind_of(&cause) : TREND_BUS_REFUSED;
        if (!dbus.dbus_connection_get_is_connected(bus->connection)) kind = TREND_BUS_DISCONNECTED;
        say(failure, kind, what, &cause);
        dbus.dbus_error_free(&cause);
    }
    return reply;
}

static DBusMessage *new_call(const char *destination, const char *member, trend_bus_failure *failure) {
    DBusMessage *call = dbus.dbus_message_new_method_call(destination, "/org/freedesktop/Notifications",
                                                          "org.freedesktop.Notifications", member);
    if (call == NULL) say(failure, TREND_BUS_OUT_OF_MEMORY, "out of memory", NULL);
    return call;
}

int trend_bus_capabilities(trend_bus *bus, char *out, size_t size, int reply_ms, trend_bus_failure *failure) {
    DBusMessage *call = new_call("org.freedesktop.Notifications", "GetCapabilities", failure);
    if (call == NULL) return 0;
    DBusMessage *reply = send_and_wait(bus, call, reply_ms, "the notification service did not say what it can show", failure);
    if (reply == NULL) return 0;
    size_t used = 0;
    if (size > 0) out[0] = '\0';
    DBusMessageIter answer, list;
    if (dbus.dbus_message_iter_init(reply, &answer) && dbus.dbus_message_iter_get_arg_type(&answer) == DBUS_TYPE_ARRAY) {
        dbus.dbus_message_iter_recurse(&answer, &list);
        while (dbus.dbus_message_iter_get_arg_type(&list) == DBUS_TYPE_STRING) {
            const char *word = NULL;
            dbus.dbus_message_iter_get_basic(&list, &word);
            int written = snprintf(out + used, size > used ? size - used : 0, "%s%s", used > 0 ? " " : "", word);
            if (written < 0 || (size_t)written >= size - used) break;
            used += (size_t)written;
            if (!dbus.dbus_message_iter_next(&list)) break;
        }
    }
    dbus.dbus_message_unref(reply);
    return 1;
}

unsigned int trend_bus_notify(trend_bus *bus, const char *app, unsigned int replaces, const char *summary, const char *body,
                              const char *const *actions, int count, int timeout_ms, int reply_ms,
                              char *server, size_t server_size, trend_bus_failure *failure) {
    DBusMessage *call = new_call("org.freedesktop.Notifications", "Notify", failure);
    if (call == NULL) return 0;
    DBusMessageIter arguments, list, hints;
    dbus_uint32_t replaced = replaces;
    dbus_int32_t expires = timeout_ms;
    const char *icon = "";
    dbus.dbus_message_iter_init_append(call, &arguments);
    int built = dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &app)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT32, &replaced)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &icon)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &summary)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &body)
        && dbus.dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "s", &list);
    for (int index = 0; built && index < count; index++) {
        built = dbus.dbus_message_iter_append_basic(&list, DBUS_TYPE_STRING, &actions[index]);
    }
    built = built && dbus.dbus_message_iter_close_container(&arguments, &list)
        && dbus.dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &hints)
        && dbus.dbus_message_iter_close_container(&arguments, &hints)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_INT32, &expires);
    if (!built) {
        dbus.dbus_message_unref(call);
        say(failure, TREND_BUS_OUT_OF_MEMORY, "out of memory", NULL);
        return 0;
    }
    DBusMessage *reply = send_and_wait(bus, call, reply_ms, "the notification service refused", failure);
    if (reply == NULL) return 0;
    dbus_uint32_t id = 0;
    DBusMessageIter answer;
    if (dbus.dbus_message_iter_init(reply, &answer) && dbus.dbus_message_iter_get_arg_type(&answer) == DBUS_TYPE_UINT32) {
        dbus.dbus_message_iter_get_basic(&answer, &id);
    }
    const char *sender = dbus.dbus_message_get_sender(reply);
    if (server_size > 0) snprintf(server, server_size, "%s", sender != NULL ? sender : "");
    dbus.dbus_message_unref(reply);
    if (id == 0) say(failure, TREND_BUS_REFUSED, "the notification service answered without an id", NULL);
    return id;
}

int trend_bus_close_notification(trend_bus *bus, const char *server, unsigned int id, int reply_ms, trend_bus_failure *failure) {
    DBusMessage *call = new_call(server, "CloseNotification", failure);
    if (call == NULL) return 0;
    DBusMessageIter arguments;
    dbus_uint32_t number = id;
    dbus.dbus_message_iter_init_append(call, &arguments);
    if (!dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT32, &number)) {
        dbus.dbus_message_unref(call);
        say(failure, TREND_BUS_OUT_OF_MEMORY, "out of memory", NULL);
        return 0;
    }
    DBusMessage *reply = send_and_wait(bus, call, reply_ms, "the notification service did not close the notification", failure);
    if (reply == NULL) return 0;
    dbus.dbus_message_unref(reply);
    return 1;
}

int trend_bus_listen(trend_bus *bus, trend_bus_failure *failure) {
    static const char *const rules[] = {
        "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'",
        "type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'",
    };
    for (size_t index = 0; index < sizeof rules / sizeof *rules; index++) {
        DBusError cause;
        dbus.dbus_error_init(&cause);
        dbus.dbus_bus_add_match(bus->connection, rules[index], &cause);
        if (dbus.dbus_error_is_set(&cause)) {
            say(failure, kind_of(&cause), "the bus refused to pass on the notifications' actions", &cause);
            dbus.dbus_error_free(&cause);
            return 0;
        }
    }
    return 1;
}

/* The (u, s) or (u, u) fields of a signal: 1 when both were there. */
static int read_fields(DBusMessage *message, dbus_uint32_t *number, char *key, size_t size) {
    DBusMessageIter fields;
    if (!dbus.dbus_message_iter_init(message, &fields) || dbus.dbus_message_iter_get_arg_type(&fields) != DBUS_TYPE_UINT32) return 0;
    dbus.dbus_message_iter_get_basic(&fields, number);
    if (!dbus.dbus_message_iter_next(&fields)) return 0;
    if (dbus.dbus_message_iter_get_arg_type(&fields) == DBUS_TYPE_STRING) {
        const char *text = NULL;
        dbus.dbus_message_iter_get_basic(&fields, &text);
        snprintf(key, size, "%s", text);
        return 1;
    }
    if (dbus.dbus_message_iter_get_arg_type(&fields) == DBUS_TYPE_UINT32) {
        dbus_uint32_t reason = 0;
        dbus.dbus_message_iter_get_basic(&fields, &reason);
        snprintf(key, size, "%u", (unsigned)reason);
        return 1;
    }
    return 0;
}

int trend_bus_next_event(trend_bus *bus, int timeout_ms, unsigned int *id, char *key, size_t key_size,
                         char *sender, size_t sender_size) {
    if (key_size == 0 || sender_size == 0) return 0;
    for (int waited = 0;; waited = 1) {
        DBusMessage *message;
        while ((message = dbus.dbus_connection_pop_message(bus->connection)) != NULL) {
            int found = 0;
            if (dbus.dbus_message_is_signal(message, "org.freedesktop.Notifications", "ActionInvoked")) found = 1;
            else if (dbus.dbus_message_is_signal(message, "org.freedesktop.Notifications", "NotificationClosed")) found = 2;
            dbus_uint32_t number = 0;
            if (found && read_fields(message, &number, key, key_size)) {
                const char *from = dbus.dbus_message_get_sender(message);
                snprintf(sender, sender_size, "%s", from != NULL ? from : "");
                *id = number;
            } else {
                found = 0;
            }
            dbus.dbus_message_unref(message);
            if (found) return found;
        }
        if (!dbus.dbus_connection_get_is_connected(bus->connection)) return -1;
        if (waited) return 0;
        /* Blocks until a message can be read (or the time is up), then reads what came. */
        if (!dbus.dbus_connection_read_write(bus->connection, timeout_ms)) return -1;
    }
}

static volatile sig_atomic_t stop_requested = 0;

static void on_stop(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

void trend_stop_on_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    /* A parent may have left them blocked (a child inherits the mask): they must reach the handler. */
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGHUP);
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
}

int trend_stop_requested(void) { return stop_requested; }
