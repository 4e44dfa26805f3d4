/* `qsim validate --host`: the table's statistics (Spearman's rho, the median relative error),
 * its writers on a synthetic table, and one small run of the real thing. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "locks/native/native_cpus.h"
#include "sim/calibrate/host_placement.h"
#include "sim/calibrate/validate_host.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"
#include "tests/temp_files.h"

START_TEST(test_spearman_known_values)
{
    const double a[] = { 1, 2, 3, 4, 5 };
    const double up[] = { 10, 20, 30, 40, 50 }, down[] = { 5, 4, 3, 2, 1 };
    ck_assert_double_eq_tol(spearman_rho(a, up, 5), 1.0, 1e-12);
    ck_assert_double_eq_tol(spearman_rho(a, down, 5), -1.0, 1e-12);
    /* monotone but not linear: ranks only */
    const double sq[] = { 1, 4, 9, 16, 1000 };
    ck_assert_double_eq_tol(spearman_rho(a, sq, 5), 1.0, 1e-12);
    /* one swap among five: 1 - 6*2/(5*24) = 0.9 */
    const double swap[] = { 1, 2, 4, 3, 5 };
    ck_assert_double_eq_tol(spearman_rho(a, swap, 5), 0.9, 1e-12);
    /* ties take the mean of their ranks: x ranks 1.5 1.5 3 4, y ranks 1 2 3 4 -> 0.9486833 */
    const double tx[] = { 7, 7, 8, 9 }, ty[] = { 1, 2, 3, 4 };
    ck_assert_double_eq_tol(spearman_rho(tx, ty, 4), 3.0 / sqrt(10.0), 1e-9);
    /* nothing to correlate */
    ck_assert_double_eq(spearman_rho(a, up, 1), 0.0);
    const double flat[] = { 3, 3, 3 };
    ck_assert_double_eq(spearman_rho(a, flat, 3), 0.0);
}
END_TEST

static void add_row(HostTable *t, const char *lock, double host, double model, gboolean ok)
{
    HostRow r = { g_strdup(lock), 2, HARNESS_SAME_LINE, { 0 }, { 0 }, ok, 0 };
    r.host_ns.n = r.model_ns.n = 5;
    r.host_ns.mean = host;
    r.host_ns.ci_low = host * 0.9;
    r.host_ns.ci_high = host * 1.1;
    r.model_ns.mean = model;
    r.model_ns.ci_low = model * 0.95;
    r.model_ns.ci_high = model * 1.05;
    g_array_append_val(t->rows, r);
}

static HostTable *synthetic(void)
{
    HostTable *t = g_new0(HostTable, 1);
    t->rows = g_array_new(FALSE, TRUE, sizeof(HostRow));
    t->config_name = g_strdup("synthetic");
    t->frequency_ghz = 2;
    add_row(t, "qspin", 100, 110, TRUE);          /* 10% */
    add_row(t, "qspin-cmpxchg", 100, 50, TRUE);   /* 50% */
    add_row(t, "ticket", 200, 200, TRUE);         /* 0% */
    add_row(t, "tas", 1000, 1, FALSE);            /* broke exclusion: left out of the summary */
    host_table_summarise(t);
    return t;
}

START_TEST(test_summary_leaves_out_broken_rows)
{
    g_autoptr(HostTable) t = synthetic();
    ck_assert_double_eq_tol(t->median_abs_error, 0.10, 1e-12);
    /* host 100 100 200 -> ranks 1.5 1.5 3; model 110 50 200 -> 2 1 3 */
    const double h[] = { 100, 100, 200 }, m[] = { 110, 50, 200 };
    ck_assert_double_eq_tol(t->spearman, spearman_rho(h, m, 3), 1e-12);
}
END_TEST

