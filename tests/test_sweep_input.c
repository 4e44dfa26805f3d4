/* Bad input to sweeps, on the built binary: sweep files refused as they are loaded (FILE:L:C,
 * exit 2, nothing run), and results folders that are not what qsim wrote, refused by --merge
 * and --resume with the file, line and member (exit 2). */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

/* ---- sweep files ---- */

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
    { "range not numbers", "locks: tas\nthreads: 2..x\n", "bad.yaml:2:10: threads: '2..x': a range is A..B or A..B step C" },
    { "range backwards", "locks: tas\nthreads: 16..2\n", "bad.yaml:2:10: threads: '16..2': the range ends (2) below where it starts" },
    { "range step 0", "locks: tas\nthreads: 2..4 step 0\n", "the step must be at least 1" },
    { "range bad step word", "locks: tas\nthreads: 2..4 by 2\n", "a range is A..B or A..B step C" },
    { "range out of bounds", "locks: tas\nthreads: 4000..5000 step 500\n", "bad.yaml:2:10: threads 4500: out of range [1, 4096]" },
    { "range on names", "locks: tas\ndata: 1..2\n", "bad.yaml:2:7: data: '1..2': ranges are for axes of whole numbers" },
    { "range repeats a value", "locks: tas\nthreads: [1..3, 3]\n", "bad.yaml:2:17: threads: value '3' given twice" },
    { "progression misses its end", "locks: tas\nthreads: [1, 2, 4, ..., 100]\n",
      "bad.yaml:2:20: threads: 100 is not in the progression (it goes 64, 128)" },
    { "progression of one", "locks: tas\nthreads: [1, ..., 8]\n", "`...` needs two or three numbers before it" },
    { "progression unclear", "locks: tas\nthreads: [1, 2, 5, ..., 8]\n", "neither a constant step nor a constant ratio" },
    { "progression going nowhere", "locks: tas\nthreads: [1, 2, 4, ..., 4]\n", "bad.yaml:2:20: threads: `...` must be followed by a value past 4" },
    { "progression without end", "locks: tas\nthreads: [1, 2, ...]\n", "`...` must be followed by the last value" },
    { "exclude range matching nothing", "locks: tas\nthreads: [1, 2]\nexclude:\n  - {threads: 5..9}\n",
      "bad.yaml:4:15: exclude: threads has no value in '5..9'" },
    { "missing lock file", "locks: [tas, mine.qs]\n", "bad.yaml:1:14: locks: no lock file " },
    { "bad plot scale", "locks: tas\nplot_scale: same\n", "bad.yaml:2:13: plot scale 'same': one of shared" },
    { "lock parameter value", "locks: adaptive-mutex\nlock_param.spin_count: [10, lots]\n",
      "bad.yaml:2:29: lock_param.spin_count: expected a whole number, got 'lots'" },
    { "lock parameter name", "locks: adaptive-mutex\nlock_param.: 1\n",
      "bad.yaml:2:1: lock_param.: a lock parameter axis is lock_param.NAME" },
    /* issue 18: limits and YAML */
    { "a second document", "locks: tas\n---\nlocks: ttas\n", "bad.yaml:2:1: a second YAML document (a sweep file is one document" },
    { "nested too deep", "locks: " "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[" "\n", "bad.yaml:1:39: nested deeper than 32 levels" },
    { "a leading zero", "locks: tas\nthreads: [01, 2]\n", "bad.yaml:2:11: threads 01: a number with a leading zero" },
    { "ranges past the limit", "locks: tas\nseeds: [0..999999, 1000000..1999999]\n",
      "bad.yaml:2:20: seeds: more than 1000000 values" },
    /* issue 29 item 14: a progression's length is counted before a value is made */
    { "a progression past the limit", "locks: tas\nthreads: [1000, 1001, ..., 1002000]\n",
      "bad.yaml:2:23: threads: `...` up to 1002000 would give the axis 1001001 values, more than the 1000000 an axis "
      "may have" },
    { "a progression to 1e12", "locks: tas\nseeds: [1000, 1001, ..., 1000000000000]\n",
      "bad.yaml:2:21: seeds: `...` up to 1000000000000 would give the axis 999999999001 values" },
    { "a progression past 2^64", "locks: tas\nseeds: [2, 4, 8, ..., 18446744073709551615]\n",
      "bad.yaml:2:18: seeds: 18446744073709551615 is not in the progression (it goes 9223372036854775808, a number "
      "past 2^64)" },
    /* item 18: points whose values do not go together, refused before any runs */
    { "ways that do not divide the size", "configs: teaching\nlocks: tas\nl1.ways: [8, 3]\n",
      "bad.yaml:3:14: l1.ways: point 1 (configs=teaching;locks=tas;l1.ways=3) cannot run: l1.size: must be a "
      "multiple of ways x line_size (192 bytes) (leave such points out with `exclude`)" },
    { "mesif on a bus", "configs: [teaching, teaching-bus]\nlocks: tas\nprotocol: [mesi, mesif]\n",
      "bad.yaml:3:18: protocol: point 3 (configs=teaching-bus;locks=tas;protocol=mesif) cannot run: protocol: the "
      "bus runs msi or mesi" },
    { "a key against the config's", "configs: teaching\nlocks: tas\nl1.latency: [2, 150]\n",
      "bad.yaml:3:17: l1.latency: point 1 (configs=teaching;locks=tas;l1.latency=150) cannot run: llc.latency: must "
      "exceed the private caches' latency" },
    { "more readers than threads", "configs: teaching\nlocks: qrwlock\nthreads: [2, 4]\nreaders: [1, 3]\n",
      "bad.yaml:4:14: readers: point 1 (configs=teaching;locks=qrwlock;threads=2;readers=3) cannot run: readers 3: "
      "more readers than threads (2)" },
    { "a fixed-time option without a duration", "locks: tas\nwarmup: [0, 100]\n",
      "bad.yaml:2:13: warmup: point 1 (locks=tas;warmup=100) cannot run: warmup 100: only for a fixed-time run" },
    /* issue 45 item 8: a CPU list past the machine, on the config with the point's keys set */
    { "a CPU the machine lacks", "configs: teaching\nlocks: tas\nplacement: [\"cpus:0,1,2\"]\n",
      "bad.yaml:3:13: placement: point 0 (configs=teaching;locks=tas;placement=cpus:0,1,2) cannot run: placement "
      "cpus:0,1,2: CPU 2 is not one of machine teaching's 2 logical CPUs" },
    { "a CPU the point's topology lacks", "configs: teaching\nlocks: tas\ntopology.cores_per_socket: [4, 2]\n"
      "placement: [fill, \"cpus:3\"]\n",
      "bad.yaml:4:19: placement: point 3 (configs=teaching;locks=tas;topology.cores_per_socket=2;placement=cpus:3) "
      "cannot run: placement cpus:3: CPU 3 is not one of machine teaching's 2 logical CPUs" },
    { "a device as a lock file", "locks: /dev/zero\n",
      "bad.yaml:1:8: locks: /dev/zero: not a regular file (a character device); a lock source must be a file" },
};

