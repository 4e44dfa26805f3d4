/* Scenarios (sim/workload/scenario.h, `qsim run --scenario`): programs that run with no lock in the
 * harness's scenario mode.  Every shipped one runs (at a few iterations) and writes its trace
 * page; a run has no mutual-exclusion verdict, exits 0 unless it stalls or faults; names are
 * found as lock names are; the header's `#:` options apply, and the command line's win. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/workload/scenario.h"
#include "sim/workload/harness.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"
#include <json-glib/json-glib.h>

static const char *const shipped[] = {
    "false-sharing", "padded", "ping-pong", "producer-consumer", "spin-pause", "spin-nopause",
};

static JsonObject *parse_report(const char *json, JsonParser **keep)
{
    *keep = json_parser_new();
    ck_assert_msg(json_parser_load_from_data(*keep, json, -1, NULL), "not JSON: %s", json);
    return json_node_get_object(json_parser_get_root(*keep));
}

START_TEST(test_shipped_run_and_trace)
{
    g_autofree char *dir = tmpdir();
    const char *name = shipped[_i];
    g_autofree char *html = g_strdup_printf("%s/%s.html", dir, name);
    const char *args[] = { "run", "--scenario", name, "--iterations", "2", "--no-host-time", "--format", "json",
                           "--trace-html", html, NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_msg(run_qsim(args, &out, &err) == 0, "%s: %s", name, err);
    g_autoptr(JsonParser) p = NULL;
    JsonObject *r = parse_report(out, &p);
    ck_assert_str_eq(json_object_get_string_member(r, "harness"), "scenario");
    ck_assert_str_eq(json_object_get_string_member(r, "config"), "teaching"); /* from its `#:` line */
    ck_assert_msg(!json_object_has_member(r, "mutual_exclusion"), "%s: a scenario has no such verdict", name);
    ck_assert(!json_object_get_boolean_member(r, "stalled"));
    ck_assert_int_eq(json_object_get_int_member(r, "acquisitions"), 2 * json_object_get_int_member(r, "threads"));
    g_autofree char *page = NULL;
    ck_assert_msg(g_file_get_contents(html, &page, NULL, NULL), "%s: no trace page", name);
    ck_assert_msg(strstr(page, "<html") && strstr(page, name), "%s: the page does not name it", name);
    rm_rf(dir);
}
END_TEST

/* A scenario's trace names the marks for the body they bracket, never a lock (the text trace's
 * `body:` lines, and the page's phase words and the Perfetto spans). */
START_TEST(test_trace_names_the_body)
{
    g_autofree char *err = NULL, *perf = NULL;
    g_autofree char *dir = tmpdir();
    g_autofree char *pf = g_build_filename(dir, "t.json", NULL);
    const char *args[] = { "run", "--scenario", "ping-pong", "--iterations", "1", "--no-host-time", "--trace-only",
                           "locks", "--trace", "--trace-out", pf, NULL };
    ck_assert_int_eq(run_qsim(args, NULL, &err), 0);
    ck_assert_msg(strstr(err, "  body: calls body\n") && strstr(err, "  body: returns from body (after ") &&
                      !strstr(err, "lock:"), "%s", err);
    ck_assert(g_file_get_contents(pf, &perf, NULL, NULL));
    ck_assert_msg(strstr(perf, "in the scenario's body") && !strstr(perf, "the lock"), "%s", perf);
    rm_rf(dir);
}
END_TEST

/* The text headline says what ran: a scenario, no lock, per iteration. */
START_TEST(test_headline)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario ping-pong --iterations 2 --no-host-time", &out, &err), 0);
    ck_assert_msg(g_str_has_prefix(out, "scenario ping-pong on teaching (x86), 2 threads, no lock: "), "%s", out);
    ck_assert_msg(strstr(out, " cycles per iteration\n  per iteration: "), "%s", out);
    ck_assert_msg(strstr(out, "of the scenario's lines (turn)"), "%s", out);
    ck_assert_msg(!strstr(out, "MUTUAL EXCLUSION"), "%s", out);
    /* over seeds too: it was "ping-pong on teaching ..., separate-line data, ... per acquisition" */
    g_autofree char *rep = NULL, *err2 = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario ping-pong --iterations 2 --repeat 2 --no-host-time", &rep, &err2), 0);
    ck_assert_msg(g_str_has_prefix(rep, "scenario ping-pong on teaching (x86), 2 threads, no lock, 2 seeds from 1 "
                                        "(jitter 50 cycles): ") && strstr(rep, " cycles per iteration, 95% interval "),
                  "%s", rep);
}
END_TEST