START_TEST(test_writers)
{
    g_autoptr(HostTable) t = synthetic();
    g_autofree char *text = validate_host_text(t);
    ck_assert_ptr_nonnull(strstr(text, "model synthetic against this host"));
    ck_assert_ptr_nonnull(strstr(text, "qspin-cmpxchg"));
    ck_assert_ptr_nonnull(strstr(text, "MUTUAL EXCLUSION FAILED"));
    ck_assert_ptr_nonnull(strstr(text, "median |model - host| / host: 10.0%"));
    /* the seed's ratio, host 100/100 and model 110/50 */
    ck_assert_ptr_nonnull(strstr(text, "qspin / qspin-cmpxchg, 2 threads, same-line: host 1.000, model 2.200"));
    g_autoptr(JsonNode) j = validate_host_json(t);
    JsonObject *o = json_node_get_object(j);
    ck_assert_str_eq(json_object_get_string_member(o, "unit"), "ns per acquisition");
    JsonArray *rows = json_object_get_array_member(o, "rows");
    ck_assert_uint_eq(json_array_get_length(rows), 4);
    JsonObject *r3 = json_array_get_object_element(rows, 3);
    ck_assert(!json_object_get_boolean_member(r3, "mutual_exclusion"));
    JsonObject *r0 = json_array_get_object_element(rows, 0);
    ck_assert_double_eq_tol(json_object_get_double_member(r0, "model_over_host"), 1.1, 1e-12);
    ck_assert_double_eq_tol(json_object_get_double_member(json_object_get_object_member(r0, "host"), "ci95_low"), 90,
                            1e-9);
    ck_assert_int_eq(json_object_get_int_member(r0, "host_runs_disturbed"), 0);
    ck_assert_ptr_null(strstr(text, "disturbed"));
    ck_assert_ptr_null(strstr(text, "placement"));
    /* The placement, when chosen, heads the rows and is in the JSON. */
    t->placement = g_strdup("placement: host CPUs 0,1 and model CPUs cpus:0,1");
    g_autofree char *text2 = validate_host_text(t);
    ck_assert_ptr_nonnull(strstr(text2, "over runs)\nplacement: host CPUs 0,1 and model CPUs cpus:0,1\nlock"));
    g_autoptr(JsonNode) j2 = validate_host_json(t);
    ck_assert_str_eq(json_object_get_string_member(json_node_get_object(j2), "placement"), t->placement);
}
END_TEST

/* A busy host's runs are counted, and the table says so under the figures, as `native` does. */
START_TEST(test_disturbed_runs_warned)
{
    g_autoptr(HostTable) t = synthetic();
    g_array_index(t->rows, HostRow, 1).disturbed = 2;
    t->first_disturbance = g_strdup("qspin-cmpxchg, 2 threads: the host was busy: 3 other tasks were runnable");
    g_autofree char *text = validate_host_text(t);
    ck_assert_msg(strstr(text, "warning: 2 of the 20 host runs were disturbed by the scheduler") &&
                      strstr(text, "(first: qspin-cmpxchg, 2 threads: the host was busy"), "%s", text);
    g_autoptr(JsonNode) j = validate_host_json(t);
    JsonArray *rows = json_object_get_array_member(json_node_get_object(j), "rows");
    ck_assert_int_eq(json_object_get_int_member(json_array_get_object_element(rows, 1), "host_runs_disturbed"), 2);
}
END_TEST

START_TEST(test_cli_refuses_bad_options)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("validate --host --repeat 1 --config haswell", &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--repeat needs at least 2"));
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("validate --host --format markdown --config haswell", NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--host takes"));
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("validate --host --config no-such-machine --repeat 2", NULL, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "no-such-machine"));
}
END_TEST

/* The real thing, small: every built-in lock at 2 threads on both data placements, host and
 * model, exclusion kept everywhere.  Times are whatever this (possibly busy) host gives: only
 * their presence is checked. */
