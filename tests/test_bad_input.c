/* Bad input never crashes, hangs or lies (issue 18): each case runs the built qsim on an input
 * a user can give (a huge cache, a device as a file, deep YAML, a bad option) under a CPU and
 * memory limit, and checks the exit status and that the message says what is wrong and where.
 * The module-level limits are tested in their own suites (input_file, yaml_doc, config...). */
#include <check.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <glib/gstdio.h>
#include "sim/base/echo.h"
#include "sim/cli/commands.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

/* Runs qsim under the limits; the exit status, with stderr in *err (and stdout in *out). */
static int run_limited(const char *const *args, char **out, char **err)
{
    return run_qsim_with(args, RUN_QSIM_LIMITED, out, err);
}

#define ASSERT_ERR(err, text) ck_assert_msg(strstr((err), (text)), "expected `%s` in:\n%.2000s", (text), (err))

/* A minimal config's text, to which a test appends lines. */
#define MINI_CONFIG "name: mini\narch: x86\ntopology:\n  sockets: 1\n  cores_per_socket: 2\n"

/* ---- 1, 2: cache sizes ---- */

/* 64 sockets of 100 GB LLC, and a 10 GB private L2: the model allocates what the run touches,
 * not what the config describes (the old model asked for 200 GB at once, or grew past 6 GB). */
