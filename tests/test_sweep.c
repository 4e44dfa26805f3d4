/* Sweeps: point order and exclude (in process), then the built binary: -j independence, resume
 * after a kill, shards merged, failures recorded, positioned errors, plots. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "tests/run_qsim.h"

/* A few points on the two-core teaching machine: seconds in all, even under the sanitizers. */
static char *small_sweep_text(void)
{
    return g_strdup_printf("configs: teaching\n"
                           "locks: [tas, ttas]\n"
                           "threads: [1, 2]\n"
                           "iterations: %d\n"
                           "seeds: %d\n",
                           test_scale_quick() ? 10 : 40, test_scale_quick() ? 2 : 3);
}

static guint small_sweep_points(void) { return 2 * 2 * (test_scale_quick() ? 2 : 3); }

static char *tmpdir(void)
{
    char *d = g_dir_make_tmp("qsim-sweep-XXXXXX", NULL);
    ck_assert(d);
    return d;
}

static char *write_file(const char *dir, const char *name, const char *text)
{
    char *p = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(p, text, -1, NULL));
    return p;
}

static char *slurp(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(p, &text, NULL, NULL), "cannot read %s", p);
    return text;
}

static void rm_rf(const char *dir)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Runs qsim with `args` and, when given, one extra environment variable. */
static int run_env(const char *const *args, const char *env, char **err)
{
    if (!env)
        return run_qsim(args, NULL, err);
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *fallback = g_build_filename(test_srcdir(), "qsim", NULL);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    g_ptr_array_add(argv, (char *)(bin ? bin : fallback));
    for (guint i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, NULL);
    g_auto(GStrv) envp = g_get_environ();
    const char *eq = strchr(env, '=');
    g_autofree char *name = g_strndup(env, eq - env);
    envp = g_environ_setenv(envp, name, eq + 1, TRUE);
    int status = -1;
    ck_assert(g_spawn_sync(test_srcdir(), (char **)argv->pdata, envp, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                           NULL, err, &status, NULL));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int sweep(const char *file, const char *out, const char *extra1, const char *extra2, char **err)
{
    const char *args[] = { "sweep", file, "--out", out, extra1, extra2, NULL };
    return run_qsim(args, NULL, err);
}

/* Lines of results.jsonl, as a count per point index. */
static void count_points(const char *dir, guint npoints, guint *counts)
{
    g_autofree char *jl = slurp(dir, "results.jsonl");
    memset(counts, 0, npoints * sizeof *counts);
    g_auto(GStrv) lines = g_strsplit(jl, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (!*lines[i])
            continue;
        const char *p = strstr(lines[i], "\"point\":");
        ck_assert_msg(p, "no point in %s", lines[i]);
        guint64 n = g_ascii_strtoull(p + 8, NULL, 10);
        ck_assert_uint_lt(n, npoints);
        counts[n]++;
    }
}

/* ---- in process: the point order and exclude ---- */

START_TEST(test_point_order_follows_axes)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string("locks: [tas, ttas]\nthreads: [1, 2]\nconfigs: teaching\n", "a.yaml", &e);
    ck_assert_msg(s, "%s", e ? e->message : "");
    ck_assert_uint_eq(s->npoints, 4);
    /* The first axis varies slowest, the last fastest. */
    const char *want[] = {
        "locks=tas;threads=1;configs=teaching", "locks=tas;threads=2;configs=teaching",
        "locks=ttas;threads=1;configs=teaching", "locks=ttas;threads=2;configs=teaching",
    };
    for (guint p = 0; p < 4; p++) {
        g_autofree char *k = sweep_point_key(s, p);
        ck_assert_str_eq(k, want[p]);
    }
    g_autoptr(Sweep) t = sweep_load_string("threads: [1, 2]\nlocks: [tas, ttas]\n", "b.yaml", &e);
    ck_assert(t);
    g_autofree char *k1 = sweep_point_key(t, 1);
    ck_assert_str_eq(k1, "threads=1;locks=ttas");
    ck_assert_str_ne(s->fingerprint, t->fingerprint);

    /* seeds: a count means 1..N; a list names the seeds. */
    g_autoptr(Sweep) u = sweep_load_string("locks: tas\nseeds: 3\ncore.pause_cycles: [10, 140]\n", "c.yaml", &e);
    ck_assert(u);
    ck_assert_uint_eq(u->npoints, 6);
    ck_assert_str_eq(sweep_value(u, 5, 1), "3");
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(u, 5, &o, sets);
    ck_assert_uint_eq(o.seed, 3);
    ck_assert_str_eq(o.sets[0], "core.pause_cycles=140");
    ck_assert_ptr_null(o.sets[1]);
    ck_assert(!o.host_time);
    g_autoptr(Sweep) v = sweep_load_string("locks: tas\nseeds: [7, 9]\n", "d.yaml", &e);
    ck_assert(v);
    ck_assert_str_eq(sweep_value(v, 1, 1), "9");
}
END_TEST

