/* The OS model on the timing model: the futex system calls' costs (exactly the configured ones,
 * beside the memory traffic of the hash bucket), sleeping and waking (a wake-up onto an idle
 * core takes exactly os.wakeup_cycles), a thread's state surviving a sleep and any number of
 * preemptions, more threads than cores, time slices, migration on and off, a lost wake-up as a
 * stall, and runs that need no OS model unchanged by its presence. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "coherence/memsys.h"
#include "sim/machine/machine.h"
#include "sim/os/os_model.h"
#include "sim/workload/placement.h"
#include "sim/run/run.h"
#include "sim/base/report.h"
#include "tests/golden.h"
#include "tests/temp_files.h"
#include "tests/report_keys.h"

static const char *srcdir(void)
{
    const char *d = g_getenv("QSIM_SRCDIR");
    return d ? d : QSIM_SRCDIR;
}

/* ---------------------------------------------------------------- a program on a machine */

typedef struct {
    QsimConfig *cfg;
    Engine *e;
    MemSys *ms;
    IsaProgram *p;
    IsaLayout *lay;
    Machine *m;
    MachineOutcome outcome;
    OsStats os;
} OsRig;

/* Runs `src` (its threads start at `main`) with `nthreads` threads placed by `fill` on `config`
 * with `sets`. */
static OsRig *os_rig_run(const char *config, const char *const *sets, const char *src, guint nthreads)
{
    g_autoptr(GError) err = NULL;
    OsRig *r = g_new0(OsRig, 1);
    r->cfg = config_load(config, sets, &err);
    ck_assert_msg(r->cfg, "%s", err ? err->message : "");
    r->p = asm_assemble("t.qs", src, asm_target_for_config(r->cfg), &err);
    ck_assert_msg(r->p, "%s", err ? err->message : "");
    r->lay = isa_layout_new(r->p, nthreads, (uint32_t)r->cfg->line_size, 0x10000);
    r->e = engine_new(1);
    r->ms = memsys_new(r->cfg, r->e, &err);
    ck_assert_msg(r->ms, "%s", err ? err->message : "");
    memsys_set_check(r->ms, TRUE);
    g_autofree guint *cores = g_new(guint, nthreads);
    ck_assert(placement_assign_policy(r->cfg, PLACE_FILL, nthreads, cores, &err));
    r->m = machine_new(r->cfg, r->e, &machine_memsys_ops, r->ms, r->p, r->lay, nthreads, cores, &err);
    ck_assert_msg(r->m, "%s", err ? err->message : "");
    r->outcome = machine_run(r->m, CYCLE_NEVER);
    if (machine_os(r->m))
        os_model_stats(machine_os(r->m), &r->os);
    return r;
}

static uint64_t os_rig_var(OsRig *r, const char *sym, guint tid)
{
    int s = isa_program_find_sym(r->p, sym);
    ck_assert_int_ge(s, 0);
    return memsys_peek(r->ms, isa_sym_addr(r->lay, (guint)s, tid), 8);
}

static void os_rig_free(OsRig *r)
{
    machine_free(r->m);
    memsys_free(r->ms);
    engine_free(r->e);
    isa_layout_free(r->lay);
    isa_program_free(r->p);
    config_free(r->cfg);
    g_free(r);
}

/* Thread 0 sleeps on w (0); thread 1 works a while, sets w and wakes it.  What each got back
 * goes to `got` and `woke`. */
static const char sleep_wake_src[] =
    ".shared w 4 own_line\n.shared got 8 own_line\n.shared woke 8 own_line\n.entry main\nmain:\n"
    "    bne tid, 0, waker\n"
    "    futex_wait r1, [w], 0\n"
    "    st [got], r1\n"
    "    halt\n"
    "waker:\n"
    "    work 30000\n"
    "    st32 [w], 1\n"
    "    futex_wake r2, [w], 1\n"
    "    st [woke], r2\n"
    "    halt\n";

