/* The execution-graph explorer (sim/memmodel/graph_explore.h) under `qsim verify`: built-in
 * locks verify under tso and arm64; broken locks fail where the states engine says they break
 * (the same verdict from both engines); a lock that never releases is a liveness failure with
 * its trace, not "verified"; the unroll bound never verifies. */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"
#include "sim/validation/verify.h"
#include "sim/explore/explore.h"

static char *read_source(const char *rel)
{
    g_autofree char *path = g_build_filename(test_srcdir(), rel, NULL);
    char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    return text;
}

/* Verifies lock `text` at threads x iterations under model (arm64 code for arm64). */
static void run(const char *name, const char *text, const ExploreModel *m, gboolean graphs, guint threads,
                guint iterations, VerifyResult *r)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = threads;
    o.workload.iterations = iterations;
    if (m == &explore_model_arm64)
        o.target = arch_target(ARCH_ARM64);
    o.model = m;
    o.graphs = graphs;
    o.max_states = 2000000;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(verify_lock(name, text, &o, r, &err), "%s: %s", name, err ? err->message : "");
}

static const char *const builtin[] = { "tas", "ttas", "clh", "mcs" };

START_TEST(test_builtin_verify)
{
    const char *name = builtin[_i / 2];
    const ExploreModel *m = _i % 2 ? &explore_model_arm64 : &explore_model_tso;
    g_autofree char *rel = g_strdup_printf("locks/%s.qs", name);
    g_autofree char *text = read_source(rel);
    VerifyResult r;
    run(name, text, m, TRUE, 2, 1, &r);
    ck_assert_msg(r.explore.verdict == EXPLORE_VERIFIED, "%s under %s: %s", name, m->name,
                  r.explore.message ? r.explore.message : "");
    ck_assert(r.explore.graphs && r.explore.transitions > 0);
    verify_result_clear(&r);
}
END_TEST

/* Broken locks and the model that breaks them, with the verdict both engines must give. */
static const struct {
    const char *file;
    gboolean arm64;
    gboolean fails;
} broken[] = {
    { "tests/broken-locks/peterson-nofence.qs", FALSE, TRUE },
    { "tests/broken-locks/tas-relaxed.qs", TRUE, TRUE },
    { "tests/broken-locks/tas-relaxed.qs", FALSE, FALSE },
    { "tests/broken-locks/tas-acqrel.qs", TRUE, FALSE },
};

START_TEST(test_broken_same_as_states)
{
    g_autofree char *text = read_source(broken[_i].file);
    const ExploreModel *m = broken[_i].arm64 ? &explore_model_arm64 : &explore_model_tso;
    VerifyResult g, s;
    run(broken[_i].file, text, m, TRUE, 2, 1, &g);
    run(broken[_i].file, text, m, FALSE, 2, 1, &s);
    ExploreVerdict want = broken[_i].fails ? EXPLORE_FAILED : EXPLORE_VERIFIED;
    ck_assert_msg(g.explore.verdict == want, "%s under %s (graphs): %s", broken[_i].file, m->name,
                  g.explore.message ? g.explore.message : "verified");
    ck_assert_int_eq(s.explore.verdict, want);
    if (broken[_i].fails) {
        g_autofree char *trace = explore_trace_text(g.explore.trace);
        ck_assert_msg(strstr(trace, "the failing execution graph's memory events") && strstr(trace, "    1  T"), "%s",
                      trace);
    }
    verify_result_clear(&g);
    verify_result_clear(&s);
}
END_TEST

/* A test-and-set lock whose unlock forgets to release: the second thread spins forever on the
 * lock's latest value.  Spin-assume blocks it; the graph where nobody is left to write is a
 * liveness failure. */
static const char missing_release[] =
    ".shared lock_word 4 own_line\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    xchg32.acq r0, [lock_word], 1\n"
    "    beq r0, 0, got\n"
    "    jmp lock\n"
    "got:\n"
    "    ret\n"
    "unlock:\n"
    "    ret\n";

START_TEST(test_missing_release_is_liveness)
{
    const ExploreModel *m = _i ? &explore_model_arm64 : &explore_model_tso;
    VerifyResult r;
    run("missing-release", missing_release, m, TRUE, 2, 1, &r);
    ck_assert_int_eq(r.explore.verdict, EXPLORE_FAILED);
    ck_assert_int_eq(r.explore.property, EXPLORE_PROP_NO_FINISH);
    ck_assert_msg(strstr(r.explore.message, "can spin forever"), "%s", r.explore.message);
    ck_assert(r.explore.trace && r.explore.trace->steps->len > 0);
    verify_result_clear(&r);
}
END_TEST

/* A bound that cuts the search never says verified. */
START_TEST(test_unroll_bound_not_verified)
{
    g_autofree char *text = read_source("locks/ttas.qs");
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.workload.iterations = 2;
    o.model = &explore_model_tso;
    o.graphs = TRUE;
    o.unroll = 1;
    VerifyResult r;
    ck_assert(verify_lock("ttas", text, &o, &r, NULL));
    ck_assert_int_eq(r.explore.verdict, EXPLORE_INCOMPLETE);
    ck_assert_msg(strstr(r.explore.message, "not verified: bound reached"), "%s", r.explore.message);
    verify_result_clear(&r);
}
END_TEST

/* The command line: --engine graphs prints its sizes; a mixed-size lock is refused (exit 2). */
START_TEST(test_cli)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("verify --lock tas --engine graphs --threads 2 --iterations 1", &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "verified under tso") && strstr(out, "executions"), "%d %s %s", rc, out, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    rc = run_qsim_line("verify --lock ticket --engine graphs --threads 2 --iterations 1", &out, &err);
    ck_assert_msg(rc == 2 && strstr(err, "mixed-size accesses are not modelled"), "%d %s %s", rc, out, err);
}
END_TEST

Suite *make_graph_explore_suite(void)
{
    Suite *s = suite_create("graph_explore");
    TCase *tc = tcase_create("verify");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_builtin_verify, 0, 2 * G_N_ELEMENTS(builtin));
    tcase_add_loop_test(tc, test_broken_same_as_states, 0, G_N_ELEMENTS(broken));
    tcase_add_loop_test(tc, test_missing_release_is_liveness, 0, 2);
    tcase_add_test(tc, test_unroll_bound_not_verified);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    return s;
}
