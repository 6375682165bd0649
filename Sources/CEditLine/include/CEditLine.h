#ifndef TREND_CEDITLINE_H
#define TREND_CEDITLINE_H

/* libedit's readline interface, opened on first use by SystemLibraries'
   DynamicLibrary: a run with -c or a script never loads it, which saves about
   a millisecond of every start-up. The functions below are thin forwards to
   libedit's; call trend_el_open() first, and use them only when it returned 1.
   libedit keeps its state in C globals; only the line-reading thread calls these. */

typedef char **trend_el_completer(const char *text, int start, int end);
typedef void trend_el_line_handler(char *line);

/* Looks `name` up in `library` (an opened library's handle); NULL when it holds no such symbol. */
typedef void *trend_el_symbol_lookup(void *library, const char *name);

/* Takes libedit's functions from `library` through `lookup`: 1 when it holds every one needed (now or
   before), 0 when it does not. */
int trend_el_open(void *library, trend_el_symbol_lookup *lookup);

void trend_el_setup(const char *name, trend_el_completer *completer);
int trend_el_initialize(void);
/* Sets the C library's character type to UTF-8 before libedit starts, so
   every character typed is kept: 1 when the environment's locale is UTF-8,
   2 when it is not and a UTF-8 one was taken instead, 0 when none is
   installed (then only ASCII can be typed). */
int trend_el_use_utf8(void);
void trend_el_using_history(void);
void trend_el_stifle_history(int max);
int trend_el_read_history(const char *path);
int trend_el_write_history(const char *path);
void trend_el_add_history(const char *line);
void trend_el_callback_handler_install(const char *prompt, trend_el_line_handler *handler);
void trend_el_callback_handler_remove(void);
void trend_el_callback_read_char(void);
void trend_el_replace_line(const char *text, int clear_undo);
const char *trend_el_line_buffer(void);
void trend_el_completion_done(int append_character);
void trend_el_flush_stdout(void);

/* Ctrl-C as a key while a line is edited: the terminal stops turning it into
   SIGINT during editing (libedit's "setty -d -isig"), and the key ends
   whatever libedit is doing, incremental search included, and the line.
   Returns 1 when the binding took. */
int trend_el_bind_interrupt_key(void);
/* Draws the prompt and the line again (after something was printed below it); 0 when libedit cannot. */
int trend_el_redraw_line(void);
/* SIGINT writes one byte (3) to `descriptor` (a non-blocking pipe), from a
   signal handler: no thread or dispatch queue is needed to notice it.
   Returns 1 when the handler is installed. */
int trend_el_catch_interrupts(int descriptor);
/* SIGHUP and SIGTERM write one byte (1) to `descriptor` (a non-blocking pipe): the prompt ends as on Ctrl-D,
   with what was entered saved. Returns 1 when both handlers are installed. */
int trend_el_catch_hangups(int descriptor);
/* 1 when the terminal on standard input has gone: it reports a hang-up or an error, or it reads as ready with
   no byte to read (a read would return 0 or fail), as when its window closed under a parent that ignores SIGHUP. */
int trend_el_terminal_gone(void);
/* 1 once after Ctrl-C was pressed while editing, then 0 until it is pressed again. */
int trend_el_take_interrupt(void);

/* Ctrl-R searches the history as a shell does, showing the line it found on
   the prompt's row and running it on one Enter. Returns 1 when bound (0: the
   libedit at hand lacks what it needs, and Ctrl-R stays libedit's own). */
int trend_el_bind_history_search(void);
/* The prompt the search draws before itself (kept, not copied). */
void trend_el_set_search_prompt(const char *prompt);
/* The line a search ran with Enter (malloc'd, the caller frees it), once; NULL otherwise. */
char *trend_el_take_accepted(void);

#endif
