#include "progress_reference.h"
#include <math.h>

static long first_index_on_or_after(const long *days, long count, long day) {
    long low = 0, high = count;
    while (low < high) {
        long middle = (low + high) / 2;
        if (days[middle] < day) low = middle + 1; else high = middle;
    }
    return low;
}

void pr_compute(const double *instants, const double *kilograms, long n,
                const double *transitions, const double *offsets, long transition_count,
                long today, long window_days, int has_goal, double goal, double at_goal,
                long *days, double *means, double *smoothed, pr_result *out) {
    /* Daily values: local day = floor((t + offset) / 86400), the offset found by walking the table. */
    long count = 0, cursor = 0, current = 0;
    double sum = 0;
    long in_day = 0;
    for (long i = 0; i < n; i++) {
        double t = instants[i];
        while (cursor < transition_count && transitions[cursor] <= t) cursor++;
        long day = (long)floor((t + offsets[cursor]) / 86400.0);
        if (in_day == 0 || day != current) {
            if (in_day > 0) { days[count] = current; means[count] = sum / (double)in_day; count++; }
            current = day; sum = 0; in_day = 0;
        }
        sum += kilograms[i];
        in_day++;
    }
    if (in_day > 0) { days[count] = current; means[count] = sum / (double)in_day; count++; }

    /* The trend, gap-aware: T += (1 - 0.9^g)(W - T). */
    double factors[65];
    for (int g = 0; g <= 64; g++) factors[g] = 1.0 - pow(1.0 - 0.1, (double)g);
    if (count > 0) smoothed[0] = means[0];
    for (long i = 1; i < count; i++) {
        long gap = days[i] - days[i - 1];
        double factor = gap < 65 ? factors[gap] : 1.0 - pow(1.0 - 0.1, (double)gap);
        smoothed[i] = smoothed[i - 1] + factor * (means[i] - smoothed[i - 1]);
    }

    pr_result r = {0};
    long end = first_index_on_or_after(days, count, today + 1);
    if (end == 0) { r.reason = has_goal ? 2 : 1; *out = r; return; }
    long window_start = window_days > 0 ? today - (window_days - 1) : days[0];
    long start = first_index_on_or_after(days, count, window_start);
    double total = 0, minimum = INFINITY, maximum = -INFINITY, trend_sum = 0;
    for (long i = start; i < end; i++) {
        total += means[i];
        if (means[i] < minimum) minimum = means[i];
        if (means[i] > maximum) maximum = means[i];
        trend_sum += smoothed[i];
    }
    r.points = end > start ? end - start : 0;
    r.latest_trend = smoothed[end - 1];
    r.trend_sum = trend_sum;
    if (r.points > 0) { r.average = total / (double)r.points; r.minimum = minimum; r.maximum = maximum; }
    /* A period's change: the trend at its end minus the trend just before it (at its first day when it holds the first). */
    if (r.points >= 2) { r.has_change = 1; r.change = smoothed[end - 1] - smoothed[start > 0 ? start - 1 : start]; }

    /* The fit (WeightRate): least squares of the daily means on the day over the last 56 days,
       given 8 weighed days there, 14 days of the log in it, and 3 of the last 14 days weighed;
       its level today and its slope, clamped. */
    long recent = first_index_on_or_after(days, count, today - 13);
    long first = first_index_on_or_after(days, count, today - 55);
    double level = r.latest_trend;
    long covered_from = count > 0 && days[0] > today - 55 ? days[0] : today - 55;
    if (end - recent >= 3 && end - first >= 8 && today - covered_from + 1 >= 14) {
        double m = (double)(end - first), sx = 0, sy = 0;
        for (long i = first; i < end; i++) { sx += (double)(days[i] - today); sy += means[i]; }
        double mx = sx / m, my = sy / m, sxx = 0, sxy = 0;
        for (long i = first; i < end; i++) {
            double dx = (double)(days[i] - today) - mx;
            sxx += dx * dx;
            sxy += dx * (means[i] - my);
        }
        if (sxx > 0) {
            double slope = sxy / sxx;
            level = my - slope * mx;
            if (slope < -0.15) slope = -0.15;
            if (slope > 0.15) slope = 0.15;
            r.has_slope = 1;
            r.slope = slope;
        }
    }

    /* Goal projection from the fitted level. */
    if (!has_goal) r.reason = 1;
    else if (fabs(level - goal) <= at_goal) r.reason = 5;
    else if (!r.has_slope) r.reason = 2;
    else {
        double d = (goal - level) / r.slope;
        if (r.slope == 0 || !isfinite(d) || d <= 0) r.reason = 3;
        else if (d > 365.0) r.reason = 4;
        else { r.has_projection = 1; r.projected_day = today + (long)ceil(d); }
    }
    *out = r;
}
