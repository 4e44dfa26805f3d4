/* Every output option against what may already be at its path (issue 45 items 5 and 7): a
 * symbolic link is written through (the link stays), a FIFO or a device is refused and left as
 * it was (it used to be renamed over, or opened and waited on), a read-only folder is an error
 * naming the path; and output that never reached stdout or stderr is exit 2, never 0. */
#include <check.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "sim/base/output_file.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"
#include "tests/temp_files.h"

#define ASSERT_ERR(err, text) ck_assert_msg(strstr((err), (text)), "expected `%s` in:\n%.2000s", (text), (err))

#define TINY_RUN "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "2"
static const char tiny_sweep[] = "configs: teaching\nlocks: tas\nthreads: [1, 2]\niterations: 5\n";

/* Each output option, its path written PATH: a file, or (folder) a folder qsim makes. */
static const struct {
    const char *title;
    const char *args[16];
    gboolean folder;
    const char *fifo_says;     /* the refusal of a FIFO at PATH */
} outputs[] = {
    { "--trace-html", { TINY_RUN, "--trace-html", "PATH" }, FALSE, "not a regular file (a FIFO)" },
    { "--trace-out", { TINY_RUN, "--trace-out", "PATH" }, FALSE, "not a regular file (a FIFO)" },
    { "protocol -o", { "protocol", "mesi", "-o", "PATH" }, FALSE, "not a regular file (a FIFO)" },
    { "run --out", { TINY_RUN, "--out", "PATH" }, TRUE, "not a folder" },
    { "sweep --out", { "sweep", "-q", "SWEEP", "--out", "PATH" }, TRUE, "Not a directory" },
};

/* outputs[i] with PATH and SWEEP put in; its exit status (under a wall-clock limit: a FIFO
 * opened for writing used to wait for a reader for ever). */
static int run_output(guint i, const char *path, const char *sweep, char **err)
{
    const char *args[16] = { NULL };
    for (guint k = 0; outputs[i].args[k]; k++)
        args[k] = !strcmp(outputs[i].args[k], "PATH") ? path
                  : !strcmp(outputs[i].args[k], "SWEEP") ? sweep
                                                         : outputs[i].args[k];
    return run_qsim_with(args, RUN_QSIM_LIMITED | RUN_QSIM_WALL, NULL, err);
}

/* A symbolic link at PATH: the output goes to its target, and the link stays a link. */
START_TEST(test_output_through_symlink)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", tiny_sweep);
    g_autofree char *link = g_build_filename(dir, "link", NULL), *target = g_build_filename(dir, "target", NULL);
    if (outputs[_i].folder)
        ck_assert(g_mkdir(target, 0777) == 0);
    else
        g_free(write_file(dir, "target", "old\n"));
    ck_assert(symlink("target", link) == 0);
    g_autofree char *err = NULL;
    int rc = run_output(_i, link, sweep, &err);
    ck_assert_msg(rc == 0, "%s: exit %d: %s", outputs[_i].title, rc, err);
    g_autofree char *to = g_file_read_link(link, NULL);
    ck_assert_msg(to && !strcmp(to, "target"), "%s: the link was replaced", outputs[_i].title);
    if (outputs[_i].folder) {
        GDir *d = g_dir_open(target, 0, NULL);
        ck_assert_msg(d && g_dir_read_name(d), "%s: nothing written in the link's folder", outputs[_i].title);
        g_dir_close(d);
    } else {
        g_autofree char *text = slurp(dir, "target");
        ck_assert_msg(strlen(text) > 100 && !g_str_has_prefix(text, "old"), "%s: the target holds %.40s",
                      outputs[_i].title, text);
    }
    rm_rf(dir);
}
END_TEST

