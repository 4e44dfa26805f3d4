/* The summary of N reports of one layout (`qsim run --repeat N`, `qsim native --repeat N`):
 * the first report's layout, every measured number replaced by its statistics over the runs
 * (sample_stats.h: {n, mean, sd, median, min, max, ci95_low, ci95_high, interval}), what was
 * asked for (a setting: the caller says which places are) echoed once, and each verdict merged:
 * a fault flag (stalled, faulted, ...) holds if it held in any run, any other boolean (a
 * property such as mutual_exclusion) only if it held in every run.  The model's and the host's
 * repeats share this, so both summaries have one shape (docs/report.md, docs/report.schema.json). */
#ifndef QSIM_REPORT_SUMMARY_H
#define QSIM_REPORT_SUMMARY_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef enum {
    SUMMARY_DATA,   /* each measured number its statistics object (JSON, CSV) */
    SUMMARY_TEXT,   /* each a string "median (min .. max, spread S%; mean M [lo, hi])", or the
                     * number alone where every run agreed */
} SummaryView;

/* TRUE for a place of the layout that was asked for, not measured ("threads", "cpus.0",
 * "per_thread.1.cpu"): echoed from the first report. */
typedef gboolean (*SummarySettingFn)(const char *path);

typedef struct ReportSummary ReportSummary;
ReportSummary *report_summary_new(SummarySettingFn is_setting);
void report_summary_free(ReportSummary *r);
/* Takes what the summary needs from `report` (borrowed): its numbers and verdicts, and the
 * first report's layout.  A member some run lacks is left out; an array whose length differs
 * between runs is echoed from the first. */
void report_summary_add(ReportSummary *r, JsonNode *report);
guint report_summary_count(const ReportSummary *r);
/* The summary of the reports added so far (at least one). */
JsonNode *report_summary_tree(const ReportSummary *r, SummaryView view);

#endif