START_TEST(test_wakeup_onto_an_idle_core_takes_wakeup_cycles)
{
    const char *const sets[] = { "os.wakeup_cycles=12345", NULL };
    OsRig *r = os_rig_run("haswell", sets, sleep_wake_src, 2);
    ck_assert_int_eq(r->outcome, MACHINE_DONE);
    ck_assert_uint_eq(os_rig_var(r, "got", 0), 0);  /* woken */
    ck_assert_uint_eq(os_rig_var(r, "woke", 0), 1); /* one woken */
    ck_assert_uint_eq(r->os.sleeps, 1);
    ck_assert_uint_eq(r->os.wakes, 1);
    ck_assert_uint_eq(r->os.futex_waits, 1);
    ck_assert_uint_eq(r->os.futex_wakes, 1);
    ck_assert_uint_eq(r->os.futex_eagain, 0);
    /* Its core sat idle: the wake-up is the IPI and the idle exit, nothing else. */
    ck_assert_uint_eq(r->os.wake_to_run_cycles, 12345);
    ck_assert_uint_eq(r->os.runqueue_wait_cycles, 0);
    /* It slept from its queueing until the waker's try_to_wake_up: most of the waker's work. */
    ck_assert_msg(r->os.cycles_asleep > 25000 && r->os.cycles_asleep < 31000, "%" G_GUINT64_FORMAT,
                  r->os.cycles_asleep);
    /* Left its core three times: asleep, and each thread at its halt. */
    ck_assert_uint_eq(r->os.context_switches, 3);
    os_rig_free(r);
}
END_TEST

/* One thread, futex_wait on a word that differs: the EAGAIN path.  Its kernel time moves by
 * exactly what a cost key moves by (the memory traffic is the same whatever they are). */
START_TEST(test_eagain_costs_what_the_config_says)
{
    const char *src = ".shared w 4 own_line init 5\n.shared got 8 own_line\n.entry main\nmain:\n"
                      "    futex_wait r1, [w], 4\n    st [got], r1\n    halt\n";
    static const struct {
        const char *set;
        guint64 delta;
    } rows[] = {
        { "os.syscall_cycles=1300", 1000 }, /* both halves */
        { "os.futex_key_cycles=1300", 1000 },
        { "os.futex_hold_cycles=1150", 1000 },
        { "os.futex_wake_cycles=99999", 0 }, /* no wake in this path */
        { "os.wakeup_cycles=99999", 0 },
    };
    OsRig *base = os_rig_run("haswell", NULL, src, 1);
    ck_assert_uint_eq(os_rig_var(base, "got", 0), 1);
    ck_assert_uint_eq(base->os.futex_eagain, 1);
    ck_assert_uint_eq(base->os.sleeps, 0);
    /* Entry and exit, the key, the hold, and five accesses to the bucket and the word. */
    ck_assert_uint_gt(base->os.kernel_cycles, 300 + 300 + 150);
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        const char *const sets[] = { rows[i].set, NULL };
        OsRig *r = os_rig_run("haswell", sets, src, 1);
        ck_assert_msg(r->os.kernel_cycles == base->os.kernel_cycles + rows[i].delta, "%s: %" G_GUINT64_FORMAT
                      " vs %" G_GUINT64_FORMAT, rows[i].set, r->os.kernel_cycles, base->os.kernel_cycles);
        os_rig_free(r);
    }
    os_rig_free(base);
}
END_TEST

/* A wake with nobody in the bucket: only the waiter count is read, no lock taken. */
START_TEST(test_empty_wake_takes_no_lock)
{
    const char *src = ".shared w 4 own_line\n.shared got 8 own_line\n.entry main\nmain:\n"
                      "    futex_wake r1, [w], 1\n    st [got], r1\n    halt\n";
    OsRig *r = os_rig_run("haswell", NULL, src, 1);
    ck_assert_uint_eq(os_rig_var(r, "got", 0), 0);
    ck_assert_uint_eq(r->os.futex_wakes_empty, 1);
    ck_assert_uint_eq(r->os.hb_lock_wait_cycles, 0);
    /* The bucket's line was read (a load from memory), never written. */
    GArray *lines = memsys_lines(r->ms);
    gboolean seen = FALSE;
    for (guint i = 0; i < lines->len; i++) {
        uint64_t a = g_array_index(lines, uint64_t, i);
        if (a >= OS_KERNEL_BASE) {
            seen = TRUE;
            ck_assert_uint_eq(memsys_line_stats(r->ms, a).rfos, 0);
        }
    }
    g_array_free(lines, TRUE);
    ck_assert(seen);
    os_rig_free(r);
}
END_TEST

/* Registers and the call stack survive a sleep (nested calls, a value in a register across it)
 * and many preemptions (tiny slices, two threads on one core summing in registers). */
