/* `qsim verify`'s bounds: it refuses bounds in range but out of reach
 * (sim/validation/verify_reach.h) at once, with exit 2, the estimate, the limit and what to
 * lower, and a bound at the estimate still runs (the refusals take well under a second: the
 * test case's small timeout holds a refusal that came back to searching); a search cut by
 * --max-states counts exactly --max-states states or graphs; and the state search reports its
 * progress (the callback verify's progress line on stderr comes from). */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"
#include "sim/explore/explore.h"
#include "sim/workload/harness.h"
#include "cores/isa/isa_exec.h"

static const struct {
    const char *line;
    const char *need, *limit, *lower;
} refused[] = {
    /* the bounds, under both engines' defaults */
    { "verify --lock tas --threads 4096 --arch arm64", "the execution-graph search needs at least 10^27270 executions",
      "more than --max-states 250000", "(at most 5 threads at --iterations 2)" },
    { "verify --lock tas --threads 4096", "the state search needs at least 10^1954 states",
      "more than --max-states 20000000", "(at most 15 threads at --iterations 2)" },
    { "verify --lock tas --iterations 100000000 --arch arm64",
      "the graph engine does not take it (at least 600000000 events per thread, 6 per acquisition, more than its "
      "502), and the state search it goes to needs at least 10000000200000001 states",
      "more than --max-states 250000", "(at most 499 iterations at --threads 2)" },
    { "verify --lock tas --iterations 100000000 --model tso", "the state search needs at least 10000000200000001 states",
      "more than --max-states 20000000", "(at most 4471 iterations at --threads 2)" },
    /* just past the estimate: 3^2 states; 6! / 2!^3 orders of three threads' two acquisitions */
    { "verify --lock tas --iterations 2 --max-states 8", "needs at least 9 states", "more than --max-states 8",
      "(at most 1 thread at --iterations 2, or at most 1 iteration at --threads 2), or raise --max-states to 9" },
    { "verify --lock tas --arch arm64 --threads 3 --iterations 2 --max-states 89", "needs at least 90 executions",
      "more than --max-states 89", "or raise --max-states to 90" },
};

START_TEST(test_refused)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(refused[_i].line, &out, &err);
    ck_assert_msg(rc == 2, "qsim %s: exit %d: %s%s", refused[_i].line, rc, out, err);
    ck_assert_msg(strstr(err, "is out of reach: "), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].need), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].limit), "%s", err);
    ck_assert_msg(strstr(err, refused[_i].lower), "%s", err);
    ck_assert_str_eq(out, "");
}
END_TEST

/* At the estimate the search runs (to a verdict or a cut, never a refusal). */
static const char *const kept[] = {
    "verify --lock tas --iterations 2 --max-states 9",
    "verify --lock tas --arch arm64 --threads 3 --iterations 2 --max-states 90",
};

START_TEST(test_at_the_estimate_runs)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(kept[_i], &out, &err);
    ck_assert_msg(rc == 0 || rc == 1, "qsim %s: exit %d: %s%s", kept[_i], rc, out, err);
    ck_assert_msg(!strstr(err, "out of reach"), "%s", err);
    ck_assert_msg(strstr(out, "tas: "), "%s", out);
}
END_TEST

/* Cut by --max-states: the count says the bound, not one more (it said 11 for 10). */
static const struct {
    const char *line;
    const char *cut, *count;
} cut[] = {
    { "verify --lock mcs --iterations 2 --max-states 10", "search cut short at 10 states (--max-states)",
      "(10 states, " },
    { "verify --lock mcs --arch arm64 --iterations 2 --max-states 10", "bound reached (10 graphs (--max-states))",
      " executions, 10 graphs, " },
};

START_TEST(test_cut_count_exact)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(cut[_i].line, &out, &err);
    ck_assert_msg(rc == 1, "qsim %s: exit %d: %s%s", cut[_i].line, rc, out, err);
    ck_assert_msg(strstr(out, cut[_i].cut), "%s", out);
    ck_assert_msg(strstr(out, cut[_i].count), "%s", out);
}
END_TEST

typedef struct {
    guint calls;
    guint64 states, transitions;
} Seen;

static void seen_progress(guint64 states, guint64 transitions, void *ctx)
{
    Seen *s = ctx;
    ck_assert_uint_ge(states, s->states);
    ck_assert_uint_ge(transitions, s->transitions);
    s->calls++;
    s->states = states;
    s->transitions = transitions;
}

/* ticket, 3 threads x 2 acquisitions under tso: some 5,000 states, so one call at 4,096
 * expanded, with what the search had then (no more than at its end). */
START_TEST(test_state_search_progress)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "locks", "ticket.qs", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    HarnessOptions h;
    harness_options_init(&h);
    h.threads = 3;
    h.iterations = 2;
    g_autoptr(GError) err = NULL;
    IsaProgram *p = harness_assemble(path, text, &h, arch_target(ARCH_X86), NULL, &err);
    ck_assert_msg(p, "%s", err ? err->message : "");
    Seen seen = { 0 };
    ExploreOptions eo = { .model = &explore_model_tso, .threads = h.threads, .progress = seen_progress,
                          .progress_ctx = &seen };
    ExploreResult r;
    ck_assert(explore_run(p, &eo, &r, NULL));
    ck_assert_int_eq(r.verdict, EXPLORE_VERIFIED);
    ck_assert_uint_eq(seen.calls, 1);
    ck_assert_uint_gt(r.states, EXPLORE_PROGRESS_EVERY);
    ck_assert_uint_gt(seen.states, EXPLORE_PROGRESS_EVERY);
    ck_assert_uint_le(seen.states, r.states);
    ck_assert_uint_le(seen.transitions, r.transitions);
    explore_result_clear(&r);
    isa_program_free(p);
}
END_TEST

Suite *make_verify_bounds_suite(void)
{
    Suite *s = suite_create("verify_bounds");
    TCase *tc = tcase_create("refusal");
    tcase_set_timeout(tc, 5);
    tcase_add_loop_test(tc, test_refused, 0, G_N_ELEMENTS(refused));
    tcase_add_loop_test(tc, test_at_the_estimate_runs, 0, G_N_ELEMENTS(kept));
    suite_add_tcase(s, tc);
    tc = tcase_create("counts");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_cut_count_exact, 0, G_N_ELEMENTS(cut));
    tcase_add_test(tc, test_state_search_progress);
    suite_add_tcase(s, tc);
    return s;
}
