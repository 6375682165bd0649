#include "CEditLine.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <langinfo.h>
#include <locale.h>
#include <string.h>
#include <stddef.h>
#include <stdio.h>

/* What is taken from libedit: its functions, and the addresses of the
   readline globals it exports. */
static struct {
    int opened;
    int (*initialize)(void);
    void (*using_history)(void);
    void (*stifle_history)(int);
    int (*read_history)(const char *);
    int (*write_history)(const char *);
    int (*add_history)(const char *);
    void (*handler_install)(const char *, trend_el_line_handler *);
    void (*handler_remove)(void);
    void (*read_char)(void);
    void (*replace_line)(const char *, int);
    const char **readline_name;
    trend_el_completer **attempted_completion_function;
    char **line_buffer;
    int *attempted_completion_over;
    int *completion_append_character;
    int (*add_defun)(const char *, int (*)(int, int), int);
    int (*parse_and_bind)(const char *);
    int *done;
    int (*forced_update_display)(void);
    char **basic_word_break_characters;
    char **completer_word_break_characters;
    /* readline's HIST_ENTRY starts with its line. */
    const char **(*history_get)(int);
    int (*insert_text)(const char *);
    int *point;
    int *history_length;
    int *history_base;
} el;

static volatile int interrupt_pressed;
static volatile sig_atomic_t interrupt_descriptor = -1;

/* SIGINT: a byte (3) down the interrupt pipe; SIGHUP and SIGTERM: a byte (1) down the hang-up pipe; nothing else
   (async-signal-safe). Whichever thread is reading the terminal or waiting for a command sees it. */
static volatile sig_atomic_t hangup_descriptor = -1;

static void on_signal(int signal_number) {
    int saved = errno;
    int descriptor = signal_number == SIGINT ? interrupt_descriptor : hangup_descriptor;
    if (descriptor >= 0) {
        char byte = signal_number == SIGINT ? 3 : 1;
        ssize_t written = write(descriptor, &byte, 1);
        (void)written;
    }
    errno = saved;
}

/* Installs `on_signal` for `signal_number`; 1 when it took. */
static int catch_signal(int signal_number) {
    struct sigaction action;
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signal_number, &action, NULL) == 0;
}

int trend_el_catch_interrupts(int descriptor) {
    interrupt_descriptor = descriptor;
    return catch_signal(SIGINT);
}

int trend_el_catch_hangups(int descriptor) {
    hangup_descriptor = descriptor;
    return catch_signal(SIGHUP) && catch_signal(SIGTERM);
}

int trend_el_terminal_gone(void) {
    struct pollfd terminal = {STDIN_FILENO, POLLIN, 0};
    if (poll(&terminal, 1, 0) <= 0) return 0;
    if (terminal.revents & (POLLHUP | POLLERR | POLLNVAL)) return 1;
    if (!(terminal.revents & POLLIN)) return 0;
    /* Readable with no byte to read: a read would return 0 (or fail with EIO), as on a closed terminal. */
    int available = 0;
    if (ioctl(STDIN_FILENO, FIONREAD, &available) != 0) return errno == EIO || errno == EBADF;
    return available == 0;
}

#define TREND_EL_FIND(field, name) \
    if ((*(void **)&el.field = lookup(library, name)) == NULL) return 0
#define TREND_EL_MAYBE(field, name) *(void **)&el.field = lookup(library, name)

