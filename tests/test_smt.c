/* SMT hardware threads (topology.threads_per_core 2): the logical CPUs as Linux numbers them and
 * the placements onto them; the two threads of a core one agent to the coherence protocol (no
 * transfer or snoop between them); the sibling's stores clearing loads by core.rollback, counted
 * apart; a locked RMW's hold against the sibling; the monitor and WFE hearing the sibling;
 * fetch, dispatch and retirement in turns; partitioned buffers halving while both threads run
 * and growing back when one halts; and runs with one thread per core unchanged by the config's
 * SMT. */
#include <check.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "coherence/memsys.h"
#include "sim/machine/machine.h"
#include "sim/workload/placement.h"
#include "sim/run/run.h"
#include "sim/base/report.h"
#include "tests/run_qsim.h"
#include "tests/report_keys.h"

/* ---------------------------------------------------------------- placement */

/* 2 sockets x 4 cores x 2 threads: CPUs 0-7 are the cores' first threads, 8-15 their siblings. */
static QsimConfig *two_by_four_by_two(void)
{
    return config_load_string("name: p\narch: x86\ntopology:\n  sockets: 2\n  cores_per_socket: 4\n"
                              "  threads_per_core: 2\n", "p.yaml", NULL, NULL);
}

START_TEST(test_linux_numbering)
{
    g_autoptr(QsimConfig) c = two_by_four_by_two();
    ck_assert_uint_eq(config_total_cores(c), 8);
    ck_assert_uint_eq(config_total_cpus(c), 16);
    static const guint cpu[] = { 0, 7, 8, 9, 15 }, core[] = { 0, 7, 0, 1, 7 }, thread[] = { 0, 0, 1, 1, 1 };
    for (guint i = 0; i < G_N_ELEMENTS(cpu); i++) {
        ck_assert_uint_eq(config_cpu_core(c, cpu[i]), core[i]);
        ck_assert_uint_eq(config_cpu_thread(c, cpu[i]), thread[i]);
    }
}
END_TEST

/* fill and spread use each core's first thread, past the cores starting over (the OS model
 * shares them); smt fills siblings first, in fill's order of cores, past every CPU starting over. */
START_TEST(test_policies_on_smt)
{
    g_autoptr(QsimConfig) c = two_by_four_by_two();
    guint cpus[17];
    ck_assert(placement_assign_policy(c, PLACE_FILL, 9, cpus, NULL));
    ck_assert_uint_eq(cpus[7], 7);
    ck_assert_uint_eq(cpus[8], 0);
    ck_assert(placement_assign_policy(c, PLACE_SPREAD, 3, cpus, NULL));
    ck_assert_uint_eq(cpus[1], 4);
    ck_assert_uint_eq(cpus[2], 1);
    ck_assert(placement_assign_policy(c, PLACE_SMT, 17, cpus, NULL));
    static const guint want[] = { 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 0 };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++)
        ck_assert_uint_eq(cpus[i], want[i]);
    /* With one thread per core, smt is fill. */
    g_autoptr(QsimConfig) one = config_load_string("name: p\narch: x86\ntopology:\n  sockets: 2\n  cores_per_socket: 4\n",
                                                   "p.yaml", NULL, NULL);
    ck_assert(placement_assign_policy(one, PLACE_SMT, 9, cpus, NULL));
    for (guint i = 0; i < 9; i++)
        ck_assert_uint_eq(cpus[i], i % 8);
}
END_TEST