START_TEST(test_bad_sweep_files)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "bad.yaml", bad_cases[_i].text);
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    const char *args[] = { "sweep", file, "--out", out, NULL };
    int rc = run_qsim(args, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d", bad_cases[_i].title, rc);
    ck_assert_msg(strstr(err, bad_cases[_i].want), "%s: want '%s' in:\n%s", bad_cases[_i].title, bad_cases[_i].want,
                  err);
    ck_assert_msg(!g_file_test(out, G_FILE_TEST_EXISTS), "%s: ran anyway", bad_cases[_i].title);
    rm_rf(dir);
}
END_TEST

/* docs/sweeps.md's example file, with the three mistakes its error listing shows, gives those
 * messages word for word (the listing's first three lines). */
START_TEST(test_docs_example_errors)
{
    g_autofree char *page = slurp(test_srcdir(), "docs/sweeps.md");
    ck_assert_ptr_nonnull(page);
    const char *start = strstr(page, "# my-sweep.yaml");
    ck_assert_msg(start, "docs/sweeps.md: no my-sweep.yaml example");
    const char *end = strstr(start, "```");
    ck_assert_ptr_nonnull(end);
    g_autofree char *example = g_strndup(start, end - start);
    static const struct { const char *from, *to; } mistakes[] = {
        { "core.pause_cycles:", "core.pause_cycle:" },
        { "[10, 20, 40", "[-5, 20, 40" },
        { "threads: [2,", "threads: [0," },
    };
    g_autofree char *dir = tmpdir();
    for (guint m = 0; m < G_N_ELEMENTS(mistakes); m++) {
        g_autoptr(GString) text = g_string_new(example);
        ck_assert_msg(g_string_replace(text, mistakes[m].from, mistakes[m].to, 1) == 1, "example lacks '%s'",
                      mistakes[m].from);
        g_autofree char *file = write_file(dir, "my-sweep.yaml", text->str);
        g_autofree char *out = g_build_filename(dir, "o", NULL);
        const char *args[] = { "sweep", file, "--out", out, NULL };
        g_autofree char *err = NULL;
        ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
        /* "qsim: /tmp/.../my-sweep.yaml:5:1: ...": the doc shows it from the file's name on */
        const char *line = strstr(g_strchomp(err), "my-sweep.yaml:");
        ck_assert_msg(line && strstr(page, line), "docs/sweeps.md does not show: %s", err);
    }
    rm_rf(dir);
}
END_TEST

