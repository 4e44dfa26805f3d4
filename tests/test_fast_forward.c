/* Fast-forward of steady loops (cores/core_ff.c): a run with it is the run without it, to the
 * cycle and the counter.  A spinning core is woken at every phase of its period (by a store,
 * by stores to other words of its line, by an SEV, by the watchdog's windows, by the end of a
 * --duration run, by the OS model's time slices) and every counter, register and the memory
 * system's state are compared with the detailed run; then every built-in lock on every config
 * (a bigger bus and MSI too), more threads than cores, warm-up windows, litmus runs: the
 * reports byte for byte. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/machine/machine.h"
#include "sim/run/run.h"
#include "sim/base/report.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"
#include "sim/workload/lock_find.h"
#include "sim/workload/placement.h"
#include "tests/run_qsim.h"

/* ==================== one machine, both ways ==================== */

typedef struct {
    MachineOutcome outcome;
    Cycle cycles;
    guint64 fast_forwarded;
    char *state;            /* every counter and register, as JSON */
} Outcome;

static void outcome_clear(Outcome *o)
{
    g_free(o->state);
}

/* Runs `text` (2 threads, core i thread i) on `config` with `sets`; thread 0 starts `skew`
 * cycles late; `max_cycles` as machine_run's. */
static Outcome run_machine_text(const char *config, const char *const *sets, const char *text, Cycle skew,
                                Cycle max_cycles, gboolean ff)
{
    g_autoptr(GError) err = NULL;
    QsimConfig *cfg = config_load(config, sets, &err);
    ck_assert_msg(cfg, "%s", err ? err->message : "");
    IsaProgram *p = asm_assemble("ff-test", text, asm_target_for_config(cfg), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    IsaLayout *lay = isa_layout_new(p, 2, (uint32_t)cfg->line_size, 0x10000);
    Engine *e = engine_new(1);
    MemSys *ms = memsys_new(cfg, e, &err);
    ck_assert(ms);
    Machine *m = machine_new(cfg, e, &machine_memsys_ops, ms, p, lay, 2, NULL, &err);
    ck_assert_msg(m, "%s", err ? err->message : "");
    machine_set_fast_forward(m, ff);
    machine_set_start_delay(m, 0, skew);
    Outcome o = { 0 };
    o.outcome = machine_run(m, max_cycles);
    o.cycles = machine_cycles(m);
    o.fast_forwarded = machine_cycles_fast_forwarded(m);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    for (guint i = 0; i < 2; i++) {
        json_builder_set_member_name(b, i ? "core1" : "core0");
        json_builder_begin_object(b);
        counters_add_json(&core_stats_registry, machine_core_stats(m, i), b);
        json_builder_set_member_name(b, "regs");
        json_builder_begin_array(b);
        for (guint r = 0; r < ISA_NREG_SLOTS; r++)
            json_builder_add_int_value(b, (gint64)core_reg(machine_core(m, i), r));
        json_builder_end_array(b);
        json_builder_set_member_name(b, "last_retire");
        json_builder_add_int_value(b, (gint64)core_last_retire(machine_core(m, i)));
        json_builder_end_object(b);
    }
    json_builder_set_member_name(b, "memory");
    json_builder_begin_object(b);
    counters_add_json(&mem_stats_registry, memsys_stats(ms), b);
    json_builder_end_object(b);
    json_builder_set_member_name(b, "stall_report");
    json_builder_add_string_value(b, machine_stall_report(m));
    json_builder_end_object(b);
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    o.state = report_to_json(root);
    machine_free(m);
    memsys_free(ms);
    engine_free(e);
    isa_layout_free(lay);
    isa_program_free(p);
    config_free(cfg);
    return o;
}

/* Both ways; asserts they agree; returns the fast-forwarded core-cycles. */
static guint64 check_same(const char *what, const char *config, const char *const *sets, const char *text,
                          Cycle skew, Cycle max_cycles)
{
    Outcome a = run_machine_text(config, sets, text, skew, max_cycles, TRUE);
    Outcome b = run_machine_text(config, sets, text, skew, max_cycles, FALSE);
    ck_assert_msg(a.outcome == b.outcome && a.cycles == b.cycles, "%s: outcome %d at %" G_GUINT64_FORMAT
                  " fast-forwarded, %d at %" G_GUINT64_FORMAT " not", what, a.outcome, a.cycles, b.outcome, b.cycles);
    ck_assert_msg(!strcmp(a.state, b.state), "%s: the counters differ\nfast-forwarded: %s\ndetailed: %s", what,
                  a.state, b.state);
    ck_assert_uint_eq(b.fast_forwarded, 0);
    guint64 n = a.fast_forwarded;
    outcome_clear(&a);
    outcome_clear(&b);
    return n;
}

/* ==================== spin loops woken at every phase ==================== */

/* Thread 0 spins on `flag`; thread 1 works `delay` cycles, then (n_false times) stores to the
 * flag's line without releasing it, then sets the flag. */
typedef struct {
    const char *name;
    const char *config;
    const char *spin;          /* the loop body, over label `spin`, reading r0 */
} SpinCase;

static const SpinCase spin_cases[] = {
    { "x86 pause loop", "haswell", "spin:\n    pause\n    ld r0, [flag]\n    beq r0, 0, spin\n" },
    { "x86 tight loop", "haswell", "spin:\n    ld r0, [flag]\n    beq r0, 0, spin\n" },
    { "x86 long pause", "skylake-sp", "spin:\n    pause\n    ld r0, [flag]\n    beq r0, 0, spin\n" },
    { "arm64 ldar and yield", "neoverse-n1", "spin:\n    ld.acq r0, [flag]\n    bne r0, 0, out\n    pause\n    jmp spin\nout:\n" },
    { "arm64 tight loop", "neoverse-n1", "spin:\n    ld r0, [flag]\n    beq r0, 0, spin\n" },
    { "in-order arm64", "thunderx", "spin:\n    pause\n    ld r0, [flag]\n    beq r0, 0, spin\n" },
};

static char *spin_program(const SpinCase *sc, guint delay, guint n_false, gboolean sev)
{
    GString *g = g_string_new(".shared flag 8 own_line\n.shared other 8 with flag\n.entry main\nmain:\n"
                              "    bne tid, 0, writer\n");
    g_string_append(g, sc->spin);
    g_string_append(g, "    halt\nwriter:\n");
    g_string_append_printf(g, "    work %u\n", delay);
    for (guint i = 0; i < n_false; i++)
        g_string_append_printf(g, "    st [other], %u\n    work %u\n", i + 1, 37 + 13 * i);
    if (sev)
        g_string_append(g, "    sev\n    work 53\n    sev\n    work 29\n");
    g_string_append(g, "    st [flag], 1\n    halt\n");
    return g_string_free(g, FALSE);
}

/* Enough delays to put the wake-up at every phase of any of these loops' periods, twice. */
static guint phase_span(void)
{
    return test_scale_quick() ? 24 : 160;
}

START_TEST(test_woken_at_every_phase)
{
    const SpinCase *sc = &spin_cases[_i];
    guint64 ff = 0;
    for (guint d = 0; d < phase_span(); d++) {
        g_autofree char *text = spin_program(sc, 1500 + d, 0, FALSE);
        g_autofree char *what = g_strdup_printf("%s, store after %u", sc->name, 1500 + d);
        ff += check_same(what, sc->config, NULL, text, 0, CYCLE_NEVER);
    }
    ck_assert_msg(ff > 0, "%s: never fast-forwarded", sc->name); /* else this tests nothing */
}
END_TEST

START_TEST(test_false_sharing_wakes)
{
    /* Stores to another word of the line take it away and give it back, again and again. */
    const SpinCase *sc = &spin_cases[_i];
    guint64 ff = 0;
    for (guint d = 0; d < phase_span() / 4; d++) {
        g_autofree char *text = spin_program(sc, 900 + d, 5, FALSE);
        g_autofree char *what = g_strdup_printf("%s, false sharing after %u", sc->name, 900 + d);
        ff += check_same(what, sc->config, NULL, text, 0, CYCLE_NEVER);
    }
    ck_assert_msg(ff > 0, "%s: never fast-forwarded", sc->name);
}
END_TEST

START_TEST(test_watchdog_windows)
{
    /* The machine catches sleepers up at each window's end (1000 cycles here): at every phase. */
    const SpinCase *sc = &spin_cases[_i];
    static const char *const sets[] = { "run.stall_cycles=1000", NULL };
    guint64 ff = 0;
    for (guint skew = 0; skew < phase_span() / 4; skew++) {
        g_autofree char *text = spin_program(sc, 4000, 0, FALSE);
        g_autofree char *what = g_strdup_printf("%s, windows, skew %u", sc->name, skew);
        ff += check_same(what, sc->config, sets, text, skew, CYCLE_NEVER);
    }
    ck_assert_msg(ff > 0, "%s: never fast-forwarded", sc->name);
}
END_TEST

START_TEST(test_cut_off_at_every_phase)
{
    /* A fixed-time run ends in the middle of a period: everything up to the limit happened. */
    const SpinCase *sc = &spin_cases[_i];
    guint64 ff = 0;
    for (guint d = 0; d < phase_span(); d++) {
        g_autofree char *text = spin_program(sc, 100000, 0, FALSE);
        g_autofree char *what = g_strdup_printf("%s, cut off at %u", sc->name, 2500 + d);
        ff += check_same(what, sc->config, NULL, text, 0, 2500 + d);
    }
    ck_assert_msg(ff > 0, "%s: never fast-forwarded", sc->name);
}
END_TEST

START_TEST(test_sev_wakes)
{
    /* arm64: an SEV from the other core reaches the sleeper through its event register. */
    const SpinCase *sc = &spin_cases[3];
    guint64 ff = 0;
    for (guint d = 0; d < phase_span() / 4; d++) {
        g_autofree char *text = spin_program(sc, 1200 + d, 0, TRUE);
        g_autofree char *what = g_strdup_printf("%s, sev after %u", sc->name, 1200 + d);
        ff += check_same(what, sc->config, NULL, text, 0, CYCLE_NEVER);
    }
    ck_assert_msg(ff > 0, "never fast-forwarded");
}
END_TEST

START_TEST(test_spin_forever_runs_to_the_limit)
{
    /* Nobody ever sets the flag: both ways run to the limit, and the sleeper's counters are
     * those of every cycle up to it (the arithmetic of many periods). */
    static const char text[] = ".shared flag 8 own_line\n.entry main\nmain:\n    bne tid, 0, done\n"
                               "spin:\n    pause\n    ld r0, [flag]\n    beq r0, 0, spin\ndone:\n    halt\n";
    guint64 ff = check_same("spin forever", "haswell", NULL, text, 0, 3000000);
    ck_assert_uint_gt(ff, 2500000);
}
END_TEST

/* ==================== every lock, every config: the reports ==================== */

/* The machines: every shipped config, a bigger snooping bus, and MSI on a directory. */
typedef struct {
    const char *name;
    const char *config;
    const char *sets[2];
} FfMachine;

static const FfMachine machines[] = {
    { "haswell", "haswell", { NULL } },
    { "magny-cours", "magny-cours", { NULL } },
    { "neoverse-n1", "neoverse-n1", { NULL } },
    { "skylake-sp", "skylake-sp", { NULL } },
    { "teaching", "teaching", { NULL } },
    { "teaching-bus", "teaching-bus", { NULL } },
    { "teaching-bus x8", "teaching-bus", { "topology.cores_per_socket=8", NULL } },
    { "haswell msi", "haswell", { "protocol=msi", NULL } },
    { "thunderx", "thunderx", { NULL } },
    { "westmere-ex", "westmere-ex", { NULL } },
};

static guint machine_cores(const FfMachine *fm)
{
    g_autoptr(GError) err = NULL;
    QsimConfig *cfg = config_load(fm->config, fm->sets, &err);
    ck_assert_msg(cfg, "%s: %s", fm->name, err ? err->message : "");
    guint n = config_total_cores(cfg);
    config_free(cfg);
    return n;
}

/* The report without its host keys; *share: the core-cycles fast-forwarded (a run's own
 * figure, so that a test can tell it compared runs that did fast-forward). */
static gboolean machine_arm64(const FfMachine *fm)
{
    g_autoptr(QsimConfig) cfg = config_load(fm->config, fm->sets, NULL);
    return cfg && cfg->arch == ARCH_ARM64;
}

static char *report_of(const RunOptions *o, double *share)
{
    RunResult r;
    g_autoptr(GError) err = NULL;
    RunOptions with_host = *o;
    with_host.host_time = TRUE;
    ck_assert_msg(run_simulation(&with_host, &r, &err), "%s", err ? err->message : "");
    JsonObject *root = json_node_get_object(r.report);
    *share = json_object_get_double_member(root, "host_fast_forward_share");
    static const char *const host[] = { "host_seconds", "host_cpu_seconds", "host_peak_rss_kib",
                                        "host_fast_forward_share" };
    for (guint i = 0; i < G_N_ELEMENTS(host); i++) {
        ck_assert_msg(json_object_has_member(root, host[i]), "no %s", host[i]);
        json_object_remove_member(root, host[i]);
    }
    char *json = report_to_json(r.report);
    run_result_clear(&r);
    return json;
}

/* One run both ways: the reports byte for byte.  Returns the share fast-forwarded. */
static double compare_run(RunOptions *o, const char *machine)
{
    double share = 0, none = 0;
    o->fast_forward = TRUE;
    g_autofree char *a = report_of(o, &share);
    o->fast_forward = FALSE;
    g_autofree char *b = report_of(o, &none);
    ck_assert(none == 0);
    ck_assert_msg(!strcmp(a, b),
                  "%s on %s, %u threads, %s data, jitter %u, %s %" G_GUINT64_FORMAT " (warm-up %" G_GUINT64_FORMAT
                  "): the reports differ",
                  o->lock, machine, o->workload.threads,
                  o->workload.data == HARNESS_SAME_LINE ? "same-line" : "separate-line", o->workload.jitter,
                  o->workload.duration ? "duration" : "iterations",
                  o->workload.duration ? o->workload.duration : (guint64)o->workload.iterations, o->workload.warmup);
    return share;
}

static void options_for(RunOptions *o, const FfMachine *fm, const char *lock, guint n)
{
    run_options_init(o);
    o->config = fm->config;
    o->sets = fm->sets[0] ? fm->sets : NULL;
    o->lock = lock;
    o->workload.threads = n;
    o->workload.readers = g_str_has_prefix(lock, "qrwlock") ? n / 2 : 0;
}

/* Locks that sleep in futex_wait: they get runs with more threads than cores too. */
static gboolean sleeping_lock(const char *lock)
{
    return g_str_has_prefix(lock, "futex") || g_str_has_prefix(lock, "adaptive");
}

/* The end of a matrix: some runs were compared, and (where must_forward) some fast-forwarded on an
 * x86 machine (arm64's locks wait in WFE, which holds no events anyway). */
static void matrix_done(const char *test, const FfMachine *fm, guint compared, guint forwarded, gboolean must_forward)
{
    if (g_getenv("QSIM_TEST_COUNT"))
        fprintf(stderr, "%s: %s: %u runs compared, %u fast-forwarded\n", test, fm->name, compared, forwarded);
    ck_assert_uint_gt(compared, 0);
    ck_assert_msg(forwarded > 0 || machine_arm64(fm) || !must_forward, "%s: none of %u runs fast-forwarded", fm->name,
                  compared);
}

/* Every built-in lock (lock_names) on machine _i at 1, 2, 3, 8 threads (fixed work) and 32
 * (fixed time), where the machine has the cores; on the small machines also with more threads
 * than cores (the OS model's time slices and context switches), every lock, and the sleeping
 * locks at twice the cores; both data placements, with and without jitter (under
 * QSIM_TEST_SCALE=quick fewer points, one of the two pairs where data and jitter go together).
 * On x86 machines some runs must have fast-forwarded; arm64's locks wait in WFE, which holds no
 * events anyway (the catch_up cases spin on arm64 without it). */
START_TEST(test_reports_identical)
{
    const FfMachine *fm = &machines[_i];
    guint cores = machine_cores(fm);
    static const guint counts[] = { 1, 2, 3, 8, 32 };
    gboolean quick = test_scale_quick();
    GPtrArray *locks = lock_names();
    guint compared = 0, forwarded = 0, turn = _i;
    for (guint l = 0; l < locks->len; l++) {
        const char *lock = locks->pdata[l];
        GArray *threads = g_array_new(FALSE, FALSE, sizeof(guint));
        for (guint t = 0; t < G_N_ELEMENTS(counts); t++)
            if (counts[t] <= cores && !(quick && (counts[t] == 3 || counts[t] == 32)))
                g_array_append_val(threads, counts[t]);
        if (cores <= 8 && !quick) {
            guint over = cores + 1, twice = 2 * cores;
            g_array_append_val(threads, over);
            if (sleeping_lock(lock) && twice > over)
                g_array_append_val(threads, twice);
        }
        for (guint t = 0; t < threads->len; t++) {
            guint n = g_array_index(threads, guint, t);
            guint pick = (turn++ % 2) * 3; /* quick: (separate, none) or (same, jitter), in turn */
            for (guint pair = 0; pair < 4; pair++) {
                gboolean same_line = pair & 1, jitter = pair >> 1;
                if (quick && pair != pick)
                    continue;
                RunOptions o;
                options_for(&o, fm, lock, n);
                o.workload.data = same_line ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
                o.workload.jitter = jitter ? 50 : 0;
                if (n >= 32)
                    o.workload.duration = 15000;
                else
                    o.workload.iterations = n >= 8 ? 6 : 20;
                if (compare_run(&o, fm->name) > 0)
                    forwarded++;
                compared++;
            }
        }
        g_array_free(threads, TRUE);
    }
    g_ptr_array_unref(locks);
    matrix_done(__func__, fm, compared, forwarded, TRUE);
}
END_TEST

/* Fixed-time runs with a warm-up: the counters snapshotted at the warm-up's end (while cores
 * sleep in steady loops) and the measured window are the same both ways. */
START_TEST(test_warmup_windows_identical)
{
    const FfMachine *fm = &machines[_i];
    guint cores = machine_cores(fm);
    gboolean quick = test_scale_quick();
    GPtrArray *locks = lock_names();
    guint compared = 0, forwarded = 0;
    for (guint l = 0; l < locks->len; l++) {
        if (quick && l % 4 != (guint)_i % 4)
            continue;
        for (guint v = 0; v < 2; v++) {
            RunOptions o;
            options_for(&o, fm, locks->pdata[l], MIN(cores, (l + v) % 2 ? 8u : 3u));
            o.workload.warmup = 2000 + 333 * l;
            o.workload.duration = 6000;
            o.workload.jitter = (l + v) % 3 == 0 ? 30 : 0;
            if (compare_run(&o, fm->name) > 0)
                forwarded++;
            compared++;
        }
    }
    g_ptr_array_unref(locks);
    /* quick runs a quarter of the locks, and which lands there moves as locks are added: the
     * full run (make check-unit) holds the claim that some fast-forwarded */
    matrix_done(__func__, fm, compared, forwarded, !quick);
}
END_TEST

/* Per-instruction profiles (--profile) are counters too: a fast-forwarded period adds its rows
 * and its ROB-head cycles arithmetically, and they come out the same as simulated, for every
 * lock at 3 and 8 threads (fixed work) and in a fixed-time window after a warm-up. */
START_TEST(test_profiles_identical)
{
    const FfMachine *fm = &machines[_i];
    guint cores = machine_cores(fm);
    gboolean quick = test_scale_quick();
    GPtrArray *locks = lock_names();
    guint compared = 0, forwarded = 0;
    for (guint l = 0; l < locks->len; l++) {
        if (quick && l % 3 != (guint)_i % 3)
            continue;
        for (guint v = 0; v < 3; v++) {
            RunOptions o;
            options_for(&o, fm, locks->pdata[l], MIN(cores, v == 1 ? 8u : 3u));
            o.profile = TRUE;
            o.workload.data = (l + v) % 2 ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
            if (v == 2) {
                o.workload.warmup = 1500 + 111 * l;
                o.workload.duration = 5000;
                o.workload.jitter = 40;
            } else {
                o.workload.iterations = v == 1 ? 6 : 20;
            }
            if (compare_run(&o, fm->name) > 0)
                forwarded++;
            compared++;
        }
    }
    g_ptr_array_unref(locks);
    matrix_done(__func__, fm, compared, forwarded, !quick);
}
END_TEST

/* SMT (topology.threads_per_core 2): threads on the two hardware threads of a core (which
 * fast-forward together, as one unit), a thread alone on a core's second hardware thread (the
 * memory system answers it as its core), and both in one run, every lock on the machines with
 * two threads per core, fixed work and fixed time: the reports byte for byte, and some
 * fast-forwarded. */
START_TEST(test_sibling_placements_identical)
{
    static const char *const configs[] = { "haswell", "skylake-sp" };
    gboolean quick = test_scale_quick();
    GPtrArray *locks = lock_names();
    guint compared = 0, forwarded = 0;
    for (guint c = 0; c < G_N_ELEMENTS(configs); c++) {
        FfMachine fm = { configs[c], configs[c], { NULL } };
        guint cores = machine_cores(&fm);
        g_autofree char *alone = g_strdup_printf("cpus:%u,1", cores);          /* core 0's second thread, core 1 */
        g_autofree char *mixed = g_strdup_printf("cpus:0,%u,1,%u", cores, cores + 2); /* siblings and a lone one */
        const char *const placements[] = { "smt", alone, mixed };
        static const guint threads[] = { 2, 3, 4 };
        for (guint l = 0; l < locks->len; l++) {
            if (quick && l % 3 != c % 3)
                continue;
            for (guint k = 0; k < G_N_ELEMENTS(placements); k++) {
                RunOptions o;
                options_for(&o, &fm, locks->pdata[l], threads[k]);
                ck_assert(placement_parse(NULL, placements[k], &o.workload.placement, NULL));
                o.workload.data = (l + k) % 2 ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
                if (k == 2) {
                    o.workload.duration = 8000;
                    o.workload.jitter = 30;
                } else {
                    o.workload.iterations = 20;
                }
                double share = compare_run(&o, fm.name);
                if (share > 0)
                    forwarded++;
                compared++;
            }
        }
    }
    g_ptr_array_unref(locks);
    ck_assert_uint_gt(compared, 0);
    ck_assert_msg(forwarded > 0, "none of %u runs fast-forwarded", compared);
}
END_TEST

/* A small SMT machine: haswell's core with two cores a socket (2 x 2 x 2 logical CPUs), so that
 * every CPU has a thread at 8 and the OS model's run queues take the rest. */
static const char *const smt_small_sets[] = { "topology.cores_per_socket=2", "llc.slices=2", NULL };

/* One run both ways where every thread shares its core with a sibling: returns the share. */
static double compare_pair_run(RunOptions *o, const char *machine, guint *forwarded, guint *compared)
{
    double share = compare_run(o, machine);
    (*compared)++;
    if (share > 0)
        (*forwarded)++;
    return share;
}

/* Busy sibling pairs (--placement smt, every thread beside its sibling) fast-forward as one
 * unit: every lock on haswell (4 threads, two pairs, fixed work, both data placements) and on
 * the small SMT machine (8 threads: every CPU; 10: the OS model moves threads on and off the
 * pairs, with jitter; a warm-up window and a --profile run), skylake-sp and westmere-ex at 6
 * with jitter: the reports byte for byte.  On haswell the queue locks' pairs (qspin, mcs, clh)
 * must have fast-forwarded, and three in four of the spinning locks' runs (not tas, whose
 * waiters spin with xchg; not the sleeping locks; qspin-cmpxchg with the data in the lock's
 * line does not in 20 acquisitions). */
START_TEST(test_sibling_pairs_identical)
{
    gboolean quick = test_scale_quick();
    GPtrArray *locks = lock_names();
    guint compared = 0, forwarded = 0, spinners = 0, spinners_forwarded = 0;
    FfMachine haswell = { "haswell", "haswell", { NULL } };
    FfMachine small = { "haswell 2x2x2", "haswell", { NULL } };
    FfMachine skylake = { "skylake-sp", "skylake-sp", { NULL } };
    FfMachine westmere = { "westmere-ex", "westmere-ex", { NULL } };
    for (guint l = 0; l < locks->len; l++) {
        const char *lock = locks->pdata[l];
        for (guint v = 0; v < 2; v++) {
            if (quick && v != l % 2)
                continue;
            RunOptions o;
            options_for(&o, &haswell, lock, 4);
            ck_assert(placement_parse(NULL, "smt", &o.workload.placement, NULL));
            o.workload.data = v ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
            o.workload.iterations = 20;
            double share = compare_pair_run(&o, haswell.name, &forwarded, &compared);
            if (strcmp(lock, "tas") && !sleeping_lock(lock)) {
                spinners++;
                if (share > 0)
                    spinners_forwarded++;
                else if (g_getenv("QSIM_TEST_COUNT"))
                    fprintf(stderr, "%s: %s data, pairs did not fast-forward\n", lock, v ? "same-line" : "separate-line");
                /* The queue locks' waiters spin on a load of their own line. */
                ck_assert_msg(share > 0 || !(!strcmp(lock, "qspin") || !strcmp(lock, "mcs") || !strcmp(lock, "clh")),
                              "%s: the pairs did not fast-forward", lock);
            }
        }
        if (quick && l % 2)
            continue;
        static const guint small_threads[] = { 8, 10 };
        for (guint k = 0; k < G_N_ELEMENTS(small_threads); k++) {
            RunOptions o;
            options_for(&o, &small, lock, small_threads[k]);
            o.sets = smt_small_sets;
            ck_assert(placement_parse(NULL, "smt", &o.workload.placement, NULL));
            o.workload.data = (l + k) % 2 ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
            if (k == 1) {
                o.workload.duration = 12000;
                o.workload.jitter = 40;
            } else {
                o.workload.iterations = 6;
            }
            compare_pair_run(&o, small.name, &forwarded, &compared);
        }
        RunOptions w;
        options_for(&w, &small, lock, 8);
        w.sets = smt_small_sets;
        ck_assert(placement_parse(NULL, "smt", &w.workload.placement, NULL));
        w.workload.warmup = 1500 + 97 * l;
        w.workload.duration = 5000;
        w.profile = l % 2 == 0;
        compare_pair_run(&w, small.name, &forwarded, &compared);
        const FfMachine *six = l % 2 ? &westmere : &skylake;
        RunOptions j;
        options_for(&j, six, lock, 6);
        ck_assert(placement_parse(NULL, "smt", &j.workload.placement, NULL));
        j.workload.iterations = 8;
        j.workload.jitter = 25;
        compare_pair_run(&j, six->name, &forwarded, &compared);
    }
    g_ptr_array_unref(locks);
    if (g_getenv("QSIM_TEST_COUNT"))
        fprintf(stderr, "%s: %u runs compared, %u fast-forwarded; spinning pairs %u of %u\n", __func__, compared,
                forwarded, spinners_forwarded, spinners);
    ck_assert_uint_gt(compared, 0);
    ck_assert_msg(spinners_forwarded * 4 >= spinners * 3, "only %u of %u spinning-lock pair runs fast-forwarded",
                  spinners_forwarded, spinners);
}
END_TEST

/* A pair asleep is woken at every phase of its period: a critical section one cycle longer each
 * time moves the release (the store that wakes the waiters' pair) across the period, and a
 * --duration one cycle longer each time ends the run (catching every sleeper up) at every
 * phase; qspin and mcs, two pairs on haswell. */
START_TEST(test_sibling_pairs_every_phase)
{
    static const char *const pair_locks[] = { "qspin", "mcs" };
    FfMachine haswell = { "haswell", "haswell", { NULL } };
    guint compared = 0, forwarded = 0, n = test_scale_quick() ? 8 : 40;
    for (guint l = 0; l < G_N_ELEMENTS(pair_locks); l++)
        for (guint i = 0; i < n; i++) {
            RunOptions o;
            options_for(&o, &haswell, pair_locks[l], 4);
            ck_assert(placement_parse(NULL, "smt", &o.workload.placement, NULL));
            if (i % 2) {
                o.workload.duration = 3000 + i / 2;
            } else {
                o.workload.iterations = 4;
                o.workload.cs_work = 200 + i / 2;
            }
            compare_pair_run(&o, haswell.name, &forwarded, &compared);
        }
    ck_assert_msg(forwarded * 2 > compared, "only %u of %u runs fast-forwarded", forwarded, compared);
}
END_TEST

/* The OS model's time slices end while cores sleep in steady loops: with three and four
 * threads on two cores, the spinners are preempted (the slice's end catches the sleeper up
 * first) and switched back, many times, until thread 0's long work sets the flag: 200 `work
 * 1000`, since one `work 60000` is now never preempted (a slice ends only after its thread
 * retired something; before, it was squashed at every slice's end and the run never ended). */
START_TEST(test_time_slices_preempt_sleepers)
{
    static const char text[] = ".shared lock_word 4 own_line\n.shared flag 8 own_line\n.entry lock\n.entry unlock\n"
                               "lock:\n    bne tid, 0, spin\n    mov r3, 200\nagain:\n    work 1000\n    sub r3, r3, 1\n"
                               "    bne r3, 0, again\n    mov r2, 1\n    st [flag], r2\n    ret\n"
                               "spin:\n    pause\n    ld r1, [flag]\n    beq r1, 0, spin\n    ret\nunlock:\n    ret\n";
    g_autofree char *path = NULL;
    g_autoptr(GError) err = NULL;
    int fd = g_file_open_tmp("qsim-ff-XXXXXX.qs", &path, &err);
    ck_assert_msg(fd >= 0, "%s", err ? err->message : "");
    close(fd);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    static const char *const sets[] = { "os.sched_latency_cycles=20000", "os.min_granularity_cycles=3000", NULL };
    for (guint n = 3; n <= 4; n++) {
        RunOptions o;
        run_options_init(&o);
        o.config = "teaching";
        o.sets = sets;
        o.lock_file = path;
        o.workload.threads = n;
        o.workload.iterations = 1;
        o.progress_cycles = 10000000;
        g_autofree char *what = g_strdup_printf("%u threads on 2 cores, short slices", n);
        double share = compare_run(&o, what);
        ck_assert_msg(share > 0.3, "%s: %.3f fast-forwarded", what, share);
        /* and the switches happened */
        RunResult r;
        o.host_time = FALSE;
        ck_assert(run_simulation(&o, &r, NULL));
        JsonObject *os = json_object_get_object_member(json_node_get_object(r.report), "os");
        ck_assert_int_gt(json_object_get_int_member(os, "context_switches"), 40);
        run_result_clear(&r);
    }
    g_unlink(path);
}
END_TEST

/* ==================== the command line ==================== */

START_TEST(test_cli_no_fast_forward)
{
    g_autofree char *a = NULL, *b = NULL;
    const char *run = "run --config haswell --lock mcs --threads 8 --iterations 20 --format json --no-host-time";
    g_autofree char *with = g_strdup(run), *without = g_strconcat(run, " --no-fast-forward", NULL);
    ck_assert_int_eq(run_qsim_line(with, &a, NULL), 0);
    ck_assert_int_eq(run_qsim_line(without, &b, NULL), 0);
    /* the same report but for the command line in its provenance */
    g_autofree char *pa = report_without_provenance(a), *pb = report_without_provenance(b);
    ck_assert_msg(pa && pb && !strcmp(pa, pb), "--no-fast-forward changed the report");
    /* With host time, the share fast-forwarded is reported: some with, none without. */
    g_autofree char *c = NULL, *d = NULL;
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock mcs --threads 8 --iterations 20 --format json", &c, NULL), 0);
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock mcs --threads 8 --iterations 20 --format json "
                                   "--no-fast-forward", &d, NULL), 0);
    ck_assert(strstr(c, "\"host_cpu_seconds\""));
    ck_assert(strstr(c, "\"host_fast_forward_share\" : 0.") && !strstr(c, "\"host_fast_forward_share\" : 0.0\n"));
    ck_assert(strstr(d, "\"host_fast_forward_share\" : 0.0\n"));
}
END_TEST

