/* The locks that sleep (futex-mutex and glibc's adaptive mutexes): each passes verify on every
 * target, at every spin count the study uses, lost wake-ups included; two planted wake bugs are
 * caught; each runs on the timing model of each architecture, its spin count reaching the run;
 * and the command lines of the issue (`qsim verify --lock adaptive-mutex-2018 --threads 8
 * --seeds 500`, --lock-param and its errors). */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"
#include "sim/validation/verify.h"
#include "tests/planted_locks.h"
#include "sim/run/run.h"
#include "cores/isa/asm.h"

static const char *const sleeping_locks[] = { "futex-mutex", "adaptive-mutex", "adaptive-mutex-readspin",
                                              "adaptive-mutex-2018" };
static const ArchTarget targets[] = {
    { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 },
    { ARCH_ARM64, ARCH_ATOMICS_LSE, 0 },
};
static const guint thread_counts[] = { 1, 2, 3, 4, 8 };

static const char *srcdir(void)
{
    const char *d = g_getenv("QSIM_SRCDIR");
    return d ? d : QSIM_SRCDIR;
}

static gboolean quick(void)
{
    return !g_strcmp0(g_getenv("QSIM_TEST_SCALE"), "quick");
}

static char *read_lock(const char *name)
{
    g_autofree char *path = g_strdup_printf("%s/locks/%s.qs", srcdir(), name);
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "%s", path);
    return text;
}

static void verify_ok(const char *name, const char *text, const VerifyOptions *o)
{
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(verify_lock(name, text, o, &r, &err), "%s: %s", name, err ? err->message : "");
    g_autofree char *on = arch_target_describe(o->target);
    ck_assert_msg(r.ok, "%s on %s, %u threads: seed %" G_GUINT64_FORMAT ": %s", name, on, o->workload.threads,
                  r.failed_seed, r.failure);
    ck_assert_uint_eq(r.runs, o->seeds);
    verify_result_clear(&r);
}

/* _i walks locks x targets x thread counts. */
START_TEST(test_sleeping_lock_verifies)
{
    guint n = _i;
    guint tc = n % G_N_ELEMENTS(thread_counts);
    n /= G_N_ELEMENTS(thread_counts);
    const ArchTarget target = targets[n % G_N_ELEMENTS(targets)];
    const char *name = sleeping_locks[n / G_N_ELEMENTS(targets)];
    g_autofree char *text = read_lock(name);
    VerifyOptions o;
    verify_options_init(&o);
    o.target = target;
    o.workload.threads = thread_counts[tc];
    o.workload.iterations = 4;
    o.seeds = quick() ? 20 : 150;
    verify_ok(name, text, &o);
}
END_TEST

/* The adaptive locks at the study's spin counts (and the base at the seed tree's bias), with
 * the lock's data in the lock's own line. */
START_TEST(test_adaptive_spin_counts_verify)
{
    static const char *const counts[] = { "spin_count=10", "spin_count=100", "spin_count=1000" };
    const char *name = sleeping_locks[1 + _i / G_N_ELEMENTS(counts)];
    g_autofree char *text = read_lock(name);
    const char *const params[] = { counts[_i % G_N_ELEMENTS(counts)], "spins_bias=100", NULL };
    VerifyOptions o;
    verify_options_init(&o);
    o.lock_params = params;
    o.workload.threads = 4;
    o.workload.iterations = 5;
    o.workload.data = HARNESS_SAME_LINE;
    o.seeds = quick() ? 20 : 100;
    verify_ok(name, text, &o);
}
END_TEST

START_TEST(test_planted_wake_bugs_are_caught)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    VerifyResult r;
    g_autoptr(GError) err = NULL;
    o.seeds = 20;
    ck_assert(verify_lock("never-marked.qs", planted_never_marked, &o, &r, &err));
    ck_assert(!r.ok);
    ck_assert_msg(g_str_has_prefix(r.failure, "lost wake-up"), "%s", r.failure);
    verify_result_clear(&r);
    o.workload.iterations = 10;
    o.seeds = 2000;
    ck_assert(verify_lock("check-then-release.qs", planted_check_then_release, &o, &r, &err));
    ck_assert_msg(!r.ok, "not caught in %u seeds", r.runs);
    ck_assert_msg(g_str_has_prefix(r.failure, "lost wake-up: 1 thread asleep in futex_wait"), "%s", r.failure);
    ck_assert_msg(strstr(r.failure, "asleep in futex_wait, "), "%s", r.failure);
    verify_result_clear(&r);
}
END_TEST

/* Each sleeping lock on an x86, an LSE arm64 and an LL/SC arm64 machine: mutual exclusion, every
 * acquisition, and at 8 threads sleeps that every wake matched (a fixed-work run ends with
 * nobody asleep).  _i walks locks x configs. */