/* A plot that cannot be drawn is refused before any point runs (it used to be found only after
 * the last one). */
static const struct {
    const char *title, *text;
    const char *opt, *value, *want;
} plot_cases[] = {
    { "misspelt --plot-y", "configs: teaching\nlocks: tas\nthreads: [1, 2]\n", "--plot-y", "cycles_per_acquisiton",
      "--plot-y cycles_per_acquisiton: not a numeric report key; did you mean 'cycles_per_acquisition'?" },
    { "misspelt denominator", "configs: teaching\nlocks: tas\nthreads: [1, 2]\n", "--plot-y",
      "coherence.lock_line.rfo/acquistions", "acquistions is not a numeric report key; did you mean 'acquisitions'?" },
    { "a name, not a number", "configs: teaching\nlocks: tas\nthreads: [1, 2]\n", "--plot-y", "lock",
      "--plot-y lock: not a numeric report key" },
    { "x not an axis", "configs: teaching\nlocks: tas\nthreads: [1, 2]\n", "--plot-x", "data",
      "--plot-x data: the sweep has no `data` axis" },
    { "the file's plot_y", "configs: teaching\nlocks: tas\nthreads: [1, 2]\nplot_y: cycles_per_acq\n", NULL, NULL,
      "--plot-y cycles_per_acq: not a numeric report key" },
};

START_TEST(test_plot_checked_first)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "p.yaml", plot_cases[_i].text);
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    g_autofree char *err = NULL;
    const char *args[] = { "sweep", file, "--out", out, plot_cases[_i].opt, plot_cases[_i].value, NULL };
    int rc = run_qsim(args, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", plot_cases[_i].title, rc, err);
    ck_assert_msg(strstr(err, plot_cases[_i].want), "%s: want '%s' in:\n%s", plot_cases[_i].title,
                  plot_cases[_i].want, err);
    ck_assert_msg(!g_file_test(out, G_FILE_TEST_EXISTS), "%s: ran anyway", plot_cases[_i].title);
    rm_rf(dir);
}
END_TEST

/* ---- results folders ---- */

/* Two points: row 1 of results.jsonl is point 0 (threads=1), row 2 point 1 (threads=2). */
static const char folder_sweep[] = "configs: teaching\nlocks: tas\nthreads: [1, 2]\niterations: 10\n";

/* What `with` may hold besides text. */
#define DEEP "<100000 [>"
#define NUL "<a NUL byte>"

/* Damage done to a file of a finished folder: `find` replaced by `with` (the first one), or
 * `with` appended when `find` is NULL; `want` is what the merge (and, with `resume`, --resume,
 * which reads the rows and host times but writes sweep.json) says after "qsim: DIR/FILE:". */
