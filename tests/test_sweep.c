/* Sweeps: point order and exclude (in process), then the built binary: -j independence, resume
 * after a kill (the kill in a forked child that runs the library), shards merged, failures
 * recorded, positioned errors, plots. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "tests/temp_files.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

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

/* A progress callback that kills its own process, as a user's kill -9 would, once
 * `user` (a guint) points have finished.  The sweep calls it with its state locked, right
 * after a point's row is written, so exactly that many rows are on disk, others in flight. */
static void kill_after_points(const SweepProgress *p, gboolean finished, gpointer user)
{
    if (finished && p->done >= *(const guint *)user)
        raise(SIGKILL);
}

/* Runs the sweep in `file` into `out` with `jobs` workers in a child process that kills
 * itself once `points` have finished; returns the signal it died of (0: it did not). */
static int sweep_killed_after(const char *file, const char *out, guint jobs, guint points)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* The child runs the library as `qsim sweep` does and must never return into Check. */
        g_autoptr(GError) e = NULL;
        g_autoptr(Sweep) s = sweep_load(file, NULL, &e);
        SweepRunOptions o = { .jobs = jobs, .out = out, .shard = 1, .nshards = 1,
                              .progress = kill_after_points, .progress_user = &points };
        guint failed = 0;
        if (s)
            sweep_execute(s, &o, &failed, &e);
        fprintf(stderr, "the sweep was not killed: %s\n", e ? e->message : "it finished");
        _exit(1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
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
    /* A seeds count is values like any (it said "seeds has no value in '2..3'"). */
    g_autoptr(Sweep) c = sweep_load_string("locks: [tas, ttas]\nseeds: 3\nexclude:\n  - {locks: ttas, seeds: 2..3}\n",
                                           "c.yaml", &e);
    ck_assert_msg(c, "%s", e ? e->message : "");
    ck_assert_uint_eq(c->npoints, 4);
    /* Runs are matched by arithmetic, not made: a million-number range per entry costs nothing. */
    GString *many = g_string_new("locks: [tas, ttas]\nseeds: [2, 500001, 500005, 600001, 999997]\nexclude:\n");
    for (guint i = 0; i < 100; i++)
        g_string_append(many, "  - {locks: ttas, seeds: [0..499999, 500001, 500005, ..., 999997]}\n");
    g_autoptr(Sweep) m = sweep_load_string(many->str, "m.yaml", &e);
    g_string_free(many, TRUE);
    ck_assert_msg(m, "%s", e ? e->message : "");
    ck_assert_uint_eq(m->npoints, 5);   /* every ttas point: 2 in the range, 600001 in the progression */
    g_autoptr(Sweep) q = sweep_load_string("locks: tas\nthreads: [1, 2, 4, ..., 64]\nexclude:\n  - {threads: [2, 4, ..., 16]}\n",
                                           "q.yaml", &e);
    ck_assert_msg(q, "%s", e ? e->message : "");
    ck_assert_uint_eq(q->npoints, 3);   /* 1, 32, 64 */
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
    ck_assert_int_eq(sweep_killed_after(file, cut, 2, 3), SIGKILL);
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
    /* The partial merge is in `merged` now: merging into it again replaces it, so it takes --force. */
    const char *again[] = { "sweep", "--merge", shards[2], shards[0], shards[1], "--out", merged, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim(again, NULL, &err), 2);
    ck_assert_msg(strstr(err, "the folder is not empty"), "%s", err);
    const char *args[] = { "sweep", "--merge", "--force", shards[2], shards[0], shards[1], "--out", merged, NULL };
    g_free(err);
    err = NULL;
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
    /* Each value is fine alone, and the points load; tas declares no spin_count, which only its
     * run finds: that point fails, the other still runs. */
    g_autofree char *file = write_file(dir, "f.yaml", "configs: teaching\nlocks: [adaptive-mutex, tas]\nthreads: 2\n"
                                                      "lock_param.spin_count: 10\niterations: 10\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    ck_assert_int_eq(sweep(file, out, NULL, NULL, &err), 1);
    ck_assert_msg(strstr(err, "point 1 (configs=teaching;locks=tas;threads=2;lock_param.spin_count=10;iterations=10) "
                              "failed"), "%s", err);
    g_autofree char *csv = slurp(out, "results.csv");
    g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
    ck_assert(strstr(lines[1], ",ok,,"));
    ck_assert_msg(g_str_has_prefix(lines[2], "1,teaching,tas,2,10,10,failed,") &&
                  strstr(lines[2], "declares no `.param spin_count`"), "%s", lines[2]);
    rm_rf(dir);
}
END_TEST

/* ---- ranges ---- */

static void check_values(const Sweep *s, guint axis, const char *want)
{
    GString *got = g_string_new(NULL);
    GPtrArray *v = ((SweepAxis *)s->axes->pdata[axis])->values;
    for (guint i = 0; i < v->len; i++)
        g_string_append_printf(got, "%s%s", i ? " " : "", (char *)v->pdata[i]);
    ck_assert_str_eq(got->str, want);
    g_string_free(got, TRUE);
}

START_TEST(test_ranges_expand)
{
    static const struct {
        const char *axis, *want;
    } cases[] = {
        { "threads: 2..5", "2 3 4 5" },
        { "threads: 2..16 step 4", "2 6 10 14" },
        { "threads: 2 .. 8 step 3", "2 5 8" },
        { "threads: [1, 2, 4, ..., 256]", "1 2 4 8 16 32 64 128 256" },
        { "threads: [3, 9, 27, ..., 243]", "3 9 27 81 243" },
        { "threads: [10, 20, ..., 60]", "10 20 30 40 50 60" },
        { "threads: [1, 2, 3, ..., 5]", "1 2 3 4 5" },
        { "threads: [1, 8..10, 16, 32, 64, ..., 256]", "1 8 9 10 16 32 64 128 256" },
        { "seeds: 3..5", "3 4 5" },
        { "seeds: [1, 3, ..., 9]", "1 3 5 7 9" },
        { "core.pause_cycles: [10, 20, 40, ..., 160]", "10 20 40 80 160" },
        { "iterations: 100..300 step 100", "100 200 300" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *text = g_strdup_printf("locks: tas\n%s\n", cases[i].axis);
        g_autoptr(GError) e = NULL;
        g_autoptr(Sweep) s = sweep_load_string(text, "r.yaml", &e);
        ck_assert_msg(s, "%s: %s", cases[i].axis, e ? e->message : "");
        check_values(s, 1, cases[i].want);
    }
    /* Exclude takes ranges too; values a range spans that the axis lacks are fine. */
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string("locks: tas\nthreads: [1, 2, 4, ..., 64]\n"
                                           "exclude:\n  - {threads: 3..16}\n", "x.yaml", &e);
    ck_assert_msg(s, "%s", e ? e->message : "");
    ck_assert_uint_eq(s->npoints, 4);   /* 1, 2, 32, 64 */
    ck_assert_str_eq(sweep_value(s, 2, 1), "32");
}
END_TEST

/* ---- lock files ---- */

static char *lock_file_copy(const char *dir, const char *name)
{
    g_autofree char *src = g_build_filename(test_srcdir(), "locks", "ticket.qs", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(src, &text, NULL, NULL));
    return write_file(dir, name, text);
}

START_TEST(test_lock_files_in_sweeps)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *lock = lock_file_copy(dir, "ticket-pb.qs");
    g_autofree char *sub = g_build_filename(dir, "locks2", NULL);
    ck_assert_int_eq(g_mkdir(sub, 0777), 0);
    g_autofree char *lock2 = lock_file_copy(sub, "other.qs");
    /* Found from the sweep file's folder, whatever the working folder. */
    g_autofree char *file = g_build_filename(dir, "l.yaml", NULL);
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string("locks: [ticket, ticket-pb.qs, locks2/other.qs]\n", file, &e);
    ck_assert_msg(s, "%s", e ? e->message : "");
    ck_assert_uint_eq(s->npoints, 3);
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(s, 0, &o, sets);
    ck_assert_str_eq(o.lock, "ticket");
    ck_assert_ptr_null(o.lock_file);
    run_options_init(&o);
    sweep_point_options(s, 1, &o, sets);
    ck_assert_ptr_null(o.lock);
    ck_assert_str_eq(o.lock_file, lock);
    run_options_init(&o);
    sweep_point_options(s, 2, &o, sets);
    ck_assert_str_eq(o.lock_file, lock2);
    /* `tas.qs` not beside the sweep file is still the built-in. */
    g_autoptr(Sweep) t = sweep_load_string("locks: tas.qs\n", file, &e);
    ck_assert_msg(t, "%s", e ? e->message : "");
    ck_assert_ptr_null(((SweepAxis *)t->axes->pdata[0])->lock_files->pdata[0]);
    /* --lock-file adds to the axis, or makes one. */
    const char *extra[] = { lock, NULL };
    SweepLoadOptions lo = { .lock_files = extra };
    g_autoptr(Sweep) u = sweep_load_string_full("threads: [1, 2]\n", file, &lo, &e);
    ck_assert_msg(u, "%s", e ? e->message : "");
    ck_assert_uint_eq(u->npoints, 2);
    ck_assert_str_eq(sweep_value(u, 0, 1), lock);
    g_autoptr(Sweep) v = sweep_load_string_full("locks: [tas]\n", file, &lo, &e);
    ck_assert(v);
    g_autofree char *both = g_strdup_printf("tas %s", lock);
    check_values(v, 0, both);
    /* A lock file that does not assemble is refused before anything runs, with both places. */
    g_autofree char *broken = write_file(dir, "broken.qs", "lock:\n    frob r1\n");
    g_autoptr(Sweep) w = sweep_load_string("configs: teaching\nlocks: [tas, broken.qs]\n", file, &e);
    ck_assert(!w);
    g_autofree char *want = g_strdup_printf("%s:2:14: locks: %s:2:5:", file, broken);
    ck_assert_msg(g_str_has_prefix(e->message, want), "%s", e->message);

    /* The binary: the points run the files, and the report names them. */
    g_autofree char *sweep_file = write_file(dir, "run.yaml", "configs: teaching\nlocks: [tas, ticket-pb.qs]\n"
                                                              "iterations: 10\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    const char *args[] = { "sweep", sweep_file, "--out", out, "--lock-file", lock2, "-q", NULL };
    ck_assert_msg(run_qsim(args, NULL, &err) == 0, "%s", err);
    g_autofree char *csv = slurp(out, "results.csv");
    g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 3 + 2);
    g_autofree char *row1 = g_strdup_printf("1,teaching,ticket-pb.qs,10,ok,,teaching,x86,%s,", lock);
    ck_assert_msg(g_str_has_prefix(lines[2], row1), "%s", lines[2]);
    g_autofree char *row2 = g_strdup_printf("2,teaching,%s,10,ok,", lock2);
    ck_assert_msg(g_str_has_prefix(lines[3], row2), "%s", lines[3]);
    const char *missing[] = { "sweep", sweep_file, "--out", out, "--lock-file", "no-such.qs", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(missing, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--lock-file no-such.qs: no such file"), "%s", err);
    rm_rf(dir);
}
END_TEST

/* ---- finding sweep files by name ---- */

START_TEST(test_example_sweeps_by_name)
{
    g_autoptr(GError) e = NULL;
    g_autofree char *p = sweep_find_file("pause", &e);
    ck_assert_msg(p, "%s", e ? e->message : "");
    ck_assert_msg(g_str_has_suffix(p, "sweeps/pause.yaml"), "%s", p);
    g_autofree char *q = sweep_find_file("rob.yaml", &e);
    ck_assert(q && g_str_has_suffix(q, "sweeps/rob.yaml"));
    g_autofree char *r = sweep_find_file("paus", &e);
    ck_assert(!r);
    ck_assert_msg(strstr(e->message, "did you mean 'pause'?") && strstr(e->message, "seed-study"), "%s", e->message);
}
END_TEST

START_TEST(test_installed_sweep_found_by_name)
{
    /* An installed layout, out of the source tree: PREFIX/bin/qsim finds
     * PREFIX/share/qsim/sweeps/NAME.yaml by NAME, from any working folder. */
    g_autofree char *dir = tmpdir();
    g_autofree char *bin = g_build_filename(dir, "bin", NULL), *data = g_build_filename(dir, "share", "qsim", "sweeps", NULL);
    ck_assert_int_eq(g_mkdir_with_parents(bin, 0777), 0);
    ck_assert_int_eq(g_mkdir_with_parents(data, 0777), 0);
    const char *built = g_getenv("QSIM_BIN");
    g_autofree char *fallback = g_build_filename(test_srcdir(), "qsim", NULL);
    g_autofree char *cp = g_strdup_printf("cp '%s' '%s/qsim'", built ? built : fallback, bin);
    ck_assert_int_eq(system(cp), 0);
    g_autofree char *tiny = write_file(data, "tiny.yaml", "configs: teaching\nlocks: tas\niterations: 5\n");
    g_autofree char *qsim = g_build_filename(bin, "qsim", NULL), *out = g_build_filename(dir, "o", NULL);
    const char *argv[] = { qsim, "sweep", "tiny", "--out", out, "-q", NULL };
    g_autofree char *err = NULL;
    int status = -1;
    ck_assert(g_spawn_sync("/", (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, NULL));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", err);
    g_autofree char *meta = slurp(out, "sweep.json");
    ck_assert_msg(strstr(meta, "share/qsim/sweeps/tiny.yaml"), "%s", meta);
    rm_rf(dir);
}
END_TEST

/* ---- progress ---- */

START_TEST(test_eta_from_host_time)
{
    /* 4 of 10 points done in 8 host seconds (2 s each), 2 workers, none in flight: 6 points of
     * 2 s over 2 workers. */
    SweepProgress p = { .total = 10, .done = 4, .workers = 2, .elapsed = 4, .done_seconds = 8 };
    ck_assert_double_eq_tol(sweep_eta(&p), 6.0, 1e-9);
    /* Two in flight for 1.5 s each: they need 0.5 s more, four wait: (2 * 0.5 + 4 * 2) / 2. */
    double running[] = { 1.5, 1.5 };
    p.running = running;
    p.nrunning = 2;
    ck_assert_double_eq_tol(sweep_eta(&p), 4.5, 1e-9);
    /* The last point in flight, already past the mean: at least a little more, never 0. */
    SweepProgress tail = { .total = 10, .done = 9, .workers = 4, .done_seconds = 18, .running = (double[]){ 30 },
                           .nrunning = 1 };
    ck_assert_double_eq_tol(sweep_eta(&tail), 0.1, 1e-9);
    /* One long point left behind four workers: its own time, not a quarter of it. */
    SweepProgress last = { .total = 10, .done = 9, .workers = 4, .done_seconds = 90, .running = (double[]){ 2 },
                           .nrunning = 1 };
    ck_assert_double_eq_tol(sweep_eta(&last), 8.0, 1e-9);
    /* Nothing finished: unknown; all finished: nothing left. */
    SweepProgress none = { .total = 10, .workers = 2 };
    ck_assert(sweep_eta(&none) < 0);
    SweepProgress all = { .total = 10, .done = 10, .done_seconds = 5, .workers = 2 };
    ck_assert_double_eq(sweep_eta(&all), 0);
    g_autofree char *text = sweep_progress_text(&p);
    ck_assert_str_eq(text, "4/10 points (40%), 0:04 elapsed, about 0:05 left");
    p.failed = 1;
    p.elapsed = 3725;
    g_autofree char *text2 = sweep_progress_text(&p);
    ck_assert_str_eq(text2, "4/10 points (40%), 1 failed, 1:02:05 elapsed, about 0:05 left");
    g_autofree char *text3 = sweep_progress_text(&none);
    ck_assert_str_eq(text3, "0/10 points (0%), 0:00 elapsed, ? (none finished yet) left");
}
END_TEST

START_TEST(test_progress_lines_are_rate_limited)
{
    /* Points of 12: a line at each new tenth (2, 3, 4, 5, 6, 8, 9, 10, 11, 12 done), not at 1 or 7. */
    SweepProgressMark last = { 0, 0 };
    SweepProgress p = { .total = 12, .workers = 2 };
    guint lines = 0;
    GString *at = g_string_new(NULL);
    for (guint d = 1; d <= 12; d++) {
        p.done = d;
        p.elapsed = d;   /* a second a point: well inside the interval */
        if (sweep_progress_due(&p, &last)) {
            lines++;
            g_string_append_printf(at, "%u ", d);
            last = (SweepProgressMark){ p.done, p.elapsed };
        }
    }
    ck_assert_str_eq(at->str, "2 3 4 5 6 8 9 10 11 12 ");
    ck_assert_uint_eq(lines, 10);
    g_string_free(at, TRUE);
    /* A long point: a line once the interval passed, with nothing finished. */
    SweepProgress slow = { .total = 1000, .done = 3, .elapsed = 100 };
    SweepProgressMark m = { 3, 100 - SWEEP_PROGRESS_INTERVAL + 1 };
    ck_assert(!sweep_progress_due(&slow, &m));
    m.at = 100 - SWEEP_PROGRESS_INTERVAL;
    ck_assert(sweep_progress_due(&slow, &m));
    /* The end is written once. */
    SweepProgress end = { .total = 5, .done = 5, .elapsed = 1 };
    SweepProgressMark before = { 4, 1 }, after = { 5, 1 };
    ck_assert(sweep_progress_due(&end, &before));
    ck_assert(!sweep_progress_due(&end, &after));
}
END_TEST

START_TEST(test_run_order_is_a_fixed_shuffle)
{
    g_autoptr(GArray) a = g_array_new(FALSE, FALSE, sizeof(guint)), b = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint i = 0; i < 100; i++) {
        g_array_append_val(a, i);
        g_array_append_val(b, i);
    }
    sweep_run_order(a);
    sweep_run_order(b);
    ck_assert(!memcmp(a->data, b->data, 100 * sizeof(guint)));   /* the same every time */
    gboolean seen[100] = { FALSE };
    guint moved = 0, late = 0;
    for (guint i = 0; i < 100; i++) {
        guint p = g_array_index(a, guint, i);
        ck_assert_uint_lt(p, 100);
        ck_assert(!seen[p]);
        seen[p] = TRUE;
        moved += p != i;
        late += i < 20 && p >= 50;   /* the first fifth to run reaches into the second half */
    }
    ck_assert_uint_gt(moved, 80);
    ck_assert_uint_gt(late, 4);
}
END_TEST

START_TEST(test_progress_and_host_times)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *text = small_sweep_text();
    g_autofree char *file = write_file(dir, "small.yaml", text);
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    guint n = small_sweep_points();
    /* stderr is a pipe here, as in a batch job: lines, each ending in a newline, the last the end. */
    g_autofree char *err = NULL, *stdout_text = NULL;
    const char *args[] = { "sweep", file, "--out", out, "-j", "2", NULL };
    ck_assert_int_eq(run_qsim(args, &stdout_text, &err), 0);
    g_autofree char *start = g_strdup_printf("qsim sweep: %u points to run on 2 workers\n", n);
    ck_assert_msg(g_str_has_prefix(err, start), "%s", err);
    g_autofree char *end = g_strdup_printf("qsim sweep: %u/%u points (100%%), ", n, n);
    ck_assert_msg(strstr(err, end), "%s", err);
    ck_assert_msg(!strchr(err, '\r'), "a terminal's line in a log: %s", err);
    g_auto(GStrv) lines = g_strsplit(err, "\n", -1);
    ck_assert_uint_le(g_strv_length(lines), 1 + 10 + 1 + 1);   /* start, tenths, maybe a timed one, "" */
    ck_assert_msg(strstr(stdout_text, "host time "), "%s", stdout_text);
    /* Host time per point, beside the results (which stay free of it). */
    g_autofree char *times = slurp(out, SWEEP_HOST_TIMES);
    g_auto(GStrv) tl = g_strsplit(times, "\n", -1);
    ck_assert_uint_eq(g_strv_length(tl), n + 1);
    for (guint i = 0; i < n; i++) {
        g_autofree char *head = g_strdup_printf("{\"point\":%u,\"key\":\"configs=teaching;", i);
        ck_assert_msg(g_str_has_prefix(tl[i], head), "%s", tl[i]);
        ck_assert_msg(strstr(tl[i], "\"host_seconds\":"), "%s", tl[i]);
    }
    g_autofree char *csv = slurp(out, "results.csv");
    ck_assert(!strstr(csv, "host_seconds"));
    /* --quiet: nothing on stderr. */
    g_autofree char *out2 = g_build_filename(dir, "q", NULL);
    const char *quiet[] = { "sweep", file, "--out", out2, "-q", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(quiet, NULL, &err), 0);
    ck_assert_str_eq(err, "");
    rm_rf(dir);
}
END_TEST

/* ---- plots ---- */

START_TEST(test_plot_styles_do_not_repeat)
{
    for (guint i = 0; i < SWEEP_PLOT_STYLES; i++)
        for (guint j = 0; j < i; j++) {
            SweepPlotStyle a = sweep_plot_style(i), b = sweep_plot_style(j);
            ck_assert_msg(strcmp(a.colour, b.colour) || a.dash != b.dash, "lines %u and %u look alike", i, j);
            if (i < SWEEP_PLOT_COLOURS)
                ck_assert_msg(strcmp(a.colour, b.colour), "lines %u and %u share a colour", i, j);
        }
    ck_assert_uint_ge(SWEEP_PLOT_COLOURS, 12);
}
END_TEST

static gboolean file_starts_with(const char *dir, const char *name, const char *magic, gsize n)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    g_autofree char *text = NULL;
    gsize len = 0;
    return g_file_get_contents(p, &text, &len, NULL) && len > 100 && !memcmp(text, magic, n);
}

/* A plot test without gnuplot: skipped (failed under CI=true, where deps.sh installs it). */
static gboolean gnuplot_missing(const char *test)
{
    g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
    if (!gnuplot)
        qsim_test_skip_or_fail(test, "gnuplot is not installed: the plot is not checked");
    return !gnuplot;
}

/* Seeds with noise: --aggregate writes one row per point over the seeds with mean and
 * interval, and the plot draws the interval as error bars. */
START_TEST(test_aggregate_over_seeds)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "seeds.yaml",
        "configs: [teaching]\nlocks: [tas, ticket]\nthreads: [2]\niterations: [30]\njitter: [30]\nseeds: 1..4\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    gboolean plot = !gnuplot_missing("sweep/test_aggregate_over_seeds");
    ck_assert_msg(sweep(file, out, plot ? "--plot" : "-q", "--aggregate", &err) == 0, "%s", err);
    g_autofree char *agg = slurp(out, "aggregate.csv");
    g_auto(GStrv) lines = g_strsplit(agg, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 4); /* header, two locks, the empty tail */
    ck_assert_msg(g_str_has_prefix(lines[0], "configs,locks,threads,iterations,jitter,seeds,cycles.mean,cycles.sd,"
                                             "cycles.ci95_low,cycles.ci95_high,"), "%s", lines[0]);
    ck_assert_msg(g_str_has_prefix(lines[1], "teaching,tas,2,30,30,4,"), "%s", lines[1]);
    /* the interval holds the mean */
    g_auto(GStrv) f = g_strsplit(lines[1], ",", -1);
    double mean = g_ascii_strtod(f[6], NULL), lo = g_ascii_strtod(f[8], NULL), hi = g_ascii_strtod(f[9], NULL);
    ck_assert(lo <= mean && mean <= hi && lo < hi);
    if (plot) {
        g_autofree char *gp = slurp(out, "plot.gp");
        ck_assert_msg(strstr(gp, "using 1:2:3:4 with yerrorlines"), "%s", gp);
        g_autofree char *dat = slurp(out, "plot-teaching.dat");
        ck_assert_msg(strstr(dat, "95% interval"), "%s", dat);
    }
}
END_TEST

