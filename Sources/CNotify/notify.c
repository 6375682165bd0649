/* See CNotify.h. libdbus is opened once, with dlopen; each function it needs
   is looked up by name and called through a pointer of its own type. */
#include "CNotify.h"

#include <dbus/dbus.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DBUS_FUNCTIONS(X) \
    X(dbus_error_init) X(dbus_error_free) X(dbus_error_is_set) X(dbus_bus_get_private) \
    X(dbus_connection_set_exit_on_disconnect) X(dbus_connection_close) X(dbus_connection_unref) \
    X(dbus_connection_send_with_reply_and_block) X(dbus_connection_read_write) X(dbus_connection_pop_message) \
    X(dbus_connection_get_is_connected) X(dbus_message_new_method_call) X(dbus_message_unref) \
    X(dbus_message_iter_init_append) X(dbus_message_iter_append_basic) X(dbus_message_iter_open_container) \
    X(dbus_message_iter_close_container) X(dbus_message_iter_init) X(dbus_message_iter_get_arg_type) \
    X(dbus_message_iter_get_basic) X(dbus_message_iter_next) X(dbus_message_is_signal) X(dbus_bus_add_match)

static struct {
#define DECLARE(name) __typeof__(name) *name;
    DBUS_FUNCTIONS(DECLARE)
#undef DECLARE
} dbus;

static int opened = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_library(void) {
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libdbus-1.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { opened = 0; return; }
#define LOOK_UP(name) if ((*(void **)&dbus.name = dlsym(library, #name)) == NULL) { opened = 0; return; }
    DBUS_FUNCTIONS(LOOK_UP)
#undef LOOK_UP
    opened = 1;
}

struct trend_bus {
    DBusConnection *connection;
};

static void say(char *error, size_t size, const char *what, const DBusError *cause) {
    if (error == NULL || size == 0) return;
    if (cause != NULL && cause->message != NULL && cause->name != NULL) snprintf(error, size, "%s: %s [%s]", what, cause->message, cause->name);
    else if (cause != NULL && cause->message != NULL) snprintf(error, size, "%s: %s", what, cause->message);
    else snprintf(error, size, "%s", what);
}

trend_bus *trend_bus_open(char *error, size_t size) {
    pthread_once(&once, open_library);
    if (opened != 1) {
        say(error, size, "libdbus-1 could not be loaded (Debian's libdbus-1-3)", NULL);
        return NULL;
    }
    if (getenv("DBUS_SESSION_BUS_ADDRESS") == NULL || getenv("DBUS_SESSION_BUS_ADDRESS")[0] == '\0') {
        say(error, size, "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)", NULL);
        return NULL;
    }
    DBusError failure;
    dbus.dbus_error_init(&failure);
    DBusConnection *connection = dbus.dbus_bus_get_private(DBUS_BUS_SESSION, &failure);
    if (connection == NULL) {
        say(error, size, "the session bus could not be reached", &failure);
        dbus.dbus_error_free(&failure);
        return NULL;
    }
    dbus.dbus_connection_set_exit_on_disconnect(connection, FALSE);
    trend_bus *bus = calloc(1, sizeof *bus);
    if (bus == NULL) {
        dbus.dbus_connection_close(connection);
        dbus.dbus_connection_unref(connection);
        say(error, size, "out of memory", NULL);
        return NULL;
    }
    bus->connection = connection;
    return bus;
}

void trend_bus_close(trend_bus *bus) {
    if (bus == NULL) return;
    dbus.dbus_connection_close(bus->connection);
    dbus.dbus_connection_unref(bus->connection);
    free(bus);
}

unsigned int trend_bus_notify(trend_bus *bus, const char *app, const char *summary, const char *body,
                              const char *const *actions, int count, int timeout_ms, int reply_ms,
                              char *error, size_t size) {
    DBusMessage *call = dbus.dbus_message_new_method_call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                          "org.freedesktop.Notifications", "Notify");
    if (call == NULL) { say(error, size, "out of memory", NULL); return 0; }
    DBusMessageIter arguments, list, hints;
    dbus_uint32_t replaces = 0;
    dbus_int32_t expires = timeout_ms;
    const char *icon = "";
    dbus.dbus_message_iter_init_append(call, &arguments);
    int built = dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_STRING, &app)
        && dbus.dbus_message_iter_append_basic(&arguments, DBUS_TYPE_UINT32, &replaces)
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
        say(error, size, "out of memory", NULL);
        return 0;
    }
    DBusError failure;
    dbus.dbus_error_init(&failure);
    DBusMessage *reply = dbus.dbus_connection_send_with_reply_and_block(bus->connection, call, reply_ms, &failure);
    dbus.dbus_message_unref(call);
    if (reply == NULL) {
        say(error, size, "the notification service refused", &failure);
        dbus.dbus_error_free(&failure);
        return 0;
    }
    dbus_uint32_t id = 0;
    DBusMessageIter answer;
    if (dbus.dbus_message_iter_init(reply, &answer) && dbus.dbus_message_iter_get_arg_type(&answer) == DBUS_TYPE_UINT32) {
        dbus.dbus_message_iter_get_basic(&answer, &id);
    }
    dbus.dbus_message_unref(reply);
    if (id == 0) say(error, size, "the notification service answered without an id", NULL);
    return id;
}

int trend_bus_listen(trend_bus *bus, char *error, size_t size) {
    DBusError failure;
    dbus.dbus_error_init(&failure);
    dbus.dbus_bus_add_match(bus->connection,
                            "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'", &failure);
    if (dbus.dbus_error_is_set(&failure)) {
        say(error, size, "the bus refused to pass on the notifications' actions", &failure);
        dbus.dbus_error_free(&failure);
        return 0;
    }
    return 1;
}

int trend_bus_next_action(trend_bus *bus, int timeout_ms, unsigned int *id, char *key, size_t size) {
    for (int waited = 0;; waited = 1) {
        DBusMessage *message;
        while ((message = dbus.dbus_connection_pop_message(bus->connection)) != NULL) {
            int found = 0;
            if (dbus.dbus_message_is_signal(message, "org.freedesktop.Notifications", "ActionInvoked")) {
                DBusMessageIter fields;
                dbus_uint32_t number = 0;
                const char *text = NULL;
                if (dbus.dbus_message_iter_init(message, &fields) && dbus.dbus_message_iter_get_arg_type(&fields) == DBUS_TYPE_UINT32) {
                    dbus.dbus_message_iter_get_basic(&fields, &number);
                    if (dbus.dbus_message_iter_next(&fields) && dbus.dbus_message_iter_get_arg_type(&fields) == DBUS_TYPE_STRING) {
                        dbus.dbus_message_iter_get_basic(&fields, &text);
                    }
                }
                if (text != NULL && size > 0) {
                    *id = number;
                    snprintf(key, size, "%s", text);
                    found = 1;
                }
            }
            dbus.dbus_message_unref(message);
            if (found) return 1;
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
