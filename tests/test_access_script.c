/* Scripted accesses (sim/workload/access_script.h, `qsim run --script`): the grammar and its errors at
 * their line and column, and the run: each access after the one before it, the line's states
 * afterwards, and the trace of each access's transitions. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "sim/workload/access_script.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

START_TEST(test_grammar)
{
    GError *error = NULL;
    g_autoptr(AccessScript) s = access_script_parse("--script", "0:ld x, 1:st x; 0 : st  y=5 # a comment, still\n"
                                                                "\n1:xchg x\n1:fadd y=3,0:fadd y,1:evict x,", &error);
    ck_assert_msg(s, "%s", error ? error->message : "");
    ck_assert_uint_eq(s->accesses->len, 7);
    ck_assert_uint_eq(s->vars->len, 2);
    ck_assert_uint_eq(s->nthreads, 2);
    static const struct {
        guint thread;
        ScriptOp op;
        guint var;
        guint64 value;
        guint line, col;
        const char *text;
    } want[] = {
        { 0, SCRIPT_LD, 0, 1, 1, 1, "0:ld x" },         { 1, SCRIPT_ST, 0, 2, 1, 9, "1:st x" },
        { 0, SCRIPT_ST, 1, 5, 1, 17, "0 : st  y=5" },  { 1, SCRIPT_XCHG, 0, 4, 3, 1, "1:xchg x" },
        { 1, SCRIPT_FADD, 1, 3, 4, 1, "1:fadd y=3" },  { 0, SCRIPT_FADD, 1, 1, 4, 12, "0:fadd y" },
        { 1, SCRIPT_EVICT, 0, 1, 4, 21, "1:evict x" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
        ck_assert_uint_eq(a->thread, want[i].thread);
        ck_assert_int_eq(a->op, want[i].op);
        ck_assert_uint_eq(a->var, want[i].var);
        /* a store's default is its number in the script; fadd's is 1 */
        if (a->op != SCRIPT_LD && a->op != SCRIPT_EVICT)
            ck_assert_uint_eq(a->value, want[i].value);
        ck_assert_uint_eq(a->line, want[i].line);
        ck_assert_uint_eq(a->col, want[i].col);
        ck_assert_str_eq(a->text, want[i].text);
    }
}
END_TEST

START_TEST(test_errors)
{
    static const struct {
        const char *text, *err;
    } cases[] = {
        { "0:lod x", "--script:1:3: `lod`: no such access; did you mean `ld`? (ld, st, xchg, fadd, evict)" },
        { "0 ld x", "--script:1:3: expected `:` after the thread (THREAD:OP VAR, e.g. 0:ld x), found `ld`" },
        { "0:ld", "--script:1:5: expected a variable after `ld`, found the end" },
        { "0:ld x=3", "--script:1:7: `ld` takes no value (only st, xchg and fadd do)" },
        { "0:st x=abc", "--script:1:8: expected a value (a whole number), found `abc`" },
        { "0:ld x 1:st x", "--script:1:8: expected `,`, `;` or a new line between accesses, found `1:st`" },
        { "0:ld 9x", "--script:1:6: expected a variable (a name: letters, digits, _), found `9x`" },
        { "64:ld x", "--script:1:1: a thread: at most 63" },
        { "x:ld x", "--script:1:1: expected a thread (a whole number), found `x:ld`" },
        { "0:ld x,\n 1:", "--script:2:4: expected an access (ld, st, xchg, fadd, evict), found the end" },
        { " # nothing\n", "--script: no accesses (a script is THREAD:OP VAR, ..., e.g. `0:ld x, 1:st x, 0:ld x`)" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        GError *error = NULL;
        ck_assert_msg(!access_script_parse("--script", cases[i].text, &error), "%s: parsed", cases[i].text);
        ck_assert_msg(!strcmp(error->message, cases[i].err), "%s:\n  %s\n  %s", cases[i].text, error->message,
                      cases[i].err);
        g_clear_error(&error);
    }
}
END_TEST

/* The classic three on MESI: a lone reader gets E; a writer takes the line from it (I, M); a
 * reader again makes both S, the owner answering. */
START_TEST(test_run)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --script 0:ld_x,1:st_x=5,0:ld_x --format json", &out, &err),
                     2); /* `ld_x` is one word: no variable after it */
    g_free(out);
    g_free(err);
    const char *args[] = { "run", "--config", "teaching", "--script", "0:ld x, 1:st x=5, 0:ld x, 1:evict x",
                           "--format", "json", NULL };
    ck_assert_msg(run_qsim(args, &out, &err) == 0, "%s", err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(p));
    ck_assert_str_eq(json_object_get_string_member(r, "harness"), "script");
    JsonArray *a = json_object_get_array_member(r, "accesses");
    ck_assert_uint_eq(json_array_get_length(a), 4);
    static const char *const states[][3] = { { "E", "I", "EM" }, { "I", "M", "EM" }, { "S", "S", "S" }, { "S", "I", "S" } };
    static const char *const by[] = { "memory", "another core", "another core", "-" };
    gint64 prev_end = 0;
    for (guint i = 0; i < 4; i++) {
        JsonObject *x = json_array_get_object_element(a, i);
        JsonArray *st = json_object_get_array_member(x, "states");
        for (guint c = 0; c < 2; c++)
            ck_assert_str_eq(json_array_get_string_element(st, c), states[i][c]);
        ck_assert_str_eq(json_object_get_string_member(x, "home"), states[i][2]);
        ck_assert_str_eq(json_object_get_string_member(x, "answered_by"), by[i]);
        /* each starts once the one before it ended: in the script's order */
        gint64 start = json_object_get_int_member(x, "start");
        ck_assert_int_ge(start, prev_end);
        prev_end = start + json_object_get_int_member(x, "cycles");
    }
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(a, 2), "value"), 5);
}
END_TEST

