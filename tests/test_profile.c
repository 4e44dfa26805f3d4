/* The per-instruction profile (cores/core_profile.c, sim/report/run_profile.c, `qsim run --profile`):
 * its rows add up to the report's own counters, profiling changes nothing else in the report,
 * each count lands on the line whose op caused it, and the JSON and the command keep their
 * shape. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/run/run.h"
#include "sim/report/run_profile.h"
#include "sim/base/report.h"
#include "tests/run_qsim.h"
#include "tests/report_keys.h"

/* ---- helpers ---- */

static guint64 column_sum(JsonArray *p, const char *key)
{
    guint64 sum = 0;
    for (guint i = 0; i < json_array_get_length(p); i++)
        sum += (guint64)json_object_get_int_member(json_array_get_object_element(p, i), key);
    return sum;
}

/* The profile row of `file`:`line`, or NULL. */
static JsonObject *row_at(JsonArray *p, const char *file, gint64 line)
{
    for (guint i = 0; i < json_array_get_length(p); i++) {
        JsonObject *o = json_array_get_object_element(p, i);
        if (!strcmp(json_object_get_string_member(o, "file"), file) && json_object_get_int_member(o, "line") == line)
            return o;
    }
    return NULL;
}

static void run_ok(RunOptions *o, RunResult *r)
{
    GError *error = NULL;
    ck_assert_msg(run_simulation(o, r, &error), "%s", error ? error->message : "");
    ck_assert_msg(r->ok, "%s", r->failure);
}

/* Every total the report has, from the profile's columns. */
static void assert_sums(JsonObject *rep, const char *what)
{
    ck_assert_msg(json_object_has_member(rep, "profile"), "%s: no profile", what);
    JsonArray *p = json_object_get_array_member(rep, "profile");
    ck_assert_uint_gt(json_array_get_length(p), 10);
    ck_assert_msg(column_sum(p, "executions") == (guint64)report_key_int(rep, "sim_instructions"), "%s: executions %"
                  G_GUINT64_FORMAT " != %" G_GINT64_FORMAT, what, column_sum(p, "executions"),
                  report_key_int(rep, "sim_instructions"));
    ck_assert_uint_eq(column_sum(p, "clears"), (guint64)report_key_int(rep, "machine_clears.memory_ordering"));
    ck_assert_uint_eq(column_sum(p, "failed_cas"),
                      (guint64)(report_key_int(rep, "cores_summed.cas_failed") +
                                report_key_int(rep, "cores_summed.llsc_failures")));
    ck_assert_uint_eq(column_sum(p, "pause_cycles"), (guint64)(report_key_int(rep, "cores_summed.paused_cycles") +
                                                               report_key_int(rep, "cores_summed.wfe_sleep_cycles")));
    ck_assert_uint_eq(column_sum(p, "misses"), (guint64)report_key_int(rep, "memory_system.l1_misses"));
    ck_assert_uint_eq(column_sum(p, "rfos"), (guint64)report_key_int(rep, "coherence.rfo"));
    /* each core's oldest op is at most one at a time, and some op almost always */
    guint64 head = column_sum(p, "head_cycles"), cycles = (guint64)report_key_int(rep, "cores_summed.cycles");
    ck_assert_msg(head <= cycles && head >= cycles / 2, "%s: head cycles %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
                  what, head, cycles);
    ck_assert_uint_gt(column_sum(p, "executions"), 0);
}

/* ---- the totals ---- */

typedef struct {
    const char *config, *lock;
    guint threads;
} ProfileCase;

static const ProfileCase sum_cases[] = {
    { "haswell", "qspin", 2 },        { "haswell", "qspin", 3 },       { "haswell", "qspin-cmpxchg", 2 },
    { "haswell", "qspin-cmpxchg", 3 }, { "neoverse-n1", "qspin", 3 },  { "thunderx", "qspin-cmpxchg", 3 },
    { "neoverse-n1", "ttas", 3 },     { "teaching-bus", "tas", 2 },
};

