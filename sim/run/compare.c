/* `qsim compare` (see compare.h). */
#include <math.h>
#include <string.h>
#include "sim/run/compare.h"
#include "sim/base/report.h"

/* ---- what was published ---- */

/* The seed thread (LKML, 2015-10, "qspinlock: Improve performance by reducing load instruction
 * rollback", ../shared/seeds/000): five runs of each lock, "all cost time" per run, 2 threads on
 * a 2-socket Haswell E5-2699 v3 (COD off, HT on), the data in the lock's line (A) and in
 * another line (B).  The thread gives the totals 533310000 / 424325636 (A, "25%") and
 * 918491736 / 658823632 (B, "39%"); the runs below add up to them. */
static const CompareSeedFigure seed_figures[] = {
    { "qspin", "qspin-cmpxchg", "haswell", HARNESS_SAME_LINE, 2, 5,
      { 103904620, 104351876, 118599784, 103064024, 103389696 },
      { 67081220, 97640708, 96439612, 66699296, 96464800 },
      "2-socket Haswell E5-2699 v3, HT on", "the seed thread, LKML 2015-10 (workload A)" },
    { "qspin", "qspin-cmpxchg", "haswell", HARNESS_SEPARATE_LINE, 2, 5,
      { 174266128, 205053924, 160165124, 173241552, 205765008 },
      { 113410044, 116293104, 116064256, 189320876, 123735352 },
      "2-socket Haswell E5-2699 v3, HT on", "the seed thread, LKML 2015-10 (workload B)" },
};

const CompareSeedFigure *compare_seed_figure(const char *lock_a, const char *lock_b, const char *config,
                                             HarnessPlacement data, guint threads)
{
    for (guint i = 0; i < G_N_ELEMENTS(seed_figures); i++) {
        const CompareSeedFigure *f = &seed_figures[i];
        if (!strcmp(f->lock_a, lock_a) && !strcmp(f->lock_b, lock_b) && !strcmp(f->config, config) &&
            f->data == data && f->threads == threads)
            return f;
    }
    return NULL;
}

/* Where the question is studied at length. */
static const struct {
    const char *lock_a, *lock_b, *doc;
} studies[] = {
    { "qspin", "qspin-cmpxchg", "docs/study-qspin-cmpxchg.md" },
};

guint compare_default_placements(const QsimConfig *cfg, PlacementPolicy out[3])
{
    guint n = 0;
    out[n++] = PLACE_FILL;
    if (cfg->topology.threads_per_core > 1)
        out[n++] = PLACE_SMT;
    if (cfg->topology.sockets > 1)
        out[n++] = PLACE_SPREAD;
    return n;
}

void compare_options_init(CompareOptions *o)
{
    memset(o, 0, sizeof *o);
    o->config = "haswell";
    o->lock_a = "qspin";
    o->lock_b = "qspin-cmpxchg";
    static const guint threads[] = { 2, 3, 4, 8 };
    memcpy(o->threads, threads, sizeof threads);
    o->nthreads = G_N_ELEMENTS(threads);
    o->data[0] = HARNESS_SAME_LINE;
    o->data[1] = HARNESS_SEPARATE_LINE;
    o->ndata = 2;
    o->seeds = 10;
    o->iterations = 300;
    o->other_max_threads = 4;
}

/* ---- running ---- */

typedef enum { SIDE_A, SIDE_B, SIDE_A_NO_ROLLBACK, SIDE__COUNT } Side;

typedef struct {
    const CompareOptions *o;
    CompareRow *row;
    Side side;
    GError *error;
} Cell;

static RepeatResult *side_result(CompareRow *r, Side s)
{
    return s == SIDE_A ? &r->a : s == SIDE_B ? &r->b : &r->a_no_rollback;
}