START_TEST(test_cpu_lists)
{
    g_autoptr(QsimConfig) c = two_by_four_by_two();
    Placement p;
    ck_assert(placement_parse(NULL, "cpus:0,8", &p, NULL));
    ck_assert_int_eq(p.policy, PLACE_CPUS);
    ck_assert_uint_eq(p.ncpus, 2);
    guint cpus[3];
    ck_assert(placement_assign(c, &p, 3, cpus, NULL));
    ck_assert_uint_eq(cpus[0], 0);
    ck_assert_uint_eq(cpus[1], 8);
    ck_assert_uint_eq(cpus[2], 0); /* past the list: it starts over */
    ck_assert(placement_parse(NULL, "cpus:0-2,9", &p, NULL));
    g_autofree char *text = placement_text(&p);
    ck_assert_str_eq(text, "cpus:0,1,2,9");
    ck_assert(placement_parse(NULL, "smt", &p, NULL));
    ck_assert_int_eq(p.policy, PLACE_SMT);
    g_autofree char *smt = placement_text(&p);
    ck_assert_str_eq(smt, "smt");
    static const struct {
        const char *text, *error;
    } bad[] = {
        { "round", "--placement round: one of fill, spread, smt or cpus:LIST" },
        { "cpus:", "--placement cpus:: expected logical CPUs" },
        { "cpus:1,1", "--placement cpus:1,1: CPU 1 is listed twice" },
        { "cpus:3-1", "--placement cpus:3-1: expected logical CPUs and ascending ranges" },
        { "cpus:1,x", "--placement cpus:1,x: expected logical CPUs" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) e = NULL;
        ck_assert_msg(!placement_parse(NULL, bad[i].text, &p, &e), "%s", bad[i].text);
        ck_assert_msg(g_str_has_prefix(e->message, bad[i].error), "%s: %s", bad[i].text, e->message);
    }
    g_autoptr(GError) e = NULL;
    ck_assert(placement_parse(NULL, "cpus:0,16", &p, NULL));
    ck_assert(!placement_assign(c, &p, 2, cpus, &e));
    ck_assert_msg(strstr(e->message, "CPU 16 is not one of machine p's 16 logical CPUs"), "%s", e->message);
}
END_TEST

/* ---------------------------------------------------------------- runs through qsim run's path */

static JsonObject *run_json(const char *config, const char *lock, guint threads, const char *placement,
                            const char *const *sets, guint think, RunResult *r)
{
    RunOptions o;
    run_options_init(&o);
    o.config = config;
    o.lock = lock;
    o.sets = sets;
    o.workload.threads = threads;
    o.workload.iterations = 200;
    o.workload.think = think;
    o.host_time = FALSE;
    ck_assert(placement_parse(NULL, placement, &o.workload.placement, NULL));
    g_autoptr(GError) err = NULL;
    ck_assert_msg(run_simulation(&o, r, &err), "%s", err ? err->message : "");
    ck_assert_msg(r->ok, "%s", r->failure ? r->failure : "");
    return json_node_get_object(r->report);
}

/* ttas on the two threads of one core: after the first miss the lock's line stays in their L1,
 * one agent to the protocol: no transfer, no snoop, no invalidation between them; on two cores
 * (fill) every hand-over moves it. */
START_TEST(test_siblings_are_one_agent)
{
    RunResult r, f;
    JsonObject *o = run_json("haswell", "ttas", 2, "smt", NULL, 0, &r);
    ck_assert_int_eq(report_key_int(o, "coherence.lock_line.c2c_transfers"), 0);
    ck_assert_int_eq(report_key_int(o, "coherence.lock_line.invalidations"), 0);
    ck_assert_int_le(report_key_int(o, "coherence.lock_line.rfo"), 1);
    /* the first miss: GetS, its data, Unblock */
    ck_assert_int_le(report_key_int(o, "coherence.lock_line.messages"), 3);
    ck_assert_int_eq(report_key_int(o, "memory_system.c2c_transfers"), 0);
    static const char *const snoops[] = { "Fwd-GetS", "Fwd-GetM", "Inv", "Inv-Ack", "Data(c2c)" };
    for (guint i = 0; i < G_N_ELEMENTS(snoops); i++) {
        g_autofree char *path = g_strdup_printf("coherence.messages.%s", snoops[i]);
        ck_assert_msg(report_key_int(o, path) == 0, "%s", snoops[i]);
    }
    /* The report says which threads shared a core. */
    JsonArray *sib = json_object_get_array_member(o, "smt_siblings");
    ck_assert_uint_eq(json_array_get_length(sib), 1);
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(sib, 0), "core"), 0);
    ck_assert_str_eq(json_object_get_string_member(json_array_get_object_element(sib, 0), "threads"), "0+1");
    ck_assert_int_gt(report_key_int(o, "cores_summed.smt_stage_waits"), 0);
    JsonObject *fo = run_json("haswell", "ttas", 2, "fill", NULL, 0, &f);
    ck_assert_int_gt(report_key_int(fo, "coherence.lock_line.c2c_transfers"), 100);
    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(fo, "smt_siblings")), 0);
    run_result_clear(&r);
    run_result_clear(&f);
}
END_TEST