int trend_el_open(void *library, trend_el_symbol_lookup *lookup) {
    if (el.opened) return 1;
    if (library == NULL || lookup == NULL) return 0;
    TREND_EL_FIND(initialize, "rl_initialize");
    TREND_EL_FIND(using_history, "using_history");
    TREND_EL_FIND(stifle_history, "stifle_history");
    TREND_EL_FIND(read_history, "read_history");
    TREND_EL_FIND(write_history, "write_history");
    TREND_EL_FIND(add_history, "add_history");
    TREND_EL_FIND(handler_install, "rl_callback_handler_install");
    TREND_EL_FIND(handler_remove, "rl_callback_handler_remove");
    TREND_EL_FIND(read_char, "rl_callback_read_char");
    TREND_EL_FIND(replace_line, "rl_replace_line");
    TREND_EL_FIND(readline_name, "rl_readline_name");
    TREND_EL_FIND(attempted_completion_function, "rl_attempted_completion_function");
    TREND_EL_FIND(line_buffer, "rl_line_buffer");
    TREND_EL_FIND(attempted_completion_over, "rl_attempted_completion_over");
    TREND_EL_FIND(completion_append_character, "rl_completion_append_character");
    /* Optional: without them Ctrl-C still works through SIGINT, only not inside a search. */
    TREND_EL_MAYBE(add_defun, "rl_add_defun");
    TREND_EL_MAYBE(parse_and_bind, "rl_parse_and_bind");
    TREND_EL_MAYBE(done, "rl_done");
    TREND_EL_MAYBE(forced_update_display, "rl_forced_update_display");
    TREND_EL_MAYBE(basic_word_break_characters, "rl_basic_word_break_characters");
    TREND_EL_MAYBE(completer_word_break_characters, "rl_completer_word_break_characters");
    /* Optional: without them Ctrl-R is libedit's own search. */
    TREND_EL_MAYBE(history_get, "history_get");
    TREND_EL_MAYBE(history_length, "history_length");
    TREND_EL_MAYBE(history_base, "history_base");
    TREND_EL_MAYBE(insert_text, "rl_insert_text");
    TREND_EL_MAYBE(point, "rl_point");
    el.opened = 1;
    return 1;
}

/* No character breaks a word for completion: the completer is handed the
   whole line before the cursor and answers with whole lines, so a word in
   quotes, with spaces, accents or emoji, is replaced as the tokenizer reads it. */
static char no_word_breaks[] = "";

void trend_el_setup(const char *name, trend_el_completer *completer) {
    *el.readline_name = name;
    *el.attempted_completion_function = completer;
    if (el.basic_word_break_characters != NULL) *el.basic_word_break_characters = no_word_breaks;
    if (el.completer_word_break_characters != NULL) *el.completer_word_break_characters = no_word_breaks;
}

int trend_el_initialize(void) { return el.initialize(); }