/* A kept scenario run replays from its folder, byte for byte, the `#:` options kept with it. */
START_TEST(test_out_and_replay)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = g_build_filename(dir, "kept", NULL);
    g_autofree char *line = g_strdup_printf("run --scenario ping-pong --iterations 2 --out %s", kept);
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
    ck_assert_msg(run_qsim_line(line, &out, &err) == 0, "%s", err);
    g_autofree char *replay = g_strdup_printf("run --replay %s", kept);
    ck_assert_msg(run_qsim_line(replay, &out2, &err2) == 0, "%s", err2);
    ck_assert_str_eq(out2, out);
    ck_assert_msg(strstr(err2, "the same report as report.txt, byte for byte"), "%s", err2);
    rm_rf(dir);
}
END_TEST

/* A no-op "lock" run as a lock is flagged (the counter's increments are lost: exit 1); the same
 * nothing as a scenario is a run that did its work (exit 0).  One that faults still fails. */
START_TEST(test_no_lock_no_verdict)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *noop = g_build_filename(dir, "noop.qs", NULL);
    ck_assert(g_file_set_contents(noop, ".shared lock_word 8 own_line\n.entry lock\n.entry unlock\n.entry body\n"
                                        "lock:\nunlock:\nbody:\n    ld r0, [lock_word]\n    add r0, r0, 1\n"
                                        "    st [lock_word], r0\n    ret\n", -1, NULL));
    g_autofree char *as_lock = g_strdup_printf("run --config teaching --lock %s --iterations 50 --no-host-time "
                                               "--cs-work 20", noop);
    g_autofree char *as_scenario = g_strdup_printf("run --config teaching --scenario %s --iterations 50 "
                                                   "--no-host-time", noop);
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
    ck_assert_int_eq(run_qsim_line(as_lock, &out, &err), 1);
    ck_assert_msg(strstr(err, "mutual exclusion violated"), "%s", err);
    ck_assert_msg(run_qsim_line(as_scenario, &out2, &err2) == 0, "%s", err2);
    ck_assert_str_eq(err2, "");
    g_autofree char *bad = g_build_filename(dir, "fault.qs", NULL);
    ck_assert(g_file_set_contents(bad, ".entry body\nbody:\n    ld r0, [r5]\n    ret\n", -1, NULL));
    g_autofree char *faulting = g_strdup_printf("run --config teaching --scenario %s --iterations 2 --no-host-time", bad);
    g_autofree char *out3 = NULL, *err3 = NULL;
    ck_assert_int_eq(run_qsim_line(faulting, &out3, &err3), 1);
    ck_assert_msg(strstr(err3, "the scenario faulted"), "%s", err3);
    ck_assert_msg(strstr(out3, "UNFINISHED"), "%s", out3);
    rm_rf(dir);
}
END_TEST

START_TEST(test_find)
{
    GError *error = NULL;
    g_autofree char *by_name = scenario_find("ping-pong", &error);
    ck_assert_msg(by_name && g_str_has_suffix(by_name, "/scenarios/ping-pong.qs"), "%s",
                  error ? error->message : by_name);
    g_autofree char *with_ext = scenario_find("ping-pong.qs", &error);
    ck_assert_str_eq(with_ext, by_name);
    ck_assert_ptr_null(scenario_find("ping-pnog", &error));
    ck_assert_msg(strstr(error->message, "no built-in scenario `ping-pnog`; did you mean `ping-pong`?"), "%s",
                  error->message);
    g_clear_error(&error);
    ck_assert_ptr_null(scenario_find("/nowhere/x.qs", &error));
    ck_assert_str_eq(error->message, "/nowhere/x.qs: no such scenario file");
    g_clear_error(&error);
    /* `qsim list scenarios` lists each with its header's first sentence */
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("list scenarios", &out, &err), 0);
    for (guint i = 0; i < G_N_ELEMENTS(shipped); i++) {
        g_autofree char *line = g_strdup_printf("%-16s ", shipped[i]);
        ck_assert_msg(strstr(out, line), "%s not listed: %s", shipped[i], out);
    }
    ck_assert_msg(strstr(out, "\nping-pong        two threads hand one word back and forth"), "%s", out);
    /* and completion offers them */
    g_autofree char *bash = NULL, *err2 = NULL;
    ck_assert_int_eq(run_qsim_line("completion bash", &bash, &err2), 0);
    ck_assert_msg(strstr(bash, "run:--scenario)\n        COMPREPLY=($(compgen -W \"$(_qsim_names scenarios)\""), "%s",
                  bash);
}
END_TEST

