/* `qsim calibrate`'s measurements (see calibrate.h): on the first CPU, the clock, load-to-use
 * latency over growing footprints and the hot instructions; then core-to-core rows for one CPU
 * pair of each kind the CPUs offer (calib_c2c.c).
 *
 * Time: every measurement repeats until its last runs agree or its budget is spent
 * (calib_stats.h), with runs of about 0.1 ms (sized by a probe run) so that few of them lose
 * their CPU on a shared host.  The full plan's budgets add up, in the worst case, to about
 * 45 s: the clock 0.5 s, about 21 chase footprints x 0.4 s, 4 pair kinds x 7 rows x 1 s, 15
 * instruction loops x 0.25 s; past 90 s whatever is left runs at the quick plan's budgets.  So
 * a 2-CPU host (one pair kind) takes well under two minutes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "locks/native/native_cpus.h"
#include "locks/native/native_tsc.h"
#include "sim/calibrate/calib_internal.h"

#define KIB ((guint64)1024)
#define MIB ((guint64)1024 * 1024)

/* window, tolerance, max runs, budget seconds */
static const CalibPlan calib_plans[2] = {
    { .budget = { [CALIB_B_CLOCK] = { 5, 0.005, 100, 0.5 },
                  [CALIB_B_CHASE] = { 5, 0.02, 400, 0.4 },
                  [CALIB_B_C2C] = { 7, 0.03, 400, 1.0 },
                  [CALIB_B_INSN] = { 5, 0.02, 400, 0.25 } },
      .clock_iters = 1 << 14, .run_cycles = 300000, .c2c_lines = 64, .max_memory = 1024 * MIB },
    /* quick: enough to run every path and write a loadable file, not to trust */
    { .budget = { [CALIB_B_CLOCK] = { 3, 0.05, 5, 0.02 },
                  [CALIB_B_CHASE] = { 3, 0.2, 4, 0.02 },
                  [CALIB_B_C2C] = { 3, 0.5, 5, 0.02 },
                  [CALIB_B_INSN] = { 3, 0.2, 4, 0.01 } },
      .clock_iters = 1 << 12, .run_cycles = 30000, .c2c_lines = 16, .max_memory = 16 * MIB },
};
#define CALIB_SOFT_DEADLINE_S 90.0

/* Sizes used when sysfs does not show a cache: the schema's defaults. */
static const gint64 calib_fallback_size[CALIB_CACHE__N] = { 32 * KIB, 256 * KIB, 2560 * KIB };

typedef struct {
    CalibResult *r;
    const CalibOptions *o;
    guint64 t_start;
    double cycles_per_tick;
    GError *error;
} Measure;

static const CalibPlan *plan_now(Measure *m)
{
    if (m->o->quick)
        return &calib_plans[1];
    if ((double)(native_now_ns() - m->t_start) / 1e9 > CALIB_SOFT_DEADLINE_S) {
        static const char late[] = "past %.0f s: the remaining measurements ran with the quick budgets";
        gboolean noted = FALSE;
        for (guint i = 0; i < m->r->notes->len; i++)
            noted |= g_str_has_prefix(m->r->notes->pdata[i], "past ");
        if (!noted)
            calib_result_note(m->r, late, CALIB_SOFT_DEADLINE_S);
        return &calib_plans[1];
    }
    return &calib_plans[0];
}