int trend_el_use_utf8(void) {
    /* libedit decodes keys with mbrtowc in the C library's character type:
       in the "C" locale a program starts in, every byte past ASCII is
       dropped. Only the character type is taken from the environment
       (numbers keep their dots), and a locale that is not UTF-8 gives way
       to one that is, since the terminals Trend runs in send UTF-8. */
    const char *from_environment = setlocale(LC_CTYPE, "");
    if (from_environment != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return 1;
    const char *fallbacks[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"};
    for (size_t index = 0; index < sizeof fallbacks / sizeof fallbacks[0]; index++) {
        if (setlocale(LC_CTYPE, fallbacks[index]) != NULL && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return 2;
    }
    setlocale(LC_CTYPE, from_environment != NULL ? from_environment : "C");
    return 0;
}
void trend_el_using_history(void) { el.using_history(); }
void trend_el_stifle_history(int max) { el.stifle_history(max); }
int trend_el_read_history(const char *path) { return el.read_history(path); }
int trend_el_write_history(const char *path) { return el.write_history(path); }
void trend_el_add_history(const char *line) { el.add_history(line); }

void trend_el_callback_handler_install(const char *prompt, trend_el_line_handler *handler) {
    el.handler_install(prompt, handler);
}

void trend_el_callback_handler_remove(void) { el.handler_remove(); }
void trend_el_callback_read_char(void) { el.read_char(); }
void trend_el_replace_line(const char *text, int clear_undo) { el.replace_line(text, clear_undo); }
const char *trend_el_line_buffer(void) { return *el.line_buffer; }

void trend_el_completion_done(int append_character) {
    *el.attempted_completion_over = 1;
    *el.completion_append_character = append_character;
}

void trend_el_flush_stdout(void) { fflush(stdout); }

/* Bound to Ctrl-C: remember it, and end the line being edited. */
static int interrupt_key(int count, int key) {
    (void)count;
    (void)key;
    interrupt_pressed = 1;
    if (el.done != NULL) *el.done = 1;
    return 0;
}

int trend_el_bind_interrupt_key(void) {
    if (el.add_defun == NULL || el.parse_and_bind == NULL || el.done == NULL) return 0;
    if (el.parse_and_bind("setty -d -isig") != 0) return 0;
    return el.add_defun("trend-interrupt", interrupt_key, 3) == 0;
}

int trend_el_take_interrupt(void) {
    int pressed = interrupt_pressed;
    interrupt_pressed = 0;
    return pressed;
}

int trend_el_redraw_line(void) {
    if (el.forced_update_display == NULL) return 0;
    el.forced_update_display();
    return 1;
}

/* Ctrl-R: a search of the history as a shell's, drawn on the prompt's row as
   "search 'goa': goal 75", the newest line holding what is typed; Ctrl-R again
   goes further back, Backspace takes a character off, Enter runs the line
   found (one Enter), Ctrl-G or Escape puts back what was there, any other
   key leaves the line found to edit, the cursor at its end (the key itself
   is spent: libedit has no way to hand it on under the callback interface). libedit's own search shows only its
   pattern and needs a second Enter under the callback interface (the key
   that ends it waits in libedit's queue for the next key). */
static char *accepted_line;
static const char *search_prompt = "";

void trend_el_set_search_prompt(const char *prompt) { search_prompt = prompt; }

char *trend_el_take_accepted(void) {
    char *line = accepted_line;
    accepted_line = NULL;
    return line;
}

/* The newest history line older than `before` (an offset from the oldest) holding `query`; -1 when none does. */
static int history_find(const char *query, int before) {
    for (int offset = before - 1; offset >= 0; offset--) {
        const char **entry = el.history_get(*el.history_base + offset);
        if (entry != NULL && *entry != NULL && strstr(*entry, query) != NULL) return offset;
    }
    return -1;
}

static const char *history_line(int offset) {
    if (offset < 0) return NULL;
    const char **entry = el.history_get(*el.history_base + offset);
    return entry != NULL ? *entry : NULL;
}

/* The search on one row: cut to the terminal's width, so a long line never wraps (only the row the
   cursor is on is cleared when it changes). A character of three or four UTF-8 bytes (CJK, emoji) is
   counted as two columns, one of two bytes (an accent) as one. */
static void search_draw(const char *query, const char *found) {
    char text[2048];
    int length = snprintf(text, sizeof text, "%ssearch '%s': %s", search_prompt, query, found != NULL ? found : "(nothing found)");
    if (length < 0) return;
    if ((size_t)length >= sizeof text) length = (int)sizeof text - 1;
    struct winsize size;
    int width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
    int columns = 0, end = 0;
    while (end < length) {
        unsigned char byte = (unsigned char)text[end];
        int bytes = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        int wide = bytes >= 3 ? 2 : 1;
        if (columns + wide > width - 1 || end + bytes > length) break;
        columns += wide;
        end += bytes;
    }
    ssize_t written = write(STDOUT_FILENO, "\r\033[2K", 5);
    written = write(STDOUT_FILENO, text, (size_t)end);
    (void)written;
}

/* The search's row cleared, and libedit's prompt and line drawn on it again. */
static void search_end(void) {
    ssize_t written = write(STDOUT_FILENO, "\r\033[2K", 5);
    (void)written;
    el.forced_update_display();
}

/* Characters (not continuation bytes) among the first `bytes` bytes of UTF-8 `text`. */
static size_t utf8_characters(const char *text, size_t bytes) {
    size_t count = 0;
    for (size_t index = 0; index < bytes && text[index] != 0; index++) {
        if (((unsigned char)text[index] & 0xC0) != 0x80) count++;
    }
    return count;
}

/* The bytes of the first `characters` characters of UTF-8 `text`. */
static size_t utf8_prefix_bytes(const char *text, size_t characters) {
    size_t index = 0, seen = 0;
    while (text[index] != 0) {
        if (((unsigned char)text[index] & 0xC0) != 0x80) {
            if (seen == characters) break;
            seen++;
        }
        index++;
    }
    return index;
}

/* Puts `line` in place of what was typed, the cursor at its end. libedit's
   replace keeps the cursor where it was (in characters) and its insert types
   at the cursor, so the line is replaced by as much of `line` as reaches the
   cursor and the rest is typed after it. */
static void take_found_line(const char *line) {
    const char *typed = *el.line_buffer != NULL ? *el.line_buffer : "";
    size_t cursor = utf8_characters(typed, (size_t)(*el.point > 0 ? *el.point : 0));
    size_t length = utf8_characters(line, strlen(line));
    if (cursor == 0) {
        /* A replace by nothing is ignored: one space, the line typed in front of it (the tokenizer drops it). */
        el.replace_line(" ", 0);
        el.insert_text(line);
    } else if (cursor >= length) {
        el.replace_line(line, 0);
    } else {
        size_t cut = utf8_prefix_bytes(line, cursor);
        char *head = strndup(line, cut);
        if (head == NULL) {
            el.replace_line(line, 0);
            return;
        }
        el.replace_line(head, 0);
        el.insert_text(line + cut);
        free(head);
    }
}

static int read_byte(unsigned char *byte) {
    for (;;) {
        ssize_t count = read(STDIN_FILENO, byte, 1);
        if (count == 1) return 1;
        if (count < 0 && errno == EINTR) continue;
        return 0;
    }
}

static int history_search(int count, int key) {
    (void)count;
    (void)key;
    char query[512] = "";
    size_t length = 0;
    *el.done = 0;
    int total = *el.history_length;
    int found = history_find(query, total);
    for (;;) {
        search_draw(query, history_line(found));
        unsigned char byte;
        if (!read_byte(&byte)) byte = 7;  /* The terminal closed: as Ctrl-G. */
        if (byte == '\r' || byte == '\n') {
            const char *line = history_line(found);
            if (line == NULL) continue;  /* Nothing to run: keep searching. */
            accepted_line = strdup(line);
            *el.done = 1;
            return 0;
        }
        if (byte == 3) {  /* Ctrl-C: as everywhere else, the line is dropped. */
            interrupt_pressed = 1;
            *el.done = 1;
            return 0;
        }
        if (byte == 0x12) {  /* Ctrl-R: further back. */
            int older = history_find(query, found >= 0 ? found : total);
            if (older >= 0) found = older;
            continue;
        }
        if (byte == 0x7f || byte == 8) {  /* Backspace: a whole UTF-8 character off, and from the newest again. */
            while (length > 0 && ((unsigned char)query[length - 1] & 0xC0) == 0x80) length--;
            if (length > 0) length--;
            query[length] = 0;
            found = history_find(query, total);
            continue;
        }
        if (byte == 7 || byte == 0x1b) {  /* Ctrl-G, Escape: back to the line as it was. */
            int more = 0;
            if (byte == 0x1b) {
                /* An arrow, End or another key sends a sequence: read it away. It is a key like any other, which
                   leaves the line found to edit; Escape alone puts back what was there. */
                unsigned char next;
                while (more < 8 && poll(&(struct pollfd){STDIN_FILENO, POLLIN, 0}, 1, 30) > 0 && read_byte(&next)) {
                    more++;
                    if (more > 1 && next >= 0x40 && next <= 0x7e) break;
                }
            }
            const char *line = history_line(found);
            if (more > 0 && line != NULL) take_found_line(line);
            /* The search ends the line only through Enter: a done flag an earlier search left is cleared, so
               readline goes on reading (a left-over flag ended the line empty, which the loop read as Ctrl-D). */
            *el.done = 0;
            search_end();
            return 0;
        }
        if (byte < 0x20) {  /* Any other control key: the line found, to edit. */
            const char *line = history_line(found);
            if (line != NULL) {
                take_found_line(line);
            }
            *el.done = 0;
            search_end();
            return 0;
        }
        if (length + 1 < sizeof query) {
            query[length++] = (char)byte;
            query[length] = 0;
        }
        if (byte < 0x80 || (byte & 0xC0) != 0x80) {
            /* A character is whole once its continuation bytes follow: search when it is. */
            int continuation = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
            for (int index = 0; index < continuation; index++) {
                unsigned char next;
                if (!read_byte(&next)) break;
                if (length + 1 < sizeof query) {
                    query[length++] = (char)next;
                    query[length] = 0;
                }
            }
        }
        int newest = history_find(query, total);
        found = newest;
    }
}

int trend_el_bind_history_search(void) {
    if (el.add_defun == NULL || el.done == NULL || el.history_get == NULL || el.history_length == NULL || el.history_base == NULL
        || el.forced_update_display == NULL || el.insert_text == NULL || el.point == NULL) return 0;
    return el.add_defun("trend-history-search", history_search, 0x12) == 0;
}
