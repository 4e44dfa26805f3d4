/* `qsim validate`: the shipped tables pass; a row outside its tolerance fails; shown rows never
 * fail; bad tables are refused with file:line. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "sim/validation/validate.h"

static const char header[] = "machine\twhat\tconditions\tpublished\tunit\ttolerance\tsource\tnote\n";

static char *write_table(const char *rows)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-validate-XXXXXX", NULL);
    char *path = g_build_filename(dir, "t.tsv", NULL);
    g_autofree char *text = g_strconcat(header, rows, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* Loads `rows` as a table (kept in *t: results point into it) and runs it. */
static GArray *run_table(const char *rows, const char *const *sets, ValidationTable **t, GError **error)
{
    g_autofree char *path = write_table(rows);
    *t = validation_table_new();
    if (!validation_table_load(*t, path, error))
        return NULL;
    return validation_run(*t, NULL, sets, error);
}

/* Every row the project ships passes (or is shown); at least 60 rows from 4 sources on 4
 * configs, as the issue that introduced validation asks. */
START_TEST(test_shipped_tables_pass)
{
    g_autoptr(GError) e = NULL;
    g_auto(GStrv) files = validation_default_tables(&e);
    ck_assert_msg(files, "%s", e ? e->message : "");
    g_autoptr(ValidationTable) t = validation_table_new();
    for (guint i = 0; files[i]; i++)
        ck_assert_msg(validation_table_load(t, files[i], &e), "%s", e ? e->message : "");
    g_autoptr(GArray) res = validation_run(t, NULL, NULL, &e);
    ck_assert_msg(res, "%s", e ? e->message : "");
    g_autoptr(GHashTable) sources = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GHashTable) machines = g_hash_table_new(g_str_hash, g_str_equal);
    guint checked = 0;
    for (guint i = 0; i < res->len; i++) {
        const ValidationResult *v = &g_array_index(res, ValidationResult, i);
        ck_assert_msg(v->pass, "%s:%u: %s %s %s: model %g, published %g %s (%+.1f%%, tolerance %.0f%%)",
                      v->row->file, v->row->line, v->row->machine, v->row->what, v->row->conditions, v->model,
                      v->row->published, v->row->unit, v->error * 100, v->row->tolerance * 100);
        if (v->row->tolerance >= 0) {
            checked++;
            g_hash_table_add(sources, v->row->source);
            g_hash_table_add(machines, v->row->machine);
        }
    }
    ck_assert_uint_ge(checked, 60);
    ck_assert_uint_ge(g_hash_table_size(sources), 4);
    ck_assert_uint_ge(g_hash_table_size(machines), 4);
}
END_TEST

START_TEST(test_a_miss_fails_and_shown_rows_do_not)
{
    g_autoptr(GError) e = NULL;
    /* teaching's L1 hit is 2 cycles */
    g_autoptr(ValidationTable) t = NULL, t2 = NULL;
    g_autoptr(GArray) r = run_table("teaching\tl1-hit\t\t2\tcycles\t0.1\tX\tright\n"
                                    "teaching\tl1-hit\t\t4\tcycles\t0.1\tX\twrong\n"
                                    "teaching\tl1-hit\t\t4\tcycles\tshown\tX\twrong but shown\n", NULL, &t, &e);
    ck_assert_msg(r, "%s", e ? e->message : "");
    ck_assert_uint_eq(r->len, 3);
    ck_assert(g_array_index(r, ValidationResult, 0).pass);
    ck_assert(!g_array_index(r, ValidationResult, 1).pass);
    ck_assert(fabs(g_array_index(r, ValidationResult, 1).error + 0.5) < 1e-9);
    ck_assert(g_array_index(r, ValidationResult, 2).pass);
    ck_assert_uint_eq(validation_failures(r), 1);
    g_autofree char *text = validation_text(r);
    ck_assert_ptr_nonnull(strstr(text, "FAIL"));
    ck_assert_ptr_nonnull(strstr(text, "1 failed; 1 shown"));
    /* and a what-if moves the model: --set l1.latency=4 makes the second row right */
    const char *sets[] = { "l1.latency=4", NULL };
    g_autoptr(GArray) r2 = run_table("teaching\tl1-hit\t\t4\tcycles\t0.1\tX\tright now\n", sets, &t2, &e);
    ck_assert(r2 && g_array_index(r2, ValidationResult, 0).pass);
}
END_TEST

