/* One schema for every result document (docs/report.schema.json, docs/report.md "One schema"):
 * each mode's JSON, from the built binary, validates against it with python3-jsonschema (the
 * reference validator, packaged by Debian) plus tests/check_schema.py's checks of what a schema
 * cannot say (a summary's numbers in order, no interval below 0 for a quantity never below 0);
 * each mode's CSV is one header and one row carrying the identity columns; and the validator
 * rejects documents that break the schema (so a pass means something). */
#include <check.h>
#include <string.h>
#include <sys/wait.h>
#include "tests/run_qsim.h"
#include "tests/skip.h"
#include "tests/temp_files.h"

/* The modes and a small command for each (model runs of 100 acquisitions; host runs of 1000). */
static const struct {
    const char *name, *kind, *args;
} modes[] = {
    { "run", "report", "run --config haswell --lock ttas --threads 2 --iterations 100" },
    { "run-rw", "report", "run --config haswell --lock qrwlock --threads 4 --readers 2 --iterations 30" },
    { "run-profile", "report", "run --config neoverse-n1 --lock mcs --threads 3 --iterations 30 --profile" },
    { "run-futex", "report", "run --config skylake-sp --lock futex-mutex --threads 4 --iterations 30" },
    { "vs", "pair", "run --config haswell --lock ttas --vs ticket --threads 2 --iterations 100" },
    { "native-beside", "pair", "run --config haswell --lock ttas --threads 2 --iterations 100 --native" },
    { "repeat", "summary", "run --config haswell --lock ttas --threads 2 --iterations 100 --repeat 3" },
    { "repeat-vs", "pair", "run --config haswell --lock ttas --vs ttas --threads 2 --iterations 100 --repeat 3" },
    { "native", "report", "native --lock ttas --threads 2 --iterations 1000" },
    { "native-repeat", "summary", "native --lock ttas --threads 2 --iterations 1000 --repeat 3" },
    { "scenario", "report", "run --scenario false-sharing --iterations 20" },
    { "scenario-repeat", "summary", "run --scenario ping-pong --iterations 5 --repeat 2" },
    { "script", "script", "run --config teaching --script '0:ld x, 1:st x=5, 0:ld x'" },
    { "validate", "validation", "validate" },
    { "validate-host", "validate-host",
      "validate --host --config haswell --repeat 2 --threads-max 2 --iterations 500" },
    { "compare", "compare",
      "compare --threads-list 2 --data B --placements fill --seeds 2 --iterations 30 -j 1" },
};

/* Runs tests/check_schema.py on `files`; its exit status, or -1 when it cannot run (the test is
 * then skipped, or fails under CI=true). */
static int check_schema(const char *test, GPtrArray *files, char **out)
{
    g_autofree char *py = g_find_program_in_path("python3");
    if (!py) {
        qsim_test_skip_or_fail(test, "python3 is not installed (build-aux/deps.sh installs python3-jsonschema)");
        return -1;
    }
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup(py));
    g_ptr_array_add(argv, g_build_filename(test_srcdir(), "tests", "check_schema.py", NULL));
    g_ptr_array_add(argv, g_build_filename(test_srcdir(), "docs", "report.schema.json", NULL));
    for (guint i = 0; i < files->len; i++)
        g_ptr_array_add(argv, g_strdup(files->pdata[i]));
    g_ptr_array_add(argv, NULL);
    g_autofree char *err = NULL;
    gint status = 0;
    g_autoptr(GError) error = NULL;
    ck_assert_msg(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, &err, &status,
                               &error),
                  "python3: %s", error ? error->message : "");
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -2;
    if (rc == 2) {
        qsim_test_skip_or_fail(test, "python3-jsonschema is not installed (build-aux/deps.sh installs it)");
        return -1;
    }
    ck_assert_msg(rc == 0 || rc == 1, "check_schema.py: exit %d: %s", rc, err);
    return rc;
}

/* `qsim ARGS --format FMT` (ARGS split as a shell would): what it printed (it must exit 0). */
static char *run_mode(guint i, const char *fmt)
{
    g_autofree char *line = g_strdup_printf("%s --format %s", modes[i].args, fmt);
    g_auto(GStrv) args = NULL;
    ck_assert(g_shell_parse_argv(line, NULL, &args, NULL));
    g_autofree char *err = NULL;
    char *out = NULL;
    int rc = run_qsim((const char *const *)args, &out, &err);
    ck_assert_msg(rc == 0, "qsim %s: exit %d: %s", line, rc, err);
    return out;
}

START_TEST(test_every_mode_validates)
{
    g_autofree char *dir = tmpdir();
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < G_N_ELEMENTS(modes); i++) {
        g_autofree char *out = run_mode(i, "json");
        g_autofree char *name = g_strdup_printf("%s.json", modes[i].name);
        g_autofree char *kind = g_strdup_printf("\"kind\" : \"%s\"", modes[i].kind);
        ck_assert_msg(g_str_has_prefix(out, "{\n  \"schema_version\" : 1,\n"), "%s: %.80s", modes[i].name, out);
        ck_assert_msg(strstr(out, kind), "%s: not kind %s", modes[i].name, modes[i].kind);
        g_ptr_array_add(files, write_file(dir, name, out));
    }
    g_autofree char *report = NULL;
    int rc = check_schema("report_schema: every mode", files, &report);
    if (rc >= 0)
        ck_assert_msg(rc == 0, "documents that break the schema:\n%s", report);
    rm_rf(dir);
}
END_TEST

