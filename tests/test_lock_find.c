/* Lock lookup (sim/workload/lock_find.c): a name or a path works wherever a lock is taken (run --lock
 * and --vs, verify, native), $QSIM_LOCK_PATH adds folders before qsim's own, and `qsim list
 * locks` shows what the lookup finds, with text from each lock's own header. */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/workload/lock_find.h"
#include "tests/run_qsim.h"

/* A folder with a copy of locks/ticket.qs named `name` in it. */
static char *folder_with_ticket(const char *name)
{
    g_autofree char *src = g_build_filename(test_srcdir(), "locks", "ticket.qs", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(src, &text, NULL, NULL));
    char *dir = g_dir_make_tmp("qsim-locks-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return dir;
}

static void remove_folder(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, f, NULL);
        g_unlink(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

START_TEST(test_names_and_paths)
{
    GError *error = NULL;
    g_autofree char *by_name = lock_find("tas", &error);
    ck_assert_msg(by_name && g_str_has_suffix(by_name, "/locks/tas.qs"), "%s", error ? error->message : by_name);
    g_autofree char *with_ext = lock_find("tas.qs", &error);
    ck_assert_str_eq(with_ext, by_name);
    /* a path, with a '/', is taken as it is */
    g_autofree char *dir = folder_with_ticket("ticket-pb.qs");
    g_autofree char *path = g_build_filename(dir, "ticket-pb.qs", NULL);
    g_autofree char *found = lock_find(path, &error);
    ck_assert_str_eq(found, path);
    /* a .qs file in the current folder, without a '/' */
    g_autofree char *cwd = g_get_current_dir();
    ck_assert_int_eq(chdir(dir), 0);
    g_autofree char *here = lock_find("ticket-pb.qs", &error);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_str_eq(here, "ticket-pb.qs");
    /* a path to nothing, and a name close to a lock's */
    g_autofree char *missing = g_build_filename(dir, "nope.qs", NULL);
    ck_assert_ptr_null(lock_find(missing, &error));
    g_autofree char *want = g_strdup_printf("%s: no such lock file", missing);
    ck_assert_str_eq(error->message, want);
    g_clear_error(&error);
    ck_assert_ptr_null(lock_find("tiket", &error));
    ck_assert_msg(g_str_has_prefix(error->message, "no built-in lock `tiket`; did you mean `ticket`?"), "%s",
                  error->message);
    g_clear_error(&error);
    remove_folder(dir);
}
END_TEST

START_TEST(test_lock_path_env)
{
    g_autofree char *dir = folder_with_ticket("mine.qs");
    g_autofree char *shadow = g_build_filename(dir, "tas.qs", NULL);
    g_autofree char *ticket = g_build_filename(dir, "mine.qs", NULL);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(ticket, &text, NULL, NULL));
    ck_assert(g_file_set_contents(shadow, text, -1, NULL));
    g_autofree char *env = g_strdup_printf("/nonexistent:%s", dir);
    g_setenv("QSIM_LOCK_PATH", env, TRUE);
    GError *error = NULL;
    g_autofree char *mine = lock_find("mine", &error);
    ck_assert_str_eq(mine, ticket);
    /* the user's folder comes first */
    g_autofree char *tas = lock_find("tas", &error);
    ck_assert_str_eq(tas, shadow);
    g_autoptr(GPtrArray) names = lock_names();
    gboolean listed = FALSE;
    for (guint i = 0; i < names->len; i++)
        listed |= !strcmp(names->pdata[i], "mine");
    ck_assert(listed);
    ck_assert_ptr_null(lock_find("mien", &error));
    ck_assert_msg(strstr(error->message, "did you mean `mine`?"), "%s", error->message);
    g_clear_error(&error);
    /* and the commands see it (the environment is inherited) */
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("list locks", &out, NULL), 0);
    ck_assert_msg(strstr(out, "\nmine ") && strstr(out, "ticket spinlock"), "%s", out);
    g_free(out);
    out = NULL;
    int rc = run_qsim_line("run --config teaching --lock mine --iterations 5 --format csv", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\n1,report,teaching,x86,mine,"), "%s", out);
    g_unsetenv("QSIM_LOCK_PATH");
    remove_folder(dir);
}
END_TEST

/* A path wherever a lock name goes: run --lock and --vs (once refused), verify, native. */
START_TEST(test_paths_in_every_command)
{
    g_autofree char *dir = folder_with_ticket("ticket-pb.qs");
    g_autofree char *path = g_build_filename(dir, "ticket-pb.qs", NULL);
    g_autofree char *out = NULL, *err = NULL;
    g_autofree char *vs =
        g_strdup_printf("run --config teaching --lock ticket --vs %s --iterations 5 --format json", path);
    int rc = run_qsim_line(vs, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, path), "%s", out);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    g_autofree char *run = g_strdup_printf("run --config teaching --lock %s --iterations 5", path);
    rc = run_qsim_line(run, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    g_autofree char *verify = g_strdup_printf("verify --lock %s --seeds 3", path);
    rc = run_qsim_line(verify, &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "verified"), "exit %d: %s%s", rc, out, err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    g_autofree char *native = g_strdup_printf("native --lock %s --threads 1 --iterations 20 --format json", path);
    rc = run_qsim_line(native, &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "\"acquisitions\" : 20"), "%s", out);
    remove_folder(dir);
}
END_TEST

/* `qsim list locks` shows each lock's header, so the header may name only files the tree has
 * (qspin's once sent readers to a LOCKS.md that is not there). */
START_TEST(test_lock_headers_name_files_that_exist)
{
    g_autoptr(GPtrArray) names = lock_names();
    ck_assert_uint_ge(names->len, 8);
    g_autoptr(GRegex) md = g_regex_new("[A-Za-z0-9_./-]+\\.md\\b", 0, 0, NULL);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *path = lock_find(names->pdata[i], NULL);
        g_autofree char *text = NULL;
        ck_assert(g_file_get_contents(path, &text, NULL, NULL));
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint l = 0; lines[l] && lines[l][0] == '#'; l++) {
            g_autoptr(GMatchInfo) m = NULL;
            for (g_regex_match(md, lines[l], 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
                g_autofree char *file = g_match_info_fetch(m, 0);
                g_autofree char *in_tree = g_build_filename(test_srcdir(), file, NULL);
                g_autofree char *in_docs = g_build_filename(test_srcdir(), "docs", file, NULL);
                ck_assert_msg(g_file_test(in_tree, G_FILE_TEST_EXISTS) || g_file_test(in_docs, G_FILE_TEST_EXISTS),
                              "%s:%u names %s, which the tree does not have", path, l + 1, file);
            }
        }
    }
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("list locks", &out, NULL), 0);
    ck_assert_msg(!strstr(out, "LOCKS.md"), "%s", out);
}
END_TEST

Suite *make_lock_find_suite(void)
{
    Suite *s = suite_create("lock_find");
    TCase *tc = tcase_create("lookup");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_names_and_paths);
    tcase_add_test(tc, test_lock_path_env);
    tcase_add_test(tc, test_paths_in_every_command);
    tcase_add_test(tc, test_lock_headers_name_files_that_exist);
    suite_add_tcase(s, tc);
    return s;
}