/* A FIFO at PATH: refused, and still a FIFO (it became a regular file, exit 0). */
START_TEST(test_output_fifo_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", tiny_sweep);
    g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
    ck_assert(mkfifo(fifo, 0600) == 0);
    g_autofree char *err = NULL;
    int rc = run_output(_i, fifo, sweep, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", outputs[_i].title, rc, err);
    ASSERT_ERR(err, fifo);
    ASSERT_ERR(err, outputs[_i].fifo_says);
    struct stat st;
    ck_assert(lstat(fifo, &st) == 0);
    ck_assert_msg(S_ISFIFO(st.st_mode), "%s: the FIFO was replaced", outputs[_i].title);
    rm_rf(dir);
}
END_TEST

/* A folder no file can be made in: a 0555 folder, or for root (who writes there anyway) /sys,
 * where nobody can make one; NULL when neither is. */
static char *read_only_folder(const char *dir)
{
    g_autofree char *ro = g_build_filename(dir, "ro", NULL);
    ck_assert(g_mkdir(ro, 0555) == 0);
    const char *const candidates[] = { ro, "/sys" };
    for (guint i = 0; i < G_N_ELEMENTS(candidates); i++) {
        g_autofree char *probe = g_build_filename(candidates[i], "qsim-probe", NULL);
        int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0)
            return g_strdup(candidates[i]);
        close(fd);
        g_unlink(probe);
    }
    return NULL;
}

/* PATH in a folder that cannot take it: exit 2 naming the path, nothing made. */
START_TEST(test_output_read_only_folder)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", tiny_sweep);
    g_autofree char *ro = read_only_folder(dir);
    if (!ro) {
        qsim_test_skip("outputs: read-only folder", "no folder here refuses new files (a 0555 folder or /sys)");
        rm_rf(dir);
        return;
    }
    g_autofree char *path = g_build_filename(ro, "qsim-output", NULL);
    g_autofree char *err = NULL;
    int rc = run_output(_i, path, sweep, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", outputs[_i].title, rc, err);
    ASSERT_ERR(err, path);
    ck_assert_msg(!g_file_test(path, G_FILE_TEST_EXISTS), "%s: made %s", outputs[_i].title, path);
    g_autofree char *own_ro = g_build_filename(dir, "ro", NULL);
    g_chmod(own_ro, 0755);
    rm_rf(dir);
}
END_TEST

/* The files inside a results folder: `sweep --aggregate` writes aggregate.csv, through a link
 * and never into a FIFO. */
START_TEST(test_sweep_folder_files)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *sweep = write_file(dir, "s.yaml", "configs: teaching\nlocks: tas\nseeds: [1, 2]\niterations: 5\n");
    g_autofree char *out = g_build_filename(dir, "o", NULL);
    const char *run[] = { "sweep", "-q", sweep, "--out", out, NULL };
    ck_assert_int_eq(run_qsim(run, NULL, NULL), 0);
    g_autofree char *agg = g_build_filename(out, "aggregate.csv", NULL);
    ck_assert(mkfifo(agg, 0600) == 0);
    const char *aggregate[] = { "sweep", "--merge", out, "--out", out, "--aggregate", NULL };
    g_autofree char *err = NULL;
    int rc = run_qsim_with(aggregate, RUN_QSIM_LIMITED | RUN_QSIM_WALL, NULL, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "aggregate.csv: not a regular file (a FIFO)");
    ck_assert(g_unlink(agg) == 0);
    g_free(write_file(dir, "mine.csv", "old\n"));
    ck_assert(symlink("../mine.csv", agg) == 0);
    g_free(err);
    err = NULL;
    rc = run_qsim(aggregate, NULL, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_autofree char *csv = slurp(dir, "mine.csv");
    ck_assert_msg(g_str_has_prefix(csv, "configs,") || strstr(csv, "mean"), "%.200s", csv);
    g_autofree char *to = g_file_read_link(agg, NULL);
    ck_assert(to && !strcmp(to, "../mine.csv"));
    rm_rf(dir);
}
END_TEST

/* ---- the writer itself ---- */