static const struct {
    const char *title, *file, *find, *with, *want;
    gboolean resume;
} folder_cases[] = {
    /* issue 29 item 3: nesting */
    { "a deep line", "results.jsonl", NULL, DEEP "\n", "results.jsonl:3:33: nested deeper than 32 levels", TRUE },
    { "deep in sweep.json", "sweep.json", "\"plot\":{}", "\"plot\":" DEEP, "nested deeper than 32 levels", FALSE },
    /* item 10: rows */
    { "a NUL byte", "results.jsonl", "\"status\"", "\"st" NUL "atus\"", "results.jsonl:1:", TRUE },
    { "a row that is no JSON", "results.jsonl", "\"status\":\"ok\"", "\"status\":ok", "results.jsonl:1:", TRUE },
    { "a point as text", "results.jsonl", "\"point\":0", "\"point\":\"0\"",
      "results.jsonl:1:2: point: expected a point index, 0 to 999999", TRUE },
    { "a negative point", "results.jsonl", "\"point\":0", "\"point\":-1",
      "results.jsonl:1:2: point: expected a point index, 0 to 999999", TRUE },
    { "a key its axes do not spell", "results.jsonl", "\"key\":\"configs=teaching;locks=tas;threads=1",
      "\"key\":\"configs=teaching;locks=tas;threads=2",
      "results.jsonl:1:12: key: `configs=teaching;locks=tas;threads=2;iterations=10` is not the point the row's "
      "axes name (`configs=teaching;locks=tas;threads=1;iterations=10`)", TRUE },
    { "a key not of its point index", "results.jsonl", "{\"point\":0,", "{\"point\":1,",
      "results.jsonl:1:12: key: `configs=teaching;locks=tas;threads=1;iterations=10` is not point 1, which is "
      "`configs=teaching;locks=tas;threads=2;iterations=10`", FALSE },
    { "a point outside the sweep", "results.jsonl", "{\"point\":1,", "{\"point\":7,",
      "results.jsonl:2:2: point: 7 is outside the sweep's 2 points", FALSE },
    { "a bad status", "results.jsonl", "\"status\":\"ok\"", "\"status\":\"fine\"",
      "status: expected \"ok\" or \"failed\"", TRUE },
    { "a failure of an ok point", "results.jsonl", "\"failure\":null", "\"failure\":3",
      "failure: expected null (the point ran)", TRUE },
    { "a report that is no object", "results.jsonl", "\"report\":{", "\"report\":7,\"x\":{",
      "report: expected the run's report (an object)", TRUE },
    { "an axis value that is no text", "results.jsonl", "\"axes\":{\"configs\":\"teaching\"", "\"axes\":{\"configs\":1",
      "results.jsonl:1:71: axes: expected the point's value of each axis (an object of texts)", TRUE },
    { "negative host seconds", "host-times.jsonl", "\"host_seconds\":", "\"host_seconds\":-",
      "host-times.jsonl:1:71: host_seconds: expected the point's host seconds (a number, 0 or more)", TRUE },
    { "a host time of another point", "host-times.jsonl", "threads=1", "threads=2",
      "host-times.jsonl:1:12: key: `configs=teaching;locks=tas;threads=2;iterations=10` is not point 0", TRUE },
    /* item 10: sweep.json */
    { "a negative point count", "sweep.json", "\"points\":2", "\"points\":-4",
      "sweep.json:1:83: points: expected a point count, 1 to 1000000, got -4", FALSE },
    { "a point count the axes do not make", "sweep.json", "\"points\":2", "\"points\":3",
      "sweep.json:1:83: points: 3, but the axes and excludes make 2 points", FALSE },
    { "a fingerprint that is none", "sweep.json", "\"fingerprint\":\"", "\"fingerprint\":\"x",
      "sweep.json:1:2: fingerprint: expected 64 hexadecimal digits", FALSE },
    { "axes that make another fingerprint", "sweep.json", "[\"1\",\"2\"]", "[\"1\",\"3\"]",
      "sweep.json:1:2: fingerprint: not the fingerprint of the points the axes and excludes make", FALSE },
    { "a shard past the count", "sweep.json", "\"shard\":\"1/1\"", "\"shard\":\"2/1\"",
      "shard: expected I/N with 1 <= I <= N", FALSE },
    { "a plot scale", "sweep.json", "\"plot\":{}", "\"plot\":{\"scale\":\"big\"}",
      "plot: scale: expected shared or independent", FALSE },
    { "no axes", "sweep.json", "\"axes\":", "\"axez\":", "sweep.json:1:1: axes: missing", FALSE },
    { "an unknown axis", "sweep.json", "{\"name\":\"threads\"", "{\"name\":\"thread\"",
      "axes: entry 3: expected {\"name\": NAME, \"values\": [...]}", FALSE },
    { "an exclude of no value", "sweep.json", "\"exclude\":[]", "\"exclude\":[[{\"axis\":\"threads\",\"values\":[\"7\"]}]]",
      "exclude: entry 1, term 1: 7 is not a value of threads", FALSE },
    { "an exclude the count leaves out", "sweep.json", "\"exclude\":[]",
      "\"exclude\":[[{\"axis\":\"threads\",\"values\":[\"2\"]}]]", "points: 2, but the axes and excludes make 1 point",
      FALSE },
    { "sweep.json cut short", "sweep.json", "\"plot\":{}", "\"plot\":{", "sweep.json:1:", FALSE },
};