/* A profiled run's options: `threads` threads on `config` (NULL: the default), no host time. */
static void profiled(RunOptions *o, const char *config, guint threads)
{
    run_options_init(o);
    if (config)
        o->config = config;
    o->workload.threads = threads;
    o->host_time = FALSE;
    o->profile = TRUE;
}

START_TEST(test_sums_match_the_report)
{
    const ProfileCase *c = &sum_cases[_i];
    RunOptions o;
    profiled(&o, c->config, c->threads);
    o.lock = c->lock;
    o.workload.iterations = test_scale_quick() ? 20 : 200;
    RunResult r;
    run_ok(&o, &r);
    g_autofree char *what = g_strdup_printf("%s on %s, %u threads", c->lock, c->config, c->threads);
    assert_sums(json_node_get_object(r.report), what);
    run_result_clear(&r);
}
END_TEST

/* With --warmup only the measured window counts, in the profile as in the rest. */
START_TEST(test_sums_after_warmup)
{
    RunOptions o;
    profiled(&o, NULL, 3);
    o.lock = "qspin";
    o.workload.duration = 60000;
    o.workload.warmup = 20000;
    RunResult r;
    run_ok(&o, &r);
    assert_sums(json_node_get_object(r.report), "qspin with --warmup");
    run_result_clear(&r);
}
END_TEST

/* Profiling counts; it changes nothing the model does: the reports are identical but for it. */
START_TEST(test_profile_changes_nothing_else)
{
    static const char *const configs[] = { "haswell", "neoverse-n1", "thunderx" };
    for (guint k = 0; k < G_N_ELEMENTS(configs); k++) {
        RunOptions o;
        run_options_init(&o);
        o.config = configs[k];
        o.lock = "qspin-cmpxchg";
        o.workload.threads = 3;
        o.workload.iterations = test_scale_quick() ? 20 : 150;
        o.host_time = FALSE;
        RunResult plain, profiled;
        run_ok(&o, &plain);
        o.profile = TRUE;
        run_ok(&o, &profiled);
        JsonObject *po = json_node_get_object(profiled.report);
        ck_assert(json_object_has_member(po, "profile"));
        ck_assert(!json_object_has_member(json_node_get_object(plain.report), "profile"));
        json_object_remove_member(po, "profile");
        g_autofree char *a = report_to_json(plain.report), *b = report_to_json(profiled.report);
        ck_assert_msg(!strcmp(a, b), "%s: --profile changed the report", configs[k]);
        run_result_clear(&plain);
        run_result_clear(&profiled);
    }
}
END_TEST

/* ---- where the counts land ---- */

/* A test-and-test-and-set lock whose spin load, CAS and pause each have their own line. */
static const char lock_text[] =
    ".shared lock_word 4 own_line\n"     /* 1 */
    ".entry lock\n"                      /* 2 */
    ".entry unlock\n"                    /* 3 */
    "lock:\n"                            /* 4 */
    "    ld32 r0, [lock_word]\n"         /* 5: the spin load: the machine clears */
    "    bne r0, 0, spin\n"              /* 6 */
    "    cas32 r1, [lock_word], 0, 1\n"  /* 7: the failed CAS */
    "    beq r1, 0, done\n"              /* 8 */
    "spin:\n"                            /* 9 */
    "    pause\n"                        /* 10: the pause cycles */
    "    jmp lock\n"                     /* 11 */
    "done:\n"                            /* 12 */
    "    ret\n"                          /* 13 */
    "unlock:\n"                          /* 14 */
    "    st32 [lock_word], 0\n"          /* 15 */
    "    ret\n";                         /* 16 */

static char *write_lock(char **dir)
{
    *dir = g_dir_make_tmp("qsim-profile-XXXXXX", NULL);
    char *path = g_build_filename(*dir, "spin.qs", NULL);
    ck_assert(g_file_set_contents(path, lock_text, -1, NULL));
    return path;
}

