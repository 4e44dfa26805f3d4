/* `qsim native --repeat N`: one report out of N runs of the same lock and workload.  A host is
 * noisy (three runs of one lock gave 3259, 3743 and 913 cycles per acquisition), so a single
 * run says little; N runs say how much to trust the median.  Every measured number becomes its
 * median, minimum and maximum over the runs; what was asked for (the workload, the CPUs) stays
 * as it is; a verdict holds only if it held in every run; the runs' scheduling becomes a count
 * of disturbed runs. */
#ifndef QSIM_NATIVE_REPEAT_H
#define QSIM_NATIVE_REPEAT_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef enum {
    NATIVE_SUMMARY_DATA,   /* each measured number an object {n, mean, sd, median, min, max, ci95_low,
                            * ci95_high, interval} (JSON, CSV; sim/base/report_summary.h, the model's
                            * --repeat shape) */
    NATIVE_SUMMARY_TEXT,   /* each a string "median (min .. max, spread S%; mean M [lo, hi])", or the number
                            * alone where every run agreed */
} NativeSummaryView;

/* The summary of `n` (>= 1) native reports of one lock and workload: the first run's layout,
 * with `repeat` (n) after `mode` and `disturbed_runs` where `scheduling` was.  With `runs`, the
 * reports themselves follow under `runs`. */
JsonNode *native_repeat_summary(JsonNode *const *reports, guint n, NativeSummaryView view, gboolean runs);

/* The same, a report at a time, keeping only what the summary needs: the first report's
 * layout, each measured number's values, the verdicts so far (and, with `runs`, each report as
 * compact JSON text).  `--repeat 4096` kept every report's tree until the end: 500 MB. */
typedef struct NativeRepeat NativeRepeat;
NativeRepeat *native_repeat_new(gboolean runs);
/* Takes what the summary needs from `report` (borrowed: the caller may free it at once). */
void native_repeat_add(NativeRepeat *r, JsonNode *report);
guint native_repeat_count(const NativeRepeat *r);
/* The summary of the reports added (at least one); `r` is freed. */
JsonNode *native_repeat_finish(NativeRepeat *r, NativeSummaryView view);
/* Without a summary (a run failed); NULL is fine. */
void native_repeat_free(NativeRepeat *r);

/* The median of `v` (n >= 1; sorted in place): the middle value, or the mean of the two
 * middle ones. */
double native_median(double *v, guint n);

#endif