/* `with` as bytes: DEEP and NUL spelt out. */
static GString *damage_text(const char *with)
{
    GString *s = g_string_new(NULL);
    for (const char *p = with; *p;) {
        if (g_str_has_prefix(p, DEEP)) {
            for (guint i = 0; i < 100000; i++)
                g_string_append_c(s, '[');
            p += strlen(DEEP);
        } else if (g_str_has_prefix(p, NUL)) {
            g_string_append_c(s, '\0');
            p += strlen(NUL);
        } else {
            g_string_append_c(s, *p++);
        }
    }
    return s;
}

static void damage(const char *dir, const char *name, const char *find, const char *with)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    GString *w = damage_text(with);
    GString *out = g_string_new(NULL);
    const char *at = find ? strstr(text, find) : NULL;
    ck_assert_msg(!find || at, "no `%s` in %s:\n%s", find, name, text);
    if (find) {
        g_string_append_len(out, text, at - text);
        g_string_append_len(out, w->str, (gssize)w->len);
        g_string_append(out, at + strlen(find));
    } else {
        g_string_append(out, text);
        g_string_append_len(out, w->str, (gssize)w->len);
    }
    ck_assert(g_file_set_contents(path, out->str, (gssize)out->len, NULL));
    g_string_free(w, TRUE);
    g_string_free(out, TRUE);
}

START_TEST(test_damaged_folders)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "s.yaml", folder_sweep);
    g_autofree char *s1 = g_build_filename(dir, "s1", NULL), *merged = g_build_filename(dir, "m", NULL);
    const char *run[] = { "sweep", file, "--out", s1, "-q", NULL };
    ck_assert_int_eq(run_qsim(run, NULL, NULL), 0);
    damage(s1, folder_cases[_i].file, folder_cases[_i].find, folder_cases[_i].with);
    const char *title = folder_cases[_i].title;
    g_autofree char *where = g_strdup_printf("qsim: %s/%s:", s1, folder_cases[_i].file);
    const char *want = folder_cases[_i].want;
    const char *merge[] = { "sweep", "--merge", s1, "--out", merged, NULL };
    g_autofree char *err = NULL;
    int rc = run_qsim_with(merge, RUN_QSIM_LIMITED, NULL, &err);
    ck_assert_msg(rc == 2, "%s: --merge exit %d:\n%s", title, rc, err);
    ck_assert_msg(g_str_has_prefix(err, where) && strstr(err, want), "%s: want '%s' in:\n%s", title, want, err);
    ck_assert_msg(!g_file_test(merged, G_FILE_TEST_EXISTS), "%s: merged anyway", title);
    if (folder_cases[_i].resume) {
        const char *resume[] = { "sweep", file, "--out", s1, "--resume", "-q", NULL };
        g_free(err);
        err = NULL;
        rc = run_qsim_with(resume, RUN_QSIM_LIMITED, NULL, &err);
        ck_assert_msg(rc == 2, "%s: --resume exit %d:\n%s", title, rc, err);
        ck_assert_msg(g_str_has_prefix(err, where) && strstr(err, want), "%s: --resume: want '%s' in:\n%s", title,
                      want, err);
    }
    rm_rf(dir);
}
END_TEST

/* What the checks must let through: brackets inside strings (not nesting), members qsim does
 * not write, a row cut short at the end (a kill), a multi-line sweep.json. */