/* A lock parameter axis reaches the run as --lock-param does, beside config-key overrides; a lock
 * that does not declare the parameter fails its points, the others run. */
START_TEST(test_lock_param_axis)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string("locks: adaptive-mutex-2018\nlock_param.spin_count: [10, 1000]\n"
                                           "core.pause_cycles: 20\n", "p.yaml", &e);
    ck_assert_msg(s, "%s", e ? e->message : "");
    ck_assert_uint_eq(s->npoints, 2);
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(s, 1, &o, sets);
    ck_assert_str_eq(o.sets[0], "core.pause_cycles=20");
    ck_assert_ptr_null(o.sets[1]);
    ck_assert_str_eq(o.lock_params[0], "spin_count=1000");
    ck_assert_ptr_null(o.lock_params[1]);

    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "lp.yaml", "configs: teaching\nlocks: [adaptive-mutex, ttas]\n"
                                                       "lock_param.spin_count: [10, 1000]\nthreads: 2\niterations: 10\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    ck_assert_int_eq(sweep(file, out, NULL, NULL, &err), 1);
    g_autofree char *csv = slurp(out, "results.csv");
    g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
    ck_assert_msg(strstr(lines[0], ",lock_params.spin_count,"), "%s", lines[0]);
    ck_assert_msg(g_str_has_prefix(lines[1], "0,teaching,adaptive-mutex,10,2,10,ok,"), "%s", lines[1]);
    ck_assert_msg(g_str_has_prefix(lines[2], "1,teaching,adaptive-mutex,1000,2,10,ok,"), "%s", lines[2]);
    ck_assert_msg(g_str_has_prefix(lines[3], "2,teaching,ttas,10,2,10,failed,") &&
                  strstr(lines[3], "declares no `.param spin_count`"), "%s", lines[3]);
    rm_rf(dir);
}
END_TEST

START_TEST(test_exclude_removes_points)
{
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string("configs: teaching\nlocks: [tas, ttas, ticket]\nthreads: [1, 2]\n"
                                           "data: [same-line, separate-line]\n"
                                           "exclude:\n  - {locks: tas, threads: 1}\n"
                                           "  - {locks: [ttas, ticket], data: same-line, threads: 2}\n",
                                           "x.yaml", &e);
    ck_assert_msg(s, "%s", e ? e->message : "");
    ck_assert_uint_eq(s->excluded, 2 + 2);
    ck_assert_uint_eq(s->npoints, 12 - 4);
    for (guint p = 0; p < s->npoints; p++) {
        g_autofree char *k = sweep_point_key(s, p);
        ck_assert_msg(!g_str_has_prefix(k, "configs=teaching;locks=tas;threads=1"), "%s not excluded", k);
        ck_assert_msg(!strstr(k, "threads=2;data=same-line") || strstr(k, "locks=tas;"), "%s not excluded", k);
    }
    /* Indices close up: the first point left is tas with 2 threads. */
    g_autofree char *k0 = sweep_point_key(s, 0);
    ck_assert_str_eq(k0, "configs=teaching;locks=tas;threads=2;data=same-line");
}
END_TEST

/* ---- the binary ---- */

START_TEST(test_jobs_do_not_change_results)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *text = small_sweep_text();
    g_autofree char *file = write_file(dir, "small.yaml", text);
    g_autofree char *o1 = g_build_filename(dir, "j1", NULL), *o2 = g_build_filename(dir, "j2", NULL);
    g_autofree char *err = NULL;
    ck_assert_msg(sweep(file, o1, "-j", "1", &err) == 0, "%s", err);
    ck_assert_int_eq(sweep(file, o2, "-j", "2", NULL), 0);
    g_autofree char *c1 = slurp(o1, "results.csv"), *c2 = slurp(o2, "results.csv");
    g_autofree char *j1 = slurp(o1, "results.jsonl"), *j2 = slurp(o2, "results.jsonl");
    ck_assert_str_eq(c1, c2);
    ck_assert_str_eq(j1, j2);
    ck_assert(g_str_has_prefix(c1, "point,axis.configs,axis.locks,axis.threads,axis.iterations,axis.seeds,"
                                   "status,failure,config,"));
    ck_assert(!strstr(c1, "host_seconds"));
    g_auto(GStrv) lines = g_strsplit(c1, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), small_sweep_points() + 2);   /* header, rows, "" */
    ck_assert(g_str_has_prefix(lines[1], "0,teaching,tas,1,"));
    ck_assert(strstr(lines[1], ",ok,,teaching,x86,tas,1,"));
    /* Seeds differ, so their rows do too (the runs are not all the same run). */
    ck_assert_str_ne(strstr(lines[1], ",ok,"), strstr(lines[2], ",ok,"));
    rm_rf(dir);
}
END_TEST

