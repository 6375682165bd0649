#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>

/* libedit keeps its state in C globals; Swift 6 cannot touch mutable globals
   safely, so these accessors are the boundary. Only the line-reading thread
   calls them. */

static inline void trend_el_setup(const char *name, rl_completion_func_t *completer) {
    rl_readline_name = name;
    rl_attempted_completion_function = completer;
}

static inline const char *trend_el_line_buffer(void) {
    return rl_line_buffer;
}

static inline void trend_el_completion_done(int append_character) {
    rl_attempted_completion_over = 1;
    rl_completion_append_character = append_character;
}

static inline void trend_el_flush_stdout(void) {
    fflush(stdout);
}
