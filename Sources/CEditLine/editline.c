#include "CEditLine.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
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
} el;

static volatile int interrupt_pressed;
static volatile sig_atomic_t interrupt_descriptor = -1;

/* SIGINT: a byte down the pipe, nothing else (async-signal-safe). Whichever
   thread is reading the terminal or waiting for a command sees it. */
static void on_interrupt(int signal_number) {
    (void)signal_number;
    int saved = errno;
    if (interrupt_descriptor >= 0) {
        char byte = 3;
        ssize_t written = write(interrupt_descriptor, &byte, 1);
        (void)written;
    }
    errno = saved;
}

int trend_el_catch_interrupts(int descriptor) {
    interrupt_descriptor = descriptor;
    struct sigaction action;
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(SIGINT, &action, NULL) == 0;
}

#define TREND_EL_FIND(field, name) \
    if ((*(void **)&el.field = dlsym(library, name)) == NULL) return 0

int trend_el_open(void) {
    if (el.opened) return 1;
    const char *names[] = {"libedit.so.2", "libedit.so"};
    void *library = NULL;
    for (size_t index = 0; library == NULL && index < sizeof names / sizeof names[0]; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) return 0;
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
    *(void **)&el.add_defun = dlsym(library, "rl_add_defun");
    *(void **)&el.parse_and_bind = dlsym(library, "rl_parse_and_bind");
    *(void **)&el.done = dlsym(library, "rl_done");
    *(void **)&el.forced_update_display = dlsym(library, "rl_forced_update_display");
    *(void **)&el.basic_word_break_characters = dlsym(library, "rl_basic_word_break_characters");
    *(void **)&el.completer_word_break_characters = dlsym(library, "rl_completer_word_break_characters");
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