START_TEST(test_resume_after_kill)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *text = small_sweep_text();
    g_autofree char *file = write_file(dir, "small.yaml", text);
    g_autofree char *whole = g_build_filename(dir, "whole", NULL), *cut = g_build_filename(dir, "cut", NULL);
    guint n = small_sweep_points();
    ck_assert_int_eq(sweep(file, whole, "-j", "1", NULL), 0);
    /* Killed once 3 points are written, with others in flight. */
    const char *args[] = { "sweep", file, "--out", cut, "-j", "2", NULL };
    ck_assert_int_eq(run_env(args, "QSIM_SWEEP_KILL_AFTER=3", NULL), 137);
    g_autofree guint *counts = g_new0(guint, n);
    count_points(cut, n, counts);
    guint done = 0;
    for (guint i = 0; i < n; i++)
        done += counts[i];
    ck_assert_uint_eq(done, 3);
    /* A line cut short by the kill. */
    g_autofree char *jl = g_build_filename(cut, "results.jsonl", NULL);
    FILE *f = fopen(jl, "a");
    fputs("{\"point\":5,\"key\":\"configs=tea", f);
    fclose(f);
    /* Without --resume the folder is not overwritten. */
    g_autofree char *err = NULL;
    ck_assert_int_eq(sweep(file, cut, "-j", "2", &err), 2);
    ck_assert_msg(strstr(err, "add --resume"), "%s", err);
    const char *resume[] = { "sweep", file, "--out", cut, "-j", "2", "--resume", NULL };
    ck_assert_int_eq(run_qsim(resume, NULL, NULL), 0);
    count_points(cut, n, counts);
    for (guint i = 0; i < n; i++)
        ck_assert_msg(counts[i] == 1, "point %u is there %u times", i, counts[i]);
    g_autofree char *a = slurp(whole, "results.csv"), *b = slurp(cut, "results.csv");
    ck_assert_str_eq(a, b);
    g_autofree char *ja = slurp(whole, "results.jsonl"), *jb = slurp(cut, "results.jsonl");
    ck_assert_str_eq(ja, jb);
    /* A changed sweep file does not reuse the old rows. */
    g_autofree char *changed = g_strdup_printf("%scs_work: 5\n", text);
    g_autofree char *file2 = write_file(dir, "small.yaml", changed);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(sweep(file2, cut, "--resume", NULL, &err), 2);
    ck_assert_msg(strstr(err, "the sweep file changed"), "%s", err);
    rm_rf(dir);
}
END_TEST

START_TEST(test_shards_merge_to_the_whole)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *text = small_sweep_text();
    g_autofree char *file = write_file(dir, "small.yaml", text);
    g_autofree char *whole = g_build_filename(dir, "whole", NULL), *merged = g_build_filename(dir, "merged", NULL);
    ck_assert_int_eq(sweep(file, whole, "-j", "2", NULL), 0);
    char *shards[4] = { NULL };
    for (guint i = 1; i <= 3; i++) {
        shards[i - 1] = g_strdup_printf("%s/shard-%u", dir, i);
        g_autofree char *spec = g_strdup_printf("%u/3", i);
        ck_assert_int_eq(sweep(file, shards[i - 1], "--shard", spec, NULL), 0);
        /* Each shard holds only its slice: point index mod 3 == i - 1. */
        g_autofree guint *counts = g_new0(guint, small_sweep_points());
        count_points(shards[i - 1], small_sweep_points(), counts);
        for (guint p = 0; p < small_sweep_points(); p++)
            ck_assert_uint_eq(counts[p], p % 3 == i - 1);
    }
    /* Two shards alone: a point is missing, exit 1. */
    const char *partial[] = { "sweep", "--merge", shards[0], shards[1], "--out", merged, NULL };
    ck_assert_int_eq(run_qsim(partial, NULL, NULL), 1);
    const char *args[] = { "sweep", "--merge", shards[2], shards[0], shards[1], "--out", merged, NULL };
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim(args, NULL, &err) == 0, "%s", err);
    g_autofree char *a = slurp(whole, "results.csv"), *b = slurp(merged, "results.csv");
    ck_assert_str_eq(a, b);
    g_autofree char *ja = slurp(whole, "results.jsonl"), *jb = slurp(merged, "results.jsonl");
    ck_assert_str_eq(ja, jb);
    /* A folder of another sweep is refused. */
    g_autofree char *other_text = g_strdup_printf("%scs_work: 5\n", text);
    g_autofree char *other = write_file(dir, "other.yaml", other_text);
    g_autofree char *odir = g_build_filename(dir, "other", NULL);
    ck_assert_int_eq(sweep(other, odir, "--shard", "1/3", NULL), 0);
    const char *bad[] = { "sweep", "--merge", shards[0], odir, "--out", merged, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(bad, NULL, &err), 2);
    ck_assert_msg(strstr(err, "different sweeps"), "%s", err);
    for (guint i = 0; i < 3; i++)
        g_free(shards[i]);
    rm_rf(dir);
}
END_TEST