static void run_cell(gpointer data, gpointer unused)
{
    (void)unused;
    Cell *c = data;
    static const char *const no_rollback[] = { "core.rollback=none", NULL };
    RunOptions ro;
    run_options_init(&ro);
    ro.config = c->o->config;
    ro.lock = c->side == SIDE_B ? c->o->lock_b : c->o->lock_a;
    ro.sets = c->side == SIDE_A_NO_ROLLBACK ? no_rollback : NULL;
    ro.workload.threads = c->row->threads;
    ro.workload.placement.policy = c->row->placement;
    ro.workload.placement.ncpus = 0;
    ro.workload.data = c->row->data;
    ro.workload.iterations = c->o->iterations;
    ro.workload.jitter = REPEAT_DEFAULT_JITTER;
    ro.host_time = FALSE;
    run_repeated(&ro, c->o->seeds, side_result(c->row, c->side), &c->error);
}

static double mean_of(const RepeatResult *r, const char *key)
{
    const RepeatKey *k = repeat_find(r, key);
    return k ? k->stats.mean : 0;
}

static double per_acquisition(const RepeatResult *r, const char *key)
{
    double acq = mean_of(r, "acquisitions");
    return acq > 0 ? mean_of(r, key) / acq : 0;
}

/* The counters that can say why one lock costs more than another, per acquisition, and the
 * smallest difference worth a word. */
#define CLEARS_KEY "machine_clears.memory_ordering"
static const struct {
    const char *key, *name;
    double floor;
    const char *format;    /* of one per-acquisition value */
} mechanisms[] = {
    { "atomics.failed_cas", "failed CAS", 0.05, "%.2f" },
    { "coherence.lock_line.rfo", "lock-line RFOs", 0.05, "%.2f" },
    { "coherence.lock_line.c2c_transfers", "lock-line transfers between caches", 0.05, "%.2f" },
    { CLEARS_KEY, "memory-ordering machine clears", 0.05, "%.2f" },
    { "atomics.cycles", "cycles of atomics at the ROB head", 5, "%.0f" },
    { "coherence.hold_wait_cycles", "cycles snoops waited for a locked line", 5, "%.1f" },
    { "branch_mispredicts.count", "branch mispredicts", 0.05, "%.2f" },
};

/* How far a counter moved, for ranking: |log(b / a)|, a side at 0 counting as far. */
static double movement(double a, double b)
{
    return fabs(log(MAX(b, 1e-3) / MAX(a, 1e-3)));
}