START_TEST(test_cli_small_run)
{
    g_autoptr(GArray) cpus = native_allowed_cpus();
    if (cpus->len < 2) {
        qsim_test_skip("validate_host/test_cli_small_run", "one CPU: two threads cannot run side by side");
        return;
    }
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("validate --host --config haswell --repeat 2 --threads-max 2 --iterations 200 --format json",
                           &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(p));
    JsonArray *rows = json_object_get_array_member(o, "rows");
    ck_assert_uint_ge(json_array_get_length(rows), 2 * 8); /* 8 or more built-in locks, two placements */
    gboolean seen_qspin = FALSE;
    for (guint i = 0; i < json_array_get_length(rows); i++) {
        JsonObject *r = json_array_get_object_element(rows, i);
        ck_assert_int_eq(json_object_get_int_member(r, "threads"), 2);
        ck_assert(json_object_get_boolean_member(r, "mutual_exclusion"));
        ck_assert(json_object_get_double_member(json_object_get_object_member(r, "host"), "mean") > 0);
        ck_assert(json_object_get_double_member(json_object_get_object_member(r, "model"), "mean") > 0);
        seen_qspin |= !strcmp(json_object_get_string_member(r, "lock"), "qspin-cmpxchg");
    }
    ck_assert(seen_qspin);
    double rho = json_object_get_double_member(o, "spearman");
    ck_assert(rho >= -1 && rho <= 1);
}
END_TEST

/* ---- the placement: host CPUs to model CPUs, on a fake sysfs ---- */

static void sysfs_file(const char *root, const char *path, const char *text)
{
    g_autofree char *full = g_build_filename(root, path, NULL), *dir = g_path_get_dirname(full);
    ck_assert_int_eq(g_mkdir_with_parents(dir, 0755), 0);
    g_free(write_file(dir, strrchr(full, '/') + 1, text));
}

/* A host of `n` CPUs on one package and one LLC; CPU i is a thread of the core siblings[i] names. */
static void fake_host(CalibHost *h, guint n, const char *const *siblings)
{
    g_autofree char *root = tmpdir();
    g_autofree char *online = g_strdup_printf("0-%u", n - 1);
    sysfs_file(root, "sys/devices/system/cpu/online", online);
    for (guint i = 0; i < n; i++) {
        g_autofree char *cpu = g_strdup_printf("sys/devices/system/cpu/cpu%u", i);
        g_autofree char *pkg = g_strconcat(cpu, "/topology/physical_package_id", NULL);
        g_autofree char *sib = g_strconcat(cpu, "/topology/thread_siblings_list", NULL);
        g_autofree char *lvl = g_strconcat(cpu, "/cache/index3/level", NULL);
        g_autofree char *shr = g_strconcat(cpu, "/cache/index3/shared_cpu_list", NULL);
        sysfs_file(root, pkg, "0");
        sysfs_file(root, sib, siblings[i]);
        sysfs_file(root, lvl, "3");
        sysfs_file(root, shr, online);
    }
    memset(h, 0, sizeof *h);
    calib_host_probe(h, root, 0);
}

static QsimConfig *shape(guint cores, guint threads)
{
    QsimConfig *cfg = config_new_defaults();
    g_autofree char *c = g_strdup_printf("topology.cores_per_socket=%u", cores);
    g_autofree char *t = g_strdup_printf("topology.threads_per_core=%u", threads);
    const char *sets[] = { "name=fake", "topology.sockets=1", c, t };
    for (guint i = 0; i < G_N_ELEMENTS(sets); i++)
        ck_assert(config_set(cfg, sets[i], NULL));
    return cfg;
}

/* CPUs 0 .. n-1. */
static GArray *first_cpus(guint n)
{
    GArray *cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint i = 0; i < n; i++)
        g_array_append_val(cpus, i);
    return cpus;
}

