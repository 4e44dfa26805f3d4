/* The command line: help of every sub-command, exit codes, --set, the `run` shorthand. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"

START_TEST(test_every_command_has_help)
{
    const QsimCommand *c = &qsim_commands[_i];
    const char *args[] = { c->name, "--help", NULL };
    g_autofree char *out = NULL;
    int rc = run_qsim(args, &out, NULL);
    ck_assert_msg(rc == 0, "qsim %s --help: exit %d", c->name, rc);
    g_autofree char *usage = g_strdup_printf("Usage:\n  qsim %s", c->name);
    ck_assert_msg(strstr(out, usage), "qsim %s --help does not start with its usage:\n%s", c->name, out);
}
END_TEST

START_TEST(test_top_level_help_and_version)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("--help", &out, NULL), 0);
    for (const QsimCommand *c = qsim_commands; c->name; c++)
        ck_assert_msg(strstr(out, c->name), "--help does not list %s", c->name);
    g_free(out);
    out = NULL;
    ck_assert_int_eq(run_qsim_line("--version", &out, NULL), 0);
    ck_assert(g_str_has_prefix(out, "qsim " QSIM_VERSION));
}
END_TEST

START_TEST(test_unknown_command_suggests)
{
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("lsit configs", NULL, &err), 2);
    ck_assert_msg(strstr(err, "unknown command 'lsit'; did you mean 'list'?"), "%s", err);
}
END_TEST

START_TEST(test_no_arguments_is_usage_error)
{
    const char *args[] = { NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
    ck_assert(strstr(err, "Usage:"));
}
END_TEST

START_TEST(test_config_set_and_errors)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("config teaching --set core.pause_cycles=140 --set protocol=moesi", &out, &err), 0);
    ck_assert(strstr(out, "  pause_cycles: 140\n"));
    ck_assert(strstr(out, "protocol: moesi\n"));
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("config teaching --set core.pause_cycles=-3", &out, &err), 2);
    ck_assert_msg(strstr(err, "--set core.pause_cycles=-3: core.pause_cycles: value -3 is out of range"), "%s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("config no-such-config", &out, &err), 2);
    ck_assert(strstr(err, "no-such-config: no such config file"));
    g_free(out);
    g_free(err);
    out = err = NULL;
    ck_assert_int_eq(run_qsim_line("config teaching --bogus", &out, &err), 2);
    ck_assert_msg(strstr(err, "unknown option --bogus (try `qsim config --help`)"), "%s", err);
}
END_TEST

/* A config file with an error: the message carries the file's position. */
START_TEST(test_config_file_error_position)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-cli-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "bad.yaml", NULL);
    ck_assert(g_file_set_contents(path, "name: b\narch: x86\ntopology:\n  sockets: 1\n  cores_per_socket: 2\n"
                                        "core:\n  rob: lots\n", -1, NULL));
    const char *args[] = { "config", path, NULL };
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim(args, NULL, &err), 2);
    g_autofree char *want = g_strdup_printf("%s:7:8: core.rob: expected an integer, got 'lots'", path);
    ck_assert_msg(strstr(err, want), "%s", err);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

/* `qsim config X` prints YAML that loads back to the same config. */
START_TEST(test_config_output_loads_back)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("config teaching.yaml", &out, NULL), 0);
    GError *error = NULL;
    g_autoptr(QsimConfig) a = config_load("teaching", NULL, &error);
    ck_assert_msg(a != NULL, "%s", error ? error->message : "");
    g_autoptr(QsimConfig) b = config_load_string(out, "printed", NULL, &error);
    ck_assert_msg(b != NULL, "%s", error ? error->message : "");
    ck_assert(config_equal(a, b));
}
END_TEST

START_TEST(test_list)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("list configs", &out, NULL), 0);
    ck_assert(strstr(out, "teaching "));
    ck_assert_int_eq(run_qsim_line("list trains", NULL, &err), 2);
}
END_TEST