static void explain(CompareRow *r, const CompareOptions *o)
{
    GString *s = g_string_new(NULL);
    const char *a = o->lock_a, *b = o->lock_b;
    if (!r->cost.significant) {
        g_string_append_printf(s, "No significant difference: the interval contains 1.");
    } else {
        gboolean b_costs = r->cost.ratio > 1;
        g_string_append_printf(s, "%s %s.", b, b_costs ? "loses" : "wins");
        /* The two counters that moved furthest with the cost, significantly. */
        guint best[2] = { G_MAXUINT, G_MAXUINT };
        double best_m[2] = { 0, 0 };
        for (guint i = 0; i < G_N_ELEMENTS(mechanisms); i++) {
            double pa = per_acquisition(&r->a, mechanisms[i].key), pb = per_acquisition(&r->b, mechanisms[i].key);
            const RepeatKey *ka = repeat_find(&r->a, mechanisms[i].key), *kb = repeat_find(&r->b, mechanisms[i].key);
            /* Clears that cost a nothing (the rollback what-if below) explain nothing either. */
            gboolean idle_clears = !strcmp(mechanisms[i].key, CLEARS_KEY) && !r->rollback_share.significant;
            if (!ka || !kb || idle_clears || fabs(pb - pa) < mechanisms[i].floor || (pb > pa) != b_costs)
                continue;
            RatioStats rs;
            ratio_stats(&ka->stats, &kb->stats, &rs);
            gboolean one_side_zero = ka->stats.mean == 0 || kb->stats.mean == 0;
            if (!rs.significant && !one_side_zero)
                continue;
            double m = movement(pa, pb);
            for (guint k = 0; k < 2; k++)
                if (best[k] == G_MAXUINT || m > best_m[k]) {
                    if (k == 0) {
                        best[1] = best[0];
                        best_m[1] = best_m[0];
                    }
                    best[k] = i;
                    best_m[k] = m;
                    break;
                }
        }
        if (best[0] != G_MAXUINT) {
            g_string_append_printf(s, " Per acquisition, %s to %s:", a, b);
            for (guint k = 0; k < 2 && best[k] != G_MAXUINT; k++) {
                const char *key = mechanisms[best[k]].key, *f = mechanisms[best[k]].format;
                g_autofree char *fmt = g_strdup_printf("%%s %%s %s -> %s", f, f);
                g_string_append_printf(s, fmt, k ? "," : "", mechanisms[best[k]].name, per_acquisition(&r->a, key),
                                       per_acquisition(&r->b, key));
            }
            g_string_append_c(s, '.');
        } else {
            g_string_append_printf(s, " No counter of contention moved with it significantly: the profiles say "
                                      "where (`qsim run --config %s --lock %s --threads %u --data %s --profile`, and "
                                      "the same for %s).", o->config, a, r->threads,
                                   r->data == HARNESS_SAME_LINE ? "same-line" : "separate-line", b);
        }
    }
    /* The seed's mechanism: is load rollback where A's time goes? */
    double clears = per_acquisition(&r->a, CLEARS_KEY), clears_b = per_acquisition(&r->b, CLEARS_KEY);
    if (clears < 0.01)
        g_string_append_printf(s, " Rollback: %s takes no memory-ordering clears to save.", a);
    else if (!r->rollback_share.significant)
        g_string_append_printf(s, " Rollback: %s takes %.2f memory-ordering clears per acquisition (%s %.2f), but "
                                  "without rollback (core.rollback=none) its cycles do not move (%.3f [%.3f, %.3f]): "
                                  "they are not where its time goes.",
                               a, clears, b, clears_b, r->rollback_share.ratio, r->rollback_share.ci_low,
                               r->rollback_share.ci_high);
    else
        g_string_append_printf(s, " Rollback: %s takes %.2f memory-ordering clears per acquisition (%s %.2f); "
                                  "without rollback (core.rollback=none) its cycles are %.3f [%.3f, %.3f] of theirs.",
                               a, clears, b, clears_b, r->rollback_share.ratio, r->rollback_share.ci_low,
                               r->rollback_share.ci_high);
    r->sentence = g_string_free(s, FALSE);
}

static void seed_ratio(const CompareSeedFigure *f, RatioStats *out)
{
    SampleStats a, b;
    sample_stats(f->a, f->n, &a);
    sample_stats(f->b, f->n, &b);
    ratio_stats(&a, &b, out);
}

static void finish_row(CompareRow *r, CompareResult *res)
{
    const CompareOptions *o = &res->o;
    const RepeatKey *a = repeat_find(&r->a, "cycles_per_acquisition"), *b = repeat_find(&r->b, "cycles_per_acquisition");
    const RepeatKey *n = repeat_find(&r->a_no_rollback, "cycles_per_acquisition");
    if (a && b)
        ratio_stats(&a->stats, &b->stats, &r->cost);
    if (a && n)
        ratio_stats(&a->stats, &n->stats, &r->rollback_share);
    r->seed = compare_seed_figure(o->lock_a, o->lock_b, res->config_name, r->data, r->threads);
    if (r->seed)
        seed_ratio(r->seed, &r->seed_ratio);
    explain(r, o);
    for (Side s = 0; s < SIDE__COUNT; s++) {
        const RepeatResult *rr = side_result(r, s);
        if (!rr->ok && res->ok) {
            res->ok = FALSE;
            res->failure = g_strdup_printf("%s, %u threads, %s: %s", s == SIDE_B ? o->lock_b : o->lock_a,
                                           r->threads, r->data == HARNESS_SAME_LINE ? "A" : "B", rr->failure);
        }
    }
}

