/* The one reader of user input files: regular files and pipes, within each kind's size limit,
 * without NUL bytes; devices, folders and (for a later reader) pipes refused, naming the file. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include "sim/base/input_file.h"
#include "tests/temp_files.h"

START_TEST(test_regular_file)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *p = write_bytes(dir, "a.yaml", "name: a\n", 8);
    g_autofree char *text = NULL;
    gsize len = 0;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(input_file_read(p, INPUT_CONFIG, &text, &len, &e), "%s", e ? e->message : "");
    ck_assert_str_eq(text, "name: a\n");
    ck_assert_uint_eq(len, 8);
    ck_assert(input_file_check(p, INPUT_CONFIG, NULL));
    rm_rf(dir);
}
END_TEST

START_TEST(test_missing_file)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert(!input_file_read("/nonexistent/x.qs", INPUT_LOCK, &text, NULL, &e));
    ck_assert(g_error_matches(e, G_FILE_ERROR, G_FILE_ERROR_NOENT));
    ck_assert_str_eq(e->message, "/nonexistent/x.qs: cannot read: No such file or directory");
    ck_assert_ptr_null(text);
}
END_TEST

/* Each kind of thing that is not a file, with its name in the message. */
START_TEST(test_not_files)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    static const struct { const char *path; InputKind kind; const char *want; } rows[] = {
        { "/dev/zero", INPUT_LITMUS, "/dev/zero: not a regular file (a character device); a litmus test must be a file" },
        { "/dev/urandom", INPUT_SWEEP, "/dev/urandom: not a regular file (a character device); a sweep file must be a file" },
        { "/", INPUT_KINDS, "/: not a regular file (a folder); a kinds file must be a file" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        g_autofree char *text = NULL;
        g_autoptr(GError) e = NULL, c = NULL;
        ck_assert(!input_file_read(rows[i].path, rows[i].kind, &text, NULL, &e));
        ck_assert_str_eq(e->message, rows[i].want);
        ck_assert(!input_file_check(rows[i].path, rows[i].kind, &c));
        ck_assert_str_eq(c->message, rows[i].want);
    }
    /* A FIFO with no writer reads as empty, at once; one checked for a later reader is refused. */
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(input_file_read(fifo, INPUT_CONFIG, &text, NULL, &e), "%s", e ? e->message : "");
    ck_assert_str_eq(text, "");
    ck_assert(!input_file_check(fifo, INPUT_LOCK, &e));
    ck_assert(g_str_has_suffix(e->message, "fifo: not a regular file (a FIFO); a lock source must be a file"));
    rm_rf(dir);
}
END_TEST

/* A pipe (`qsim litmus <(generate)`) is read to its end. */
START_TEST(test_pipe)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    const char *msg = "X86 SB\n";
    ck_assert(write(fds[1], msg, strlen(msg)) == (gssize)strlen(msg));
    close(fds[1]);
    g_autofree char *path = g_strdup_printf("/proc/self/fd/%d", fds[0]);
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(input_file_read(path, INPUT_LITMUS, &text, NULL, &e), "%s", e ? e->message : "");
    ck_assert_str_eq(text, msg);
    close(fds[0]);
}
END_TEST

static gpointer endless_writer(gpointer data)
{
    int fd = GPOINTER_TO_INT(data);
    char buf[4096];
    memset(buf, 'x', sizeof buf);
    while (write(fd, buf, sizeof buf) > 0)
        ;
    close(fd);
    return NULL;
}

/* An endless pipe stops at the limit: the read costs the limit, not the stream. */
START_TEST(test_endless_pipe_stops_at_the_limit)
{
    signal(SIGPIPE, SIG_IGN);   /* the writer's next write after we stop reading */
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    GThread *w = g_thread_new("writer", endless_writer, GINT_TO_POINTER(fds[1]));
    g_autofree char *path = g_strdup_printf("/proc/self/fd/%d", fds[0]);
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert(!input_file_read(path, INPUT_CONFIG, &text, NULL, &e));
    ck_assert_msg(g_str_has_suffix(e->message, ": larger than the 1 MiB limit for a config"), "%s", e->message);
    close(fds[0]);
    g_thread_join(w);
}
END_TEST

START_TEST(test_size_limits)
{
    g_autofree char *dir = tmpdir();
    gsize max = input_limits[INPUT_LOCK].max_bytes;
    g_autofree char *data = g_malloc(max + 1);
    memset(data, '#', max + 1);
    g_autofree char *at = write_bytes(dir, "at.qs", data, max);
    g_autofree char *over = write_bytes(dir, "over.qs", data, max + 1);
    g_autofree char *text = NULL;
    gsize len = 0;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(input_file_read(at, INPUT_LOCK, &text, &len, &e), "%s", e ? e->message : "");
    ck_assert_uint_eq(len, max);
    ck_assert(!input_file_read(over, INPUT_LOCK, &text, NULL, &e));
    g_autofree char *want = g_strdup_printf("%s: larger than the 1 MiB limit for a lock source", over);
    ck_assert_str_eq(e->message, want);
    g_clear_error(&e);
    ck_assert(!input_file_check(over, INPUT_LOCK, &e));
    ck_assert_str_eq(e->message, want);
    /* The kinds limit is larger: herd's whole catalogue lists thousands of tests. */
    ck_assert_uint_gt(input_limits[INPUT_KINDS].max_bytes, input_limits[INPUT_LITMUS].max_bytes);
    rm_rf(dir);
}
END_TEST

/* A NUL byte would cut the text short: refused at its line and column. */
START_TEST(test_nul_byte)
{
    g_autofree char *dir = tmpdir();
    static const char data[] = "name: a\narch: x86\ncore:\n  rob:\0 3\n";
    g_autofree char *p = write_bytes(dir, "n.yaml", data, sizeof data - 1);
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert(!input_file_read(p, INPUT_CONFIG, &text, NULL, &e));
    g_autofree char *want = g_strdup_printf("%s:4:7: a NUL byte; a config is text", p);
    ck_assert_str_eq(e->message, want);
    g_clear_error(&e);
    ck_assert(!input_text_check("ab\0", 3, "<fuzz>", INPUT_SWEEP, &e));
    ck_assert_str_eq(e->message, "<fuzz>:1:3: a NUL byte; a sweep file is text");
    rm_rf(dir);
}
END_TEST

Suite *make_input_file_suite(void)
{
    Suite *s = suite_create("input_file");
    TCase *tc = tcase_create("reading");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_regular_file);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_not_files);
    tcase_add_test(tc, test_pipe);
    tcase_add_test(tc, test_endless_pipe_stops_at_the_limit);
    tcase_add_test(tc, test_size_limits);
    tcase_add_test(tc, test_nul_byte);
    suite_add_tcase(s, tc);
    return s;
}