START_TEST(test_plot_makes_images)
{
    if (gnuplot_missing("sweep/test_plot_makes_images"))
        return;
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
    /* one legend, on the first panel: this sweep has one panel, so no key is taken away */
    ck_assert_msg(!strstr(gp, "unset key"), "%s", gp);
    /* two locks: their ratio against x too, a line per config, with a line at 1 */
    ck_assert(file_starts_with(out, "plot-ratio.png", "\x89PNG", 4));
    g_autofree char *rgp = slurp(out, "plot-ratio.gp");
    ck_assert_msg(strstr(rgp, "ttas over tas against threads") || strstr(rgp, "tas over ttas against threads"), "%s",
                  rgp);
    ck_assert(strstr(rgp, "first 1 to graph 1, first 1 nohead"));
    /* in time at the config's clock; only what is in cycles turns into time */
    const char *ns[] = { "sweep", "--merge", out, "--out", out, "--plot-unit", "ns", NULL };
    ck_assert_int_eq(run_qsim(ns, NULL, NULL), 0);
    g_free(gp);
    gp = slurp(out, "plot.gp");
    ck_assert_msg(strstr(gp, "set ylabel \"time per acquisition (ns)\""), "%s", gp);
    const char *ns_bad[] = { "sweep", "--merge", out, "--out", out, "--plot-unit", "ns", "--plot-y", "l1_hit_rate", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(ns_bad, NULL, &err), 2);
    ck_assert_msg(strstr(err, "--plot-unit ns: l1_hit_rate is in share, not cycles"), "%s", err);
    /* Another metric; a wrong one is named. */
    const char *args[] = { "sweep", "--merge", out, "--out", out, "--plot-y", "coherence.rfo", NULL };
    ck_assert_int_eq(run_qsim(args, NULL, NULL), 0);
    g_free(gp);
    gp = slurp(out, "plot.gp");
    /* the key in words, with its unit from docs/report.md */
    ck_assert_msg(strstr(gp, "set ylabel \"coherence rfo (requests)\""), "%s", gp);
    const char *bad[] = { "sweep", "--merge", out, "--out", out, "--plot-y", "cycles_per_acquisiton", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(bad, NULL, &err), 2);
    ck_assert_msg(strstr(err, "did you mean 'cycles_per_acquisition'"), "%s", err);
    rm_rf(dir);
}
END_TEST