/* The sibling's store clears a load that read the line too early, as a remote invalidation
 * would, and counts apart: here (ttas with think time, whose lock load runs ahead of the `work`
 * on each thread) every clear is the sibling's; core.rollback none makes them 0, precise no more. */
START_TEST(test_sibling_clears_follow_rollback)
{
    RunResult c, p, n;
    JsonObject *co = run_json("haswell", "ttas", 2, "smt", NULL, 100, &c);
    gint64 sib = report_key_int(co, "machine_clears.sibling");
    ck_assert_int_gt(sib, 100);
    ck_assert_int_eq(sib, report_key_int(co, "machine_clears.memory_ordering"));
    ck_assert_int_eq(sib, report_key_int(co, "cores_summed.machine_clears_sibling"));
    const char *const precise[] = { "core.rollback=precise", NULL };
    JsonObject *po = run_json("haswell", "ttas", 2, "smt", precise, 100, &p);
    ck_assert_int_le(report_key_int(po, "machine_clears.sibling"), sib);
    const char *const none[] = { "core.rollback=none", NULL };
    JsonObject *no = run_json("haswell", "ttas", 2, "smt", none, 100, &n);
    ck_assert_int_eq(report_key_int(no, "machine_clears.sibling"), 0);
    ck_assert_int_eq(report_key_int(no, "machine_clears.memory_ordering"), 0);
    run_result_clear(&c);
    run_result_clear(&p);
    run_result_clear(&n);
}
END_TEST

/* A locked RMW holds its line against the sibling as against snoops: tas's xchg on one thread
 * makes the other's accesses to the lock word wait; without a hold none does. */
START_TEST(test_locked_rmw_holds_against_sibling)
{
    RunResult h, z;
    JsonObject *ho = run_json("haswell", "tas", 2, "smt", NULL, 0, &h);
    ck_assert_int_gt(report_key_int(ho, "memory_system.sibling_hold_wait_cycles"), 0);
    const char *const nohold[] = { "core.lock_hold_cycles=0", NULL };
    JsonObject *zo = run_json("haswell", "tas", 2, "smt", nohold, 0, &z);
    ck_assert_int_eq(report_key_int(zo, "memory_system.sibling_hold_wait_cycles"), 0);
    run_result_clear(&h);
    run_result_clear(&z);
}
END_TEST

/* arm64 (no shipped config has SMT, but the rule holds): a waiter in WFE after ldx on the lock
 * word is woken by its sibling's release, a store to their shared L1 that no invalidation
 * announces (core.wfe_timeout 0: without the wake-up the run would stall). */
START_TEST(test_wfe_hears_the_sibling)
{
    const char *const sets[] = { "topology.threads_per_core=2", NULL };
    RunResult r;
    JsonObject *o = run_json("neoverse-n1", "ttas", 2, "smt", sets, 0, &r);
    ck_assert_int_gt(report_key_int(o, "cores_summed.wfe_wake_monitor"), 0);
    ck_assert_int_eq(report_key_int(o, "coherence.lock_line.c2c_transfers"), 0);
    run_result_clear(&r);
}
END_TEST

/* The report of a run with one thread per core, removing what SMT adds (smt_siblings). */
static char *report_text(const char *config, const char *lock, guint threads, const char *placement,
                         const char *const *sets)
{
    RunResult r;
    JsonObject *o = run_json(config, lock, threads, placement, sets, 0, &r);
    if (json_object_has_member(o, "smt_siblings"))
        json_object_remove_member(o, "smt_siblings");
    /* the --set and the config's hash are the run's provenance, not its figures */
    json_object_remove_member(o, "provenance");
    char *s = report_to_json(r.report);
    run_result_clear(&r);
    return s;
}

/* A config's SMT changes nothing for runs with one thread per core (fill and spread, and more
 * threads than cores through the OS model): every figure the same as with one thread per core. */