START_TEST(test_thread_state_survives_switches)
{
    const char *src =
        ".shared w 4 own_line\n.thread out 8 own_line\n.entry main\nmain:\n"
        "    mov r5, 0\n    mov r6, 0\n"
        "loop:\n    call step\n    add r6, r6, 1\n    bltu r6, 3000, loop\n"
        "    st [out], r5\n    halt\n"
        "step:\n    call inner\n    ret\n"
        "inner:\n    add r5, r5, r6\n    add r5, r5, tid\n    ret\n";
    const char *const sets[] = { "topology.cores_per_socket=1", "os.sched_latency_cycles=3000",
                                 "os.min_granularity_cycles=500", "os.context_switch_cycles=100", NULL };
    OsRig *r = os_rig_run("teaching", sets, src, 3);
    ck_assert_int_eq(r->outcome, MACHINE_DONE);
    for (guint t = 0; t < 3; t++) /* sum of 0..2999, plus tid each step */
        ck_assert_uint_eq(os_rig_var(r, "out", t), 2999 * 3000 / 2 + 3000 * t);
    ck_assert_uint_gt(r->os.preemptions, 10);
    ck_assert_uint_eq(r->os.context_switches, r->os.preemptions + 3);
    ck_assert_uint_gt(r->os.runqueue_wait_cycles, 0);
    ck_assert_uint_eq(r->os.migrations, 0); /* one core */
    os_rig_free(r);
}
END_TEST

/* The lock benchmark with a lock file of the tests' own, a built-in lock, options. */
static gboolean run_lock(const char *lock, const char *lock_file, const char *config, const char *const *sets,
                         guint threads, guint iterations, RunResult *r)
{
    RunOptions o;
    run_options_init(&o);
    o.config = config;
    o.sets = sets;
    o.lock = lock;
    o.lock_file = lock_file;
    o.workload.threads = threads;
    o.workload.iterations = iterations;
    o.host_time = FALSE;
    g_autoptr(GError) err = NULL;
    gboolean ran = run_simulation(&o, r, &err);
    ck_assert_msg(ran, "%s", err ? err->message : "");
    return r->ok;
}

static gint64 report_int(JsonNode *report, const char *path)
{
    return report_key_int(json_node_get_object(report), path);
}

/* Slices short enough that threads take turns within a short run. */
static const char *const short_slices[] = { "os.sched_latency_cycles=4000", "os.min_granularity_cycles=1000", NULL };

/* More threads than cores: futex-mutex on teaching's two cores, 6 threads, all finish. */
START_TEST(test_more_threads_than_cores)
{
    RunResult r;
    ck_assert_msg(run_lock("futex-mutex", NULL, "teaching", short_slices, 6, 200, &r), "%s", r.failure);
    JsonObject *o = json_node_get_object(r.report);
    JsonArray *pt = json_object_get_array_member(o, "per_thread");
    ck_assert_uint_eq(json_array_get_length(pt), 6);
    for (guint t = 0; t < 6; t++) {
        JsonObject *th = json_array_get_object_element(pt, t);
        ck_assert_int_eq(json_object_get_int_member(th, "acquisitions"), 200);
        ck_assert_int_eq(json_object_get_int_member(th, "core"), t % 2); /* where it started */
    }
    ck_assert_int_eq(report_int(r.report, "acquisitions"), 1200);
    ck_assert_int_gt(report_int(r.report, "os_counters.preemptions"), 6);
    ck_assert_int_gt(report_int(r.report, "os.context_switches"), report_int(r.report, "os_counters.preemptions"));
    ck_assert_int_gt(report_int(r.report, "os.runqueue_wait_cycles"), 0);
    run_result_clear(&r);
    /* With CFS's own slices (milliseconds), the first two run to the end before the next two
     * start: the only switches are the threads' ends. */
    ck_assert_msg(run_lock("futex-mutex", NULL, "teaching", NULL, 6, 40, &r), "%s", r.failure);
    ck_assert_int_eq(report_int(r.report, "os_counters.preemptions"), 0);
    ck_assert_int_eq(report_int(r.report, "os.context_switches"), 6);
    run_result_clear(&r);
}
END_TEST

/* More threads than cores, a fixed amount of work: the run ends when the last thread finishes,
 * not when a time slice still pending comes due or the stall window closes (issue 29 item 6:
 * every such run reported run.stall_cycles).  Whatever the window, the same cycles. */