/* The trace shows each access's rows, in the script's order; the page is written. */
START_TEST(test_trace)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *html = g_build_filename(dir, "s.html", NULL);
    const char *args[] = { "run", "--config", "teaching", "--script", "0:ld x, 1:st x, 0:ld x", "--trace",
                           "--trace-html", html, NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_msg(run_qsim(args, &out, &err) == 0, "%s", err);
    const char *rows[] = { "I + Load -> IS_D", "IS_D + Data_E -> E", "I + Store -> IM_AD", "E + Fwd-GetM -> I",
                           "M + Fwd-GetS -> S" };
    const char *at = err;
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        const char *next = strstr(at, rows[i]);
        ck_assert_msg(next, "`%s` not after the rows before it in:\n%s", rows[i], err);
        at = next;
    }
    ck_assert_msg(g_str_has_prefix(out, "script on teaching (mesi): 3 accesses, each once the one before it "
                                        "completed\n"), "%s", out);
    g_autofree char *page = NULL;
    ck_assert(g_file_get_contents(html, &page, NULL, NULL) && strstr(page, "<html"));
    rm_rf(dir);
}
END_TEST

/* A file's errors at its own lines; options a script does not take, refused. */
START_TEST(test_file_and_refusals)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = g_build_filename(dir, "demo.txt", NULL);
    ck_assert(g_file_set_contents(file, "# a demo\n0:ld x\n1:st y   # y\n\n1:sx y\n", -1, NULL));
    g_autofree char *line = g_strdup_printf("run --script %s", file);
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out, &err), 2);
    g_autofree char *want = g_strdup_printf("qsim: %s:5:3: `sx`: no such access; did you mean `st`?", file);
    ck_assert_msg(g_str_has_prefix(err, want), "%s", err);
    static const struct {
        const char *line, *err;
    } refused[] = {
        { "run --script 0:ld_x --lock tas", "not with --lock, --lock-file, --lock-param, --cc and --cflags" },
        { "run --script 0:ld_x --threads 3", "not with the workload options" },
        { "run --script 0:ld_x --vs tas", "not with --vs, --native, --repeat" },
        { "run --script 0:ld_x --format csv", "--script reports as text or json" },
        { "run --config teaching --script 2:ld_x", "--script:1:3: `ld_x`: no such access" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autofree char *o = NULL, *e = NULL;
        ck_assert_msg(run_qsim_line(refused[i].line, &o, &e) == 2, "%s: not refused", refused[i].line);
        ck_assert_msg(strstr(e, refused[i].err), "%s: %s", refused[i].line, e);
    }
    const char *args[] = { "run", "--config", "teaching", "--script", "2:ld x", NULL };
    g_autofree char *o = NULL, *e = NULL;
    ck_assert_int_eq(run_qsim(args, &o, &e), 2);
    ck_assert_str_eq(e, "qsim: --script:1:1: thread 2: teaching has 2 cores, threads 0 to 1 (more with --set "
                        "topology.cores_per_socket=N)\n");
    rm_rf(dir);
}
END_TEST