START_TEST(test_counts_land_on_their_line)
{
    g_autofree char *dir = NULL;
    g_autofree char *path = write_lock(&dir);
    RunOptions o;
    profiled(&o, NULL, 3);
    o.lock_file = path;
    o.workload.iterations = 100;
    RunResult r;
    run_ok(&o, &r);
    JsonObject *rep = json_node_get_object(r.report);
    JsonArray *p = json_object_get_array_member(rep, "profile");
    JsonObject *ld = row_at(p, path, 5), *cas = row_at(p, path, 7), *pause = row_at(p, path, 10),
               *st = row_at(p, path, 15);
    ck_assert(ld && cas && pause && st);
    ck_assert_str_eq(json_object_get_string_member(ld, "source"), "ld32 r0, [lock_word]");
    ck_assert_str_eq(json_object_get_string_member(pause, "source"), "pause");
    /* the spin load is the lock's only load: every clear of the lock's code is its */
    guint64 lock_clears = 0;
    for (guint i = 0; i < json_array_get_length(p); i++) {
        JsonObject *o2 = json_array_get_object_element(p, i);
        if (!strcmp(json_object_get_string_member(o2, "file"), path))
            lock_clears += (guint64)json_object_get_int_member(o2, "clears");
    }
    ck_assert_int_gt(json_object_get_int_member(ld, "clears"), 0);
    ck_assert_uint_eq((guint64)json_object_get_int_member(ld, "clears"), lock_clears);
    /* every failed CAS of the run is the lock's one cas; every pause cycle its one pause */
    ck_assert_int_gt(json_object_get_int_member(cas, "failed_cas"), 0);
    ck_assert_int_eq(json_object_get_int_member(cas, "failed_cas"), report_key_int(rep, "atomics.failed_cas"));
    ck_assert_int_gt(json_object_get_int_member(pause, "pause_cycles"), 0);
    ck_assert_int_eq(json_object_get_int_member(pause, "pause_cycles"), report_key_int(rep, "paused_cycles"));
    /* a pause counts its hold when it retires: one core.pause_cycles (haswell: 9) per execution,
     * none for the pauses fetched after a mispredicted exit from the spin */
    ck_assert_int_gt(json_object_get_int_member(pause, "executions"), 0);
    ck_assert_int_eq(json_object_get_int_member(pause, "pause_cycles"),
                     9 * json_object_get_int_member(pause, "executions"));
    /* each acquisition is one successful cas and one release; the cas is an RFO, a locked op
     * waits at the head */
    ck_assert_int_eq(json_object_get_int_member(cas, "executions") - json_object_get_int_member(cas, "failed_cas"),
                     300);
    ck_assert_int_eq(json_object_get_int_member(st, "executions"), 300);
    ck_assert_int_gt(json_object_get_int_member(cas, "rfos"), 0);
    ck_assert_int_gt(json_object_get_int_member(cas, "head_cycles"), json_object_get_int_member(cas, "executions"));
    ck_assert_int_eq(json_object_get_int_member(pause, "clears") + json_object_get_int_member(cas, "clears"), 0);
    run_result_clear(&r);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* arm64: a failing store-exclusive is the failed CAS of its stx line. */
START_TEST(test_arm64_llsc_failures_land_on_stx)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-profile-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "llsc.qs", NULL);
    ck_assert(g_file_set_contents(path,
                                  ".shared lock_word 4 own_line\n"  /* 1 */
                                  ".entry lock\n"                   /* 2 */
                                  ".entry unlock\n"                 /* 3 */
                                  "lock:\n"                         /* 4 */
                                  "    ldx32.acq r0, [lock_word]\n" /* 5 */
                                  "    bne r0, 0, lock\n"           /* 6 */
                                  "    stx32 r1, [lock_word], 1\n"  /* 7: the store-exclusive */
                                  "    bne r1, 0, lock\n"           /* 8 */
                                  "    ret\n"                       /* 9 */
                                  "unlock:\n"                       /* 10 */
                                  "    st32.rel [lock_word], 0\n"   /* 11 */
                                  "    ret\n",                      /* 12 */
                                  -1, NULL));
    RunOptions o;
    profiled(&o, "neoverse-n1", 3);
    o.lock_file = path;
    o.workload.iterations = 100;
    RunResult r;
    run_ok(&o, &r);
    JsonObject *rep = json_node_get_object(r.report);
    JsonArray *p = json_object_get_array_member(rep, "profile");
    JsonObject *stx = row_at(p, path, 7);
    ck_assert(stx);
    ck_assert_int_eq(json_object_get_int_member(stx, "failed_cas"), report_key_int(rep, "cores_summed.llsc_failures"));
    ck_assert_int_eq(json_object_get_int_member(stx, "executions") - json_object_get_int_member(stx, "failed_cas"),
                     300);
    assert_sums(rep, "llsc lock on neoverse-n1");
    run_result_clear(&r);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* ---- shape ---- */

