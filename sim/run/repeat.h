/* Repeated runs: one `qsim run` over N seeds, each with timing noise (--jitter), every numeric
 * report key summarised as mean, standard deviation, range and 95% confidence interval
 * (sim/base/sample_stats.h), and two such runs compared key by key as a ratio of means with its
 * interval.  A single seeded run can lock into one phase of its threads' interplay (machine
 * clears every round or never); over seeds with noise the interval says what is robust. */
#ifndef QSIM_REPEAT_H
#define QSIM_REPEAT_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "sim/run/run.h"
#include "sim/base/sample_stats.h"
#include "sim/base/report_summary.h"

/* The jitter --repeat uses when none is given: one short event's worth of noise per round (an
 * L2 or LLC hit, a mispredict: 12-40 cycles on the configured machines), so that runs explore
 * the phases a real machine's noise would. */
#define REPEAT_DEFAULT_JITTER 50

typedef struct {
    char *key;               /* flattened report key: "coherence.lock_line.rfo" */
    SampleStats stats;
    double *values;          /* each run's value, in seed order (n of them): the sample itself,
                              * for what a summary cannot say (two modes among the seeds) */
} RepeatKey;

typedef struct {
    guint n;                 /* runs */
    guint64 first_seed;
    GArray *keys;            /* RepeatKey, in the first report's order */
    JsonNode *first;         /* the first run's report ... */
    RunHeadline first_headline; /* ... and what its headline says (who ran what: config, lock, ...) */
    ReportSummary *summary;        /* every run's numbers and verdicts in the report's layout */
    gboolean ok;             /* every run held mutual exclusion and did not stall */
    char *failure;           /* when !ok: the first failing seed and why */
} RepeatResult;

void repeat_result_clear(RepeatResult *r);
/* Runs `o` with seeds o->seed .. o->seed + n - 1.  FALSE with an error for bad input. */
gboolean run_repeated(const RunOptions *o, guint n, RepeatResult *r, GError **error);
const RepeatKey *repeat_find(const RepeatResult *r, const char *key);

/* The summary document's body (kind "summary"; docs/report.md): the first report's layout with
 * each measured number {n, mean, sd, median, min, max, ci95_low, ci95_high, interval} over the
 * runs, `repeat` (the runs) and `ok`. */
JsonNode *repeat_json(const RepeatResult *r);
/* The pair (kind "pair"): {labels: {a, b}, a: summary, b: summary, b_over_a: a's layout with
 * {ratio, ci95_low, ci95_high, significant, interval} wherever both summarised a number}. */
JsonNode *repeat_compare_json(const RepeatResult *a, const RepeatResult *b, const char *label_a,
                              const char *label_b);
/* For people: the headline, then `keys` (NULL-terminated) as mean, sd, range and interval. */
char *repeat_text(const RepeatResult *r, const char *const *keys);
char *repeat_compare_text(const RepeatResult *a, const RepeatResult *b, const char *label_a, const char *label_b,
                          const char *const *keys);
#endif