START_TEST(test_one_thread_per_core_unchanged)
{
    static const struct {
        const char *config, *lock, *placement;
        guint threads;
    } runs[] = {
        { "haswell", "ttas", "fill", 3 },        { "haswell", "qspin", "spread", 2 },
        { "skylake-sp", "mcs", "fill", 4 },      { "skylake-sp", "futex-mutex", "fill", 4 },
        { "westmere-ex", "qspin-cmpxchg", "spread", 3 },
    };
    const char *const one[] = { "topology.threads_per_core=1", NULL };
    for (guint i = 0; i < G_N_ELEMENTS(runs); i++) {
        g_autofree char *smt = report_text(runs[i].config, runs[i].lock, runs[i].threads, runs[i].placement, NULL);
        g_autofree char *plain = report_text(runs[i].config, runs[i].lock, runs[i].threads, runs[i].placement, one);
        ck_assert_msg(!strcmp(smt, plain), "%s %s %s: the reports differ", runs[i].config, runs[i].lock,
                      runs[i].placement);
    }
    /* More threads than cores, sharing them through the OS model, stays so too. */
    const char *const small[] = { "topology.threads_per_core=2", NULL };
    const char *const small1[] = { "topology.threads_per_core=1", NULL };
    g_autofree char *a = report_text("teaching", "futex-mutex", 3, "fill", small);
    g_autofree char *b = report_text("teaching", "futex-mutex", 3, "fill", small1);
    ck_assert_str_eq(a, b);
}
END_TEST

/* ---------------------------------------------------------------- the pipeline, by hand */

typedef struct {
    Machine *m;
    guint rob[2][2], lb[2][2], sb[2][2]; /* at mark 7 and mark 8, thread 0's and thread 1's */
    gboolean seen[2];
} LimitProbe;

static void probe_mark(void *ctx, guint core G_GNUC_UNUSED, int64_t n, Cycle when G_GNUC_UNUSED)
{
    LimitProbe *p = ctx;
    if (n != 7 && n != 8)
        return;
    guint k = (guint)(n - 7);
    p->seen[k] = TRUE;
    for (guint t = 0; t < 2; t++)
        core_buffer_limits(machine_core(p->m, t), &p->rob[k][t], &p->lb[k][t], &p->sb[k][t]);
}

/* Runs `src` with two threads on CPUs `cpus` of teaching with two threads per core and `sets`;
 * the mark hook `fn` sees the machine. */
