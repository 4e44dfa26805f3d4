/* The reference pages generated from qsim's own tables (`make docs`) are what the committed
 * docs hold: a row added to the workload table or a counter registry without `make docs`
 * fails here.  (docs/config.md has its own test beside the config schema.)  The pages come
 * from the commands the Makefile runs, so the commands are tested too. */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"
#include "sim/base/report.h"
#include "sim/run/run.h"
#include "sim/workload/workload.h"
#include "sim/report/run_report.h"
#include "cores/core.h"
#include "coherence/memsys.h"
#include "locks/native/native_perf.h"

static const struct {
    const char *command;     /* `qsim` arguments that print the page */
    const char *file;        /* under docs/ */
} pages[] = {
    { "list options", "workload.md" },
    { "list counters", "counters.md" },
    { "list report", "report.md" },
};

START_TEST(test_generated_doc_is_current)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line(pages[_i].command, &out, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", pages[_i].command, rc, err);
    g_autofree char *path = g_build_filename(test_srcdir(), "docs", pages[_i].file, NULL);
    g_autofree char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "docs/%s missing", pages[_i].file);
    ck_assert_msg(!strcmp(text, out), "docs/%s is stale: run `make docs`", pages[_i].file);
}
END_TEST

/* docs/validation.md shows the validation table as the model answers it now (make docs). */
START_TEST(test_validation_doc_is_current)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("validate --format markdown", &out, &err);
    ck_assert_msg(rc == 0, "qsim validate: exit %d: %s", rc, err);
    g_autofree char *path = g_build_filename(test_srcdir(), "docs", "validation.md", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    const char *begin = strstr(text, "<!-- begin: qsim validate --format markdown -->\n");
    const char *end = strstr(text, "<!-- end: qsim validate -->");
    ck_assert(begin && end);
    begin = strchr(begin, '\n') + 1;
    g_autofree char *table = g_strndup(begin, (gsize)(end - begin));
    ck_assert_msg(!strcmp(table, out), "docs/validation.md is stale: run `make docs`");
}
END_TEST

/* What the pages are made of: every workload option, every counter of every registry (with its
 * description) and every headline figure. */
START_TEST(test_pages_hold_every_row)
{
    g_autofree char *options = NULL, *counters = NULL;
    ck_assert_int_eq(run_qsim_line("list options", &options, NULL), 0);
    ck_assert_int_eq(run_qsim_line("list counters", &counters, NULL), 0);
    for (guint i = 0; i < workload_schema_len; i++) {
        g_autofree char *flag = g_strdup_printf("| `--%s`", workload_schema[i].flag);
        ck_assert_msg(strstr(options, flag), "no %s in `qsim list options`", flag);
    }
    static const CounterRegistry *const registries[] = { &core_stats_registry, &mem_stats_registry,
                                                         &line_stats_registry, &native_perf_registry };
    for (guint r = 0; r < G_N_ELEMENTS(registries); r++)
        for (guint i = 0; i < registries[r]->n; i++) {
            const CounterInfo *c = &registries[r]->rows[i];
            g_autofree char *row = g_strdup_printf("| `%s`%s | %s | %s |", c->name,
                                                   c->shape == COUNTER_ARRAY ? ".*" : "", c->unit, c->doc);
            ck_assert_msg(strstr(counters, row), "no row %s in `qsim list counters`", row);
        }
    ck_assert_msg(strstr(counters, "| `l1_hit_rate` | memory | `l1_hits` / (`l1_hits` + `l1_misses`) |"), "%s",
                  counters);
    ck_assert_msg(strstr(counters, "| `machine_clears.penalty_cycles` | core | `mc_penalty_cycles` |"), "%s",
                  counters);
}
END_TEST

/* Whether docs/report.md lists `key`: as itself, with thread indices as N, or under a `prefix.*`
 * row. */
static gboolean documented(const char *page, const char *key)
{
    g_autoptr(GRegex) index = g_regex_new("\\.[0-9]+\\.", 0, 0, NULL);
    g_autofree char *pattern = g_regex_replace_literal(index, key, -1, 0, ".N.", 0, NULL);
    g_autofree char *row = g_strdup_printf("| `%s` |", pattern);
    if (strstr(page, row))
        return TRUE;
    g_autofree char *prefix = g_strdup(key);
    for (char *dot = strrchr(prefix, '.'); dot; dot = strrchr(prefix, '.')) {
        *dot = 0;
        g_autofree char *star = g_strdup_printf("| `%s.*` |", prefix);
        if (strstr(page, star))
            return TRUE;
    }
    return FALSE;
}

/* Every key a run's report holds is on docs/report.md (a key added to the builder without a
 * row there fails), and the renamed ones are gone. */
START_TEST(test_report_keys_documented)
{
    g_autofree char *page = NULL;
    ck_assert_int_eq(run_qsim_line("list report", &page, NULL), 0);
    static const char *const locks[] = { "qspin", "qrwlock" };
    for (guint l = 0; l < G_N_ELEMENTS(locks); l++) {
        RunOptions o;
        run_options_init(&o);
        o.config = "teaching";
        o.lock = locks[l];
        o.workload.iterations = 5;
        o.workload.readers = l; /* qrwlock: a reader too */
        o.host_time = l == 0;
        RunResult r;
        GError *error = NULL;
        ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
        GArray *f = report_flatten(r.report);
        for (guint i = 0; i < f->len; i++) {
            const char *key = g_array_index(f, ReportField, i).key;
            ck_assert_msg(documented(page, key), "report key %s is not in docs/report.md", key);
        }
        report_fields_free(f);
        run_result_clear(&r);
    }
    static const char *const gone[] = { "machine_clears.branch", "machine_clears.cycles_lost", "core_counters" };
    for (guint i = 0; i < G_N_ELEMENTS(gone); i++)
        ck_assert_msg(!strstr(page, gone[i]), "%s is still on the page", gone[i]);
    ck_assert(!documented(page, "no_such_key"));
}
END_TEST

START_TEST(test_list_subjects)
{
    g_autofree char *err = NULL, *help = NULL;
    ck_assert_int_eq(run_qsim_line("list dogs", NULL, &err), 2);
    ck_assert_msg(strstr(err, "`qsim list configs|locks|scenarios|options|counters|report`"), "%s", err);
    ck_assert_int_eq(run_qsim_line("list --help", &help, NULL), 0);
    ck_assert_msg(strstr(help, "options") && strstr(help, QSIM_SRCDIR "/docs/workload.md") &&
                      strstr(help, QSIM_SRCDIR "/docs/counters.md") && strstr(help, QSIM_SRCDIR "/docs/report.md"),
                  "%s", help);
}
END_TEST

Suite *make_docs_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("generated");
    tcase_set_timeout(tc, 120); /* qsim validate runs every table */
    tcase_add_test(tc, test_validation_doc_is_current);
    tcase_add_loop_test(tc, test_generated_doc_is_current, 0, G_N_ELEMENTS(pages));
    tcase_add_test(tc, test_pages_hold_every_row);
    tcase_add_test(tc, test_report_keys_documented);
    tcase_add_test(tc, test_list_subjects);
    suite_add_tcase(s, tc);
    return s;
}