static void progress(Measure *m, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void progress(Measure *m, const char *fmt, ...)
{
    if (!m->o->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    m->o->progress(m->o->user, what);
}

/* ======================================================================================
 * The clock
 * ====================================================================================== */

typedef struct {
    guint64 iters;
    GArray *tsc_ghz;
} ClockRun;

static double clock_run(void *p)
{
    ClockRun *c = p;
    guint64 n0 = native_now_ns(), t0 = calib_ticks();
    calib_dependent_adds(c->iters);
    guint64 t1 = calib_ticks(), n1 = native_now_ns();
    if (n1 <= n0)
        return -1;
    double tsc = (double)(t1 - t0) / (double)(n1 - n0);
    g_array_append_val(c->tsc_ghz, tsc);
    return 16.0 * (double)c->iters / (double)(n1 - n0);
}

static void measure_clock(Measure *m)
{
    const CalibPlan *plan = plan_now(m);
    progress(m, "core clock (dependent adds against CLOCK_MONOTONIC)");
    g_autoptr(GArray) tsc = g_array_new(FALSE, FALSE, sizeof(double));
    ClockRun c = { plan->clock_iters, tsc };
    m->r->core_ghz = calib_repeat(clock_run, &c, &plan->budget[CALIB_B_CLOCK]);
    m->r->tsc_ghz = calib_stat_summarise((double *)tsc->data, tsc->len, &plan->budget[CALIB_B_CLOCK]);
    m->cycles_per_tick = m->r->core_ghz.median / m->r->tsc_ghz.median;
}

/* How many units make a run of about plan->run_cycles, given what one probe unit cost. */
static guint64 units_for(const CalibPlan *plan, double cycles_per_unit, guint64 lo)
{
    if (!(cycles_per_unit > 0))
        return lo;
    return MAX(lo, (guint64)((double)plan->run_cycles / cycles_per_unit));
}

/* ======================================================================================
 * Load-to-use over growing footprints
 * ====================================================================================== */

typedef struct {
    void *p;
    guint64 loads;
    double cycles_per_tick;
} ChaseRun;

static double chase_run(void *p)
{
    ChaseRun *c = p;
    guint64 t0 = calib_ticks();
    c->p = calib_chase(c->p, c->loads);
    guint64 t1 = calib_ticks();
    return (double)(t1 - t0) / (double)c->loads * c->cycles_per_tick;
}

/* One random cycle through the first `bytes` of buf, a line at a time (Sattolo's shuffle). */
static void build_chain(char *buf, guint64 bytes, GRand *rand)
{
    guint64 n = bytes / 64;
    guint32 *next = g_new(guint32, n);
    for (guint64 i = 0; i < n; i++)
        next[i] = (guint32)i;
    for (guint64 i = n - 1; i > 0; i--) {
        guint64 j = (guint64)(g_rand_double(rand) * (double)i);
        guint32 t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    for (guint64 i = 0; i < n; i++)
        *(void **)(buf + i * 64) = buf + (guint64)next[i] * 64;
    g_free(next);
}

static guint64 round_page(double bytes)
{
    guint64 b = (guint64)bytes;
    return MAX(4 * KIB, b / (4 * KIB) * (4 * KIB));
}

/* A footprint past a cache of `above` bytes and inside one of `size`: four times the first, or
 * the geometric mean of the two if smaller.  A cyclic chase over more than a cache holds misses
 * it on almost every load under LRU-like replacement, so four times is past it; staying close
 * keeps the chase in the level even where a VM's share of a shared cache is smaller than
 * sysfs says. */
static guint64 past(gint64 above, gint64 size)
{
    return round_page(MIN(4.0 * (double)above, sqrt((double)above * (double)size)));
}

/* The footprint standing for each level, and the memory's: past the LLC eight times over. */
static void plan_levels(Measure *m, const CalibPlan *plan, guint64 fp[CALIB_LEVEL__N])
{
    const CalibHost *h = &m->r->host;
    gint64 size[CALIB_CACHE__N];
    for (guint i = 0; i < CALIB_CACHE__N; i++)
        size[i] = h->cache[i].visible && h->cache[i].size ? h->cache[i].size : calib_fallback_size[i];
    /* A missing L2 is a two-level hierarchy when the LLC shows; missing L1 or LLC is a guess. */
    if (!h->cache[CALIB_CACHE_L1].size || !h->cache[CALIB_CACHE_LLC].size)
        calib_result_note(m->r, "cache sizes are not all visible in sysfs: footprints assume the schema's defaults");
    gboolean l2 = !h->cache[CALIB_CACHE_LLC].visible || h->cache[CALIB_CACHE_L2].visible;
    fp[CALIB_LEVEL_L1] = round_page((double)size[CALIB_CACHE_L1] / 2);
    fp[CALIB_LEVEL_L2] = l2 ? past(size[CALIB_CACHE_L1], size[CALIB_CACHE_L2]) : 0;
    fp[CALIB_LEVEL_LLC] = past(l2 ? size[CALIB_CACHE_L2] : size[CALIB_CACHE_L1], size[CALIB_CACHE_LLC]);
    guint64 mem = MAX(8 * (guint64)size[CALIB_CACHE_LLC], 64 * MIB);
    long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0)
        mem = MIN(mem, (guint64)pages * (guint64)psize / 4);
    if (mem > plan->max_memory) {
        if (m->o->quick)
            calib_result_note(m->r, "quick: the memory footprint is capped at %" G_GUINT64_FORMAT " MiB, "
                              "which may still fit in the LLC", plan->max_memory / MIB);
        mem = plan->max_memory;
    }
    fp[CALIB_LEVEL_MEMORY] = round_page((double)mem);
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
    guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
    return x < y ? -1 : x > y;
}

static void measure_chase(Measure *m)
{
    const CalibPlan *plan = plan_now(m);
    CalibResult *r = m->r;
    guint64 fp[CALIB_LEVEL__N];
    plan_levels(m, plan, fp);
    guint64 top = fp[CALIB_LEVEL_MEMORY];
    g_autoptr(GArray) sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    for (guint64 s = 4 * KIB; s <= top; s *= 2)
        g_array_append_val(sizes, s);
    for (guint l = 0; l < CALIB_LEVEL__N; l++)
        if (fp[l])
            g_array_append_val(sizes, fp[l]);
    g_array_sort(sizes, cmp_u64);

    char *buf = aligned_alloc(2 * MIB, (top + 2 * MIB - 1) / (2 * MIB) * (2 * MIB));
    if (!buf) {
        calib_result_note(r, "no memory for a %" G_GUINT64_FORMAT " MiB chase: load-to-use not measured", top / MIB);
        return;
    }
    madvise(buf, top, MADV_HUGEPAGE);
    memset(buf, 0, top);
    g_autoptr(GRand) rand = g_rand_new_with_seed(2013);
    guint64 last = 0;
    for (guint i = 0; i < sizes->len; i++) {
        guint64 f = g_array_index(sizes, guint64, i);
        if (f == last)
            continue;
        last = f;
        plan = plan_now(m);
        progress(m, "load-to-use, pointer chase over %" G_GUINT64_FORMAT " KiB", f / KIB);
        build_chain(buf, f, rand);
        ChaseRun c = { buf, 256, m->cycles_per_tick };
        if (f <= fp[CALIB_LEVEL_LLC])
            c.p = calib_chase(c.p, f / 64);   /* one pass to warm the caches */
        c.loads = units_for(plan, chase_run(&c), 256);
        CalibChasePoint pt = { f, calib_repeat(chase_run, &c, &plan->budget[CALIB_B_CHASE]) };
        gboolean is_level = FALSE;
        for (guint l = 0; l < CALIB_LEVEL__N; l++)
            if (fp[l] == f) {
                r->level[l] = pt;
                is_level = TRUE;
            }
        /* The curve is the powers of two; a level's own footprint is listed with the levels. */
        if (!(f & (f - 1)) || !is_level)
            g_array_append_val(r->curve, pt);
    }
    free(buf);
}

/* ======================================================================================
 * Hot instructions
 * ====================================================================================== */

typedef struct {
    void (*fn)(uint64_t, uint64_t *);
    guint64 iters, per_iter;
    uint64_t *hot;
    double cycles_per_tick;
} InsnRun;

static double insn_run(void *p)
{
    InsnRun *c = p;
    guint64 t0 = calib_ticks();
    c->fn(c->iters, c->hot);
    guint64 t1 = calib_ticks();
    return (double)(t1 - t0) / (double)(c->iters * c->per_iter) * c->cycles_per_tick;
}

static void measure_insns(Measure *m)
{
    g_autofree uint64_t *hot = aligned_alloc(64, 64);
    if (!hot)
        return;
    memset(hot, 0, 64);
    const CalibPlan *plan = plan_now(m);
    progress(m, "seed 003's loop without a barrier (the baseline)");
    /* Seed 003's loop is one call per iteration: as many calls as the back-to-back loop has
     * instructions. */
    InsnRun base = { calib_insn_loop_baseline, 64, 1, hot, m->cycles_per_tick };
    base.iters = units_for(plan, insn_run(&base), 64);
    CalibStat baseline = calib_repeat(insn_run, &base, &plan->budget[CALIB_B_INSN]);
    guint n;
    const CalibInsnKernel *k = calib_insn_kernels(&n);
    for (guint i = 0; i < n; i++) {
        plan = plan_now(m);
        progress(m, "%s, back to back and in seed 003's loop", k[i].name);
        InsnRun b2b = { k[i].back_to_back, 4, 16, hot, m->cycles_per_tick };
        InsnRun loop = { k[i].in_loop, 64, 1, hot, m->cycles_per_tick };
        b2b.iters = units_for(plan, insn_run(&b2b) * 16, 4);
        loop.iters = units_for(plan, insn_run(&loop), 64);
        CalibInsnStat *s = &m->r->insn[k[i].id];
        s->back_to_back = calib_repeat(insn_run, &b2b, &plan->budget[CALIB_B_INSN]);
        s->in_loop = calib_repeat(insn_run, &loop, &plan->budget[CALIB_B_INSN]);
        /* What the barrier adds to the call. */
        s->in_loop.median -= baseline.median;
        s->in_loop.min -= baseline.median;
        s->in_loop.max -= baseline.median;
    }
}

static void *single_cpu_main(void *p)
{
    Measure *m = p;
    measure_clock(m);
    measure_chase(m);
    measure_insns(m);
    return NULL;
}

/* ======================================================================================
 * Pairs
 * ====================================================================================== */

/* Whether any two online CPUs are related as cls (SMT pairs are measured but never missed). */
static gboolean host_has_pair(const CalibHost *h, CalibPairClass cls)
{
    if (cls == CALIB_PAIR_SMT)
        return FALSE;
    for (guint i = 0; i < h->topo->len; i++)
        for (guint j = i + 1; j < h->topo->len; j++)
            if (calib_host_pair_class(h, g_array_index(h->topo, CalibCpuTopo, i).cpu,
                                      g_array_index(h->topo, CalibCpuTopo, j).cpu) == cls)
                return TRUE;
    return FALSE;
}

static gboolean measure_pairs(Measure *m)
{
    CalibResult *r = m->r;
    const GArray *cpus = r->cpus;
    if (cpus->len < 2) {
        calib_result_note(r, "only one CPU to run on: no core-to-core latency (the snoop keys are "
                          "chosen, not measured); give two or more CPUs with --cpus or taskset");
        return TRUE;
    }
    guint a = g_array_index(cpus, guint, 0);
    gboolean warned_s = FALSE;
    for (CalibPairClass cls = 0; cls < CALIB_PAIR__N; cls++) {
        gint b = -1, c = -1;
        for (guint i = 1; i < cpus->len && b < 0; i++)
            if (calib_host_pair_class(&r->host, a, g_array_index(cpus, guint, i)) == cls)
                b = (gint)g_array_index(cpus, guint, i);
        if (b < 0) {
            if (host_has_pair(&r->host, cls))
                calib_result_note(r, "no %s pair (%s) among the CPUs used, though the host has one: its "
                                  "rows are not measured", calib_pair_name(cls), calib_pair_meaning(cls));
            continue;
        }
        /* S needs a second holder: one of the same kind as b if there is one, else any. */
        for (guint i = 1; i < cpus->len; i++) {
            guint x = g_array_index(cpus, guint, i);
            if ((gint)x != b && (c < 0 || calib_host_pair_class(&r->host, a, x) == cls))
                c = (gint)x;
        }
        if (c < 0 && !warned_s) {
            calib_result_note(r, "%u CPUs: the S rows (a line two other CPUs share) need three, and are "
                              "not measured", cpus->len);
            warned_s = TRUE;
        }
        progress(m, "core to core, %s: CPU %u times lines CPU %d holds", calib_pair_name(cls), a, b);
        if (!calib_c2c_measure(r, cls, a, (guint)b, c, plan_now(m), m->cycles_per_tick, &m->error))
            return FALSE;
    }
    if (calib_have_wfe()) {
        progress(m, "WFE wake-up: CPU %u sleeps, CPU %u stores", a, g_array_index(cpus, guint, 1));
        if (!calib_wfe_measure(r, a, g_array_index(cpus, guint, 1), plan_now(m), m->cycles_per_tick, &m->error))
            return FALSE;
    }
    return TRUE;
}

CalibResult *calibrate_run(const CalibOptions *o, GError **error)
{
    g_autoptr(CalibResult) r = calib_result_new();
    Measure m = { r, o, native_now_ns(), 1.0, NULL };
    r->quick = o->quick;
#if !defined(__x86_64__) && !defined(__aarch64__)
    g_set_error(error, CALIB_ERROR, CALIB_ERROR_UNSUPPORTED, "qsim calibrate runs on x86-64 and arm64 hosts only");
    return NULL;
#endif
    g_autoptr(GArray) allowed = native_allowed_cpus();
    const GArray *use = o->cpus ? o->cpus : allowed;
    for (guint i = 0; i < use->len; i++) {
        guint c = g_array_index(use, guint, i);
        gboolean ok = FALSE;
        for (guint j = 0; j < allowed->len; j++)
            ok |= g_array_index(allowed, guint, j) == c;
        if (!ok) {
            g_set_error(error, CALIB_ERROR, CALIB_ERROR_USAGE,
                        "--cpus: CPU %u is not available to this process (%u CPUs are)", c, allowed->len);
            return NULL;
        }
        g_array_append_val(r->cpus, c);
    }
    guint a = g_array_index(r->cpus, guint, 0);
    calib_host_probe(&r->host, "", a);
    if (r->host.loadavg >= 0.5)
        calib_result_note(r, "the host was busy when this began (load average %.2f over %u CPUs): runs that "
                          "lost their CPU are left out as far as the calmest runs allow, but other processes "
                          "may still be in these figures; calibrate on an idle machine", r->host.loadavg,
                          r->host.online_cpus);
    if (!r->host.thp || !strcmp(r->host.thp, "never"))
        calib_result_note(r, "transparent huge pages are off: the larger chase footprints include "
                          "TLB misses");
    if (!calib_run_pinned(a, single_cpu_main, &m, error))
        return NULL;
    if (m.error) {
        g_propagate_error(error, m.error);
        return NULL;
    }
    if (!measure_pairs(&m)) {
        g_propagate_error(error, m.error);
        return NULL;
    }
    return g_steal_pointer(&r);
}
