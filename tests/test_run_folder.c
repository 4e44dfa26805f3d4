/* A run folder read back by `qsim run --replay` (issue 45 items 3, 4, 6): a folder someone edited
 * or damaged is refused with exit 2 and a message naming the file, never a crash, a hang, or a
 * replay of something else called "the same report"; and `--out` never replaces a file the user
 * already had in the folder (item 5). */
#include <check.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

#define ASSERT_ERR(err, text) ck_assert_msg(strstr((err), (text)), "expected `%s` in:\n%.2000s", (text), (err))

/* A small kept run: DIR/kept. */
static char *keep_run(const char *dir)
{
    char *kept = g_build_filename(dir, "kept", NULL);
    const char *a[] = { "run", "--config", "teaching", "--lock", "tas", "--threads", "2", "--iterations", "5",
                        "--out", kept, NULL };
    g_autofree char *err = NULL;
    int rc = run_qsim(a, NULL, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    return kept;
}

/* `qsim run --replay DIR` under a CPU, memory and wall-clock limit; its exit status, stderr in *err. */
static int replay(const char *kept, char **err)
{
    const char *a[] = { "run", "--replay", kept, NULL };
    return run_qsim_with(a, RUN_QSIM_LIMITED | RUN_QSIM_WALL, NULL, err);
}

/* run.json with `edit` applied to its root object. */
static void edit_record(const char *kept, void (*edit)(JsonObject *root, const char *arg), const char *arg)
{
    g_autofree char *path = g_build_filename(kept, "run.json", NULL);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_file(p, path, NULL));
    edit(json_node_get_object(json_parser_get_root(p)), arg);
    g_autoptr(JsonGenerator) g = json_generator_new();
    json_generator_set_root(g, json_parser_get_root(p));
    ck_assert(json_generator_to_file(g, path, NULL));
}

/* Adds the space-separated words of `arg` to argv. */
static void add_words(JsonObject *root, const char *arg)
{
    g_auto(GStrv) words = g_strsplit(arg, " ", -1);
    JsonArray *argv = json_object_get_array_member(root, "argv");
    for (guint i = 0; words[i]; i++)
        json_array_add_string_element(argv, words[i]);
}

static void format_seven(JsonObject *root, const char *arg)
{
    (void)arg;
    json_object_set_int_member(root, "format", 7);
}

static void format_json(JsonObject *root, const char *arg)
{
    (void)arg;
    json_object_set_string_member(root, "format", "json");
    json_object_set_string_member(root, "report", "report.json");
}

/* ---- item 3: nesting ---- */

/* 100,000 `[` in run.json overflowed json-glib's recursive parser (SIGSEGV). */
START_TEST(test_deep_record_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    g_autofree char *deep = g_strnfill(100000, '[');
    g_free(write_file(kept, "run.json", deep));
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "run.json:1:33: nested deeper than 32 levels");
    rm_rf(dir);
}
END_TEST

/* ---- item 4: what is in the folder's place of a file ---- */

static const char *const folder_files[] = { "run.json", "report.txt", "config.yaml", "lock.qs" };