START_TEST(test_failed_point_is_recorded)
{
    g_autofree char *dir = tmpdir();
    /* Each value is fine alone; together, 3 readers of 2 threads cannot run: that point fails,
     * the other still runs. */
    g_autofree char *file = write_file(dir, "f.yaml", "configs: teaching\nlocks: qrwlock\nthreads: 2\n"
                                                      "readers: [1, 3]\niterations: 10\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    ck_assert_int_eq(sweep(file, out, NULL, NULL, &err), 1);
    ck_assert_msg(strstr(err, "point 1 (configs=teaching;locks=qrwlock;threads=2;readers=3;iterations=10) failed"),
                  "%s", err);
    g_autofree char *csv = slurp(out, "results.csv");
    g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
    ck_assert(strstr(lines[1], ",ok,,"));
    ck_assert_msg(g_str_has_prefix(lines[2], "1,teaching,qrwlock,2,3,10,failed,") &&
                  strstr(lines[2], "more readers than threads"), "%s", lines[2]);
    rm_rf(dir);
}
END_TEST

/* Bad sweep files: each error names file:line:col, exit 2. */
static const struct {
    const char *title, *text, *want;
} bad_cases[] = {
    { "unknown axis", "locks: tas\nthread: [1, 2]\n", "bad.yaml:2:1: unknown axis 'thread'; did you mean 'threads'?" },
    { "bad value", "locks: tas\nthreads: [1, two]\n", "bad.yaml:2:14: threads two: expected a whole number" },
    { "zero threads", "locks: tas\nthreads: 0\n", "bad.yaml:2:10: threads 0: out of range [1, 4096]" },
    { "bad config-key value", "locks: tas\ncore.pause_cycles: [10, -5]\n", "bad.yaml:2:25: core.pause_cycles: value -5 is out of range" },
    { "bad enum config key", "locks: tas\nprotocol: [mesi, moesy]\n", "bad.yaml:2:18: protocol: unknown value 'moesy'; did you mean 'moesi'?" },
    { "YAML syntax error", "locks: [tas, ttas\nthreads: 2\n", "bad.yaml:2:" },
    { "empty axis", "locks: tas\nthreads: []\n", "bad.yaml:2:10: threads: empty axis" },
    { "mapping as axis", "locks: tas\nthreads: {a: 1}\n", "bad.yaml:2:10: threads: expected a value or a list of values, got a mapping" },
    { "unknown lock", "locks: [tas, tass]\n", "bad.yaml:1:14: locks: no built-in lock `tass`; did you mean `tas`?" },
    { "unknown config", "configs: [teaching, haswel]\nlocks: tas\n", "bad.yaml:1:21: configs: haswel: no such config file" },
    { "bad data", "locks: tas\ndata: same\n", "bad.yaml:2:7: data same: one of same-line, separate-line" },
    { "repeated value", "locks: tas\nthreads: [1, 1]\n", "bad.yaml:2:14: threads: value '1' given twice" },
    { "no locks", "threads: [1, 2]\n", "bad.yaml:1:1: no `locks` axis" },
    { "exclude unknown value", "locks: [tas, ttas]\nexclude:\n  - {locks: tsa}\n", "bad.yaml:3:13: exclude: locks has no value 'tsa'; did you mean 'tas'?" },
    { "exclude unknown axis", "locks: [tas, ttas]\nexclude:\n  - {threads: 2}\n", "bad.yaml:3:6: exclude: 'threads' is not an axis" },
    { "exclude everything", "locks: tas\nexclude:\n  - {locks: tas}\n", "bad.yaml:1:1: exclude removes every point" },
    { "seeds count", "locks: tas\nseeds: -1\n", "bad.yaml:2:8: seeds: expected a count" },
    { "lock parameter value", "locks: adaptive-mutex\nlock_param.spin_count: [10, lots]\n",
      "bad.yaml:2:29: lock_param.spin_count: expected a whole number, got 'lots'" },
    { "lock parameter name", "locks: adaptive-mutex\nlock_param.: 1\n",
      "bad.yaml:2:1: lock_param.: a lock parameter axis is lock_param.NAME" },
};

START_TEST(test_bad_sweep_files)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "bad.yaml", bad_cases[_i].text);
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    int rc = sweep(file, out, NULL, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d", bad_cases[_i].title, rc);
    ck_assert_msg(strstr(err, bad_cases[_i].want), "%s: want '%s' in:\n%s", bad_cases[_i].title, bad_cases[_i].want,
                  err);
    ck_assert_msg(!g_file_test(out, G_FILE_TEST_EXISTS), "%s: ran anyway", bad_cases[_i].title);
    rm_rf(dir);
}
END_TEST

