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
    /* think: 0 (the seed's lock-hammering loop), 50 (just under one handover), 100 and 120 (the
     * edges of qspin's bistable band), 180, 400 (past the handover: the lock mostly free);
     * jitter: 50 (one short event) and 500 (noise the size of the think times themselves). */
    static const guint thinks[] = { 0, 50, 100, 120, 180, 400 }, jitters[] = { 50, 500 };
    memcpy(o->thinks, thinks, sizeof thinks);
    o->nthinks = G_N_ELEMENTS(thinks);
    memcpy(o->jitters, jitters, sizeof jitters);
    o->njitters = G_N_ELEMENTS(jitters);
    o->timing_seeds = 3;
    o->timing_iterations = 100;
    o->check_seeds = 3;
    o->window = 100000;
    o->warmup = 10000;
}

/* ---- running ---- */

/* One RepeatResult to make: a lock at a timing, fixed work or a window, maybe with a setting. */
typedef struct {
    const CompareOptions *o;
    const CompareRow *row;
    const char *lock;
    guint think, jitter, iterations, seeds;
    gboolean window;
    char set[64];                /* a config override, or "" */
    RepeatResult *out;
    GError *error;
} Cell;

static void run_cell(gpointer data, gpointer unused)
{
    (void)unused;
    Cell *c = data;
    const char *sets[] = { c->set, NULL };
    RunOptions ro;
    run_options_init(&ro);
    ro.config = c->o->config;
    ro.lock = c->lock;
    ro.sets = c->set[0] ? sets : NULL;
    ro.workload.threads = c->row->threads;
    ro.workload.placement.policy = c->row->placement;
    ro.workload.placement.ncpus = 0;
    ro.workload.data = c->row->data;
    ro.workload.think = c->think;
    ro.workload.jitter = c->jitter;
    if (c->window) {
        ro.workload.duration = c->o->window;
        ro.workload.warmup = c->o->warmup;
    } else {
        ro.workload.iterations = c->iterations;
    }
    ro.host_time = FALSE;
    run_repeated(&ro, c->seeds, c->out, &c->error);
}

/* The cells of one phase, run on a pool (the largest first, so that the last to finish is a
 * short one: callers add them smallest first). */
typedef struct {
    GArray *cells;               /* Cell */
} Phase;

static Cell *phase_add(Phase *ph, const CompareOptions *o, const CompareRow *row, const char *lock, guint think,
                       guint jitter, RepeatResult *out)
{
    Cell c = { .o = o, .row = row, .lock = lock, .think = think, .jitter = jitter, .iterations = o->iterations,
               .seeds = o->seeds, .out = out };
    g_array_append_val(ph->cells, c);
    return &g_array_index(ph->cells, Cell, ph->cells->len - 1);
}