/* A document each way wrong: a key the schema does not know (a drift), a summary whose interval
 * reaches below 0 for a count, a pair keyed by lock name, a missing kind. */
/* docs/report.schema.json is what build-aux/report-schema.py writes (`make docs`). */
START_TEST(test_schema_is_generated)
{
    g_autofree char *py = g_find_program_in_path("python3");
    if (!py) {
        qsim_test_skip_or_fail("report_schema: generated", "python3 is not installed");
        return;
    }
    g_autofree char *gen = g_build_filename(test_srcdir(), "build-aux", "report-schema.py", NULL);
    g_autofree char *doc = g_build_filename(test_srcdir(), "docs", "report.schema.json", NULL);
    const char *argv[] = { py, gen, NULL };
    g_autofree char *out = NULL, *shipped = NULL;
    gint status = 0;
    ck_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    ck_assert_int_eq(status, 0);
    ck_assert(g_file_get_contents(doc, &shipped, NULL, NULL));
    ck_assert_msg(!strcmp(out, shipped), "docs/report.schema.json is stale: run `make docs`");
}
END_TEST

START_TEST(test_validator_rejects)
{
    static const char *const bad[] = {
        "{\"schema_version\": 1, \"kind\": \"report\", \"config\": \"haswell\", \"arch\": \"x86\", \"lock\": \"ttas\", "
        "\"threads\": 2, \"data\": \"separate-line\", \"mode\": \"fixed-work\", \"cycles\": 10, \"acquisitions\": 2, "
        "\"cycles_per_acquisition\": 5, \"mutual_exclusion\": true, \"provenance\": {\"qsim\": \"0\", \"commit\": \"x\"}, "
        "\"cycles_per_acquisitoin\": 5}",
        "{\"schema_version\": 1, \"kind\": \"summary\", \"config\": \"haswell\", \"lock\": \"ttas\", \"threads\": 2, "
        "\"mode\": \"fixed-work\", \"repeat\": 3, \"mutual_exclusion\": true, "
        "\"cycles\": {\"n\": 3, \"mean\": 200, \"sd\": 300, \"median\": 10, \"min\": 0, \"max\": 600, "
        "\"ci95_low\": -353.2, \"ci95_high\": 756.4, \"interval\": \"t\"}, "
        "\"cycles_per_acquisition\": {\"n\": 3, \"mean\": 2, \"sd\": 0, \"median\": 2, \"min\": 2, \"max\": 2, "
        "\"ci95_low\": 2, \"ci95_high\": 2, \"interval\": \"t-log\"}}",
        "{\"schema_version\": 1, \"kind\": \"pair\", \"labels\": {\"a\": \"ttas\", \"b\": \"ticket\"}, \"ttas\": {}, "
        "\"ticket\": {}, \"b_over_a\": {}}",
        "{\"schema_version\": 1, \"config\": \"haswell\"}",
    };
    g_autofree char *dir = tmpdir();
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
        g_autofree char *name = g_strdup_printf("bad%u.json", i);
        g_ptr_array_add(files, write_file(dir, name, bad[i]));
        g_autofree char *report = NULL;
        int rc = check_schema("report_schema: rejects", files, &report);
        if (rc < 0)
            break;
        ck_assert_msg(rc == 1 && *report, "bad document %u passed: %s", i, bad[i]);
    }
    rm_rf(dir);
}
END_TEST

/* Every mode's CSV: a header and one row, with the identity columns
 * (for a pair, each side's). */
START_TEST(test_csv_is_wide)
{
    for (guint i = 0; i < G_N_ELEMENTS(modes); i++) {
        if (!strcmp(modes[i].kind, "validation") || !strcmp(modes[i].kind, "validate-host") ||
            !strcmp(modes[i].kind, "compare") || !strcmp(modes[i].kind, "script"))
            continue; /* tables of their own: text, JSON (and markdown) */
        g_autofree char *out = run_mode(i, "csv");
        g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
        ck_assert_msg(g_strv_length(lines) == 3 && !*lines[2], "%s: %u lines", modes[i].name, g_strv_length(lines));
        ck_assert_msg(g_str_has_prefix(lines[0], "schema_version,kind,"), "%s: %.60s", modes[i].name, lines[0]);
        gboolean pair = !strcmp(modes[i].kind, "pair");
        static const char *const ids[] = { "config", "lock", "threads", "data", "mode" };
        for (guint k = 0; k < G_N_ELEMENTS(ids); k++) {
            g_autofree char *col = g_strdup_printf(",%s%s,", pair ? "a." : "", ids[k]);
            g_autofree char *head = g_strdup_printf("%s,", lines[0]);
            ck_assert_msg(strstr(head, col), "%s: no column %s", modes[i].name, col + 1);
        }
    }
}
END_TEST

Suite *make_report_schema_suite(void)
{
    Suite *s = suite_create("report_schema");
    TCase *tc = tcase_create("schema");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_every_mode_validates);
    tcase_add_test(tc, test_schema_is_generated);
    tcase_add_test(tc, test_validator_rejects);
    tcase_add_test(tc, test_csv_is_wide);
    suite_add_tcase(s, tc);
    return s;
}
