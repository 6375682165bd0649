#ifndef PROGRESS_REFERENCE_H
#define PROGRESS_REFERENCE_H

/* The C reference of Trend's cold progress computation, for the benchmark:
   the same steps as ProgressCalculator over the same input arrays. */

typedef struct {
    long points;               /* days with entries in the window */
    double latest_trend;       /* trend of the last day up to today */
    int has_change;
    double change;             /* last trend - first trend in the window */
    double average, minimum, maximum;
    double trend_sum;          /* sum of the window's trend values (a checksum) */
    int has_slope;
    double slope;              /* kg a day, clamped */
    int has_projection;
    long projected_day;
    int reason;                /* 0 none, 1 no goal, 2 not enough, 3 away, 4 over a year, 5 at goal */
} pr_result;

/* instants: seconds since 1970, ascending; kilograms: weights; n entries.
   transitions/offsets: the time zone table (offsets has transition_count + 1
   values: offsets[i] applies before transitions[i]). window_days 0 = all.
   Scratch arrays days/means/smoothed need room for n values. at_goal is how
   close to the goal the trend counts as at it (WeightGoal.atGoalKilograms, passed in). */
void pr_compute(const double *instants, const double *kilograms, long n,
                const double *transitions, const double *offsets, long transition_count,
                long today, long window_days, int has_goal, double goal, double at_goal,
                long *days, double *means, double *smoothed, pr_result *out);

/* The database floor: reads (instant, kilograms) of every weigh-in in the
   Trend database at path with sqlite3_step, in the check-in's order, and
   sums them. Returns 0 on success. */
int pr_sqlite_floor(const char *path, double *instant_sum, double *kilogram_sum, long *rows);

#endif