static gboolean phase_run(Phase *ph, guint jobs, GError **error)
{
    GThreadPool *pool = g_thread_pool_new(run_cell, NULL, (gint)jobs, TRUE, NULL);
    for (guint k = ph->cells->len; k-- > 0;)
        g_thread_pool_push(pool, &g_array_index(ph->cells, Cell, k), NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
    GError *first = NULL;
    for (guint k = 0; k < ph->cells->len; k++) {
        Cell *c = &g_array_index(ph->cells, Cell, k);
        if (c->error && !first)
            first = c->error;
        else if (c->error)
            g_error_free(c->error);
    }
    g_array_set_size(ph->cells, 0);
    if (first) {
        g_propagate_error(error, first);
        return FALSE;
    }
    return TRUE;
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

static double compare_mode_mean(const RepeatResult *r, const guint *member, guint m, const char *key, gboolean per);

/* One side's regimes: "qspin: 1 of 10 seeds at 124 cycles per acquisition (failed CAS 0.20 per
 * acquisition, longest streak 150), 9 at 320-328 (...)". */
static void append_regimes(GString *s, const char *lock, const RepeatResult *r, const SampleModes *m,
                           const guint *member)
{
    g_string_append_printf(s, " %s:", lock);
    if (m->nmodes <= 1) {
        g_string_append_printf(s, " one regime, %.0f cycles per acquisition;", m->mode[0].mean);
        return;
    }
    for (guint k = 0; k < m->nmodes; k++) {
        const SampleMode *md = &m->mode[k];
        g_autofree char *at = md->high - md->low < 0.5 ? g_strdup_printf("%.0f", md->mean)
                                                        : g_strdup_printf("%.0f-%.0f", md->low, md->high);
        g_string_append_printf(s, "%s %u of %u seeds at %s cycles per acquisition (failed CAS %.2f per acquisition, "
                                  "longest streak %.0f)",
                               k ? "," : "", md->n, r->n, at,
                               compare_mode_mean(r, member, k, "atomics.failed_cas", TRUE),
                               compare_mode_mean(r, member, k, "fairness.longest_streak", FALSE));
    }
    g_string_append_c(s, ';');
}

gboolean compare_row_modal(const CompareRow *r)
{
    return r->modes_a.nmodes > 1 || r->modes_b.nmodes > 1;
}

static void explain(CompareRow *r, const CompareOptions *o)
{
    GString *s = g_string_new(NULL);
    const char *a = o->lock_a, *b = o->lock_b;
    gboolean modal = compare_row_modal(r);
    if (modal) {
        /* No interval across regimes: each regime's cycles, and b/a against each. */
        g_string_append(s, "Separate regimes over the seeds, so no one interval:");
        append_regimes(s, a, &r->a, &r->modes_a, r->member_a);
        append_regimes(s, b, &r->b, &r->modes_b, r->member_b);
        gboolean both = r->modes_a.nmodes > 1 && r->modes_b.nmodes > 1;
        if (both)
            g_string_append_printf(s, " b/a for each pair of regimes (%s's n-th with %s's m-th, as listed):", a, b);
        else
            g_string_append_printf(s, " b/a against each of %s's regimes:", r->modes_a.nmodes > 1 ? a : b);
        for (guint i = 0; i < r->modes_a.nmodes; i++)
            for (guint j = 0; j < r->modes_b.nmodes; j++) {
                g_autofree char *label = both ? g_strdup_printf(" %u-%u", i + 1, j + 1) : g_strdup("");
                g_string_append_printf(s, "%s%s %.3f", i || j ? "," : "", label,
                                       r->modes_b.mode[j].mean / r->modes_a.mode[i].mean);
            }
        g_string_append_c(s, '.');
    } else if (!r->cost.significant) {
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
    if (clears >= 0.01 && r->modes_a.nmodes > 1)
        g_string_append_printf(s, " Rollback: %s takes %.2f memory-ordering clears per acquisition (%s %.2f); "
                                  "without rollback (core.rollback=none) its mean cycles are %.3f of theirs.",
                               a, clears, b, clears_b, r->rollback_share.ratio);
    else if (clears < 0.01)
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

/* Each seed's value of `key` over each seed's acquisitions (per == TRUE) or as it is. */
static double seed_value(const RepeatResult *r, const char *key, guint seed, gboolean per)
{
    const RepeatKey *k = repeat_find(r, key), *acq = repeat_find(r, "acquisitions");
    if (!k || !k->values)
        return 0;
    if (!per)
        return k->values[seed];
    return acq && acq->values && acq->values[seed] > 0 ? k->values[seed] / acq->values[seed] : 0;
}

/* The mean of a seed-wise value over the seeds in mode m. */
static double compare_mode_mean(const RepeatResult *r, const guint *member, guint m, const char *key, gboolean per)
{
    double sum = 0;
    guint n = 0;
    for (guint i = 0; member && i < r->n; i++)
        if (member[i] == m) {
            sum += seed_value(r, key, i, per);
            n++;
        }
    return n ? sum / n : 0;
}

static void find_seed_modes(const RepeatResult *r, SampleModes *modes, guint **member)
{
    const RepeatKey *k = repeat_find(r, "cycles_per_acquisition");
    memset(modes, 0, sizeof *modes);
    if (!k || !k->values)
        return;
    *member = g_new0(guint, r->n);
    sample_modes(k->values, r->n, modes, *member);
}

static gboolean cost_of(const RepeatResult *a, const RepeatResult *b, RatioStats *out)
{
    const RepeatKey *ka = repeat_find(a, "cycles_per_acquisition"), *kb = repeat_find(b, "cycles_per_acquisition");
    memset(out, 0, sizeof *out);
    if (!ka || !kb)
        return FALSE;
    ratio_stats(&ka->stats, &kb->stats, out);
    return TRUE;
}

static void note_failure(CompareResult *res, const RepeatResult *rr, const char *lock, const CompareRow *r,
                         const char *what)
{
    if (rr->n && !rr->ok && res->ok) {
        res->ok = FALSE;
        res->failure = g_strdup_printf("%s, %u threads, %s%s: %s", lock, r->threads,
                                       r->data == HARNESS_SAME_LINE ? "A" : "B", what, rr->failure);
    }
}

static void finish_row(CompareRow *r, CompareResult *res)
{
    const CompareOptions *o = &res->o;
    const RepeatKey *a = repeat_find(&r->a, "cycles_per_acquisition");
    const RepeatKey *n = repeat_find(&r->a_no_rollback, "cycles_per_acquisition");
    cost_of(&r->a, &r->b, &r->cost);
    if (a && n)
        ratio_stats(&a->stats, &n->stats, &r->rollback_share);
    r->seed = compare_seed_figure(o->lock_a, o->lock_b, res->config_name, r->data, r->threads);
    if (r->seed)
        seed_ratio(r->seed, &r->seed_ratio);
    find_seed_modes(&r->a, &r->modes_a, &r->member_a);
    find_seed_modes(&r->b, &r->modes_b, &r->member_b);
    explain(r, o);
    note_failure(res, &r->a, o->lock_a, r, "");
    note_failure(res, &r->b, o->lock_b, r, "");
    note_failure(res, &r->a_no_rollback, o->lock_a, r, ", core.rollback=none");
    guint ns = o->nthinks * o->njitters;
    if (r->timing_a) {
        double *ratio = g_new0(double, ns);
        for (guint k = 0; k < ns; k++) {
            cost_of(&r->timing_a[k], &r->timing_b[k], &r->timing_cost[k]);
            r->timing_verdict[k] = compare_verdict_point(r->timing_cost[k].ratio);
            ratio[k] = r->timing_cost[k].ratio;
            note_failure(res, &r->timing_a[k], o->lock_a, r, ", timing axis");
            note_failure(res, &r->timing_b[k], o->lock_b, r, ", timing axis");
        }
        timing_spread(ratio, r->timing_verdict, ns, &r->timing, r->timing_mode);
        g_free(ratio);
    }
    if (r->window_a.n) {
        const RepeatKey *ta = repeat_find(&r->window_a, "acquisitions_per_kcycle");
        const RepeatKey *tb = repeat_find(&r->window_b, "acquisitions_per_kcycle");
        if (ta && tb)
            ratio_stats(&ta->stats, &tb->stats, &r->window_throughput);
        note_failure(res, &r->window_a, o->lock_a, r, ", window");
        note_failure(res, &r->window_b, o->lock_b, r, ", window");
    }
}

/* The verdict at a penalty. */
static CompareVerdict penalty_verdict(const RepeatResult *a, const RepeatResult *b,
                                      RatioStats *out)
{
    cost_of(a, b, out);
    return compare_verdict_point(out->ratio);
}

static void penalty_start(CompareRow *r)
{
    PenaltyRange *p = &r->penalty;
    p->verdict = compare_verdict_point(r->cost.ratio);
    const RepeatResult *fa = p->floor == p->configured ? &r->a : &r->penalty_a[0];
    const RepeatResult *fb = p->floor == p->configured ? &r->b : &r->penalty_b[0];
    const RepeatResult *ta = p->top == p->configured ? &r->a : &r->penalty_a[1];
    const RepeatResult *tb = p->top == p->configured ? &r->b : &r->penalty_b[1];
    CompareVerdict vf = penalty_verdict(fa, fb, &p->at_floor), vt = penalty_verdict(ta, tb, &p->at_top);
    p->robust = vf == p->verdict && vt == p->verdict;
    if (p->robust)
        return;
    /* The end that flips, the floor first: it is nearer the configured penalty. */
    gboolean floor_flips = vf != p->verdict;
    p->holds_to = p->configured;
    p->flips_at = floor_flips ? p->floor : p->top;
    p->flipped = floor_flips ? vf : vt;
    p->at_flip = floor_flips ? p->at_floor : p->at_top;
    r->probe = penalty_probe(p->holds_to, p->flips_at);
}

static void penalty_step(CompareRow *r)
{
    PenaltyRange *p = &r->penalty;
    RatioStats at;
    CompareVerdict v = penalty_verdict(&r->probe_a, &r->probe_b, &at);
    if (v == p->verdict) {
        p->holds_to = r->probe;
    } else {
        p->flips_at = r->probe;
        p->flipped = v;
        p->at_flip = at;
    }
    repeat_result_clear(&r->probe_a);
    repeat_result_clear(&r->probe_b);
    r->probe = penalty_probe(p->holds_to, p->flips_at);
}

static void add_penalty_cells(Phase *ph, const CompareOptions *o, CompareRow *r, guint penalty, RepeatResult *a,
                              RepeatResult *b)
{
    RepeatResult *out[2] = { a, b };
    const char *lock[2] = { o->lock_a, o->lock_b };
    for (guint s = 0; s < 2; s++) {
        Cell *c = phase_add(ph, o, r, lock[s], 0, REPEAT_DEFAULT_JITTER, out[s]);
        c->seeds = o->check_seeds;
        g_snprintf(c->set, sizeof c->set, "core.machine_clear_penalty=%u", penalty);
    }
}

CompareResult *compare_run(const CompareOptions *o, GError **error)
{
    g_autoptr(QsimConfig) cfg = config_load(o->config, NULL, error);
    if (!cfg)
        return NULL;
    CompareResult *res = g_new0(CompareResult, 1);
    res->o = *o;
    const CompareOptions *ro = &res->o;
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
    guint ns = ro->timing_seeds ? ro->nthinks * ro->njitters : 0;
    gboolean penalty = ro->check_seeds && cfg->arch == ARCH_X86;
    Phase ph = { g_array_new(FALSE, TRUE, sizeof(Cell)) };
    /* the cheap checks first, the main runs last: the pool starts from the end */
    for (guint i = 0; i < res->rows->len; i++) {
        CompareRow *r = &g_array_index(res->rows, CompareRow, i);
        if (ns) {
            r->timing_a = g_new0(RepeatResult, ns);
            r->timing_b = g_new0(RepeatResult, ns);
            r->timing_cost = g_new0(RatioStats, ns);
            r->timing_verdict = g_new0(CompareVerdict, ns);
            r->timing_mode = g_new0(guint, ns);
            for (guint k = 0; k < ns; k++) {
                guint think = ro->thinks[k / ro->njitters], jitter = ro->jitters[k % ro->njitters];
                RepeatResult *out[2] = { &r->timing_a[k], &r->timing_b[k] };
                const char *lock[2] = { ro->lock_a, ro->lock_b };
                for (guint s = 0; s < 2; s++) {
                    Cell *c = phase_add(&ph, ro, r, lock[s], think, jitter, out[s]);
                    c->seeds = ro->timing_seeds;
                    c->iterations = ro->timing_iterations;
                }
            }
        }
        if (ro->check_seeds) {
            RepeatResult *out[2] = { &r->window_a, &r->window_b };
            const char *lock[2] = { ro->lock_a, ro->lock_b };
            for (guint s = 0; s < 2; s++) {
                Cell *c = phase_add(&ph, ro, r, lock[s], 0, REPEAT_DEFAULT_JITTER, out[s]);
                c->seeds = ro->check_seeds;
                c->window = TRUE;
            }
        }
        if (penalty) {
            PenaltyRange *p = &r->penalty;
            p->checked = TRUE;
            p->configured = (guint)cfg->core.machine_clear_penalty;
            p->floor = (guint)MIN(cfg->core.branch_mispredict_penalty, cfg->core.machine_clear_penalty);
            p->top = MAX(CLEAR_PENALTY_TOP, p->configured);
            if (p->floor != p->configured)
                add_penalty_cells(&ph, ro, r, p->floor, &r->penalty_a[0], &r->penalty_b[0]);
            if (p->top != p->configured)
                add_penalty_cells(&ph, ro, r, p->top, &r->penalty_a[1], &r->penalty_b[1]);
        }
    }
    static const char *const no_rollback = "core.rollback=none";
    for (guint i = 0; i < res->rows->len; i++) {
        CompareRow *r = &g_array_index(res->rows, CompareRow, i);
        phase_add(&ph, ro, r, ro->lock_a, 0, REPEAT_DEFAULT_JITTER, &r->a);
        phase_add(&ph, ro, r, ro->lock_b, 0, REPEAT_DEFAULT_JITTER, &r->b);
        Cell *c = phase_add(&ph, ro, r, ro->lock_a, 0, REPEAT_DEFAULT_JITTER, &r->a_no_rollback);
        g_strlcpy(c->set, no_rollback, sizeof c->set);
    }
    guint jobs = o->jobs ? o->jobs : MAX(1u, g_get_num_processors());
    gboolean ran = phase_run(&ph, jobs, error);
    if (ran) {
        for (guint i = 0; i < res->rows->len; i++) {
            CompareRow *r = &g_array_index(res->rows, CompareRow, i);
            finish_row(r, res);
            if (penalty)
                penalty_start(r);
        }
    }
    /* Where the penalty flips a verdict: halve the gap (geometrically) until it is a factor of 1.5. */
    for (gboolean more = ran && penalty; more && ran;) {
        more = FALSE;
        for (guint i = 0; i < res->rows->len; i++) {
            CompareRow *r = &g_array_index(res->rows, CompareRow, i);
            if (r->probe) {
                add_penalty_cells(&ph, ro, r, r->probe, &r->probe_a, &r->probe_b);
                more = TRUE;
            }
        }
        if (!more || !(ran = phase_run(&ph, jobs, error)))
            break;
        for (guint i = 0; i < res->rows->len; i++) {
            CompareRow *r = &g_array_index(res->rows, CompareRow, i);
            if (r->probe)
                penalty_step(r);
        }
    }
    g_array_free(ph.cells, TRUE);
    if (!ran) {
        compare_result_free(res);
        return NULL;
    }
    return res;
}

void compare_result_free(CompareResult *r)
{
    if (!r)
        return;
    guint ns = r->o.timing_seeds ? r->o.nthinks * r->o.njitters : 0;
    for (guint i = 0; r->rows && i < r->rows->len; i++) {
        CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        RepeatResult *all[] = { &row->a, &row->b, &row->a_no_rollback, &row->window_a, &row->window_b,
                                &row->penalty_a[0], &row->penalty_a[1], &row->penalty_b[0], &row->penalty_b[1],
                                &row->probe_a, &row->probe_b };
        for (guint k = 0; k < G_N_ELEMENTS(all); k++)
            repeat_result_clear(all[k]);
        for (guint k = 0; row->timing_a && k < ns; k++) {
            repeat_result_clear(&row->timing_a[k]);
            repeat_result_clear(&row->timing_b[k]);
        }
        g_free(row->timing_a);
        g_free(row->timing_b);
        g_free(row->timing_cost);
        g_free(row->timing_verdict);
        g_free(row->timing_mode);
        g_free(row->member_a);
        g_free(row->member_b);
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

static guint timing_count(const CompareOptions *o) { return o->timing_seeds ? o->nthinks * o->njitters : 0; }

static char *uint_list(const guint *v, guint n)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(s, "%s%u", i ? ", " : "", v[i]);
    return g_string_free(s, FALSE);
}

/* The settings in mode m, as think/jitter. */
static void append_settings_of_mode(GString *s, const CompareRow *row, const CompareOptions *o, guint m)
{
    guint ns = timing_count(o), shown = 0;
    for (guint k = 0; k < ns; k++)
        if (row->timing_mode[k] == m)
            g_string_append_printf(s, "%s%u/%u", shown++ ? " " : "", o->thinks[k / o->njitters],
                                   o->jitters[k % o->njitters]);
}

/* The row's spread over the timing settings, in words. */
static void append_timing(GString *s, const CompareRow *row, const CompareOptions *o)
{
    const TimingSpread *t = &row->timing;
    g_string_append_printf(s, "Over %u timings: b/a median %.2f, range %.2f-%.2f; b wins at %u, loses at %u, even at "
                              "%u.",
                           t->n, t->median, t->min, t->max, t->wins, t->loses, t->even);
    if (t->modes.nmodes > 1) {
        g_string_append_printf(s, " %u regimes (think/jitter):", t->modes.nmodes);
        for (guint m = 0; m < t->modes.nmodes; m++) {
            const SampleMode *md = &t->modes.mode[m];
            g_string_append_printf(s, "%s b/a %.2f-%.2f at %u of %u (", m ? ";" : "", md->low, md->high, md->n, t->n);
            append_settings_of_mode(s, row, o, m);
            g_string_append_c(s, ')');
        }
        g_string_append_c(s, '.');
    }
    guint ns = timing_count(o);
    g_string_append(s, " By think/jitter:");
    for (guint k = 0; k < ns; k++)
        g_string_append_printf(s, "%s %u/%u %.2f%s", k ? "," : "", o->thinks[k / o->njitters], o->jitters[k % o->njitters],
                               row->timing_cost[k].ratio,
                               row->timing_verdict[k] == VERDICT_EVEN ? "=" : "");
    g_string_append_c(s, '.');
    /* settings whose own seeds split (seen only with enough seeds per setting) */
    for (guint k = 0; k < ns; k++) {
        SampleModes ma, mb;
        const RepeatKey *ka = repeat_find(&row->timing_a[k], "cycles_per_acquisition");
        const RepeatKey *kb = repeat_find(&row->timing_b[k], "cycles_per_acquisition");
        if (!ka || !kb || !ka->values || !kb->values)
            continue;
        sample_modes(ka->values, row->timing_a[k].n, &ma, NULL);
        sample_modes(kb->values, row->timing_b[k].n, &mb, NULL);
        if (ma.nmodes > 1 || mb.nmodes > 1)
            g_string_append_printf(s, " At think %u, jitter %u the seeds split (%s in %u regimes, %s in %u): its b/a "
                                      "%.2f is a mean over regimes.",
                                   o->thinks[k / o->njitters], o->jitters[k % o->njitters], o->lock_a, ma.nmodes,
                                   o->lock_b, mb.nmodes, row->timing_cost[k].ratio);
    }
}

/* Throughput over the window, per-thread share and streaks, beside the cycles. */
static void append_fairness(GString *s, const CompareRow *row, const CompareOptions *o)
{
    g_string_append_printf(s, "Fairness, fixed work: longest streak %s %.0f, %s %.0f of %u.",
                           o->lock_a, mean_of(&row->a, "fairness.longest_streak"), o->lock_b,
                           mean_of(&row->b, "fairness.longest_streak"), o->iterations);
    if (!row->window_a.n)
        return;
    const RepeatResult *w[2] = { &row->window_a, &row->window_b };
    g_string_append_printf(s, " Window: throughput b/a %.3f [%.3f, %.3f] (above 1: b wins);", row->window_throughput.ratio,
                           row->window_throughput.ci_low, row->window_throughput.ci_high);
    for (guint k = 0; k < 2; k++) {
        double acq = mean_of(w[k], "acquisitions");
        g_string_append_printf(s, "%s %s per thread %.0f-%.0f%% of acquisitions, longest streak %.0f", k ? "," : "",
                               k ? o->lock_b : o->lock_a, acq > 0 ? 100 * mean_of(w[k], "fairness.min") / acq : 0,
                               acq > 0 ? 100 * mean_of(w[k], "fairness.max") / acq : 0,
                               mean_of(w[k], "fairness.longest_streak"));
    }
    g_string_append_c(s, '.');
}

char *compare_lead(const CompareResult *r)
{
    const CompareOptions *o = &r->o;
    GString *s = g_string_new(NULL);
    guint n = r->rows->len, wins = 0, loses = 0, even = 0, modal = 0, robust = 0, checked = 0;
    guint cells = 0, cwins = 0, closes = 0;
    for (guint i = 0; i < n; i++) {
        const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        CompareVerdict v = compare_verdict_of(&row->cost);
        gboolean m = compare_row_modal(row);
        modal += m;
        wins += !m && v == VERDICT_B_WINS;
        loses += !m && v == VERDICT_B_LOSES;
        even += !m && v == VERDICT_EVEN;
        checked += row->penalty.checked;
        robust += row->penalty.checked && row->penalty.robust;
        cells += row->timing.n;
        cwins += row->timing.wins;
        closes += row->timing.loses;
    }
    guint turns = 0, published = 0;
    for (guint i = 0; i < n; i++) {
        const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        turns += row->timing.n && row->timing.min < 1 - COMPARE_EVEN_BAND && row->timing.max > 1 + COMPARE_EVEN_BAND;
        published += row->seed != NULL;
    }
    g_string_append_printf(s, "In short: %s against %s on %s, at think 0 and jitter %d, wins in %u of %u rows, loses in "
                              "%u, is even in %u",
                           o->lock_b, o->lock_a, r->config_name, REPEAT_DEFAULT_JITTER, wins, n, loses, even);
    if (modal)
        g_string_append_printf(s, " and splits into regimes over the seeds in %u", modal);
    g_string_append_printf(s, " (a win: b/a more than %.0f%% below 1, its interval too).", 100 * COMPARE_EVEN_BAND);
    if (cells) {
        g_autofree char *th = uint_list(o->thinks, o->nthinks), *ji = uint_list(o->jitters, o->njitters);
        g_string_append_printf(s, " Over think {%s} x jitter {%s} it wins in %u of %u row-timings and loses in %u; in "
                                  "%u rows the winner changes with the timing%s.",
                               th, ji, cwins, cells, closes, turns,
                               published ? ", which the published measurement does not give" : "");
        /* the first row of each workload: the fewest threads, on the first placement */
        for (guint d = 0; d < o->ndata; d++)
            for (guint i = 0; i < n; i++) {
                const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
                if (row->data != o->data[d])
                    continue;
                gboolean turn = row->timing.min < 1 - COMPARE_EVEN_BAND && row->timing.max > 1 + COMPARE_EVEN_BAND;
                g_string_append_printf(s, " Workload %s, %u threads, %s: b/a %.2f-%.2f over the timings (median "
                                          "%.2f), %s.",
                                       workload_name(row->data), row->threads, placement_name(row->placement),
                                       row->timing.min, row->timing.max, row->timing.median,
                                       turn ? "the winner changes with the timing" : "one side or even throughout");
                break;
            }
    }
    if (checked)
        g_string_append_printf(s, " Over the clear penalty's plausible range (%u-%u cycles, unpublished for this machine) "
                                  "the verdict holds in %u of %u rows.",
                               g_array_index(r->rows, CompareRow, 0).penalty.floor,
                               g_array_index(r->rows, CompareRow, 0).penalty.top, robust, checked);
    g_string_append_printf(s, " Quote a distribution, not one ratio.\n");
    return g_string_free(s, FALSE);
}

char *compare_text(const CompareResult *r)
{
    const CompareOptions *o = &r->o;
    GString *s = g_string_new(NULL);
    g_autofree char *lead = compare_lead(r);
    g_string_append_printf(s, "%s\n", lead);
    g_string_append_printf(s, "Does %s beat %s on %s?  b/a: %s's cycles per acquisition over %s's (below 1: %s "
                              "wins), mean of %u seeded runs each with timing noise (jitter %d cycles), %u "
                              "acquisitions per thread, 95%% interval (t on the log scale); `=`: the interval "
                              "contains 1; `regimes`: the seeds fell into separate regimes (no one interval).\n"
                              "Workload A: the critical section's data in the lock's line; B: in a line of its own.\n\n",
                           o->lock_b, o->lock_a, r->config_name, o->lock_b, o->lock_a, o->lock_b, o->seeds,
                           REPEAT_DEFAULT_JITTER, o->iterations);
    g_string_append_printf(s, "Placement: fill puts the threads on cores of one socket, smt on sibling hardware "
                              "threads first (2 threads: one core), spread across sockets.\n");
    if (timing_count(o)) {
        g_autofree char *th = uint_list(o->thinks, o->nthinks), *ji = uint_list(o->jitters, o->njitters);
        g_string_append_printf(s, "Timings: each row again at think {%s} x jitter {%s} cycles, %u seeds and %u "
                                  "acquisitions per thread each; a side wins there where the ratio of the means "
                                  "is more than %.0f%% off 1 (`=`: neither).\n",
                               th, ji, o->timing_seeds, o->timing_iterations, 100 * COMPARE_EVEN_BAND);
    }
    if (o->check_seeds)
        g_string_append_printf(s, "Checks at think 0, jitter %d, %u seeds each: a window of %" G_GUINT64_FORMAT
                                  " cycles after %" G_GUINT64_FORMAT " (throughput, per-thread share), and on x86 "
                                  "the clear penalty at both ends of its range.\n",
                               REPEAT_DEFAULT_JITTER, o->check_seeds, o->window, o->warmup);
    g_string_append_printf(s, "\n%-8s %-9s %7s  %-24s %s\n", "workload", "placement", "threads", "b/a (model)",
                           "published");
    for (guint i = 0; i < r->rows->len; i++) {
        const CompareRow *row = &g_array_index(r->rows, CompareRow, i);
        g_autofree char *ratio = compare_row_modal(row)
                                     ? g_strdup_printf("%.3f regimes", row->cost.ratio)
                                     : g_strdup_printf("%.3f [%.3f, %.3f]%s", row->cost.ratio, row->cost.ci_low,
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
        GString *more = g_string_new(NULL);
        append_fairness(more, row, o);
        g_string_append_printf(s, "%27s%s\n", "", more->str);
        if (row->timing.n) {
            g_string_truncate(more, 0);
            append_timing(more, row, o);
            g_string_append_printf(s, "%27s%s\n", "", more->str);
        }
        g_autofree char *pen = penalty_range_text(&row->penalty, o->lock_b);
        if (pen)
            g_string_append_printf(s, "%27s%s\n", "", pen);
        g_string_free(more, TRUE);
    }
    const char *doc = study_of(o);
    if (doc)
        g_string_append_printf(s, "\nWhy, row by row, with profiles, long holds, throughput and the other machines: "
                                  "%s (`make study` regenerates its tables, with every timing at 10 seeds).\n", doc);
    if (!r->ok)
        g_string_append_printf(s, "\nA run failed: %s\n", r->failure);
    return g_string_free(s, FALSE);
}

static void add_ratio(JsonBuilder *b, const char *name, const RatioStats *rs)
{
    json_builder_set_member_name(b, name);
    ratio_stats_add_json(b, rs);
}

static void add_side_regimes(JsonBuilder *b, const char *name, const RepeatResult *r, const SampleModes *m,
                             const guint *member)
{
    json_builder_set_member_name(b, name);
    json_builder_begin_array(b);
    for (guint k = 0; k < m->nmodes; k++) {
        const SampleMode *md = &m->mode[k];
        json_builder_begin_object(b);
        report_add_int(b, "seeds", md->n);
        report_add_double(b, "share", r->n ? (double)md->n / r->n : 0);
        report_add_double(b, "cycles_per_acquisition", md->mean);
        report_add_double(b, "low", md->low);
        report_add_double(b, "high", md->high);
        report_add_double(b, "failed_cas_per_acquisition", compare_mode_mean(r, member, k, "atomics.failed_cas", TRUE));
        report_add_double(b, "longest_streak", compare_mode_mean(r, member, k, "fairness.longest_streak", FALSE));
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* {a: [regime], b: [regime]}: one regime each unless the seeds split (sample_modes.h). */
static void add_regimes_json(JsonBuilder *b, const char *name, const CompareRow *row, const CompareOptions *o)
{
    (void)o;
    json_builder_set_member_name(b, name);
    json_builder_begin_object(b);
    add_side_regimes(b, "a", &row->a, &row->modes_a, row->member_a);
    add_side_regimes(b, "b", &row->b, &row->modes_b, row->member_b);
    report_add_bool(b, "one_interval", !compare_row_modal(row));
    json_builder_end_object(b);
}

static void add_window_json(JsonBuilder *b, const CompareRow *row)
{
    if (!row->window_a.n)
        return;
    json_builder_set_member_name(b, "window");
    json_builder_begin_object(b);
    add_ratio(b, "throughput_b_over_a", &row->window_throughput);
    const RepeatResult *w[2] = { &row->window_a, &row->window_b };
    for (guint k = 0; k < 2; k++) {
        double acq = mean_of(w[k], "acquisitions");
        json_builder_set_member_name(b, k ? "b" : "a");
        json_builder_begin_object(b);
        report_add_double(b, "acquisitions_per_kcycle", mean_of(w[k], "acquisitions_per_kcycle"));
        report_add_double(b, "min_thread_share", acq > 0 ? mean_of(w[k], "fairness.min") / acq : 0);
        report_add_double(b, "max_thread_share", acq > 0 ? mean_of(w[k], "fairness.max") / acq : 0);
        report_add_double(b, "longest_streak", mean_of(w[k], "fairness.longest_streak"));
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
}

static void add_timing_json(JsonBuilder *b, const CompareRow *row, const CompareOptions *o)
{
    const TimingSpread *t = &row->timing;
    if (!t->n)
        return;
    json_builder_set_member_name(b, "timing");
    json_builder_begin_object(b);
    report_add_double(b, "median", t->median);
    report_add_double(b, "min", t->min);
    report_add_double(b, "max", t->max);
    report_add_int(b, "b_wins", t->wins);
    report_add_int(b, "b_loses", t->loses);
    report_add_int(b, "even", t->even);
    json_builder_set_member_name(b, "regimes");
    json_builder_begin_array(b);
    for (guint m = 0; m < t->modes.nmodes; m++) {
        json_builder_begin_object(b);
        report_add_int(b, "settings", t->modes.mode[m].n);
        report_add_double(b, "low", t->modes.mode[m].low);
        report_add_double(b, "high", t->modes.mode[m].high);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "settings");
    json_builder_begin_array(b);
    for (guint k = 0; k < t->n; k++) {
        json_builder_begin_object(b);
        report_add_int(b, "think", o->thinks[k / o->njitters]);
        report_add_int(b, "jitter", o->jitters[k % o->njitters]);
        add_ratio(b, "b_over_a", &row->timing_cost[k]);
        report_add_string(b, "verdict", compare_verdict_word(row->timing_verdict[k]));
        report_add_int(b, "regime", row->timing_mode[k]);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);
}

static void add_penalty_json(JsonBuilder *b, const PenaltyRange *p)
{
    if (!p->checked)
        return;
    json_builder_set_member_name(b, "clear_penalty");
    json_builder_begin_object(b);
    report_add_int(b, "floor", p->floor);
    report_add_int(b, "top", p->top);
    report_add_int(b, "configured", p->configured);
    report_add_string(b, "verdict", compare_verdict_word(p->verdict));
    add_ratio(b, "b_over_a_at_floor", &p->at_floor);
    add_ratio(b, "b_over_a_at_top", &p->at_top);
    report_add_bool(b, "robust", p->robust);
    if (!p->robust) {
        report_add_int(b, "holds_to", p->holds_to);
        report_add_int(b, "flips_at", p->flips_at);
        report_add_string(b, "flipped_to", compare_verdict_word(p->flipped));
        add_ratio(b, "b_over_a_at_flip", &p->at_flip);
    }
    json_builder_end_object(b);
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
    g_autofree char *lead = compare_lead(r);
    g_strchomp(lead);
    report_add_string(b, "summary", lead);
    if (timing_count(o)) {
        json_builder_set_member_name(b, "timings");
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "think");
        json_builder_begin_array(b);
        for (guint i = 0; i < o->nthinks; i++)
            json_builder_add_int_value(b, o->thinks[i]);
        json_builder_end_array(b);
        json_builder_set_member_name(b, "jitter");
        json_builder_begin_array(b);
        for (guint i = 0; i < o->njitters; i++)
            json_builder_add_int_value(b, o->jitters[i]);
        json_builder_end_array(b);
        report_add_int(b, "seeds", o->timing_seeds);
        report_add_int(b, "iterations", o->timing_iterations);
        json_builder_end_object(b);
    }
    if (o->check_seeds) {
        report_add_int(b, "check_seeds", o->check_seeds);
        report_add_int(b, "window", (gint64)o->window);
        report_add_int(b, "warmup", (gint64)o->warmup);
    }
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
        add_regimes_json(b, "regimes", row, o);
        add_window_json(b, row);
        add_timing_json(b, row, o);
        add_penalty_json(b, &row->penalty);
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