START_TEST(test_json_shape)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock ttas --threads 2 --iterations 50 --profile "
                                   "--no-host-time --format json", &out, &err), 0);
    g_autoptr(JsonParser) parser = json_parser_new();
    ck_assert(json_parser_load_from_data(parser, out, -1, NULL));
    JsonObject *rep = json_node_get_object(json_parser_get_root(parser));
    JsonArray *p = json_object_get_array_member(rep, "profile");
    /* after the counters, before nothing else (no host time) */
    g_autoptr(GList) members = json_object_get_members(rep);
    ck_assert_str_eq(g_list_last(members)->data, "profile");
    static const char *const keys[] = { "file", "line", "source", "executions", "head_cycles", "clears",
                                        "sibling_clears", "misses", "rfos", "failed_cas", "pause_cycles" };
    gint64 prev_line = 0;
    gboolean in_harness = FALSE;
    for (guint i = 0; i < json_array_get_length(p); i++) {
        JsonObject *o = json_array_get_object_element(p, i);
        g_autoptr(GList) names = json_object_get_members(o);
        ck_assert_uint_eq(g_list_length(names), G_N_ELEMENTS(keys));
        guint k = 0;
        for (GList *l = names; l; l = l->next, k++)
            ck_assert_str_eq(l->data, keys[k]);
        /* the lock's lines first, then the harness's, each in source order */
        const char *file = json_object_get_string_member(o, "file");
        gboolean harness = !strcmp(file, "<harness>");
        ck_assert(harness || !strcmp(file, "ttas"));
        ck_assert(!in_harness || harness);
        if (harness != in_harness)
            prev_line = 0;
        in_harness = harness;
        ck_assert_int_gt(json_object_get_int_member(o, "line"), prev_line);
        prev_line = json_object_get_int_member(o, "line");
    }
    ck_assert(in_harness);
    /* ttas's xchg line, with its text */
    JsonObject *xchg = row_at(p, "ttas", 27);
    ck_assert(xchg);
    ck_assert_str_eq(json_object_get_string_member(xchg, "source"), "xchg32.acq r0, [lock_word], 1");
    ck_assert_int_ge(json_object_get_int_member(xchg, "executions"), 100);
}
END_TEST