START_TEST(test_plot_layout_and_scales)
{
    if (gnuplot_missing("sweep/test_plot_layout_and_scales"))
        return;
    /* Two panels, twelve lines, a doubling x. */
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "p.yaml", "configs: [teaching, haswell]\nlocks: [tas, ttas, ticket]\n"
                                                      "cs_work: [0, 5, 10, 20]\nthreads: [1, 2]\niterations: 5\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL, *stdout_text = NULL;
    const char *args[] = { "sweep", file, "--out", out, "--plot", "-q", NULL };
    ck_assert_msg(run_qsim(args, &stdout_text, &err) == 0, "%s", err);
    g_autofree char *paths = g_strdup_printf("plots in %s/plot.png and %s/plot.svg", out, out);
    ck_assert_msg(strstr(stdout_text, paths), "%s", stdout_text);
    g_autofree char *gp = slurp(out, "plot.gp");
    /* The key outside the plot, on the first panel only; a style per line, the same in both panels. */
    ck_assert(strstr(gp, "set key outside right"));
    const char *unset = strstr(gp, "unset key");
    ck_assert_msg(unset && !strstr(unset + 1, "unset key") && unset > strstr(gp, "set title \"haswell\""), "%s", gp);
    for (guint i = 0; i < 12; i++) {
        SweepPlotStyle st = sweep_plot_style(i);
        g_autofree char *lt = g_strdup_printf("set linetype %u lc rgb \"%s\" dt %u pt %u", i + 1, st.colour, st.dash,
                                              st.point);
        ck_assert_msg(strstr(gp, lt), "no `%s` in\n%s", lt, gp);
    }
    ck_assert_msg(strstr(gp, "index 11 using 1:2 with linespoints lt 12 title \"ticket cs_work=20\""), "%s", gp);
    /* One y range for both panels, from the data. */
    ck_assert_msg(strstr(gp, "set yrange ["), "%s", gp);
    ck_assert(!strstr(gp, "set logscale"));
    const char *indep[] = { "sweep", "--merge", out, "--out", out, "--plot-scale", "independent", NULL };
    ck_assert_int_eq(run_qsim(indep, NULL, NULL), 0);
    g_free(gp);
    gp = slurp(out, "plot.gp");
    ck_assert(!strstr(gp, "set yrange"));
    const char *bad[] = { "sweep", "--merge", out, "--out", out, "--plot-scale", "same", NULL };
    ck_assert_int_eq(run_qsim(bad, NULL, NULL), 2);

    /* A doubling x reads on a log scale. */
    g_autofree char *file2 = write_file(dir, "d.yaml", "configs: haswell\nlocks: tas\nthreads: [1, 2, 4, ..., 16]\n"
                                                       "iterations: 3\n");
    g_autofree char *out2 = g_build_filename(dir, "d", NULL);
    const char *dbl[] = { "sweep", file2, "--out", out2, "--plot", "-q", NULL };
    ck_assert_int_eq(run_qsim(dbl, NULL, NULL), 0);
    g_autofree char *gp2 = slurp(out2, "plot.gp");
    ck_assert_msg(strstr(gp2, "set logscale x 2\n"), "%s", gp2);
    rm_rf(dir);
}
END_TEST