START_TEST(test_folders_that_still_merge)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "s.yaml", folder_sweep);
    g_autofree char *s1 = g_build_filename(dir, "s1", NULL), *merged = g_build_filename(dir, "m", NULL);
    const char *run[] = { "sweep", file, "--out", s1, "-q", NULL };
    ck_assert_int_eq(run_qsim(run, NULL, NULL), 0);
    GString *brackets = g_string_new("\"note\":\"");
    for (guint i = 0; i < 100; i++)
        g_string_append(brackets, "[{");
    g_string_append(brackets, "\\\"\",\"point\"");
    damage(s1, "results.jsonl", "\"point\"", brackets->str);
    g_string_free(brackets, TRUE);
    damage(s1, "results.jsonl", NULL, "{\"point\":1,\"key\":\"configs=tea");
    damage(s1, "sweep.json", ",\"axes\"", ",\n  \"axes\"");
    const char *merge[] = { "sweep", "--merge", s1, "--out", merged, NULL };
    g_autofree char *err = NULL;
    ck_assert_msg(run_qsim(merge, NULL, &err) == 0, "%s", err);
    ck_assert_msg(strstr(err, "dropped a last line cut short"), "%s", err);
    rm_rf(dir);
}
END_TEST

/* Issue 45 item 4: a FIFO in a results folder blocked --merge and --resume for ever, and
 * /dev/zero there was read until memory ran out (4 GB in 9 s): each file of the folder must be
 * a regular file, read by the one input reader with its limits. */
static const char *const folder_files[] = { "results.jsonl", "host-times.jsonl", "sweep.json" };

START_TEST(test_folder_file_not_regular)
{
    const char *file = folder_files[_i % G_N_ELEMENTS(folder_files)];
    gboolean fifo = _i < (int)G_N_ELEMENTS(folder_files);
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", folder_sweep);
    g_autofree char *s1 = g_build_filename(dir, "s1", NULL), *merged = g_build_filename(dir, "m", NULL);
    const char *run[] = { "sweep", sweep, "--out", s1, "-q", NULL };
    ck_assert_int_eq(run_qsim(run, NULL, NULL), 0);
    g_autofree char *path = g_build_filename(s1, file, NULL);
    ck_assert(g_unlink(path) == 0);
    ck_assert(fifo ? mkfifo(path, 0600) == 0 : symlink("/dev/zero", path) == 0);
    const char *merge[] = { "sweep", "--merge", s1, "--out", merged, NULL };
    const char *resume[] = { "sweep", sweep, "--out", s1, "--resume", "-q", NULL };
    const char *const *commands[] = { merge, resume };
    for (guint c = 0; c < G_N_ELEMENTS(commands); c++) {
        g_autofree char *err = NULL;
        int rc = run_qsim_with(commands[c], RUN_QSIM_LIMITED | RUN_QSIM_WALL, NULL, &err);
        ck_assert_msg(rc == 2, "%s as %s, %s: exit %d: %s", file, fifo ? "a FIFO" : "/dev/zero", commands[c][1], rc,
                      err);
        /* --resume writes sweep.json rather than reading it: then the writer refuses the device */
        g_autofree char *want = g_strdup_printf("%s: not a regular file (%s)", c && !strcmp(file, "sweep.json") &&
                                                !fifo ? "/dev/zero" : file, fifo ? "a FIFO" : "a character device");
        ck_assert_msg(strstr(err, want), "want `%s` in:\n%s", want, err);
    }
    rm_rf(dir);
}
END_TEST

Suite *make_sweep_input_suite(void)
{
    Suite *s = suite_create("sweep_input");
    TCase *tc = tcase_create("sweep files");
    tcase_add_loop_test(tc, test_bad_sweep_files, 0, G_N_ELEMENTS(bad_cases));
    tcase_add_test(tc, test_docs_example_errors);
    tcase_add_loop_test(tc, test_plot_checked_first, 0, G_N_ELEMENTS(plot_cases));
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tc = tcase_create("results folders");
    tcase_add_loop_test(tc, test_damaged_folders, 0, G_N_ELEMENTS(folder_cases));
    tcase_add_test(tc, test_folders_that_still_merge);
    tcase_add_loop_test(tc, test_folder_file_not_regular, 0, 2 * G_N_ELEMENTS(folder_files));
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