/* `C.T:`: core C's hardware thread T, beside `N:` (core N's first) in one script. */
START_TEST(test_hw_grammar)
{
    GError *error = NULL;
    g_autoptr(AccessScript) s = access_script_parse("--script", "0.1:st x=5, 1:ld x\n1.0 : ld y", &error);
    ck_assert_msg(s, "%s", error ? error->message : "");
    ck_assert_uint_eq(s->accesses->len, 3);
    ck_assert(s->hw_named);
    ck_assert_uint_eq(s->nthreads, 2);
    ck_assert_uint_eq(s->hw_threads, 2);
    static const struct {
        guint core, hw;
        gboolean named;
        const char *text;
    } want[] = { { 0, 1, TRUE, "0.1:st x=5" }, { 1, 0, FALSE, "1:ld x" }, { 1, 0, TRUE, "1.0 : ld y" } };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
        ck_assert_uint_eq(a->thread, want[i].core);
        ck_assert_uint_eq(a->hw_thread, want[i].hw);
        ck_assert_int_eq(a->hw_named, want[i].named);
        ck_assert_str_eq(a->text, want[i].text);
    }
    /* a script of `N:` only names no hardware thread: its run and report are as before */
    g_autoptr(AccessScript) old = access_script_parse("--script", "0:ld x, 1:st x", &error);
    ck_assert(old && !old->hw_named && old->hw_threads == 1);
    static const struct {
        const char *text, *err;
    } bad[] = {
        { "0.:ld x", "--script:1:3: expected a hardware thread (a whole number), found `:ld`" },
        { "0.a:ld x", "--script:1:3: expected a hardware thread (a whole number), found `a:ld`" },
        { "0.64:ld x", "--script:1:3: a hardware thread: at most 63" },
        { "0.1.1:ld x", "--script:1:4: expected `:` after the thread (THREAD:OP VAR, e.g. 0:ld x), found `.1:ld`" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        ck_assert_msg(!access_script_parse("--script", bad[i].text, &error), "%s: parsed", bad[i].text);
        ck_assert_msg(!strcmp(error->message, bad[i].err), "%s:\n  %s\n  %s", bad[i].text, error->message, bad[i].err);
        g_clear_error(&error);
    }
}
END_TEST