static void assert_model(const HostPlacement *p, const guint *want, guint n)
{
    ck_assert_msg(p->model, "%s", p->text);
    ck_assert_uint_eq(p->threads, n);
    for (guint i = 0; i < n; i++)
        ck_assert_msg(g_array_index(p->model, guint, i) == want[i], "thread %u: model CPU %u, want %u (%s)", i,
                      g_array_index(p->model, guint, i), want[i], p->text);
}

/* A host that numbers siblings side by side (0 and 1 one core, as a VM may): its siblings are
 * the model's siblings, CPU c and c + cores; on a config of one thread per core the model keeps
 * fill and says why. */
START_TEST(test_placement_maps_siblings)
{
    const char *const adjacent[] = { "0-1", "0-1", "2-3", "2-3" };
    CalibHost h;
    fake_host(&h, 4, adjacent);
    ck_assert_uint_eq(h.threads_per_core, 2);
    g_autoptr(GArray) cpus = first_cpus(4);
    g_autoptr(QsimConfig) smt = shape(2, 2), one = shape(2, 1);
    HostPlacement p;
    host_placement_choose(&p, &h, smt, cpus, 0);
    const guint want[] = { 0, 2, 1, 3 };
    assert_model(&p, want, 4);
    ck_assert(p.siblings);
    ck_assert_msg(strstr(p.text, "host CPUs 0 and 1 are SMT siblings of one core, modelled as one core's two threads") &&
                      strstr(p.text, "model CPUs cpus:0,2,1,3"), "%s", p.text);
    host_placement_clear(&p);
    host_placement_choose(&p, &h, one, cpus, 0);
    ck_assert_ptr_null(p.model);
    ck_assert_uint_eq(p.threads, 2); /* the config's cores */
    ck_assert_msg(strstr(p.text, "the model's fill, one thread per core, since host CPU 1 is thread 1 of core 0") &&
                      strstr(p.text, "modelled as two cores"), "%s", p.text);
    host_placement_clear(&p);
    calib_host_clear(&h);
}
END_TEST

/* Linux's own numbering maps as it is; two CPUs of two cores are two cores; a two-CPU guest whose
 * CPUs are one core's threads runs on a config of one core with two (what calibrate writes). */
START_TEST(test_placement_linux_numbering_and_one_core)
{
    const char *const linux_order[] = { "0,2", "1,3", "0,2", "1,3" };
    CalibHost h;
    fake_host(&h, 4, linux_order);
    g_autoptr(GArray) cpus = first_cpus(4);
    g_autoptr(QsimConfig) smt = shape(2, 2), one_core = shape(1, 2);
    HostPlacement p;
    host_placement_choose(&p, &h, smt, cpus, 2);
    const guint two[] = { 0, 1 };
    assert_model(&p, two, 2);
    ck_assert(!p.siblings);
    ck_assert_ptr_null(strstr(p.text, "siblings"));
    host_placement_clear(&p);
    calib_host_clear(&h);

    const char *const pair[] = { "0-1", "0-1" };
    fake_host(&h, 2, pair);
    g_array_set_size(cpus, 2);
    host_placement_choose(&p, &h, one_core, cpus, 0);
    assert_model(&p, two, 2);
    ck_assert(p.siblings);
    host_placement_clear(&p);
    calib_host_clear(&h);
}
END_TEST

Suite *make_validate_host_suite(void)
{
    Suite *s = suite_create("validate_host");
    TCase *tc = tcase_create("stats");
    tcase_add_test(tc, test_spearman_known_values);
    tcase_add_test(tc, test_summary_leaves_out_broken_rows);
    tcase_add_test(tc, test_writers);
    tcase_add_test(tc, test_disturbed_runs_warned);
    tcase_add_test(tc, test_placement_maps_siblings);
    tcase_add_test(tc, test_placement_linux_numbering_and_one_core);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 300); /* a busy host with two CPUs: native spinning with a preempted holder */
    tcase_add_test(tc, test_cli_refuses_bad_options);
    tcase_add_test(tc, test_cli_small_run);
    suite_add_tcase(s, tc);
    return s;
}