START_TEST(test_litmus_no_fast_forward)
{
    /* Litmus runs of the catalogue give the same outcomes either way. */
    static const char *const cases[][2] = {
        { "haswell", "tests/litmus/x86" },
        { "neoverse-n1", "tests/litmus/aarch64" },
        { "teaching-bus", "tests/litmus/x86" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *dir = g_build_filename(test_srcdir(), cases[i][1], NULL);
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        ck_assert_msg(d, "no %s", dir);
        GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
        const char *name;
        while ((name = g_dir_read_name(d)))
            if (g_str_has_suffix(name, ".litmus"))
                g_ptr_array_add(files, g_build_filename(dir, name, NULL));
        g_ptr_array_sort(files, (GCompareFunc)g_strcmp0);
        ck_assert_uint_gt(files->len, 0);
        GString *line = g_string_new(NULL);
        g_string_printf(line, "litmus --config %s --runs %u", cases[i][0], test_scale_quick() ? 20 : 100);
        for (guint f = 0; f < MIN(files->len, 12u); f++)
            g_string_append_printf(line, " %s", (char *)files->pdata[f]);
        g_autofree char *a = NULL, *b = NULL;
        int ra = run_qsim_line(line->str, &a, NULL);
        g_string_append(line, " --no-fast-forward");
        int rb = run_qsim_line(line->str, &b, NULL);
        ck_assert_int_eq(ra, rb);
        ck_assert_str_eq(a, b);
        g_string_free(line, TRUE);
        g_ptr_array_free(files, TRUE);
    }
}
END_TEST

Suite *make_fast_forward_suite(void)
{
    Suite *s = suite_create("fast_forward");
    TCase *tc = tcase_create("catch_up");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_woken_at_every_phase, 0, G_N_ELEMENTS(spin_cases));
    tcase_add_loop_test(tc, test_false_sharing_wakes, 0, G_N_ELEMENTS(spin_cases));
    tcase_add_loop_test(tc, test_watchdog_windows, 0, G_N_ELEMENTS(spin_cases));
    tcase_add_loop_test(tc, test_cut_off_at_every_phase, 0, G_N_ELEMENTS(spin_cases));
    tcase_add_test(tc, test_sev_wakes);
    tcase_add_test(tc, test_spin_forever_runs_to_the_limit);
    tcase_add_test(tc, test_time_slices_preempt_sleepers);
    suite_add_tcase(s, tc);
    TCase *eq = tcase_create("equivalence");
    tcase_set_timeout(eq, 900);
    tcase_add_loop_test(eq, test_reports_identical, 0, G_N_ELEMENTS(machines));
    tcase_add_loop_test(eq, test_warmup_windows_identical, 0, G_N_ELEMENTS(machines));
    tcase_add_loop_test(eq, test_profiles_identical, 0, G_N_ELEMENTS(machines));
    tcase_add_test(eq, test_sibling_placements_identical);
    tcase_add_test(eq, test_sibling_pairs_identical);
    tcase_add_test(eq, test_sibling_pairs_every_phase);
    tcase_add_test(eq, test_cli_no_fast_forward);
    tcase_add_test(eq, test_litmus_no_fast_forward);
    suite_add_tcase(s, eq);
    return s;
}