/* Each data line's y, "x y" pairs of a plot-*.dat file, in order. */
static char *dat_points(const char *dat)
{
    GString *s = g_string_new(NULL);
    g_auto(GStrv) lines = g_strsplit(dat, "\n", -1);
    for (guint i = 0; lines[i]; i++) {
        if (!*lines[i] || lines[i][0] == '#')
            continue;
        g_auto(GStrv) f = g_strsplit(lines[i], " ", 3);
        g_string_append_printf(s, "%s %s;", f[0], f[1]);
    }
    return g_string_free(s, FALSE);
}

START_TEST(test_merge_plots_what_the_sweep_asked)
{
    if (gnuplot_missing("sweep/test_merge_plots_what_the_sweep_asked"))
        return;
    /* plot_x and a per-acquisition plot_y in the file; the shards know them, and so the merge. */
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "m.yaml", "configs: teaching\nlocks: tas\nthreads: 2\n"
                                                      "iterations: [10, 20]\nplot_x: iterations\n"
                                                      "plot_y: coherence.lock_line.rfo/acquisitions\n");
    g_autofree char *s1 = g_build_filename(dir, "s1", NULL), *s2 = g_build_filename(dir, "s2", NULL);
    g_autofree char *m = g_build_filename(dir, "m", NULL);
    ck_assert_int_eq(sweep(file, s1, "--shard", "1/2", NULL), 0);
    ck_assert_int_eq(sweep(file, s2, "--shard", "2/2", NULL), 0);
    const char *args[] = { "sweep", "--merge", s1, s2, "--out", m, "--plot", NULL };
    g_autofree char *stdout_text = NULL, *err = NULL;
    ck_assert_msg(run_qsim(args, &stdout_text, &err) == 0, "%s", err);
    g_autofree char *paths = g_strdup_printf("plots in %s/plot.png and %s/plot.svg", m, m);
    ck_assert_msg(strstr(stdout_text, paths), "%s", stdout_text);
    g_autofree char *gp = slurp(m, "plot.gp");
    ck_assert_msg(strstr(gp, "set xlabel \"iterations\""), "%s", gp);
    ck_assert_msg(strstr(gp, "set ylabel \"coherence lock line rfo per acquisition (requests)\""), "%s", gp);
    /* what every point shared is in the title */
    ck_assert_msg(strstr(gp, "every point: configs teaching, locks tas, threads 2"), "%s", gp);
    /* The values: each point's RFOs over its acquisitions, from the results. */
    g_autofree char *jl = slurp(m, "results.jsonl");
    g_auto(GStrv) rows = g_strsplit(jl, "\n", -1);
    GString *want = g_string_new(NULL);
    for (guint i = 0; i < 2; i++) {
        g_autoptr(JsonParser) jp = json_parser_new();
        ck_assert(json_parser_load_from_data(jp, rows[i], -1, NULL));
        JsonObject *r = json_object_get_object_member(json_node_get_object(json_parser_get_root(jp)), "report");
        gint64 rfo = json_object_get_int_member(
            json_object_get_object_member(json_object_get_object_member(r, "coherence"), "lock_line"), "rfo");
        gint64 acq = json_object_get_int_member(r, "acquisitions");
        char yb[G_ASCII_DTOSTR_BUF_SIZE];
        g_string_append_printf(want, "%s %s;", i ? "20" : "10", g_ascii_formatd(yb, sizeof yb, "%.6g", (double)rfo / acq));
    }
    g_autofree char *dat = slurp(m, "plot-teaching.dat");
    g_autofree char *got = dat_points(dat);
    ck_assert_str_eq(got, want->str);
    g_string_free(want, TRUE);
    /* Host times are merged too. */
    g_autofree char *times = slurp(m, SWEEP_HOST_TIMES);
    ck_assert(g_str_has_prefix(times, "{\"point\":0,") && strstr(times, "\n{\"point\":1,"));
    /* A ratio over a key that is not there is named. */
    const char *bad[] = { "sweep", "--merge", m, "--out", m, "--plot-y", "coherence.lock_line.rfo/acquisition", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(bad, NULL, &err), 2);
    ck_assert_msg(strstr(err, "acquisition is not a numeric report key; did you mean 'acquisitions'?"), "%s", err);
    rm_rf(dir);
}
END_TEST