/* A FIFO blocked the replay for ever; /dev/zero was read until memory ran out. */
START_TEST(test_fifo_in_folder_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    g_autofree char *path = g_build_filename(kept, folder_files[_i], NULL);
    ck_assert(g_unlink(path) == 0 && mkfifo(path, 0600) == 0);
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", folder_files[_i], rc, err);
    g_autofree char *want = g_strdup_printf("%s: not a regular file (a FIFO)", folder_files[_i]);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

START_TEST(test_device_in_folder_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    g_autofree char *path = g_build_filename(kept, folder_files[_i], NULL);
    ck_assert(g_unlink(path) == 0 && symlink("/dev/zero", path) == 0);
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %s", folder_files[_i], rc, err);
    g_autofree char *want = g_strdup_printf("%s: not a regular file (a character device)", folder_files[_i]);
    ASSERT_ERR(err, want);
    rm_rf(dir);
}
END_TEST

/* ---- item 6: a replay refuses what it cannot make again ---- */

/* Words added to the kept command line, and what the refusal names. */
static const struct {
    const char *words, *want;
} argv_cases[] = {
    { "--vs ttas", "run.json's command line has --vs, which a kept run cannot have" },
    { "--native", "has --native" },
    { "--repeat 2", "has --repeat" },
    { "--trace", "has a trace option" },
    { "--trace-out TRACE", "has --trace-out" },
    { "--trace-html TRACE", "has --trace-html" },
    { "--out OTHER", "has --out" },
    { "--help", "--help asks for help, not a run" },
    { "-h", "-h asks for help, not a run" },
    { "--help-all", "--help-all asks for help, not a run" },
    { "-ph", "-ph asks for help, not a run" },
};

START_TEST(test_replay_refuses_other_modes)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    g_autofree char *trace = g_build_filename(dir, "trace", NULL), *other = g_build_filename(dir, "other", NULL);
    g_autoptr(GString) words = g_string_new(argv_cases[_i].words);
    g_string_replace(words, "TRACE", trace, 0);
    g_string_replace(words, "OTHER", other, 0);
    edit_record(kept, add_words, words->str);
    g_autofree char *err = NULL;
    const char *a[] = { "run", "--replay", kept, NULL };
    g_autofree char *out = NULL;
    int rc = run_qsim_with(a, RUN_QSIM_LIMITED | RUN_QSIM_WALL, &out, &err);
    ck_assert_msg(rc == 2, "%s: exit %d: %.2000s", words->str, rc, err);
    ASSERT_ERR(err, argv_cases[_i].want);
    ck_assert_msg(!strstr(err, "the same report"), "%.2000s", err);
    ck_assert_msg(!*out, "%s: printed %.200s", words->str, out);
    ck_assert_msg(!g_file_test(trace, G_FILE_TEST_EXISTS) && !g_file_test(other, G_FILE_TEST_EXISTS),
                  "%s: wrote where the folder said", words->str);
    rm_rf(dir);
}
END_TEST

/* A NUL byte after the kept report or lock: strcmp and the lock's hash stopped at it, so the
 * folder passed as the same report, byte for byte. */
START_TEST(test_nul_appended_is_refused)
{
    static const char *const files[] = { "report.txt", "lock.qs", "config.yaml" };
    for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *dir = tmpdir();
        g_autofree char *kept = keep_run(dir);
        g_autofree char *text = slurp(kept, files[i]);
        g_autoptr(GString) s = g_string_new(text);
        g_string_append_len(s, "\0tail", 5);
        g_free(write_bytes(kept, files[i], s->str, s->len));
        g_autofree char *err = NULL;
        int rc = replay(kept, &err);
        ck_assert_msg(rc == 2, "%s: exit %d: %s", files[i], rc, err);
        g_autofree char *want = g_strdup_printf("%s:", files[i]);
        ASSERT_ERR(err, want);
        ASSERT_ERR(err, "a NUL byte");
        rm_rf(dir);
    }
}
END_TEST

/* "format": 7 was read as text; a format the command line does not make was replayed as text
 * and compared with another file. */
START_TEST(test_bad_format_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    edit_record(kept, format_seven, NULL);
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "run.json: format: expected \"text\", \"json\" or \"csv\"");
    edit_record(kept, format_json, NULL);
    g_autofree char *report = slurp(kept, "report.txt");
    g_free(write_file(kept, "report.json", report));
    g_free(err);
    err = NULL;
    rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "run.json says its report is json, but its command line makes text");
    rm_rf(dir);
}
END_TEST

static void version_two(JsonObject *root, const char *arg)
{
    (void)arg;
    json_object_set_int_member(root, "qsim_run_folder", 2);
}