static MachineOutcome run_pair(const char *src, const guint *cpus, guint nthreads, const char *const *more,
                               CoreMarkFn fn, LimitProbe *probe, CoreStats *st)
{
    g_autoptr(GError) err = NULL;
    GPtrArray *sets = g_ptr_array_new();
    g_ptr_array_add(sets, (gpointer) "topology.threads_per_core=2");
    for (guint i = 0; more && more[i]; i++)
        g_ptr_array_add(sets, (gpointer)more[i]);
    g_ptr_array_add(sets, NULL);
    QsimConfig *cfg = config_load("teaching", (const char *const *)sets->pdata, &err);
    g_ptr_array_free(sets, TRUE);
    ck_assert_msg(cfg, "%s", err ? err->message : "");
    IsaProgram *p = asm_assemble("t.qs", src, asm_target_for_config(cfg), &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    IsaLayout *lay = isa_layout_new(p, nthreads, (uint32_t)cfg->line_size, 0x10000);
    Engine *e = engine_new(1);
    MemSys *ms = memsys_new(cfg, e, &err);
    ck_assert_msg(ms, "%s", err ? err->message : "");
    memsys_set_check(ms, TRUE);
    Machine *m = machine_new(cfg, e, &machine_memsys_ops, ms, p, lay, nthreads, cpus, &err);
    ck_assert_msg(m, "%s", err ? err->message : "");
    if (probe)
        probe->m = m;
    if (fn)
        machine_set_mark_hook(m, fn, probe);
    MachineOutcome out = machine_run(m, CYCLE_NEVER);
    for (guint i = 0; st && i < nthreads; i++)
        st[i] = *machine_core_stats(m, i);
    machine_free(m);
    memsys_free(ms);
    engine_free(e);
    isa_layout_free(lay);
    isa_program_free(p);
    config_free(cfg);
    return out;
}

/* Thread 1 works a while and halts; thread 0 marks while both run and again after. */
static const char halves_src[] =
    ".entry main\nmain:\n"
    "    bne tid, 0, other\n"
    "    mark 7\n"
    "    work 3000\n"
    "    mark 8\n"
    "    halt\n"
    "other:\n"
    "    work 1000\n"
    "    halt\n";

/* Partitioned buffers are half each while both threads run and whole again once the sibling
 * has halted; replicated ones are whole all along. */
START_TEST(test_partitions_halve_and_restore)
{
    static const guint cpus[] = { 0, 2 }; /* teaching has 2 cores: CPU 2 is core 0's second thread */
    LimitProbe p = { 0 };
    ck_assert_int_eq(run_pair(halves_src, cpus, 2, NULL, probe_mark, &p, NULL), MACHINE_DONE);
    ck_assert(p.seen[0] && p.seen[1]);
    g_autoptr(QsimConfig) cfg = config_load("teaching", NULL, NULL);
    guint rob = (guint)cfg->core.rob, lb = (guint)cfg->core.load_buffer, sb = (guint)cfg->core.store_buffer;
    for (guint t = 0; t < 2; t++) {
        ck_assert_uint_eq(p.rob[0][t], rob / 2);
        ck_assert_uint_eq(p.lb[0][t], lb / 2);
        ck_assert_uint_eq(p.sb[0][t], sb / 2);
    }
    ck_assert_uint_eq(p.rob[1][0], rob);
    ck_assert_uint_eq(p.lb[1][0], lb);
    ck_assert_uint_eq(p.sb[1][0], sb);
    const char *const repl[] = { "smt.rob=replicated", "smt.load_buffer=replicated", NULL };
    LimitProbe q = { 0 };
    ck_assert_int_eq(run_pair(halves_src, cpus, 2, repl, probe_mark, &q, NULL), MACHINE_DONE);
    ck_assert_uint_eq(q.rob[0][0], rob);
    ck_assert_uint_eq(q.lb[0][0], lb);
    ck_assert_uint_eq(q.sb[0][0], sb / 2);
    /* Two threads on two cores are no siblings: whole buffers. */
    static const guint apart[] = { 0, 1 };
    LimitProbe a = { 0 };
    ck_assert_int_eq(run_pair(halves_src, apart, 2, NULL, probe_mark, &a, NULL), MACHINE_DONE);
    ck_assert_uint_eq(a.rob[0][0], rob);
}
END_TEST

/* Thread 0's second `work` is longer than its half of the ROB (teaching's 32: 16 each) and no
 * longer than the whole, and dispatches while thread 1 runs, so it closes dispatch (the
 * first three, no longer than the half, do not); thread 1 halts before the second starts, and its window is the whole ROB then.  It must still reopen dispatch:
 * judged by the window at its start, it did not, and thread 0 never fetched its `halt` (issue
 * 45: tas on skylake-sp, 3 threads, --placement smt --think 200, STALLED after every
 * acquisition). */
static const char long_work_src[] =
    ".entry main\nmain:\n"
    "    bne tid, 0, other\n"
    "    work 15\n"
    "    work 15\n"
    "    work 15\n"
    "    work 20\n"
    "    halt\n"
    "other:\n"
    "    halt\n";

START_TEST(test_long_work_after_sibling_halts)
{
    static const guint pair[] = { 0, 2 };
    CoreStats st[2];
    ck_assert_int_eq(run_pair(long_work_src, pair, 2, NULL, NULL, NULL, st), MACHINE_DONE);
    ck_assert_uint_ge(st[0].cycles, 65);
    /* and with the ROB shared, where the sibling's halt frees its entries likewise */
    const char *const shared[] = { "smt.rob=shared", NULL };
    ck_assert_int_eq(run_pair(long_work_src, pair, 2, shared, NULL, NULL, st), MACHINE_DONE);
}
END_TEST

/* The command of issue 45, exactly: every acquisition done, then STALLED (exit 1), its message
 * saying both that nothing retired for the 1000200-cycle window and that it stalled at cycle
 * 1600. */
START_TEST(test_issue_45_command_finishes)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("run --lock tas --config skylake-sp -t 3 --placement smt -i 1 --think 200 --cs-work 100",
                           &out, &err);
    ck_assert_msg(rc == 0, "exit %d\n%s", rc, err);
}
END_TEST