START_TEST(test_sleeping_lock_runs_on_models)
{
    static const char *const configs[] = { "skylake-sp", "neoverse-n1", "thunderx" };
    const char *lock = sleeping_locks[_i / G_N_ELEMENTS(configs)];
    RunOptions o;
    run_options_init(&o);
    o.config = configs[_i % G_N_ELEMENTS(configs)];
    o.lock = lock;
    o.workload.threads = 8;
    o.workload.iterations = quick() ? 10 : 40;
    o.host_time = FALSE;
    RunResult r;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
    ck_assert_msg(r.ok, "%s on %s: %s", lock, o.config, r.failure);
    JsonObject *rep = json_node_get_object(r.report);
    ck_assert_int_eq(json_object_get_int_member(rep, "acquisitions"), 8 * o.workload.iterations);
    JsonObject *os = json_object_get_object_member(rep, "os");
    ck_assert_int_gt(json_object_get_int_member(os, "futex_syscalls"), 0);
    ck_assert_int_eq(json_object_get_int_member(os, "sleeps"), json_object_get_int_member(os, "wakes"));
    run_result_clear(&r);
}
END_TEST

/* The spin count reaches the model: fewer spins before sleeping mean less PAUSE, and the report
 * says what ran. */
START_TEST(test_spin_count_reaches_the_model)
{
    gint64 paused[2];
    static const char *const counts[] = { "spin_count=1", "spin_count=1000" };
    for (guint i = 0; i < 2; i++) {
        const char *const params[] = { counts[i], NULL };
        RunOptions o;
        run_options_init(&o);
        o.config = "skylake-sp";
        o.lock = "adaptive-mutex-2018";
        o.lock_params = params;
        o.workload.threads = 6;
        o.workload.iterations = 30;
        o.host_time = FALSE;
        RunResult r;
        g_autoptr(GError) err = NULL;
        ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
        ck_assert_msg(r.ok, "%s", r.failure);
        JsonObject *rep = json_node_get_object(r.report);
        JsonObject *lp = json_object_get_object_member(rep, "lock_params");
        ck_assert_int_eq(json_object_get_int_member(lp, "spin_count"), i ? 1000 : 1);
        ck_assert_int_eq(json_object_get_int_member(lp, "spins_bias"), 100);
        paused[i] = json_object_get_int_member(rep, "paused_cycles");
        run_result_clear(&r);
    }
    ck_assert_msg(paused[1] > 4 * paused[0], "paused %" G_GINT64_FORMAT " vs %" G_GINT64_FORMAT, paused[0],
                  paused[1]);
}
END_TEST

START_TEST(test_cli)
{
    g_autofree char *out = NULL, *err = NULL;
    /* The issue's own line. */
    const char *issue[] = { "verify", "--lock", "adaptive-mutex-2018", "--threads", "8", "--seeds",
                            quick() ? "50" : "500", NULL };
    ck_assert_int_eq(run_qsim(issue, &out, &err), 0);
    ck_assert_msg(strstr(out, "adaptive-mutex-2018: sampled, not verified:") && strstr(out, "8 threads"), "%s", out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    const char *typo[] = { "verify", "--lock", "adaptive-mutex", "--lock-param", "spin_cont=5", NULL };
    ck_assert_int_eq(run_qsim(typo, &out, &err), 2);
    ck_assert_msg(strstr(err, "lock parameter `spin_cont`") && strstr(err, "did you mean `spin_count`?"), "%s", err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    const char *run[] = { "run", "--config", "neoverse-n1", "--lock", "adaptive-mutex-2018", "--threads", "4",
                          "--iterations", "20", "--lock-param", "spin_count=10", "--format", "csv", NULL };
    ck_assert_int_eq(run_qsim(run, &out, &err), 0);
    ck_assert_msg(strstr(out, "lock_params.spin_count") && strstr(out, "os.sleeps"), "%s", out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    const char *asm_[] = { "asm", "locks/adaptive-mutex.qs", NULL };
    ck_assert_int_eq(run_qsim(asm_, &out, &err), 0);
    ck_assert_msg(strstr(out, "# param spin_count = 100 (default)"), "%s", out);
}
END_TEST

Suite *make_sleeping_locks_suite(void)
{
    Suite *s = suite_create("sleeping_locks");
    TCase *tc = tcase_create("verify");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_sleeping_lock_verifies, 0,
                        G_N_ELEMENTS(sleeping_locks) * G_N_ELEMENTS(targets) * G_N_ELEMENTS(thread_counts));
    tcase_add_loop_test(tc, test_adaptive_spin_counts_verify, 0, 3 * 3);
    tcase_add_test(tc, test_planted_wake_bugs_are_caught);
    suite_add_tcase(s, tc);
    tc = tcase_create("model");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_sleeping_lock_runs_on_models, 0, G_N_ELEMENTS(sleeping_locks) * 3);
    tcase_add_test(tc, test_spin_count_reaches_the_model);
    suite_add_tcase(s, tc);
    tc = tcase_create("command");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    return s;
}