START_TEST(test_oversubscribed_run_ends_with_its_work)
{
    static const struct {
        const char *lock, *config;
        guint threads, iterations, cores;
        gint64 below;                 /* well past the work, far short of any stall window */
    } runs[] = {
        { "ticket", "teaching", 4, 3, 2, 20000 },
        { "ttas", "teaching", 3, 20, 2, 40000 },
        { "mcs", "haswell", 37, 5, 36, 400000 },
    };
    const char *const short_window[] = { "run.stall_cycles=50000", NULL };
    for (guint i = 0; i < G_N_ELEMENTS(runs); i++) {
        RunResult a, b;
        ck_assert_msg(run_lock(runs[i].lock, NULL, runs[i].config, NULL, runs[i].threads, runs[i].iterations, &a),
                      "%s", a.failure);
        gint64 cycles = report_int(a.report, "cycles");
        ck_assert_msg(cycles < runs[i].below, "%s on %s, %u threads: %" G_GINT64_FORMAT " cycles", runs[i].lock,
                      runs[i].config, runs[i].threads, cycles);
        /* The cores sat idle only after their threads were done, not for a window after that. */
        ck_assert_int_lt(report_int(a.report, "os_counters.idle_cycles"), cycles * runs[i].cores);
        if (cycles < 50000) {
            ck_assert_msg(run_lock(runs[i].lock, NULL, runs[i].config, short_window, runs[i].threads,
                                   runs[i].iterations, &b), "%s", b.failure);
            ck_assert_int_eq(report_int(b.report, "cycles"), cycles);
            run_result_clear(&b);
        }
        run_result_clear(&a);
    }
}
END_TEST

/* Settings the config accepts never make a correct lock fail a watchdog (issue 29 item 9): a
 * context switch or an idle wake-up longer than run.stall_cycles stalled ttas and futex-mutex,
 * and one-cycle slices preempted every thread before it retired anything, for ever.  The
 * watchdogs' windows follow the OS costs; a slice ends only after its thread retired
 * something. */
static const struct {
    const char *lock, *config;
    guint threads;
    const char *set[3];
} os_cost_rows[] = {
    { "ttas", "teaching", 3, { "os.context_switch_cycles=2000000" } },
    { "futex-mutex", "haswell", 4, { "os.wakeup_cycles=2000000" } },
    { "ttas", "teaching", 4, { "os.sched_latency_cycles=1", "os.min_granularity_cycles=1" } },
    { "futex-mutex", "teaching", 4, { "os.sched_latency_cycles=1", "os.min_granularity_cycles=1" } },
    { "mcs", "teaching", 3, { "os.sched_latency_cycles=100", "os.min_granularity_cycles=10" } },
    { "futex-mutex", "teaching", 4, { "os.syscall_cycles=3000000" } },
    { "futex-mutex", "haswell", 4, { "os.futex_wake_cycles=500000", "run.stall_cycles=1000" } },
    { "futex-mutex", "haswell", 8, { "os.futex_hold_cycles=1000000" } },
    { "adaptive-mutex", "teaching", 3, { "os.futex_key_cycles=2000000", "os.context_switch_cycles=3000000" } },
};

START_TEST(test_os_costs_never_fail_a_correct_lock)
{
    RunResult r;
    ck_assert_msg(run_lock(os_cost_rows[_i].lock, NULL, os_cost_rows[_i].config, os_cost_rows[_i].set,
                           os_cost_rows[_i].threads, 20, &r),
                  "%s on %s with %s: %s", os_cost_rows[_i].lock, os_cost_rows[_i].config, os_cost_rows[_i].set[0],
                  r.failure);
    ck_assert_int_eq(report_int(r.report, "acquisitions"), 20 * (gint64)os_cost_rows[_i].threads);
    run_result_clear(&r);
}
END_TEST

/* A stall with the OS model names the settings of its steps, and a core mid-switch says which
 * cost it is paying. */
START_TEST(test_stall_report_names_the_os_settings)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "sleeper.qs", NULL);
    ck_assert(g_file_set_contents(path, ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                                        "lock:\n    futex_wait r1, [lock_word], 0\n    ret\nunlock:\n    ret\n", -1, NULL));
    RunResult r;
    const char *const sets[] = { "os.context_switch_cycles=1234567", NULL };
    ck_assert(!run_lock(NULL, path, "teaching", sets, 3, 5, &r));
    ck_assert_msg(strstr(r.failure, "the run stalled") && strstr(r.failure, "the OS model's os.* costs") &&
                  strstr(r.failure, "os.context_switch_cycles 1234567"), "%s", r.failure);
    run_result_clear(&r);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* A thread left asleep with nobody to wake it: the run stalls, and says who sleeps where. */