/* The options that name the lock are one table: run, native and verify show each the same way. */
START_TEST(test_lock_options_shared)
{
    static const char *const commands[] = { "run", "native", "verify" };
    static const char *const options[] = { "lock", "lock-file", "lock-param" };
    g_autoptr(GPtrArray) docs = cli_describe_commands();
    const CliOption *first[G_N_ELEMENTS(options)] = { NULL };
    for (guint c = 0; c < G_N_ELEMENTS(commands); c++) {
        const CliCommandDoc *d = NULL;
        for (guint i = 0; i < docs->len && !d; i++)
            if (!strcmp(((CliCommandDoc *)docs->pdata[i])->command->name, commands[c]))
                d = docs->pdata[i];
        ck_assert_msg(d, "no command %s", commands[c]);
        for (guint k = 0; k < G_N_ELEMENTS(options); k++) {
            const CliOption *o = NULL;
            for (guint i = 0; i < d->options->len && !o; i++)
                if (!strcmp(((CliOption *)d->options->pdata[i])->long_name, options[k]))
                    o = d->options->pdata[i];
            ck_assert_msg(o, "qsim %s has no --%s", commands[c], options[k]);
            if (!first[k]) {
                first[k] = o;
                continue;
            }
            ck_assert_msg(o->short_name == first[k]->short_name && !g_strcmp0(o->arg, first[k]->arg) &&
                              !g_strcmp0(o->help, first[k]->help),
                          "qsim %s --%s differs from qsim run's", commands[c], options[k]);
        }
    }
    ck_assert_int_eq(first[0]->short_name, 'l');
}
END_TEST

/* `qsim run`'s modes: every pair has one row of the rules, and each refused pair is refused with
 * its row's message before anything runs; each combined pair (but --native, which needs the
 * host's compiler) runs. */
START_TEST(test_run_mode_rules)
{
    guint nmodes = 0;
    while (run_modes[nmodes].name)
        nmodes++;
    for (guint a = 0; a < nmodes; a++)
        for (guint b = a + 1; b < nmodes; b++) {
            guint pair = (1u << a) | (1u << b), rows = 0;
            for (guint i = 0; i < run_mode_rules_len; i++)
                rows += run_mode_rules[i].modes == pair;
            ck_assert_msg(rows == 1, "%s with %s: %u rows in run_mode_rules", run_modes[a].name, run_modes[b].name,
                          rows);
        }
    g_autofree char *dir = tmpdir();
    for (guint i = 0; i < run_mode_rules_len; i++) {
        const CliModeRule *r = &run_mode_rules[i];
        GString *line = g_string_new("run --config teaching --lock tas --threads 2 --iterations 2 --no-host-time");
        gboolean native = FALSE;
        for (guint m = 0; m < nmodes; m++)
            if (r->modes & (1u << m)) {
                /* a folder an example names (--out DIR) is a new one in the test's own */
                g_autoptr(GString) ex = g_string_new(run_modes[m].example);
                g_autofree char *fresh = g_strdup_printf("%s/out%u", dir, i);
                g_string_replace(ex, "DIR", fresh, 0);
                g_string_append_printf(line, " %s", ex->str);
                native |= !strcmp(run_modes[m].example, "--native");
            }
        g_autofree char *out = NULL, *err = NULL;
        if (!r->combine) {
            ck_assert_msg(run_qsim_line(line->str, &out, &err) == 2, "%s: not refused", line->str);
            g_autofree char *want = g_strdup_printf("qsim run: %s\n", r->message);
            ck_assert_msg(!strcmp(err, want), "%s: %s", line->str, err);
            ck_assert_str_eq(out, "");
        } else if (!native) {
            ck_assert_msg(run_qsim_line(line->str, &out, &err) == 0, "%s: %s", line->str, err);
        }
        g_string_free(line, TRUE);
    }
}
END_TEST

/* Fixed work and fixed time are one or the other, in run as in native (issue 29: run dropped the
 * count without a word). */
START_TEST(test_fixed_work_or_time)
{
    static const char *const lines[][2] = {
        { "run --config teaching --lock tas -i 5 -d 1000", "qsim: give --iterations or --duration, not both\n" },
        { "native --lock tas --iterations 5 --duration-ms 5", "qsim: give --iterations or --duration-ms, not both\n" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(lines); i++) {
        g_autofree char *out = NULL, *err = NULL;
        ck_assert_int_eq(run_qsim_line(lines[i][0], &out, &err), 2);
        ck_assert_str_eq(err, lines[i][1]);
    }
}
END_TEST

Suite *make_cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("commands");
    guint n = 0;
    while (qsim_commands[n].name)
        n++;
    tcase_add_loop_test(tc, test_every_command_has_help, 0, n);
    tcase_add_test(tc, test_top_level_help_and_version);
    tcase_add_test(tc, test_unknown_command_suggests);
    tcase_add_test(tc, test_no_arguments_is_usage_error);
    tcase_add_test(tc, test_config_set_and_errors);
    tcase_add_test(tc, test_config_file_error_position);
    tcase_add_test(tc, test_config_output_loads_back);
    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_lock_options_shared);
    tcase_add_test(tc, test_run_mode_rules);
    tcase_add_test(tc, test_fixed_work_or_time);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