CompareResult *compare_run(const CompareOptions *o, GError **error)
{
    g_autoptr(QsimConfig) cfg = config_load(o->config, NULL, error);
    if (!cfg)
        return NULL;
    CompareResult *res = g_new0(CompareResult, 1);
    res->o = *o;
    res->config_name = g_strdup(cfg->name);
    res->ok = TRUE;
    res->rows = g_array_new(FALSE, TRUE, sizeof(CompareRow));
    if (!res->o.nplacements)
        res->o.nplacements = compare_default_placements(cfg, res->o.placements);
    for (guint d = 0; d < o->ndata; d++)
        for (guint p = 0; p < res->o.nplacements; p++)
            for (guint t = 0; t < o->nthreads; t++) {
                if (res->o.placements[p] != PLACE_FILL && o->other_max_threads && o->threads[t] > o->other_max_threads)
                    continue;
                CompareRow row = { .threads = o->threads[t], .data = o->data[d], .placement = res->o.placements[p] };
                g_array_append_val(res->rows, row);
            }
    guint ncells = res->rows->len * SIDE__COUNT;
    Cell *cells = g_new0(Cell, ncells);
    guint jobs = o->jobs ? o->jobs : MAX(1u, g_get_num_processors());
    GThreadPool *pool = g_thread_pool_new(run_cell, NULL, (gint)jobs, TRUE, NULL);
    /* The largest rows first, so that the last to finish is a short one. */
    for (guint k = ncells; k-- > 0;) {
        cells[k] = (Cell){ &res->o, &g_array_index(res->rows, CompareRow, k / SIDE__COUNT), k % SIDE__COUNT, NULL };
        g_thread_pool_push(pool, &cells[k], NULL);
    }
    g_thread_pool_free(pool, FALSE, TRUE);
    GError *first = NULL;
    for (guint k = 0; k < ncells; k++) {
        if (cells[k].error && !first)
            first = cells[k].error;
        else if (cells[k].error)
            g_error_free(cells[k].error);
    }
    g_free(cells);
    if (first) {
        g_propagate_error(error, first);
        compare_result_free(res);
        return NULL;
    }
    for (guint i = 0; i < res->rows->len; i++)
        finish_row(&g_array_index(res->rows, CompareRow, i), res);
    return res;
}

void compare_result_free(CompareResult *r)
{
    if (!r)
        return;
    for (guint i = 0; r->rows && i < r->rows->len; i++) {
        CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        for (Side s = 0; s < SIDE__COUNT; s++)
            repeat_result_clear(side_result(row, s));
        g_free(row->sentence);
    }
    if (r->rows)
        g_array_free(r->rows, TRUE);
    g_free(r->config_name);
    g_free(r->failure);
    g_free(r);
}

/* ---- writing ---- */

static const char *workload_name(HarnessPlacement d) { return d == HARNESS_SAME_LINE ? "A" : "B"; }

/* A policy's name (placement_choices is in PlacementPolicy order; a compare has no CPU lists). */
static const char *placement_name(PlacementPolicy p) { return placement_choices[p]; }

static const char *study_of(const CompareOptions *o)
{
    for (guint i = 0; i < G_N_ELEMENTS(studies); i++)
        if (!strcmp(studies[i].lock_a, o->lock_a) && !strcmp(studies[i].lock_b, o->lock_b))
            return studies[i].doc;
    return NULL;
}