START_TEST(test_lost_wakeup_stalls_the_model)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "never-marked.qs", NULL);
    const char *text = ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                       "lock:\n    cas32.acq r0, [lock_word], 0, 1\n    beq r0, 0, done\n"
                       "again:\n    futex_wait r1, [lock_word], 1\n    cas32.acq r0, [lock_word], 0, 1\n"
                       "    bne r0, 0, again\ndone:\n    ret\n"
                       "unlock:\n    xchg32.rel r0, [lock_word], 0\n    bne r0, 2, out\n"
                       "    futex_wake r1, [lock_word], 1\nout:\n    ret\n";
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    RunResult r;
    ck_assert(!run_lock(NULL, path, "haswell", NULL, 4, 50, &r));
    ck_assert(json_object_get_boolean_member(json_node_get_object(r.report), "stalled"));
    ck_assert_msg(strstr(r.failure, "asleep in futex_wait on the word at 0x10000"), "%s", r.failure);
    ck_assert_msg(strstr(r.failure, "a lost wake-up"), "%s", r.failure);
    run_result_clear(&r);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* Migration: with it, a thread woken while its core is busy moves to an idle one; without it,
 * threads never change cores. */
START_TEST(test_migration_on_and_off)
{
    const char *const on[] = { "os.migration=true", NULL };
    const char *const off[] = { "os.migration=false", NULL };
    RunResult a, b;
    ck_assert_msg(run_lock("futex-mutex", NULL, "haswell", on, 12, 40, &a), "%s", a.failure);
    ck_assert_msg(run_lock("futex-mutex", NULL, "haswell", off, 12, 40, &b), "%s", b.failure);
    ck_assert_int_eq(report_int(b.report, "os_counters.migrations"), 0);
    /* haswell has 36 cores: 12 threads, one each, nobody needs to move. */
    ck_assert_int_eq(report_int(a.report, "os_counters.migrations"), 0);
    run_result_clear(&a);
    run_result_clear(&b);
    /* Three threads on teaching's two cores, taking turns: the core whose thread finishes first
     * takes the one waiting on the other core. */
    const char *const on_short[] = { "os.migration=true", short_slices[0], short_slices[1], NULL };
    const char *const off_short[] = { "os.migration=false", short_slices[0], short_slices[1], NULL };
    ck_assert_msg(run_lock("futex-mutex", NULL, "teaching", on_short, 3, 200, &a), "%s", a.failure);
    ck_assert_msg(run_lock("futex-mutex", NULL, "teaching", off_short, 3, 200, &b), "%s", b.failure);
    ck_assert_int_gt(report_int(a.report, "os_counters.migrations"), 0);
    ck_assert_int_eq(report_int(b.report, "os_counters.migrations"), 0);
    run_result_clear(&a);
    run_result_clear(&b);
}
END_TEST

/* The hash bucket's lock is a real line: eight threads calling into futex_wait at once wait for
 * it, and its line moves between their cores. */
START_TEST(test_bucket_lock_is_contended)
{
    RunResult r;
    ck_assert_msg(run_lock("futex-mutex", NULL, "haswell", NULL, 8, 100, &r), "%s", r.failure);
    ck_assert_int_gt(report_int(r.report, "os_counters.hb_lock_wait_cycles"), 0);
    ck_assert_int_gt(report_int(r.report, "os.sleeps"), 0);
    ck_assert_int_eq(report_int(r.report, "os.sleeps"), report_int(r.report, "os.wakes"));
    run_result_clear(&r);
}
END_TEST

/* ---------------------------------------------------------------- runs without the OS model */

static char *report_json_without(JsonNode *report, const char *const *drop)
{
    JsonObject *o = json_node_get_object(report);
    for (guint i = 0; drop[i]; i++)
        if (json_object_has_member(o, drop[i]))
            json_object_remove_member(o, drop[i]);
    return report_to_json(report);
}

/* No futex op and threads <= cores: no OS model, no os keys. */
START_TEST(test_spinlock_reports_have_no_os_keys)
{
    RunResult r;
    ck_assert(run_lock("ttas", NULL, "haswell", NULL, 4, 50, &r));
    JsonObject *o = json_node_get_object(r.report);
    ck_assert(!json_object_has_member(o, "os"));
    ck_assert(!json_object_has_member(o, "os_counters"));
    ck_assert(!json_object_has_member(o, "lock_params"));
    run_result_clear(&r);
}
END_TEST

