/* libdbus's headers only: CNotify opens the library with dlopen when a
   reminder is sent, so no other run loads it. */
#include <dbus/dbus.h>