/* The header's `#:` lines, in order; errors at their file, line and column. */
START_TEST(test_header_options)
{
    GError *error = NULL;
    g_auto(GStrv) w = scenario_options("s.qs", "# s: a test.\n#: --threads 4 --set 'a.b=1'\n#:\n.entry body\n"
                                               "#: -i 3\n", NULL, &error);
    ck_assert_ptr_nonnull(w);
    g_autofree char *joined = g_strjoinv(" ", w);
    ck_assert_str_eq(joined, "--threads 4 --set a.b=1 -i 3");
    ck_assert_ptr_null(scenario_options("s.qs", "#\n#:  threads 4\n", NULL, &error));
    ck_assert_str_eq(error->message, "s.qs:2:5: `threads` is no option (a `#:` line holds options of `qsim run`, "
                                     "e.g. --threads 4)");
    g_clear_error(&error);
    ck_assert_ptr_null(scenario_options("s.qs", "#: --set 'a=1\n", NULL, &error));
    ck_assert_msg(g_str_has_prefix(error->message, "s.qs:1:3: "), "%s", error->message);
    g_clear_error(&error);
    /* what is typed wins over the header: ping-pong's `#: --threads 2` */
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario ping-pong --threads 3 --iterations 2 --no-host-time "
                                   "--set topology.cores_per_socket=4 --format json", &out, &err), 0);
    g_autoptr(JsonParser) p = NULL;
    JsonObject *r = parse_report(out, &p);
    ck_assert_int_eq(json_object_get_int_member(r, "threads"), 3);
    ck_assert_int_eq(json_object_get_int_member(r, "iterations"), 2);
}
END_TEST

/* Each header word's file:line:col, through quotes, for messages about it later. */
START_TEST(test_header_places)
{
    GError *error = NULL;
    g_auto(GStrv) places = NULL;
    g_auto(GStrv) w = scenario_options("s.qs", "# s\n#: --threads 4 --set 'a.b=1' \"-i\" \\\"x # c\n#:\n#:\t-s x=\"1 2\" -i 3\n",
                                       &places, &error);
    ck_assert_ptr_nonnull(w);
    g_autofree char *words = g_strjoinv("|", w), *at = g_strjoinv(" ", places);
    ck_assert_str_eq(words, "--threads|4|--set|a.b=1|-i|\"x|-s|x=1 2|-i|3");
    ck_assert_str_eq(at, "s.qs:2:4 s.qs:2:14 s.qs:2:16 s.qs:2:22 s.qs:2:30 s.qs:2:35 s.qs:4:4 s.qs:4:7 s.qs:4:15 "
                         "s.qs:4:18");
}
END_TEST

/* A config problem that a header's --set causes is put at the header's word, not on a --set
 * the person never typed (issue 45 a: spin-pause's `--set topology.cores_per_socket=4` on
 * haswell, whose ring has a stop for each of its 18 LLC slices); a typed --set of the same key
 * replaces it, and one typed the same is the typed one's problem. */