/* Seeded runs over the shipped configs with two threads per core (haswell, skylake-sp,
 * westmere-ex): shipped locks, 1-4 threads on sibling hardware threads (smt) or one a core
 * (fill), think 0-400, jitter 0-200, cs-work 0-200, 1-3 iterations, fast-forward on and off.
 * A correct lock finishes every one: no stall, no fault (23 of 90 jittered seeds of the issue's
 * command stalled).  200 points, each a few milliseconds. */
START_TEST(test_smt_grid_finishes)
{
    static const char *const configs[] = { "haswell", "skylake-sp", "westmere-ex" };
    static const char *const locks[] = { "tas", "ttas", "ticket", "mcs", "clh", "qspin", "futex-mutex",
                                         "adaptive-mutex", "qrwlock" };
    static const char *const placements[] = { "smt", "fill" };
    GRand *g = g_rand_new_with_seed(45);
    for (guint i = 0; i < 200; i++) {
        RunOptions o;
        run_options_init(&o);
        o.config = configs[g_rand_int_range(g, 0, G_N_ELEMENTS(configs))];
        o.lock = locks[g_rand_int_range(g, 0, G_N_ELEMENTS(locks))];
        const char *placement = placements[g_rand_int_range(g, 0, G_N_ELEMENTS(placements))];
        ck_assert(placement_parse(NULL, placement, &o.workload.placement, NULL));
        o.workload.threads = (guint)g_rand_int_range(g, 1, 5);
        o.workload.think = (guint)g_rand_int_range(g, 0, 401);
        o.workload.jitter = (guint)g_rand_int_range(g, 0, 201);
        o.workload.cs_work = (guint)g_rand_int_range(g, 0, 201);
        o.workload.iterations = (guint)g_rand_int_range(g, 1, 4);
        o.seed = i + 1;
        o.fast_forward = i % 2 == 0;
        o.host_time = FALSE;
        RunResult r;
        g_autoptr(GError) err = NULL;
        ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
        ck_assert_msg(r.ok, "run --config %s --lock %s --placement %s -t %u --think %u --jitter %u --cs-work %u "
                      "-i %u --seed %" G_GUINT64_FORMAT "%s:\n%s", o.config, o.lock, placement, o.workload.threads,
                      o.workload.think, o.workload.jitter, o.workload.cs_work, o.workload.iterations, o.seed,
                      o.fast_forward ? "" : " --no-fast-forward", r.failure);
        run_result_clear(&r);
    }
    g_rand_free(g);
}
END_TEST

/* A long run of independent adds, fetch-bound: alone on its core a thread fetches fetch_width a
 * cycle; beside a sibling doing the same, every other cycle, so it takes about twice as long. */
static char *adds_src(void)
{
    GString *s = g_string_new(".entry main\nmain:\n");
    for (guint i = 0; i < 600; i++)
        g_string_append_printf(s, "    add r%u, r9, %u\n", 1 + i % 8, i);
    g_string_append(s, "    halt\n");
    return g_string_free(s, FALSE);
}

START_TEST(test_stages_take_turns)
{
    g_autofree char *src = adds_src();
    static const guint alone[] = { 0 }, pair[] = { 0, 2 };
    CoreStats one[1], two[2];
    ck_assert_int_eq(run_pair(src, alone, 1, NULL, NULL, NULL, one), MACHINE_DONE);
    ck_assert_int_eq(run_pair(src, pair, 2, NULL, NULL, NULL, two), MACHINE_DONE);
    ck_assert_uint_eq(one[0].smt_stage_waits, 0);
    for (guint t = 0; t < 2; t++) {
        ck_assert_uint_gt(two[t].smt_stage_waits, 100);
        ck_assert_msg(two[t].cycles * 10 >= one[0].cycles * 17 && two[t].cycles * 10 <= one[0].cycles * 23,
                      "thread %u: %" G_GUINT64_FORMAT " cycles beside its sibling, %" G_GUINT64_FORMAT " alone", t,
                      two[t].cycles, one[0].cycles);
    }
}
END_TEST