char *compare_text(const CompareResult *r)
{
    const CompareOptions *o = &r->o;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "Does %s beat %s on %s?  b/a: %s's cycles per acquisition over %s's (below 1: %s "
                              "wins), mean of %u seeded runs each with timing noise (jitter %d cycles), %u "
                              "acquisitions per thread, 95%% interval (t on the log scale); `=`: the interval "
                              "contains 1.\n"
                              "Workload A: the critical section's data in the lock's line; B: in a line of its own.\n\n",
                           o->lock_b, o->lock_a, r->config_name, o->lock_b, o->lock_a, o->lock_b, o->seeds,
                           REPEAT_DEFAULT_JITTER, o->iterations);
    g_string_append_printf(s, "Placement: fill puts the threads on cores of one socket, smt on sibling hardware "
                              "threads first (2 threads: one core), spread across sockets.\n\n");
    g_string_append_printf(s, "%-8s %-9s %7s  %-24s %s\n", "workload", "placement", "threads", "b/a (model)",
                           "published");
    for (guint i = 0; i < r->rows->len; i++) {
        const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        g_autofree char *ratio = g_strdup_printf("%.3f [%.3f, %.3f]%s", row->cost.ratio, row->cost.ci_low,
                                                 row->cost.ci_high, row->cost.significant ? "" : " =");
        g_autofree char *pub = row->seed ? g_strdup_printf("%.3f [%.3f, %.3f]%s (%s, %u runs each; %s)",
                                                           row->seed_ratio.ratio, row->seed_ratio.ci_low,
                                                           row->seed_ratio.ci_high,
                                                           row->seed_ratio.significant ? "" : " =",
                                                           row->seed->machine, row->seed->n, row->seed->source)
                                         : g_strdup("-");
        g_string_append_printf(s, "%-8s %-9s %7u  %-24s %s\n", workload_name(row->data), placement_name(row->placement),
                               row->threads, ratio, pub);
        g_string_append_printf(s, "%27s%s\n", "", row->sentence);
    }
    const char *doc = study_of(o);
    if (doc)
        g_string_append_printf(s, "\nWhy, row by row, with profiles, long holds, throughput and the other machines: "
                                  "%s (`make study` regenerates its tables).\n", doc);
    if (!r->ok)
        g_string_append_printf(s, "\nA run failed: %s\n", r->failure);
    return g_string_free(s, FALSE);
}

static void add_ratio(JsonBuilder *b, const char *name, const RatioStats *rs)
{
    json_builder_set_member_name(b, name);
    ratio_stats_add_json(b, rs);
}

JsonNode *compare_json(const CompareResult *r)
{
    const CompareOptions *o = &r->o;
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", r->config_name);
    report_add_string(b, "a", o->lock_a);
    report_add_string(b, "b", o->lock_b);
    report_add_string(b, "ratio", "b / a of cycles_per_acquisition, the ratio of the means, with its 95% interval");
    report_add_int(b, "seeds", o->seeds);
    report_add_int(b, "iterations", o->iterations);
    report_add_int(b, "jitter", REPEAT_DEFAULT_JITTER);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint i = 0; i < r->rows->len; i++) {
        const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        json_builder_begin_object(b);
        report_add_string(b, "workload", workload_name(row->data));
        report_add_string(b, "data", row->data == HARNESS_SAME_LINE ? "same-line" : "separate-line");
        report_add_int(b, "threads", row->threads);
        report_add_string(b, "placement", placement_name(row->placement));
        add_ratio(b, "b_over_a", &row->cost);
        add_ratio(b, "a_without_rollback", &row->rollback_share);
        if (row->seed) {
            json_builder_set_member_name(b, "published");
            json_builder_begin_object(b);
            add_ratio(b, "b_over_a", &row->seed_ratio);
            report_add_int(b, "runs", row->seed->n);
            report_add_string(b, "machine", row->seed->machine);
            report_add_string(b, "source", row->seed->source);
            json_builder_end_object(b);
        }
        json_builder_set_member_name(b, "per_acquisition");
        json_builder_begin_object(b);
        for (guint m = 0; m < G_N_ELEMENTS(mechanisms); m++) {
            json_builder_set_member_name(b, mechanisms[m].key);
            json_builder_begin_object(b);
            report_add_double(b, "a", per_acquisition(&row->a, mechanisms[m].key));
            report_add_double(b, "b", per_acquisition(&row->b, mechanisms[m].key));
            json_builder_end_object(b);
        }
        json_builder_end_object(b);
        report_add_string(b, "verdict", row->sentence);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    const char *doc = study_of(o);
    if (doc)
        report_add_string(b, "study", doc);
    report_add_bool(b, "ok", r->ok);
    json_builder_end_object(b);
    return json_builder_get_root(b);
}