START_TEST(test_text_and_csv)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock qspin-cmpxchg --threads 3 --iterations 50 --profile "
                                   "--no-host-time", &out, &err), 0);
    const char *table = strstr(out, "profile (per source line");
    ck_assert_msg(table, "%s", out);
    ck_assert_msg(!strstr(out, "profile:") && !strstr(out, "file:"), "the profile went into the report's keys: %s", out);
    ck_assert(strstr(table, "execs") && strstr(table, "head_cyc") && strstr(table, "fail_cas"));
    ck_assert(strstr(table, "qspin-cmpxchg:34 ") && strstr(table, "cas32.acqrel r0, [lock_word], 0, LOCKED"));
    ck_assert(strstr(table, "<harness>:") && strstr(table, "\n  total "));
    /* the table holds only lines with a count: qspin-cmpxchg's header comment has none */
    ck_assert(!strstr(table, "qspin-cmpxchg:1 "));
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("run --lock ttas --threads 2 --iterations 20 --profile --no-host-time --format csv",
                                   &out, &err), 0);
    ck_assert_msg(strstr(out, "profile.0.file,profile.0.line,profile.0.source,profile.0.executions"), "%s", out);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* without --profile, no table */
    ck_assert_int_eq(run_qsim_line("run --lock ttas --threads 2 --iterations 20 --no-host-time", &out, &err), 0);
    ck_assert(!strstr(out, "profile"));
}
END_TEST

/* The profile's table of variables: a row for each variable of the report's `variables`, with
 * its numbers (MCS's per-thread nodes among them: the lock's other lines, not only lock_word). */
START_TEST(test_variables_table)
{
    g_autofree char *out = NULL, *err = NULL, *json = NULL;
    const char *line = "run --config haswell --lock mcs --threads 3 --iterations 40 --profile --no-host-time";
    ck_assert_int_eq(run_qsim_line(line, &out, &err), 0);
    g_autofree char *jline = g_strdup_printf("%s --format json", line);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line(jline, &json, &err), 0);
    const char *table = strstr(out, "\nby variable (");
    ck_assert_msg(table, "%s", out);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, json, -1, NULL));
    JsonObject *vars = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "variables");
    ck_assert(json_object_has_member(vars, "mcs_node"));
    g_autoptr(GList) names = json_object_get_members(vars);
    for (GList *l = names; l; l = l->next) {
        JsonObject *v = json_object_get_object_member(vars, l->data);
        g_autofree char *row = g_strdup_printf("\n  %s ", (const char *)l->data);
        const char *at = strstr(table, row);
        ck_assert_msg(at, "no row for %s: %s", (const char *)l->data, table);
        /* the row's numbers, in the columns' order, are the report's */
        g_auto(GStrv) cells = g_strsplit_set(at + strlen(row), " \n", -1);
        guint c = 0;
        g_autoptr(GList) cols = json_object_get_members(v);
        for (GList *k = cols; k; k = k->next) {
            while (cells[c] && !*cells[c])
                c++;
            ck_assert_ptr_nonnull(cells[c]);
            ck_assert_int_eq(g_ascii_strtoll(cells[c], NULL, 10), json_object_get_int_member(v, k->data));
            c++;
        }
    }
}
END_TEST

START_TEST(test_refused_with_several_runs)
{
    static const char *const lines[] = {
        "run --lock ttas --profile --repeat 3",
        "run --lock ttas --profile --vs tas",
        "run --lock ttas --profile --native",
    };
    for (guint i = 0; i < G_N_ELEMENTS(lines); i++) {
        g_autofree char *out = NULL, *err = NULL;
        ck_assert_int_eq(run_qsim_line(lines[i], &out, &err), 2);
        ck_assert_msg(strstr(err, "--profile profiles one run"), "%s: %s", lines[i], err);
    }
}
END_TEST

Suite *make_profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("totals");
    tcase_add_loop_test(tc, test_sums_match_the_report, 0, G_N_ELEMENTS(sum_cases));
    tcase_add_test(tc, test_sums_after_warmup);
    tcase_add_test(tc, test_profile_changes_nothing_else);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("lines");
    tcase_add_test(tc, test_counts_land_on_their_line);
    tcase_add_test(tc, test_arm64_llsc_failures_land_on_stx);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("command");
    tcase_add_test(tc, test_json_shape);
    tcase_add_test(tc, test_text_and_csv);
    tcase_add_test(tc, test_variables_table);
    tcase_add_test(tc, test_refused_with_several_runs);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