/* Each kind of measurement answers from its mechanism: ns at the config's clock, ratios. */
START_TEST(test_units_and_kinds)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(ValidationTable) t = NULL;
    g_autoptr(GArray) r = run_table(
        "haswell\thot\top=cas\t19\tcycles\t0.2\tX\tlocked op on the core\n"
        "haswell\tl1-hit\t\t1.739\tns\t0.05\tX\t4 cycles at 2.3 GHz\n"
        "haswell\tbarrier-ratio\ta=mfence b=mfence\t1\tratio\t0.001\tX\tthe same loop twice\n"
        "teaching\tc2c-oneway\tdistance=same-die\t50\tcycles\tshown\tX\tany\n"
        "haswell\tc2c-oneway\tdistance=same-die\t90\tcycles\tshown\tX\ttwo cores\n"
        "haswell\tc2c-oneway\tdistance=smt-sibling\t16\tcycles\tshown\tX\tone core's two threads\n", NULL, &t,
        &e);
    ck_assert_msg(r, "%s", e ? e->message : "");
    for (guint i = 0; i < 3; i++)
        ck_assert_msg(g_array_index(r, ValidationResult, i).pass, "row %u: model %g", i,
                      g_array_index(r, ValidationResult, i).model);
    ck_assert(g_array_index(r, ValidationResult, 3).model > 20);
    /* Siblings share the L1: the hand-over is a locked op's hold, no snoop or transfer. */
    double cores = g_array_index(r, ValidationResult, 4).model, sib = g_array_index(r, ValidationResult, 5).model;
    ck_assert_msg(sib > 0 && sib < 25 && cores > 3 * sib, "siblings %g cycles, two cores %g", sib, cores);
}
END_TEST

typedef struct { const char *rows, *want; } BadCase;
static const BadCase bad_cases[] = {
    { "haswell\tl1-hit\t\tfour\tcycles\t0.1\tX\tn\n", ":2: published value 'four' is not a positive number" },
    { "haswell\tl1-hit\t\t4\tcycles\t1.5\tX\tn\n", ":2: tolerance '1.5'" },
    { "haswell\tl1-hit\t\t4\tparsecs\t0.1\tX\tn\n", ":2: unit 'parsecs'" },
    { "haswell\tl1-hit\t4\n", ":2: 3 fields, want 8" },
    { "haswell\tteleport\t\t4\tcycles\t0.1\tX\tn\n", ":2: unknown `what` 'teleport'" },
    { "haswell\tload\tstate=M\t4\tcycles\t0.1\tX\tn\n", ":2: `load` needs condition distance=" },
    { "haswell\tload\tstate=M distance\t4\tcycles\t0.1\tX\tn\n", ":2: condition 'distance' is not key=value" },
    { "nosuch\tl1-hit\t\t4\tcycles\t0.1\tX\tn\n", "nosuch" },
    { "haswell\tload\tstate=O distance=same-die\t4\tcycles\t0.1\tX\tn\n", "no load O row at same-die" },
    { "neoverse-n1\tc2c-oneway\tdistance=smt-sibling\t8\tns\t0.1\tX\tn\n",
      ":2: neoverse-n1 has one thread per core: no distance 'smt-sibling'" },
};

START_TEST(test_bad_tables)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(ValidationTable) t = NULL;
    g_autoptr(GArray) r = run_table(bad_cases[_i].rows, NULL, &t, &e);
    ck_assert_ptr_null(r);
    ck_assert_msg(e && strstr(e->message, bad_cases[_i].want), "want '%s', got '%s'", bad_cases[_i].want,
                  e ? e->message : "(no error)");
}
END_TEST

Suite *make_validate_suite(void)
{
    Suite *s = suite_create("validate");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_shipped_tables_pass);
    tcase_add_test(tc, test_a_miss_fails_and_shown_rows_do_not);
    tcase_add_test(tc, test_units_and_kinds);
    tcase_add_loop_test(tc, test_bad_tables, 0, G_N_ELEMENTS(bad_cases));
    suite_add_tcase(s, tc);
    return s;
}
