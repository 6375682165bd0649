#include "progress_reference.h"

#include <sqlite3.h>
#include <stddef.h>

/* The floor for the database case: open the file read-only, step through
   the same statement the check-in uses, sum what it reads, close. Nothing
   is kept: whatever Trend does on top of this is its own cost. */
int pr_sqlite_floor(const char *path, double *instant_sum, double *kilogram_sum, long *rows) {
    sqlite3 *db = NULL;
    sqlite3_stmt *statement = NULL;
    *instant_sum = 0;
    *kilogram_sum = 0;
    *rows = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 1;
    }
    if (sqlite3_prepare_v2(db, "SELECT instant, kilograms FROM weight_entries ORDER BY instant, id", -1, &statement, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return 1;
    }
    int code;
    while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
        *instant_sum += sqlite3_column_double(statement, 0);
        *kilogram_sum += sqlite3_column_double(statement, 1);
        *rows += 1;
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return code == SQLITE_DONE ? 0 : 1;
}