START_TEST(test_example_sweeps_load)
{
    const char *names[] = { "seed-study", "pause", "rob", "protocol", "adaptive-mutex" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *p = g_strdup_printf("%s/sweeps/%s.yaml", test_srcdir(), names[i]);
        g_autoptr(GError) e = NULL;
        g_autoptr(Sweep) s = sweep_load(p, NULL, &e);
        ck_assert_msg(s, "%s", e ? e->message : "");
        ck_assert_uint_gt(s->npoints, 1);
    }
}
END_TEST

/* A failed append names its file (it said "writing results" on a full disk). */
START_TEST(test_append_names_the_file)
{
    FILE *f = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(f);
    g_autoptr(GError) e = NULL;
    ck_assert(!sweep_append_line(f, "/dev/full", "{\"point\":0}", &e));
    ck_assert_str_eq(e->message, "/dev/full: No space left on device");
    fclose(f);
}
END_TEST

/* More exclude entries than the limit: each point is checked against every one. */
START_TEST(test_exclude_limit)
{
    GString *s = g_string_new("locks: tas\nseeds: 1..200\nexclude:\n");
    for (guint i = 1; i <= 101; i++)
        g_string_append_printf(s, "  - {seeds: %u}\n", i);
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) sw = sweep_load_string(s->str, "bad.yaml", &e);
    g_string_free(s, TRUE);
    ck_assert_ptr_null(sw);
    ck_assert_str_eq(e->message, "bad.yaml:104:5: exclude: more than 100 entries (every point is checked against "
                                 "each: split the sweep instead)");
}
END_TEST