/* A hardware thread the machine does not have: refused at its column, exit 2. */
START_TEST(test_hw_refused)
{
    static const struct {
        const char *tpc, *script, *err;
    } cases[] = {
        { "1", "0:ld x, 0.1:st x",
          "qsim: --script:1:11: core 0.1: teaching has 1 hardware thread per core, thread 0 only (more with --set "
          "topology.threads_per_core=N)\n" },
        { "2", "1.2:st x",
          "qsim: --script:1:3: core 1.2: teaching has 2 hardware threads per core, threads 0 to 1 (more with --set "
          "topology.threads_per_core=N)\n" },
        { "2", "2.1:st x",
          "qsim: --script:1:1: core 2: teaching has 2 cores, cores 0 to 1 (more with --set "
          "topology.cores_per_socket=N)\n" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *set = g_strdup_printf("topology.threads_per_core=%s", cases[i].tpc);
        const char *args[] = { "run", "--config", "teaching", "--set", set, "--script", cases[i].script, NULL };
        g_autofree char *out = NULL, *err = NULL;
        ck_assert_int_eq(run_qsim(args, &out, &err), 2);
        ck_assert_str_eq(err, cases[i].err);
    }
}
END_TEST

/* Core 0's second hardware thread stores to the line core 0's first read: the siblings share
 * the L1, so the store hits the E copy there (E -> M, no message, nothing invalidated) and the
 * first thread's next load hits the value the sibling wrote. */
START_TEST(test_hw_shared_line)
{
    const char *line = "0.0:ld x, 0.1:st x=5, 0.0:ld x";
    const char *args[] = { "run", "--config", "teaching", "--set", "topology.threads_per_core=2", "--script", line,
                           "--format", "json", NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_msg(run_qsim(args, &out, &err) == 0, "%s", err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(p));
    /* the threads are the logical CPUs up to core 0.1 (CPU 2 of 2 cores), named as the trace names them */
    ck_assert_int_eq(json_object_get_int_member(r, "threads"), 3);
    JsonArray *names = json_object_get_array_member(r, "thread_names");
    static const char *const want_names[] = { "core 0.0", "core 1.0", "core 0.1" };
    for (guint t = 0; t < 3; t++)
        ck_assert_str_eq(json_array_get_string_element(names, t), want_names[t]);
    JsonArray *a = json_object_get_array_member(r, "accesses");
    static const struct {
        gint64 thread, core, hw;
        const char *by, *states[3], *home;
    } want[] = {
        { 0, 0, 0, "memory", { "E", "I", "E" }, "EM" },
        { 2, 0, 1, "L1", { "M", "I", "M" }, "EM" }, /* a hit in the shared L1: the home never hears of it */
        { 0, 0, 0, "L1", { "M", "I", "M" }, "EM" },
    };
    for (guint i = 0; i < 3; i++) {
        JsonObject *x = json_array_get_object_element(a, i);
        ck_assert_int_eq(json_object_get_int_member(x, "thread"), want[i].thread);
        ck_assert_int_eq(json_object_get_int_member(x, "core"), want[i].core);
        ck_assert_int_eq(json_object_get_int_member(x, "hw_thread"), want[i].hw);
        ck_assert_str_eq(json_object_get_string_member(x, "answered_by"), want[i].by);
        JsonArray *st = json_object_get_array_member(x, "states");
        for (guint t = 0; t < 3; t++)
            ck_assert_str_eq(json_array_get_string_element(st, t), want[i].states[t]);
        ck_assert_str_eq(json_object_get_string_member(x, "home"), want[i].home);
    }
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(a, 2), "value"), 5);
    /* the trace: the sibling's store is one row of core 0's cache, a hit, and no message at all
     * goes out from its start to the end */
    const char *targs[] = { "run", "--config", "teaching", "--set", "topology.threads_per_core=2", "--script", line,
                            "--trace", NULL };
    g_autofree char *tout = NULL, *terr = NULL;
    ck_assert_msg(run_qsim(targs, &tout, &terr) == 0, "%s", terr);
    const char *from = strstr(terr, "  core 0.1   ");
    ck_assert_msg(from && strstr(from, "script: access #2 0.1:st x=5\n"), "%s", terr);
    const char *store = strstr(from, "  core 0    x           E + Store -> M              store x: hit\n");
    ck_assert_msg(store, "%s", terr);
    ck_assert_msg(!strstr(from, " to home") && !strstr(from, "Inv") && !strstr(from, "home "), "%s", terr);
    ck_assert_msg(strstr(store, "  core 0.0              script: access #3 0.0:ld x\n"), "%s", terr);
    /* the text report's columns are the threads' names */
    const char *rargs[] = { "run", "--config", "teaching", "--set", "topology.threads_per_core=2", "--script", line,
                            NULL };
    g_autofree char *rout = NULL;
    ck_assert_int_eq(run_qsim(rargs, &rout, NULL), 0);
    ck_assert_msg(strstr(rout, "after: core 0.0 core 1.0 core 0.1 home\n"), "%s", rout);
    ck_assert_msg(strstr(rout, "    2  0.1:st x=5       1  L1                         -         M        I        M "
                               "       EM\n"), "%s", rout);
}
END_TEST

/* A script of `N:` accesses on a machine with two hardware threads per core keeps its report:
 * no names, no hardware-thread fields, the columns as before. */
START_TEST(test_hw_old_form_unchanged)
{
    const char *args[] = { "run", "--config", "teaching", "--set", "topology.threads_per_core=2", "--script",
                           "0:ld x, 1:st x=5", "--format", "json", NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_msg(run_qsim(args, &out, &err) == 0, "%s", err);
    ck_assert_msg(!strstr(out, "thread_names") && !strstr(out, "hw_thread"), "%s", out);
    ck_assert_msg(strstr(out, "\"threads\" : 2"), "%s", out);
}
END_TEST

Suite *make_access_script_suite(void)
{
    Suite *s = suite_create("access_script");
    TCase *tc = tcase_create("script");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_grammar);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_run);
    tcase_add_test(tc, test_trace);
    tcase_add_test(tc, test_file_and_refusals);
    tcase_add_test(tc, test_hw_grammar);
    tcase_add_test(tc, test_hw_refused);
    tcase_add_test(tc, test_hw_shared_line);
    tcase_add_test(tc, test_hw_old_form_unchanged);
    suite_add_tcase(s, tc);
    return s;
}