/* output_file_replace (a sweep's results.jsonl and sweep.json, rewritten whole) swaps the new
 * file in beside the link's target: the link stays, the file keeps its mode; a FIFO is refused
 * at once; OUTPUT_NEW refuses a path that exists. */
START_TEST(test_writer_modes)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *target = write_file(dir, "target", "old\n");
    ck_assert(g_chmod(target, 0640) == 0);
    g_autofree char *link = g_build_filename(dir, "link", NULL);
    ck_assert(symlink("target", link) == 0);
    g_autoptr(GError) error = NULL;
    ck_assert_msg(output_file_replace(link, "new\n", 4, &error), "%s", error ? error->message : "");
    g_autofree char *text = slurp(dir, "target");
    ck_assert_str_eq(text, "new\n");
    struct stat st;
    ck_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    ck_assert(stat(target, &st) == 0 && (st.st_mode & 0777) == 0640);
    g_autofree char *tmp = g_build_filename(dir, "target.tmp", NULL);
    ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
    g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
    ck_assert(mkfifo(fifo, 0600) == 0);
    const OutputMode modes[] = { OUTPUT_TRUNCATE, OUTPUT_APPEND };
    for (guint i = 0; i < G_N_ELEMENTS(modes); i++) {
        g_clear_error(&error);
        ck_assert(!output_file_write(fifo, modes[i], "x", 1, &error));
        ck_assert_msg(strstr(error->message, "not a regular file (a FIFO)"), "%s", error->message);
    }
    g_clear_error(&error);
    ck_assert(!output_file_replace(fifo, "x", 1, &error));
    ck_assert(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    g_clear_error(&error);
    ck_assert(!output_file_write(target, OUTPUT_NEW, "x", 1, &error));
    ck_assert_msg(strstr(error->message, "exists already"), "%s", error->message);
    rm_rf(dir);
}
END_TEST

/* ---- item 7: output that never arrived ---- */

/* The trace on a full stderr, and --help on a full stdout, were exit 0. */
START_TEST(test_lost_output_fails)
{
    const char *trace[] = { TINY_RUN, "--trace", NULL };
    int rc = run_qsim_with(trace, RUN_QSIM_LIMITED | RUN_QSIM_STDERR_FULL, NULL, NULL);
    ck_assert_msg(rc == 2, "--trace 2>/dev/full: exit %d", rc);
    const char *const helps[][3] = { { "run", "--help" }, { "run", "-h" }, { "sweep", "--help-all" }, { "--help" } };
    for (guint i = 0; i < G_N_ELEMENTS(helps); i++) {
        g_autofree char *err = NULL;
        rc = run_qsim_with(helps[i], RUN_QSIM_LIMITED | RUN_QSIM_STDOUT_FULL, NULL, &err);
        ck_assert_msg(rc == 2, "%s %s >/dev/full: exit %d", helps[i][0], helps[i][1] ? helps[i][1] : "", rc);
        ASSERT_ERR(err, "standard output");
    }
    /* and help that arrives is still help, exit 0 */
    const char *help[] = { "run", "--help", NULL };
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim(help, &out, NULL), 0);
    ck_assert_msg(g_str_has_prefix(out, "Usage:\n  qsim run [OPTION"), "%.200s", out);
}
END_TEST

Suite *make_outputs_suite(void)
{
    Suite *s = suite_create("outputs");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 240);
    tcase_add_loop_test(tc, test_output_through_symlink, 0, G_N_ELEMENTS(outputs));
    tcase_add_loop_test(tc, test_output_fifo_refused, 0, G_N_ELEMENTS(outputs));
    tcase_add_loop_test(tc, test_output_read_only_folder, 0, G_N_ELEMENTS(outputs));
    tcase_add_test(tc, test_sweep_folder_files);
    tcase_add_test(tc, test_writer_modes);
    suite_add_tcase(s, tc);
    tc = tcase_create("lost");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lost_output_fails);
    suite_add_tcase(s, tc);
    return s;
}