static gboolean file_starts_with(const char *dir, const char *name, const char *magic, gsize n)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    g_autofree char *text = NULL;
    gsize len = 0;
    return g_file_get_contents(p, &text, &len, NULL) && len > 100 && !memcmp(text, magic, n);
}

START_TEST(test_plot_makes_images)
{
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot) {
        fprintf(stderr, "test_sweep: gnuplot is not installed; skipping the plot test\n");
        return;
    }
    g_autofree char *dir = tmpdir();
    g_autofree char *text = small_sweep_text();
    g_autofree char *file = write_file(dir, "small.yaml", text);
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    ck_assert_msg(sweep(file, out, "--plot", NULL, &err) == 0, "%s", err);
    ck_assert(file_starts_with(out, "plot.png", "\x89PNG", 4));
    g_autofree char *svg = slurp(out, "plot.svg");
    ck_assert(strstr(svg, "<svg"));
    g_autofree char *gp = slurp(out, "plot.gp");
    ck_assert(strstr(gp, "plot-teaching.dat"));
    ck_assert(strstr(gp, "title \"tas\""));
    g_autofree char *dat = slurp(out, "plot-teaching.dat");
    ck_assert(strstr(dat, "# ttas\n"));
    /* Another metric; a wrong one is named. */
    const char *args[] = { "sweep", "--merge", out, "--out", out, "--plot-y", "coherence.rfo", NULL };
    ck_assert_int_eq(run_qsim(args, NULL, NULL), 0);
    g_free(gp);
    gp = slurp(out, "plot.gp");
    ck_assert(strstr(gp, "set ylabel \"coherence.rfo\""));
    const char *bad[] = { "sweep", "--merge", out, "--out", out, "--plot-y", "cycles_per_acquisiton", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(bad, NULL, &err), 2);
    ck_assert_msg(strstr(err, "did you mean 'cycles_per_acquisition'"), "%s", err);
    rm_rf(dir);
}
END_TEST

START_TEST(test_example_sweeps_load)
{
    const char *names[] = { "seed-study", "pause", "rob", "protocol", "adaptive-mutex" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *p = g_strdup_printf("%s/sweeps/%s.yaml", test_srcdir(), names[i]);
        g_autoptr(GError) e = NULL;
        g_autoptr(Sweep) s = sweep_load(p, &e);
        ck_assert_msg(s, "%s", e ? e->message : "");
        ck_assert_uint_gt(s->npoints, 1);
    }
}
END_TEST

Suite *make_sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, test_point_order_follows_axes);
    tcase_add_test(tc, test_exclude_removes_points);
    tcase_add_test(tc, test_lock_param_axis);
    tcase_add_loop_test(tc, test_bad_sweep_files, 0, G_N_ELEMENTS(bad_cases));
    tcase_add_test(tc, test_example_sweeps_load);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_add_test(tc, test_jobs_do_not_change_results);
    tcase_add_test(tc, test_resume_after_kill);
    tcase_add_test(tc, test_shards_merge_to_the_whole);
    tcase_add_test(tc, test_failed_point_is_recorded);
    tcase_add_test(tc, test_plot_makes_images);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