/* per_thread names the core and, for a thread on a second hardware thread, its logical CPU;
 * with one thread per core it stays as it was (no cpu member). */
START_TEST(test_per_thread_core_and_cpu)
{
    RunResult r;
    JsonObject *o = run_json("haswell", "ttas", 2, "smt", NULL, 0, &r);
    JsonArray *per = json_object_get_array_member(o, "per_thread");
    JsonObject *t1 = json_array_get_object_element(per, 1);
    ck_assert_int_eq(json_object_get_int_member(t1, "core"), 0);
    ck_assert_int_eq(json_object_get_int_member(t1, "cpu"), 36);
    run_result_clear(&r);
    o = run_json("haswell", "ttas", 2, "fill", NULL, 0, &r);
    t1 = json_array_get_object_element(json_object_get_array_member(o, "per_thread"), 1);
    ck_assert_int_eq(json_object_get_int_member(t1, "core"), 1);
    ck_assert(!json_object_has_member(t1, "cpu"));
    run_result_clear(&r);
}
END_TEST

/* ---------------------------------------------------------------- what `qsim run` reports on SMT */

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every shipped config with SMT siblings, and teaching made SMT: the words that select each
 * machine (`--config NAME [--set ...]`), NULL-terminated each. */
static GPtrArray *smt_machines(void)
{
    GPtrArray *machines = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    g_autofree char *dir = g_build_filename(test_srcdir(), "configs", NULL);
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    ck_assert_msg(d, "no %s", dir);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (const char *f; (f = g_dir_read_name(d));)
        if (g_str_has_suffix(f, ".yaml"))
            g_ptr_array_add(names, g_strndup(f, strlen(f) - strlen(".yaml")));
    g_ptr_array_sort(names, by_name);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *file = g_strconcat(names->pdata[i], ".yaml", NULL);
        g_autofree char *path = g_build_filename(dir, file, NULL);
        g_autoptr(GError) err = NULL;
        g_autoptr(QsimConfig) c = config_load(path, NULL, &err);
        ck_assert_msg(c, "%s: %s", path, err ? err->message : "");
        if (c->topology.threads_per_core > 1)
            g_ptr_array_add(machines, g_strdupv((char *[]){ "--config", names->pdata[i], NULL }));
    }
    ck_assert_msg(machines->len >= 1, "no shipped config has SMT siblings");
    g_ptr_array_add(machines,
                    g_strdupv((char *[]){ "--config", "teaching", "--set", "topology.threads_per_core=2", NULL }));
    return machines;
}

/* One run of each harness, its threads on one core's two hardware threads where it places them. */
static const struct {
    const char *harness;         /* the report's `harness` member, or NULL: none (a lock) */
    const char *args[9];
    const char *headline;        /* how the text report begins */
    gboolean lock_params;        /* the lock declares `.param`s: the report echoes them */
} smt_harnesses[] = {
    { NULL, { "--lock", "adaptive-mutex", "--threads", "2", "--placement", "smt", "--iterations", "50" },
      "adaptive-mutex on ", TRUE },
    { "scenario", { "--scenario", "ping-pong", "--placement", "smt" }, "scenario ping-pong on ", FALSE },
    { "script", { "--script", "0:ld x, 1:st x, 0:ld x" }, "script on ", FALSE },
};

/* `qsim run` with `machine` and `harness`'s arguments, and `format` if not NULL: its exit status,
 * and what it printed, which (stderr) says nothing of a library's assertion failing. */