START_TEST(test_huge_caches_run)
{
    const char *llc[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "20",
                          "--set", "topology.sockets=64", "--set", "llc.size=100000000000", NULL };
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_limited(llc, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert(strstr(out, "mutual_exclusion:                  true"));
    const char *l2[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "20",
                         "--set", "l2.enabled=true", "--set", "l2.latency=10", "--set", "l2.size=10000000000", NULL };
    g_free(out);
    g_free(err);
    out = err = NULL;
    rc = run_limited(l2, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
}
END_TEST

/* ---- 3: YAML ---- */

/* 100k `[`: libyaml alone takes seconds (quadratic); the depth limit stops it at once. */
START_TEST(test_deep_yaml_is_refused)
{
    g_autofree char *dir = tmpdir();
    GString *deep = g_string_new("name: [");
    for (guint i = 0; i < 100000; i++)
        g_string_append_c(deep, '[');
    g_autofree char *cfg = write_file(dir, "deep.yaml", deep->str);
    g_autofree char *sweep = write_file(dir, "deep-sweep.yaml", deep->str + strlen("name: "));
    g_string_free(deep, TRUE);
    const char *a[] = { "config", cfg, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:1:", cfg);
    ASSERT_ERR(err, want);
    ASSERT_ERR(err, "nested deeper than 32 levels");
    const char *b[] = { "sweep", "--quiet", "--out", dir, sweep, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    ASSERT_ERR(err, "nested deeper than 32 levels");
    rm_rf(dir);
}
END_TEST

START_TEST(test_second_yaml_document_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *cfg = write_file(dir, "two.yaml", MINI_CONFIG "---\nname: other\n");
    const char *a[] = { "config", cfg, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:6:1: a second YAML document", cfg);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

/* `rob: 032` was octal 26; numbers are decimal, and a leading zero is refused rather than guessed. */
START_TEST(test_leading_zero_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *cfg = write_file(dir, "oct.yaml", MINI_CONFIG "core:\n  rob: 032\n");
    const char *a[] = { "config", cfg, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:7:8: core.rob: '032' has a leading zero", cfg);
    ASSERT_ERR(err, want);
    const char *b[] = { "asm", "--threads", "010", "locks/tas.qs", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    ASSERT_ERR(err, "--threads 010: ");
    const char *c[] = { "litmus", "--sc", "--runs=0x10", "tests/litmus/x86/SB.litmus", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(c, NULL, &err), 2);
    ASSERT_ERR(err, "--runs 0x10: ");
    rm_rf(dir);
}
END_TEST

/* "\0" in a quoted value cut the name short; a NUL byte in the file cut the whole file short. */
START_TEST(test_nul_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *esc = write_file(dir, "esc.yaml", "name: \"ab\\0cd\"\narch: x86\ntopology:\n  sockets: 1\n"
                                      "  cores_per_socket: 2\n");
    const char *a[] = { "config", esc, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:1:7: a NUL character", esc);
    ASSERT_ERR(err, want);
    static const char raw_text[] = MINI_CONFIG "core:\n  rob: 32\0\n  junk: yes\n";
    g_autofree char *raw = write_bytes(dir, "raw.yaml", raw_text, sizeof raw_text - 1);
    const char *b[] = { "config", raw, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    g_free(want);
    want = g_strdup_printf("%s:7:10: a NUL byte", raw);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

/* ---- 4: files that are not files ---- */

static const struct {
    const char *title;
    const char *args[8];
    const char *what;     /* the kind of file the message names */
} device_cases[] = {
    { "config", { "config", "/dev/zero", NULL }, "config" },
    { "litmus", { "litmus", "--sc", "/dev/zero", NULL }, "litmus test" },
    { "asm", { "asm", "/dev/zero", NULL }, "lock source" },
    { "sweep", { "sweep", "/dev/urandom", NULL }, "sweep file" },
    { "kinds", { "litmus", "--sc", "--expect", "/dev/zero", "tests/litmus/x86/SB.litmus", NULL }, "kinds file" },
    { "verify", { "verify", "--lock", "/dev/zero", NULL }, "lock source" },
    { "run --lock-file", { "run", "--config", "teaching", "--lock-file", "/dev/zero", NULL }, "lock source" },
    { "run --lock", { "run", "--config", "teaching", "--lock", "/dev/zero", NULL }, "lock source" },
    { "native --lock-file", { "native", "--lock-file", "/dev/zero", NULL }, "lock source" },
    { "validate --table", { "validate", "--table", "/dev/zero", NULL }, "validation table" },
    /* issue 45 item 9: it was parsed as the text of a script */
    { "run --script", { "run", "--script", "/dev/zero", NULL }, "script" },
};

START_TEST(test_device_files_are_refused)
{
    g_autofree char *err = NULL;
    int rc = run_limited(device_cases[_i].args, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", device_cases[_i].title, rc, err);
    g_autofree char *want = g_strdup_printf("not a regular file (a character device); a %s must be a file",
                                            device_cases[_i].what);
    ASSERT_ERR(err, want);
}
END_TEST

/* A regular file over the limit is refused before it is parsed, naming the file and the limit. */
START_TEST(test_oversized_files_are_refused)
{
    g_autofree char *dir = tmpdir();
    GString *big = g_string_new(MINI_CONFIG);
    while (big->len <= (1u << 20))
        g_string_append(big, "# padding padding padding padding padding padding padding padding padding\n");
    g_autofree char *cfg = write_file(dir, "big.yaml", big->str);
    g_autofree char *qs = write_file(dir, "big.qs", big->str);
    g_string_free(big, TRUE);
    const char *a[] = { "config", cfg, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s: larger than the 1 MiB limit for a config", cfg);
    ASSERT_ERR(err, want);
    const char *b[] = { "asm", qs, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    g_free(want);
    want = g_strdup_printf("%s: larger than the 1 MiB limit for a lock source", qs);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

/* ---- 5: the line size ---- */

/* With 16-byte lines the harness's data does not fit its line: said at assembly, not run as a
 * false mutual-exclusion failure. */
START_TEST(test_small_line_with_groups)
{
    const char *a[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "1", "--iterations", "10",
                        "--set", "line_size=16", NULL };
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_limited(a, &out, &err);
    ck_assert_msg(rc == 2, "exit %d: %s%s", rc, out, err);
    ASSERT_ERR(err, "`h_data` (8 bytes) does not fit in `h_counter`'s 16-byte line");
    /* 32-byte lines hold it: the run's mutual exclusion holds. */
    const char *b[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "20",
                        "--set", "line_size=32", NULL };
    g_free(out);
    g_free(err);
    out = err = NULL;
    rc = run_limited(b, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s%s", rc, out, err);
    ck_assert(strstr(out, "mutual_exclusion:                  true"));
}
END_TEST

/* ---- 6: sweeps ---- */

#define TINY_SWEEP "configs: teaching\nlocks: tas\nthreads: 1\niterations: 5\n"

START_TEST(test_sweep_jobs_zero)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "s.yaml", TINY_SWEEP);
    g_autofree char *out = g_build_filename(dir, "out", NULL);
    const char *a[] = { "sweep", "-q", "-j", "0", "--out", out, file, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ASSERT_ERR(err, "--jobs 0: ");
    ck_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
    rm_rf(dir);
}
END_TEST

START_TEST(test_kinds_duplicate_names_both_lines)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kinds = write_file(dir, "kinds.txt", "SB Allowed\nMP Forbidden\nSB.litmus Forbidden\n");
    const char *a[] = { "litmus", "--sc", "--expect", kinds, "tests/litmus/x86/SB.litmus", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:3: SB is listed twice (first on line 1)", kinds);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

/* --merge refuses to overwrite a folder that holds something, or one of several folders it
 * merges, unless --force (merging one folder into itself replots it, and stays allowed). */
START_TEST(test_merge_refuses_to_overwrite)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "s.yaml", "configs: teaching\nlocks: tas\nthreads: [1, 2]\n"
                                                      "iterations: 5\n");
    g_autofree char *s1 = g_build_filename(dir, "s1", NULL), *s2 = g_build_filename(dir, "s2", NULL);
    const char *run1[] = { "sweep", "-q", "--shard", "1/2", "--out", s1, file, NULL };
    const char *run2[] = { "sweep", "-q", "--shard", "2/2", "--out", s2, file, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(run1, NULL, NULL), 0);
    ck_assert_int_eq(run_limited(run2, NULL, NULL), 0);
    g_autofree char *busy = g_build_filename(dir, "busy", NULL);
    g_mkdir(busy, 0777);
    g_autofree char *keep = write_file(busy, "notes.txt", "mine\n");
    const char *into_busy[] = { "sweep", "--merge", "--out", busy, s1, s2, NULL };
    ck_assert_int_eq(run_limited(into_busy, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("--out %s: the folder is not empty (it holds notes.txt)", busy);
    ASSERT_ERR(err, want);
    g_autofree char *notes = NULL;
    ck_assert(g_file_get_contents(keep, &notes, NULL, NULL) && !strcmp(notes, "mine\n"));
    g_autofree char *csv = g_build_filename(busy, "results.csv", NULL);
    ck_assert(!g_file_test(csv, G_FILE_TEST_EXISTS));
    const char *into_input[] = { "sweep", "--merge", "--out", s1, s1, s2, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(into_input, NULL, &err), 2);
    g_free(want);
    want = g_strdup_printf("--out %s: it is one of the folders being merged", s1);
    ASSERT_ERR(err, want);
    /* --force replaces what is there. */
    const char *forced[] = { "sweep", "--merge", "--force", "--out", busy, s1, s2, NULL };
    g_free(err);
    err = NULL;
    ck_assert_msg(run_limited(forced, NULL, &err) == 0, "%s", err);
    ck_assert(g_file_test(csv, G_FILE_TEST_EXISTS));
    rm_rf(dir);
}
END_TEST

/* A second sweep on a folder another one is writing stops at once (exit 2), naming the holder. */
START_TEST(test_sweep_out_is_locked)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *file = write_file(dir, "s.yaml", TINY_SWEEP);
    g_autofree char *out = g_build_filename(dir, "out", NULL);
    g_mkdir(out, 0777);
    g_autofree char *lock = g_build_filename(out, "sweep.lock", NULL);
    int fd = open(lock, O_RDWR | O_CREAT, 0666);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
    g_autofree char *holder = g_strdup_printf("pid %d on testhost\n", (int)getpid());
    ck_assert(write(fd, holder, strlen(holder)) == (gssize)strlen(holder));
    const char *a[] = { "sweep", "-q", "--out", out, file, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s: another sweep is writing this folder (pid %d on testhost; ", out, (int)getpid());
    ASSERT_ERR(err, want);
    g_autofree char *jsonl = g_build_filename(out, "results.jsonl", NULL);
    ck_assert(!g_file_test(jsonl, G_FILE_TEST_EXISTS));
    close(fd);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 0);
    rm_rf(dir);
}
END_TEST

/* ---- 7: messages that point at the right place ---- */

START_TEST(test_set_cross_key_error_names_the_option)
{
    const char *a[] = { "config", "teaching", "--set", "l1.ways=3", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ASSERT_ERR(err, "--set l1.ways=3: l1.size: must be a multiple of");
    ck_assert_msg(!strstr(err, "teaching.yaml:30"), "%s", err);
}
END_TEST

/* `config` and `run` validate a config the same way. */
START_TEST(test_config_and_run_agree)
{
    const char *a[] = { "config", "haswell", "--set", "topology.cores_per_socket=1", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ASSERT_ERR(err, "--set topology.cores_per_socket=1: llc.slices: 18 slices");
    const char *b[] = { "run", "--config", "haswell", "--lock", "tas", "--threads", "1",
                        "--set", "topology.cores_per_socket=1", NULL };
    g_autofree char *err2 = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err2), 2);
    ASSERT_ERR(err2, "--set topology.cores_per_socket=1: llc.slices: 18 slices");
}
END_TEST

START_TEST(test_empty_out_is_named)
{
    const char *a[] = { "sweep", "-q", "--out", "", "sweeps/pause.yaml", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ASSERT_ERR(err, "--out '': an empty path");
    const char *b[] = { "calibrate", "--out", "", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    ASSERT_ERR(err, "--out '': an empty path");
}
END_TEST

/* stdout on a full disk: the error, not a silent exit 0. */
START_TEST(test_full_stdout_is_an_error)
{
    const char *a[] = { "config", "teaching", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_with(a, RUN_QSIM_LIMITED | RUN_QSIM_STDOUT_FULL, NULL, &err), 2);
    ASSERT_ERR(err, "qsim: standard output: No space left on device");
}
END_TEST

/* A trace file that cannot be written whole says why, with its path (issue 45 b: a full disk
 * under --trace-out said only "could not write the trace"): here the file may not grow past
 * 4 KiB, so its writes fail as they would on a full disk, on any file system and without a
 * device (/dev/full is refused as a path: not a regular file). */
START_TEST(test_trace_out_write_failure_says_why)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *t = g_build_filename(dir, "t.json", NULL);
    const char *a[] = { "run", "--config", "teaching", "--lock", "tas", "--iterations", "2", "--trace-out", t, NULL };
    g_autofree char *err = NULL, *want = g_strdup_printf("qsim: --trace-out %s: cannot write: File too large\n", t);
    ck_assert_int_eq(run_qsim_with(a, RUN_QSIM_LIMITED | RUN_QSIM_FILES_4K, NULL, &err), 2);
    ck_assert_str_eq(err, want);
    rm_rf(dir);
}
END_TEST

/* A megabyte token is echoed clipped, not in full. */
START_TEST(test_long_tokens_are_clipped)
{
    g_autofree char *dir = tmpdir();
    GString *t = g_string_new(MINI_CONFIG "core:\n  rob: ");
    for (guint i = 0; i < 1000000; i++)
        g_string_append_c(t, 'x');
    g_string_append_c(t, '\n');
    g_autofree char *cfg = write_file(dir, "long.yaml", t->str);
    g_string_truncate(t, 0);
    g_string_append(t, ".entry main\nmain:\n    jmp ");
    for (guint i = 0; i < 1000000; i++)
        g_string_append_c(t, 'y');
    g_string_append_c(t, '\n');
    g_autofree char *qs = write_file(dir, "long.qs", t->str);
    g_string_free(t, TRUE);
    const char *a[] = { "config", cfg, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ck_assert_msg(strlen(err) < 400, "%zu bytes of error", strlen(err));
    ASSERT_ERR(err, "xxx...");
    const char *b[] = { "asm", qs, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    ck_assert_msg(strlen(err) < 400, "%zu bytes of error", strlen(err));
    ASSERT_ERR(err, "yyy...");
    GString *v = g_string_new("core.rob=");
    for (guint i = 0; i < 100000; i++)
        g_string_append_c(v, '7');
    const char *c[] = { "config", "teaching", "--set", v->str, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(c, NULL, &err), 2);
    g_string_free(v, TRUE);
    ck_assert_msg(strlen(err) < 400, "%zu bytes of error", strlen(err));
    ASSERT_ERR(err, "777...");
    rm_rf(dir);
}
END_TEST

/* ---- issue 29 ---- */

/* The words that make each command do its work, so that an option's value is used, not only
 * parsed (DIR: the test's folder; an option given here too is given again, and the last wins). */
static const struct {
    const char *command;
    const char *args;
} working_args[] = {
    { "run", "--config teaching --lock tas --threads 1 --iterations 1" },
    { "list", "configs" },
    { "config", "teaching" },
    { "asm", "locks/tas.qs" },
    { "verify", "--lock tas --threads 1 --iterations 1 --seeds 1" },
    { "protocol", "mesi" },
    { "latency", "--config teaching" },
    { "validate", "--config teaching" },
    { "native", "--lock tas --threads 1 --iterations 1" },
    { "calibrate", "--quick -q" },
    { "sweep", "-q --out DIR/out DIR/s.yaml" },
    { "litmus", "tests/litmus/x86/SB.litmus --config teaching --runs 1" },
    { "man", "" },
    { "completion", "bash" },
    { "compare", "--threads-list 2 --data A --seeds 2 --iterations 5 -j 1" },
    { "serve", "--port 0" }, /* every long value is refused before it would serve */
};

/* Item 11: every option of every command, given a 10,000-character value (letters as
 * `--opt VALUE`, digits as `--opt=VALUE`), is echoed clipped: no 61 characters of it in a row
 * anywhere in what qsim prints, and a short message. */
START_TEST(test_every_option_value_is_clipped)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", TINY_SWEEP); /* DIR/s.yaml */
    char *values[2] = { g_strnfill(10000, 'x'), g_strnfill(10000, '9') };
    g_autofree char *letters_run = g_strnfill(ECHO_MAX_CHARS + 1, 'x');
    g_autofree char *digits_run = g_strnfill(ECHO_MAX_CHARS + 1, '9');
    const char *runs[2] = { letters_run, digits_run };
    g_autoptr(GPtrArray) docs = cli_describe_commands();
    guint tried = 0;
    for (guint c = 0; c < docs->len; c++) {
        const CliCommandDoc *d = docs->pdata[c];
        const char *base = NULL;
        for (guint i = 0; i < G_N_ELEMENTS(working_args); i++)
            if (!strcmp(working_args[i].command, d->command->name))
                base = working_args[i].args;
        ck_assert_msg(base, "no working arguments for qsim %s", d->command->name);
        for (guint o = 0; o < d->options->len; o++) {
            const CliOption *opt = d->options->pdata[o];
            if (!opt->takes_arg)
                continue;
            for (guint v = 0; v < 2; v++) {
                GPtrArray *args = g_ptr_array_new_with_free_func(g_free);
                g_ptr_array_add(args, g_strdup(d->command->name));
                g_auto(GStrv) words = g_strsplit(base, " ", -1);
                for (guint w = 0; words[w]; w++)
                    if (*words[w])
                        g_ptr_array_add(args, g_str_has_prefix(words[w], "DIR/")
                                                  ? g_build_filename(dir, words[w] + 4, NULL)
                                                  : g_strdup(words[w]));
                if (v == 0) {
                    g_ptr_array_add(args, g_strdup_printf("--%s", opt->long_name));
                    g_ptr_array_add(args, g_strdup(values[v]));
                } else {
                    g_ptr_array_add(args, g_strdup_printf("--%s=%s", opt->long_name, values[v]));
                }
                g_ptr_array_add(args, NULL);
                g_autofree char *out = NULL, *err = NULL;
                run_limited((const char *const *)args->pdata, &out, &err);
                ck_assert_msg(!strstr(err, runs[v]) && strlen(err) < 1000, "qsim %s --%s: %zu bytes: %.300s",
                              d->command->name, opt->long_name, strlen(err), err);
                ck_assert_msg(!strstr(out, runs[v]), "qsim %s --%s: the value on stdout", d->command->name,
                              opt->long_name);
                g_ptr_array_unref(args);
                tried++;
                /* a sweep that ran leaves its folder: the next starts afresh */
                g_autofree char *sweep_out = g_build_filename(dir, "out", NULL);
                g_autofree char *rm = g_strdup_printf("rm -rf '%s'", sweep_out);
                ck_assert_int_eq(system(rm), 0);
            }
        }
    }
    ck_assert_uint_gt(tried, 150);
    g_free(values[0]);
    g_free(values[1]);
    rm_rf(dir);
}
END_TEST

/* Item 12: integers are read one way everywhere: --writers names itself, -1 is no option's
 * "not given", and --shard's halves are whole numbers as every other integer option's. */
static const struct {
    const char *args[8];
    const char *want;
} integer_cases[] = {
    { { "run", "--lock", "tas", "--writers", "0" },
      "--writers 0 with --readers 0 makes 0 threads: out of range [1, 4096]" },
    { { "run", "--lock", "tas", "--writers", "-1" }, "--writers -1: out of range [0, 4096]" },
    { { "run", "--lock", "tas", "--progress-cycles", "-1" }, "--progress-cycles -1: out of range [1000, " },
    { { "run", "--lock", "tas", "--repeat", "0" }, "--repeat 0: out of range [2, 10000]" },
    { { "run", "--lock", "tas", "--seed", "+5" }, "--seed +5: expected a whole number" },
    { { "run", "--lock", "tas", "--seed", " 5" }, "--seed  5: expected a whole number" },
    { { "run", "--lock", "tas", "--threads", "5 " }, "--threads 5 : expected a whole number" },
    { { "native", "--lock", "tas", "--progress-ms", "-1" }, "--progress-ms -1: out of range [10, 3600000]" },
    { { "verify", "--lock", "tas", "--seed", "-1" }, "--seed -1: out of range [0, " },
    { { "verify", "--lock", "tas", "--seeds", "0" }, "--seeds 0: out of range [1, " },
    { { "asm", "locks/tas.qs", "--threads", "0" }, "--threads 0: out of range [1, 1024]" },
    { { "litmus", "tests/litmus/x86/SB.litmus", "--config", "teaching", "--runs", "-1" },
      "--runs -1: out of range [1, " },
    { { "sweep", "-q", "--jobs", "-2147483648", "SWEEP" }, "--jobs -2147483648: out of range [1, " },
    { { "sweep", "-q", "--shard", "01/3", "SWEEP" }, "--shard 01/3: expected I/N" },
    { { "sweep", "-q", "--shard", "+1/3", "SWEEP" }, "--shard +1/3: expected I/N" },
    { { "sweep", "-q", "--shard", " 1/3", "SWEEP" }, "--shard  1/3: expected I/N" },
    { { "sweep", "-q", "--shard", "1/3 ", "SWEEP" }, "--shard 1/3 : expected I/N" },
    { { "sweep", "-q", "--shard", "1/03", "SWEEP" }, "--shard 1/03: expected I/N" },
    { { "sweep", "-q", "--shard", "1/+3", "SWEEP" }, "--shard 1/+3: expected I/N" },
    { { "sweep", "-q", "--shard", "4/3", "SWEEP" }, "--shard 4/3: expected I/N" },
};

START_TEST(test_integers_one_way)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", TINY_SWEEP);
    g_autofree char *out_dir = g_build_filename(dir, "out", NULL);
    const char *args[12] = { NULL };
    guint n = 0;
    for (guint i = 0; integer_cases[_i].args[i]; i++)
        args[n++] = !strcmp(integer_cases[_i].args[i], "SWEEP") ? sweep : integer_cases[_i].args[i];
    if (!strcmp(args[0], "sweep")) {
        args[n++] = "--out";
        args[n++] = out_dir;
    }
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(args, NULL, &err), 2);
    ASSERT_ERR(err, integer_cases[_i].want);
    if (g_str_has_prefix(integer_cases[_i].want, "--writers 0")) /* it used to blame --threads 0 */
        ck_assert_msg(!strstr(err, "--threads 0"), "%s", err);
    ck_assert(!g_file_test(out_dir, G_FILE_TEST_EXISTS));
    rm_rf(dir);
}
END_TEST

/* Item 18: a loop of symbolic links given to any output option is called that, with the path and
 * the loop, and is left as it was (not replaced by a file). */
/* Issue 45 item 9: what --script, --lock-param and run's --out said unclearly, or took. */
START_TEST(test_run_inputs_said_plainly)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *a = g_build_filename(dir, "a", NULL), *b = g_build_filename(dir, "b", NULL);
    ck_assert(symlink("b", a) == 0 && symlink("a", b) == 0);
    g_autofree char *script = write_file(dir, "s.txt", "0:st x=5\n0: frob x\n");
    g_autofree char *loop = g_strdup_printf("--out %s: a loop of symbolic links", a);
    const struct {
        const char *args[12];
        const char *want;
    } cases[] = {
        /* a path, not the text of a script naming no thread */
        { { "run", "--script", "/nonexistent", NULL }, "/nonexistent: cannot read" },
        /* a script file's errors at its lines, and a file of it is no "lock source" */
        { { "run", "--script", script, NULL }, "s.txt:2:4: `frob`: no such access" },
        /* numbers as everywhere: no leading zero */
        { { "run", "--script", "0:st x=05", NULL }, "--script:1:8: a value `05`: a number with a leading zero" },
        { { "run", "--script", "00:ld x", NULL }, "--script:1:1: a thread `00`: a number with a leading zero" },
        /* a second --script replaced the first */
        { { "run", "--script", "0:ld x", "--script", "1:ld x", NULL }, "--script given 2 times" },
        /* -1 was taken, though the message asks for a whole number */
        { { "run", "--config", "teaching", "--lock", "adaptive-mutex", "--lock-param", "spin_count=-1", NULL },
          "lock parameter `spin_count=-1`: expected NAME=VALUE with a whole number" },
        /* "Invalid argument", and "Not a directory" after the whole run */
        { { "run", "--config", "teaching", "--lock", "tas", "--iterations", "1", "--out", "", NULL },
          "--out '': an empty path" },
        { { "run", "--config", "teaching", "--lock", "tas", "--iterations", "1", "--out", a, NULL }, loop },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *out = NULL, *err = NULL;
        int rc = run_limited(cases[i].args, &out, &err);
        ck_assert_msg(rc == 2, "case %u: exit %d: %s", i, rc, err);
        ASSERT_ERR(err, cases[i].want);
        ck_assert_msg(!strstr(err, "lock source"), "case %u: %s", i, err);
        ck_assert_msg(!*out, "case %u ran: %.500s", i, out);
    }
    rm_rf(dir);
}
END_TEST

/* A CPU list shorter than the threads starts over, as documented: the run goes on, with a
 * warning that threads share CPUs (issue 45 item 9: it wrapped without a word). */
START_TEST(test_short_cpu_list_warns)
{
    const char *args[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "4", "--iterations", "2",
                           "--placement", "cpus:0,1", NULL };
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_limited(args, &out, &err), 0);
    ASSERT_ERR(err, "warning: --placement cpus:0,1 names 2 CPUs for 4 threads: the list starts over");
    const char *full[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "2",
                           "--placement", "cpus:0,1", NULL };
    g_free(err);
    g_free(out);
    out = err = NULL;
    ck_assert_int_eq(run_limited(full, &out, &err), 0);
    ck_assert_msg(!strstr(err, "--placement"), "%s", err);
}
END_TEST

START_TEST(test_output_link_loop_is_named)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *a = g_build_filename(dir, "a", NULL), *b = g_build_filename(dir, "b", NULL);
    g_autofree char *self = g_build_filename(dir, "self", NULL), *below = g_build_filename(self, "x", NULL);
    g_autofree char *sweep = write_file(dir, "s.yaml", TINY_SWEEP);
    ck_assert(symlink("b", a) == 0 && symlink("a", b) == 0 && symlink("self", self) == 0);
    const char *cases[][10] = {
        { "sweep", "-q", "--out", a, sweep },
        { "sweep", "--merge", dir, "--out", a },
        { "calibrate", "--quick", "-q", "--out", a },
        { "protocol", "mesi", "--output", a },
        { "run", "--config", "teaching", "--lock", "tas", "--iterations", "1", "--trace-out", a },
        { "run", "--config", "teaching", "--lock", "tas", "--iterations", "1", "--trace-html", a },
        { "sweep", "-q", "--out", below, sweep },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *err = NULL;
        ck_assert_int_eq(run_limited(cases[i], NULL, &err), 2);
        const char *path = i + 1 < G_N_ELEMENTS(cases) ? a : below;
        g_autofree char *want = g_strdup_printf("%s: a loop of symbolic links", path);
        ASSERT_ERR(err, want);
        if (path == a)
            ASSERT_ERR(err, " -> b -> a)");
        g_autofree char *link = g_file_read_link(a, NULL);
        ck_assert_str_eq(link, "b");
    }
    rm_rf(dir);
}
END_TEST

/* Item 17: a control character in a value is echoed escaped, never sent to the terminal raw. */
START_TEST(test_control_characters_are_escaped)
{
    const char *a[] = { "run", "--lock", "\x1b[31mred\x07", NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_limited(a, NULL, &err), 2);
    ASSERT_ERR(err, "\\x1b[31mred\\x07");
    ck_assert_msg(!strchr(err, '\x1b') && !strchr(err, '\x07'), "%s", err);
    const char *b[] = { "\x1b]0;title\x07", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_limited(b, NULL, &err), 2);
    ck_assert_msg(!strchr(err, '\x1b') && !strchr(err, '\x07'), "%s", err);
}
END_TEST

Suite *make_bad_input_suite(void)
{
    Suite *s = suite_create("bad_input");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_huge_caches_run);
    tcase_add_test(tc, test_deep_yaml_is_refused);
    tcase_add_test(tc, test_second_yaml_document_is_refused);
    tcase_add_test(tc, test_leading_zero_is_refused);
    tcase_add_test(tc, test_nul_is_refused);
    tcase_add_loop_test(tc, test_device_files_are_refused, 0, G_N_ELEMENTS(device_cases));
    tcase_add_test(tc, test_oversized_files_are_refused);
    tcase_add_test(tc, test_small_line_with_groups);
    suite_add_tcase(s, tc);
    tc = tcase_create("sweeps");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sweep_jobs_zero);
    tcase_add_test(tc, test_kinds_duplicate_names_both_lines);
    tcase_add_test(tc, test_merge_refuses_to_overwrite);
    tcase_add_test(tc, test_sweep_out_is_locked);
    suite_add_tcase(s, tc);
    tc = tcase_create("messages");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_set_cross_key_error_names_the_option);
    tcase_add_test(tc, test_config_and_run_agree);
    tcase_add_test(tc, test_empty_out_is_named);
    tcase_add_test(tc, test_full_stdout_is_an_error);
    tcase_add_test(tc, test_trace_out_write_failure_says_why);
    tcase_add_test(tc, test_long_tokens_are_clipped);
    suite_add_tcase(s, tc);
    tc = tcase_create("issue29");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_every_option_value_is_clipped);
    tcase_add_loop_test(tc, test_integers_one_way, 0, G_N_ELEMENTS(integer_cases));
    tcase_add_test(tc, test_output_link_loop_is_named);
    tcase_add_test(tc, test_run_inputs_said_plainly);
    tcase_add_test(tc, test_short_cpu_list_warns);
    tcase_add_test(tc, test_control_characters_are_escaped);
    suite_add_tcase(s, tc);
    return s;
}