/* The OS model present (a lock with a futex op that never runs) changes nothing of the run. */
START_TEST(test_idle_os_model_changes_nothing)
{
    g_autofree char *ttas = NULL;
    g_autofree char *path_ttas = g_build_filename(srcdir(), "locks", "ttas.qs", NULL);
    ck_assert(g_file_get_contents(path_ttas, &ttas, NULL, NULL));
    g_autofree char *dir = tmpdir();
    g_autofree char *path = g_build_filename(dir, "ttas-dead-futex.qs", NULL);
    g_autofree char *text = g_strconcat(ttas, "never_called:\n    futex_wake r0, [lock_word], 1\n    ret\n", NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    static const char *const configs[] = { "haswell", "neoverse-n1" };
    for (guint c = 0; c < G_N_ELEMENTS(configs); c++) {
        RunResult a, b;
        ck_assert(run_lock("ttas", NULL, configs[c], NULL, 4, 60, &a));
        ck_assert(run_lock(NULL, path, configs[c], NULL, 4, 60, &b));
        ck_assert(json_object_has_member(json_node_get_object(b.report), "os"));
        ck_assert_int_eq(report_int(b.report, "os.futex_syscalls"), 0);
        const char *const drop[] = { "lock", "os", "os_counters", "provenance", NULL };
        g_autofree char *ja = report_json_without(a.report, drop), *jb = report_json_without(b.report, drop);
        ck_assert_msg(!strcmp(ja, jb), "%s: the idle OS model changed the report", configs[c]);
        run_result_clear(&a);
        run_result_clear(&b);
    }
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* A spinlock's report, byte for byte as before the OS model existed (tests/golden: made with
 * `qsim run --config haswell --lock ttas --threads 4 --iterations 300 --format json
 * --no-host-time` by the qsim before the OS model merged, then remade where the report changed
 * on purpose since: the `faulted` and `halted_in_lock` verdicts, and queued requests' stall rows
 * counted in dir_rows_fired, the bus counters, zero off a bus; SMT's keys, with haswell's two
 * threads per core: smt_siblings empty, the sibling's clears and waits 0).  If the model's timing
 * changes on purpose, regenerate it (`make golden`) and read the diff: no cycle may move for a
 * lock that makes no system call. */
START_TEST(test_spinlock_report_as_before)
{
    RunResult r;
    ck_assert(run_lock("ttas", NULL, "haswell", NULL, 4, 300, &r));
    /* where the inputs were read from, and the commit, are this checkout's */
    json_object_remove_member(json_node_get_object(r.report), "provenance");
    g_autofree char *got = report_format(r.report, REPORT_JSON);
    golden_check("ttas-haswell-4.json", got); /* names the first lines that differ */
    run_result_clear(&r);
}
END_TEST

Suite *make_os_model_suite(void)
{
    Suite *s = suite_create("os_model");
    TCase *tc = tcase_create("futex");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_wakeup_onto_an_idle_core_takes_wakeup_cycles);
    tcase_add_test(tc, test_eagain_costs_what_the_config_says);
    tcase_add_test(tc, test_empty_wake_takes_no_lock);
    tcase_add_test(tc, test_bucket_lock_is_contended);
    tcase_add_test(tc, test_lost_wakeup_stalls_the_model);
    suite_add_tcase(s, tc);
    tc = tcase_create("scheduler");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_thread_state_survives_switches);
    tcase_add_test(tc, test_more_threads_than_cores);
    tcase_add_test(tc, test_oversubscribed_run_ends_with_its_work);
    tcase_add_loop_test(tc, test_os_costs_never_fail_a_correct_lock, 0, G_N_ELEMENTS(os_cost_rows));
    tcase_add_test(tc, test_stall_report_names_the_os_settings);
    tcase_add_test(tc, test_migration_on_and_off);
    suite_add_tcase(s, tc);
    tc = tcase_create("unchanged");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_spinlock_reports_have_no_os_keys);
    tcase_add_test(tc, test_idle_os_model_changes_nothing);
    tcase_add_test(tc, test_spinlock_report_as_before);
    suite_add_tcase(s, tc);
    return s;
}