static int run_smt(char **machine, guint harness, const char *format, char **out)
{
    g_autoptr(GPtrArray) args = g_ptr_array_new();
    g_ptr_array_add(args, "run");
    for (guint i = 0; machine[i]; i++)
        g_ptr_array_add(args, machine[i]);
    for (guint i = 0; smt_harnesses[harness].args[i]; i++)
        g_ptr_array_add(args, (gpointer)smt_harnesses[harness].args[i]);
    if (format) {
        g_ptr_array_add(args, "--format");
        g_ptr_array_add(args, (gpointer)format);
    }
    g_ptr_array_add(args, NULL);
    g_autofree char *err = NULL;
    int rc = run_qsim((const char *const *)args->pdata, out, &err);
    ck_assert_msg(!strstr(err, "CRITICAL") && !strstr(err, "WARNING **"), "%s %s: %s", machine[1],
                  smt_harnesses[harness].args[0], err);
    return rc;
}

/* Every harness on every SMT machine: exit 0, a headline of its own kind with no false verdict,
 * and the report's identity whole (its harness, which threads shared a core, the lock's
 * parameters): a scenario's report once lost `harness` on SMT and was headlined as a lock that
 * violated mutual exclusion. */
START_TEST(test_each_harness_reports_on_smt)
{
    g_autoptr(GPtrArray) machines = smt_machines();
    for (guint m = 0; m < machines->len; m++) {
        char **machine = machines->pdata[m];
        g_autofree char *text = NULL, *json = NULL;
        ck_assert_int_eq(run_smt(machine, _i, NULL, &text), 0);
        ck_assert_msg(g_str_has_prefix(text, smt_harnesses[_i].headline) && !strstr(text, "VIOLATED"), "%s: %s",
                      machine[1], text);
        ck_assert_int_eq(run_smt(machine, _i, "json", &json), 0);
        g_autoptr(JsonParser) p = json_parser_new();
        ck_assert_msg(json_parser_load_from_data(p, json, -1, NULL), "%s", json);
        JsonObject *o = json_node_get_object(json_parser_get_root(p));
        if (smt_harnesses[_i].harness)
            ck_assert_str_eq(report_key_string(o, "harness"), smt_harnesses[_i].harness);
        else
            ck_assert(!json_object_has_member(o, "harness"));
        if (!smt_harnesses[_i].harness) /* a lock's verdict */
            ck_assert(report_key_bool(o, "mutual_exclusion"));
        else
            ck_assert(!json_object_has_member(o, "mutual_exclusion"));
        if (g_strcmp0(smt_harnesses[_i].harness, "script")) {
            JsonArray *sib = report_key_array(o, "smt_siblings");
            ck_assert_uint_eq(json_array_get_length(sib), 1);
            ck_assert_str_eq(report_key_string(o, "smt_siblings.0.threads"), "0+1");
        }
        if (smt_harnesses[_i].lock_params)
            ck_assert_int_gt(report_key_int(o, "lock_params.spin_count"), 0);
        else
            ck_assert(!json_object_has_member(o, "lock_params"));
    }
}
END_TEST

Suite *make_smt_suite(void)
{
    Suite *s = suite_create("smt");
    TCase *pl = tcase_create("placement");
    tcase_set_timeout(pl, 30);
    tcase_add_test(pl, test_linux_numbering);
    tcase_add_test(pl, test_per_thread_core_and_cpu);
    tcase_add_test(pl, test_policies_on_smt);
    tcase_add_test(pl, test_cpu_lists);
    suite_add_tcase(s, pl);
    TCase *m = tcase_create("model");
    tcase_set_timeout(m, 120);
    tcase_add_test(m, test_siblings_are_one_agent);
    tcase_add_test(m, test_sibling_clears_follow_rollback);
    tcase_add_test(m, test_locked_rmw_holds_against_sibling);
    tcase_add_test(m, test_wfe_hears_the_sibling);
    tcase_add_test(m, test_one_thread_per_core_unchanged);
    tcase_add_test(m, test_partitions_halve_and_restore);
    tcase_add_test(m, test_stages_take_turns);
    tcase_add_test(m, test_long_work_after_sibling_halts);
    tcase_add_test(m, test_issue_45_command_finishes);
    tcase_add_test(m, test_smt_grid_finishes);
    suite_add_tcase(s, m);
    TCase *rep = tcase_create("report");
    tcase_set_timeout(rep, 120);
    tcase_add_loop_test(rep, test_each_harness_reports_on_smt, 0, G_N_ELEMENTS(smt_harnesses));
    suite_add_tcase(s, rep);
    return s;
}