START_TEST(test_header_set_blamed_on_header)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario spin-pause --config haswell --iterations 1", &out, &err), 2);
    const char *at = strstr(err, "/scenarios/spin-pause.qs:8:28: --set topology.cores_per_socket=4: llc.slices: 18 "
                                 "slices exceed topology.cores_per_socket (4)");
    ck_assert_msg(g_str_has_prefix(err, "qsim: ") && at && !strstr(err, "qsim: --set") &&
                      strstr(err, "; the scenario's `#:` line sets it, and --set topology.cores_per_socket=VALUE on "
                                  "the command line replaces it\n"),
                  "%s", err);
    g_autofree char *out2 = NULL, *err2 = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario spin-pause --config haswell --iterations 1 "
                                   "--set topology.cores_per_socket=4", &out2, &err2), 2);
    ck_assert_msg(g_str_has_prefix(err2, "qsim: --set topology.cores_per_socket=4: llc.slices: "), "%s", err2);
    g_autofree char *out3 = NULL, *err3 = NULL;
    ck_assert_int_eq(run_qsim_line("run --scenario spin-pause --config haswell --iterations 1 --no-host-time "
                                   "--set topology.cores_per_socket=18", &out3, &err3), 0);
    ck_assert_msg(g_str_has_prefix(out3, "scenario spin-pause on haswell (x86), 4 threads, no lock: "), "%s", out3);
    /* a header's own bad --set, in a scenario of one's own */
    g_autofree char *dir = tmpdir();
    g_autofree char *qs = g_build_filename(dir, "mine.qs", NULL);
    ck_assert(g_file_set_contents(qs, "# mine\n#: --threads 2\n#: --set=core.robb=3\n.entry body\nbody:\n    ret\n",
                                  -1, NULL));
    g_autofree char *line = g_strdup_printf("run --config teaching --scenario %s", qs);
    g_autofree char *out4 = NULL, *err4 = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out4, &err4), 2);
    g_autofree char *want = g_strdup_printf("qsim: %s:3:4: --set core.robb=3: unknown key 'core.robb'; did you mean "
                                            "'core.rob'?; the scenario's", qs);
    ck_assert_msg(g_str_has_prefix(err4, want), "%s", err4);
    rm_rf(dir);
}
END_TEST

/* What a scenario cannot take, refused before anything runs; the two kinds of program named
 * when given to the other's option. */
START_TEST(test_refusals)
{
    static const struct {
        const char *line, *err;
    } cases[] = {
        { "run --scenario ping-pong --vs tas", "qsim run: --scenario: --vs compares two locks" },
        { "run --scenario ping-pong --native", "qsim run: --scenario: --native runs a lock on the host" },
        { "run --scenario ping-pong --cs-work 5", "qsim run: --scenario: --cs-work shapes the lock's critical section" },
        { "run --scenario ping-pong --readers 1", "qsim run: --scenario: --writers and --readers" },
        { "run --scenario ping-pong --lock tas", "qsim run: give one of --lock NAME|PATH or --lock-file PATH" },
        { "run --config teaching --lock-file scenarios/ping-pong.qs",
          "no entry point `lock` (the harness calls it; mark its label with `.entry lock`); it has `body`: a scenario "
          "runs with --scenario" },
        { "run --scenario locks/tas.qs", "no entry point `body` (the harness calls it; mark its label with `.entry "
                                         "body`); it has `lock`: a lock runs with --lock" },
        { "run --scenario fals-sharing", "did you mean `false-sharing`?" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *out = NULL, *err = NULL;
        ck_assert_msg(run_qsim_line(cases[i].line, &out, &err) == 2, "%s: not refused", cases[i].line);
        ck_assert_msg(strstr(err, cases[i].err), "%s: %s", cases[i].line, err);
        ck_assert_str_eq(out, "");
    }
}
END_TEST

/* The harness's scenario text: the body between the marks, none of the lock's variables. */
START_TEST(test_harness_text)
{
    HarnessOptions o;
    harness_options_init(&o);
    o.mode = HARNESS_SCENARIO;
    o.iterations = 7;
    o.think = 30;
    g_autofree char *text = harness_source(&o);
    ck_assert_msg(strstr(text, "    mov r12, 7\n") && strstr(text, "    mark 1\n    call body\n    mark 2\n    mark 3\n"
                                                                      "    work 30\n"), "%s", text);
    ck_assert_msg(!strstr(text, HARNESS_COUNTER) && !strstr(text, ".shared"), "%s", text);
}
END_TEST

Suite *make_scenarios_suite(void)
{
    Suite *s = suite_create("scenarios");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_shipped_run_and_trace, 0, G_N_ELEMENTS(shipped));
    tcase_add_test(tc, test_headline);
    tcase_add_test(tc, test_trace_names_the_body);
    tcase_add_test(tc, test_out_and_replay);
    tcase_add_test(tc, test_no_lock_no_verdict);
    tcase_add_test(tc, test_find);
    tcase_add_test(tc, test_header_options);
    tcase_add_test(tc, test_header_places);
    tcase_add_test(tc, test_header_set_blamed_on_header);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_harness_text);
    suite_add_tcase(s, tc);
    return s;
}