Suite *make_sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, test_point_order_follows_axes);
    tcase_add_test(tc, test_exclude_removes_points);
    tcase_add_test(tc, test_lock_param_axis);
    tcase_add_test(tc, test_append_names_the_file);
    tcase_add_test(tc, test_exclude_limit);
    tcase_add_test(tc, test_example_sweeps_load);
    tcase_add_test(tc, test_ranges_expand);
    tcase_add_test(tc, test_example_sweeps_by_name);
    tcase_add_test(tc, test_eta_from_host_time);
    tcase_add_test(tc, test_progress_lines_are_rate_limited);
    tcase_add_test(tc, test_run_order_is_a_fixed_shuffle);
    tcase_add_test(tc, test_plot_styles_do_not_repeat);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_add_test(tc, test_jobs_do_not_change_results);
    tcase_add_test(tc, test_resume_after_kill);
    tcase_add_test(tc, test_shards_merge_to_the_whole);
    tcase_add_test(tc, test_failed_point_is_recorded);
    tcase_add_test(tc, test_plot_makes_images);
    tcase_add_test(tc, test_aggregate_over_seeds);
    tcase_add_test(tc, test_lock_files_in_sweeps);
    tcase_add_test(tc, test_installed_sweep_found_by_name);
    tcase_add_test(tc, test_progress_and_host_times);
    tcase_add_test(tc, test_plot_layout_and_scales);
    tcase_add_test(tc, test_merge_plots_what_the_sweep_asked);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