/* The lock's provenance member replaced by `arg` parsed as JSON (a string, a number, ...). */
static void lock_provenance(JsonObject *root, const char *arg)
{
    JsonNode *n = json_from_string(arg, NULL);
    ck_assert_ptr_nonnull(n);
    json_object_set_member(json_object_get_object_member(root, "provenance"), "lock", n);
}

/* A folder of another format version was "not a run folder's record": its version is named. */
START_TEST(test_other_version_is_named)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    edit_record(kept, version_two, NULL);
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "run.json: a run folder of format version 2, and this qsim reads version 1");
    rm_rf(dir);
}
END_TEST

/* A provenance.lock that is not an object printed a Json-CRITICAL before the refusal. */
static const char *const lock_tampers[] = { "\"tas\"", "5", "[1]", "{\"sha256\": 5}" };

START_TEST(test_tampered_lock_provenance_is_refused)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *kept = keep_run(dir);
    edit_record(kept, lock_provenance, lock_tampers[_i]);
    g_autofree char *err = NULL;
    int rc = replay(kept, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ck_assert_msg(!strstr(err, "CRITICAL") && !strstr(err, "WARNING"), "GLib complained:\n%s", err);
    ASSERT_ERR(err, "run.json: provenance has no sha256 for the config or lock");
    rm_rf(dir);
}
END_TEST

/* ---- item 5: --out and what the folder holds ---- */

/* --out DIR wrote over a config.yaml of the user's own in DIR without a word: a folder that is
 * not empty is refused, unless --force says to replace the run's files there. */
START_TEST(test_out_keeps_users_files)
{
    g_autofree char *dir = tmpdir();
    g_autofree char *mine = write_file(dir, "config.yaml", "# mine\n");
    const char *a[] = { "run", "--config", "teaching", "--lock", "tas", "--iterations", "2", "--out", dir, NULL };
    g_autofree char *err = NULL;
    int rc = run_qsim(a, NULL, &err);
    ck_assert_msg(rc == 2, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "the folder is not empty (it holds config.yaml)");
    ASSERT_ERR(err, "--force");
    g_autofree char *text = slurp(dir, "config.yaml");
    ck_assert_str_eq(text, "# mine\n");
    g_autofree char *record = g_build_filename(dir, "run.json", NULL);
    ck_assert(!g_file_test(record, G_FILE_TEST_EXISTS));
    /* asked: the run replaces it, and replays */
    const char *forced[] = { "run", "--config", "teaching", "--lock", "tas", "--iterations", "2", "--out", dir,
                             "--force", NULL };
    g_free(err);
    err = NULL;
    rc = run_qsim(forced, NULL, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    g_free(err);
    err = NULL;
    rc = replay(dir, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ASSERT_ERR(err, "the same report as report.txt");
    /* --force alone is a mistake, not a silent no-op */
    const char *alone[] = { "run", "--config", "teaching", "--lock", "tas", "--force", NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(alone, NULL, &err), 2);
    ASSERT_ERR(err, "--force belongs to --out");
    rm_rf(dir);
}
END_TEST

Suite *make_run_folder_suite(void)
{
    Suite *s = suite_create("run_folder");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_deep_record_is_refused);
    tcase_add_loop_test(tc, test_fifo_in_folder_is_refused, 0, G_N_ELEMENTS(folder_files));
    tcase_add_loop_test(tc, test_device_in_folder_is_refused, 0, G_N_ELEMENTS(folder_files));
    tcase_add_loop_test(tc, test_replay_refuses_other_modes, 0, G_N_ELEMENTS(argv_cases));
    tcase_add_test(tc, test_nul_appended_is_refused);
    tcase_add_test(tc, test_bad_format_is_refused);
    tcase_add_test(tc, test_other_version_is_named);
    tcase_add_loop_test(tc, test_tampered_lock_provenance_is_refused, 0, G_N_ELEMENTS(lock_tampers));
    tcase_add_test(tc, test_out_keeps_users_files);
    suite_add_tcase(s, tc);
    return s;
}
