/* The workload schema: its rows are sound (defaults in range, names unique, every field a row),
 * each command's options are generated from it and checked by it, run/native/verify share
 * defaults, sweeps take their run-option axes from it, and reports echo it. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/workload/workload.h"
#include "sim/cli/commands.h"
#include "sim/sweep/sweep.h"
#include "tests/run_qsim.h"

static const WorkloadCommand commands[] = { WL_RUN, WL_NATIVE, WL_VERIFY, WL_SWEEP };

static gsize field_size(const WorkloadKey *k)
{
    switch (k->type) {
    case WL_UINT64: return sizeof(guint64);
    case WL_UINT: return sizeof(guint);
    case WL_ENUM: return sizeof(int);
    case WL_PLACEMENT: return sizeof(Placement);
    }
    g_assert_not_reached();
}

/* ---- the table ---- */

/* _i walks the rows: every default (per-command ones too) parses and lies in the range. */
START_TEST(test_defaults_in_range)
{
    const WorkloadKey *k = &workload_schema[_i];
    for (guint c = 0; c < G_N_ELEMENTS(commands); c++) {
        const char *def = workload_key_default(k, commands[c]);
        if (!def) {
            /* Not set: only a fixed-time setting, whose absence means fixed work, and 0 (what
             * the field holds then) is no value it takes. */
            ck_assert_msg(k->mode == WL_FIXED_TIME && k->min >= 1, "%s: no default", k->name);
            continue;
        }
        WorkloadOptions w;
        workload_init(&w, WL_RUN);
        g_autoptr(GError) e = NULL;
        ck_assert_msg(workload_parse(k, def, k->name, &w, &e), "%s: default '%s': %s", k->name, def,
                      e ? e->message : "");
        g_autofree char *back = workload_value_text(k, &w);
        ck_assert_str_eq(back, def);
    }
    for (const WorkloadDefault *d = k->defaults; d && d->commands; d++) {
        ck_assert_msg(d->why && *d->why, "%s: a per-command default without its reason", k->name);
        ck_assert_msg((d->commands & ~k->commands) == 0, "%s: a default for a command that lacks it", k->name);
    }
    if (k->type == WL_ENUM)
        ck_assert(k->choices && k->choices[0]);
    else
        ck_assert_uint_le(k->min, k->max);
    ck_assert_msg(k->help && *k->help && k->commands, "%s: help and commands", k->name);
    /* A sweep axis exactly when sweeps may vary the row. */
    ck_assert_msg(!k->axis == !(k->commands & WL_SWEEP), "%s: axis and WL_SWEEP disagree", k->name);
}
END_TEST

START_TEST(test_names_unique)
{
    for (guint i = 0; i < workload_schema_len; i++)
        for (guint j = i + 1; j < workload_schema_len; j++) {
            const WorkloadKey *a = &workload_schema[i], *b = &workload_schema[j];
            ck_assert_str_ne(a->name, b->name);
            ck_assert_str_ne(a->flag, b->flag);
            ck_assert(!a->short_flag || a->short_flag != b->short_flag);
            ck_assert(!a->axis || !b->axis || strcmp(a->axis, b->axis));
        }
}
END_TEST

/* Every field of WorkloadOptions is a row: the rows, sorted by offset, tile the struct with
 * nothing between them but alignment padding. */
START_TEST(test_every_field_a_row)
{
    g_autofree guint *order = g_new(guint, workload_schema_len);
    for (guint i = 0; i < workload_schema_len; i++)
        order[i] = i;
    for (guint i = 0; i < workload_schema_len; i++)
        for (guint j = i + 1; j < workload_schema_len; j++)
            if (workload_schema[order[j]].offset < workload_schema[order[i]].offset) {
                guint t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    gsize end = 0;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[order[i]];
        ck_assert_msg(k->offset >= end, "%s overlaps the row before it", k->name);
        ck_assert_msg(k->offset - end < field_size(k), "a field before %s has no row", k->name);
        end = k->offset + field_size(k);
    }
    ck_assert_msg(sizeof(WorkloadOptions) - end < sizeof(guint64), "a field at the end has no row");
}
END_TEST

/* ---- the same defaults everywhere ---- */

START_TEST(test_commands_share_defaults)
{
    WorkloadOptions run, native, verify;
    workload_init(&run, WL_RUN);
    workload_init(&native, WL_NATIVE);
    workload_init(&verify, WL_VERIFY);
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        g_autofree char *r = workload_value_text(k, &run), *n = workload_value_text(k, &native),
                        *v = workload_value_text(k, &verify);
        /* A difference only where the row documents it. */
        if (g_strcmp0(workload_key_default(k, WL_NATIVE), k->def) == 0)
            ck_assert_msg(!strcmp(r, n), "%s: run %s, native %s", k->name, r, n);
        if (g_strcmp0(workload_key_default(k, WL_VERIFY), k->def) == 0)
            ck_assert_msg(!strcmp(r, v), "%s: run %s, verify %s", k->name, r, v);
    }
    /* The one the commands used to disagree on. */
    ck_assert_uint_eq(run.cs_writes, 1);
    ck_assert_uint_eq(native.cs_writes, 1);
    ck_assert_uint_eq(verify.cs_writes, 1);
    /* and the documented exceptions */
    ck_assert_uint_eq(run.iterations, 1000);
    ck_assert_uint_eq(verify.iterations, 2);
    ck_assert_uint_eq(native.iterations, 10000);
    for (guint c = 0; c < G_N_ELEMENTS(commands); c++) {
        WorkloadOptions w;
        workload_init(&w, commands[c]);
        g_autoptr(GError) e = NULL;
        ck_assert_msg(workload_validate(&w, commands[c], &e), "%s", e ? e->message : "");
    }
}
END_TEST

/* ---- options generated per command ---- */

/* _i walks run, native, verify: one entry per row of the command, in table order. */
START_TEST(test_options_generated)
{
    WorkloadCommand cmd = commands[_i];
    WorkloadOptions w;
    workload_init(&w, cmd);
    WorkloadFlags f;
    workload_flags_init(&f, &w, cmd);
    guint n = 0;
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & cmd))
            continue;
        const GOptionEntry *e = &f.entries[n++];
        ck_assert_ptr_nonnull(e->long_name);
        ck_assert_str_eq(e->long_name, k->flag);
        ck_assert_int_eq(e->short_name, k->short_flag);
        ck_assert_int_eq(e->arg, G_OPTION_ARG_CALLBACK);
        const char *d = workload_key_default(k, cmd);
        g_autofree char *def = g_strdup_printf("(default %s)", d);
        if (d)
            ck_assert_msg(strstr(e->description, def), "%s: %s", k->flag, e->description);
        else
            ck_assert_msg(!strstr(e->description, "(default"), "%s: %s", k->flag, e->description);
    }
    ck_assert_ptr_null(f.entries[n].long_name);
    ck_assert_uint_gt(n, 3);
    workload_flags_clear(&f);
}
END_TEST

/* The help of each command lists its rows and only those. */
START_TEST(test_help_lists_rows)
{
    static const char *const names[] = { "run", "native", "verify" };
    g_autofree char *line = g_strdup_printf("%s --help", names[_i]);
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out, NULL), 0);
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        g_autofree char *flag = g_strdup_printf("--%s=", k->flag);
        gboolean listed = strstr(out, flag) != NULL;
        ck_assert_msg(listed == !!(k->commands & commands[_i]), "%s --help: %s %s", names[_i], flag,
                      listed ? "listed" : "missing");
    }
    ck_assert_msg(strstr(out, "--cs-writes=N") && strstr(out, "(default 1)"), "%s", out);
}
END_TEST

/* ---- values rejected, the option named ---- */

static const struct {
    const char *line, *err;
} bad_values[] = {
    { "run --lock tas --cs-writes 7000", "--cs-writes 7000: out of range [0, 64]" },
    { "native --lock tas --cs-writes 7000", "--cs-writes 7000: out of range [0, 64]" },
    { "verify --lock tas --cs-writes 7000", "--cs-writes 7000: out of range [0, 64]" },
    { "run --lock tas --threads 0", "--threads 0: out of range [1, 4096]" },
    { "run --lock tas -t many", "--threads many: expected a whole number" },
    { "verify --lock tas --iterations -2", "--iterations -2: out of range [1, 100000000]" },
    { "run --lock tas --data middle", "--data middle: one of same-line, separate-line" },
    { "run --lock tas --placement round", "--placement round: one of fill, spread" },
    { "run --lock tas --cs-work 1000001", "--cs-work 1000001: out of range [0, 1000000]" },
    { "native --lock tas --iterations 0", "--iterations 0: out of range [1, 100000000]" },
    { "verify --lock qrwlock --threads 2 --readers 3", "--readers 3: more readers than threads (2)" },
    /* a row the command does not take is no option of it */
    { "verify --lock tas --jitter 3", "unknown option --jitter" },
    { "run --lokc tas", "unknown option --lokc; did you mean --lock?" },
    { "run --lock tas --threds 2", "unknown option --threds; did you mean --threads?" },
    { "native --lock tas --placement fill", "unknown option --placement" },
};

START_TEST(test_bad_value_names_option)
{
    g_autofree char *err = NULL;
    int rc = run_qsim_line(bad_values[_i].line, NULL, &err);
    ck_assert_msg(rc == 2, "%s: exit %d", bad_values[_i].line, rc);
    ck_assert_msg(strstr(err, bad_values[_i].err), "%s: want '%s' in: %s", bad_values[_i].line, bad_values[_i].err,
                  err);
}
END_TEST

START_TEST(test_parse_and_validate)
{
    WorkloadOptions w;
    workload_init(&w, WL_RUN);
    const WorkloadKey *k = workload_key_find("cs-writes");
    ck_assert_ptr_eq(k, workload_key_find("cs_writes"));
    GError *e = NULL;
    ck_assert(!workload_parse(k, "65", "cs_writes", &w, &e));
    ck_assert_str_eq(e->message, "cs_writes 65: out of range [0, 64]");
    g_clear_error(&e);
    ck_assert(!workload_parse(k, "", "--cs-writes", &w, &e));
    ck_assert_str_eq(e->message, "--cs-writes : expected a whole number");
    g_clear_error(&e);
    ck_assert(!workload_parse(k, "99999999999999999999999", "--cs-writes", &w, &e));
    ck_assert(strstr(e->message, "out of range"));
    g_clear_error(&e);
    ck_assert(workload_parse(k, "64", "--cs-writes", &w, NULL));
    ck_assert_uint_eq(w.cs_writes, 64);
    ck_assert(workload_parse(workload_key_find("duration"), "9876543210", "x", &w, NULL));
    ck_assert_uint_eq(w.duration, 9876543210ull);
    /* Past the maximum, and 0 (not set is not a duration of 0 either). */
    ck_assert(!workload_parse(workload_key_find("duration"), "10000000001", "--duration", &w, &e));
    ck_assert_str_eq(e->message, "--duration 10000000001: out of range [1, 10000000000]");
    g_clear_error(&e);
    ck_assert(!workload_parse(workload_key_find("duration"), "0", "--duration", &w, &e));
    g_clear_error(&e);
    w.duration = 0;
    ck_assert(workload_parse(workload_key_find("data"), "same-line", "x", &w, NULL));
    ck_assert_int_eq(w.data, HARNESS_SAME_LINE);
    /* Library callers that fill the struct by hand get the same check. */
    w.cs_writes = 100;
    ck_assert(!workload_validate(&w, WL_RUN, &e));
    ck_assert_str_eq(e->message, "--cs-writes 100: out of range [0, 64]");
    g_clear_error(&e);
    w.cs_writes = 1;
    w.threads = 2;
    w.readers = 3;
    ck_assert(!workload_validate(&w, WL_VERIFY, &e));
    ck_assert_str_eq(e->message, "--readers 3: more readers than threads (2)");
    g_clear_error(&e);
    /* A row verify does not take is not its business. */
    w.readers = 0;
    w.jitter = G_MAXUINT;
    ck_assert(workload_validate(&w, WL_VERIFY, NULL));
    ck_assert(!workload_validate(&w, WL_RUN, NULL));
}
END_TEST

/* --writers sets --threads to readers + writers, and a sum out of the threads' range names
 * --writers, which made it (issue 29). */
START_TEST(test_writers_sets_threads)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock qrwlock --readers 1 --writers 1 --iterations 5 "
                                   "--format json --no-host-time", &out, NULL), 0);
    ck_assert_msg(strstr(out, "\"threads\" : 2,") && strstr(out, "\"readers\" : 1,"), "%s", out);
    ck_assert_int_eq(run_qsim_line("run --lock qrwlock --readers 4000 --writers 100", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--writers 100 with --readers 4000 makes 4100 threads: out of range [1, 4096]"), "%s",
                  err);
}
END_TEST

/* ---- sweeps and reports ---- */

/* Every sweep axis of the table is an axis of sweep files, and sets its field. */
START_TEST(test_sweep_axes_from_table)
{
    GString *text = g_string_new("locks: tas\n");
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!k->axis)
            continue;
        /* The last choice, or the maximum that is not the default. */
        g_autofree char *v = k->choices ? g_strdup(k->choices[1])
                                                : g_strdup_printf("%" G_GUINT64_FORMAT, MIN(k->max, k->min + 3));
        g_string_append_printf(text, "%s: %s\n", k->axis, v);
    }
    g_autoptr(GError) e = NULL;
    g_autoptr(Sweep) s = sweep_load_string(text->str, "all.yaml", &e);
    g_string_free(text, TRUE);
    ck_assert_msg(s, "%s", e ? e->message : "");
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(s, 0, &o, sets);
    ck_assert_uint_eq(o.workload.threads, 4);
    ck_assert_uint_eq(o.workload.readers, 3);
    ck_assert_uint_eq(o.workload.cs_writes, 3);
    ck_assert_uint_eq(o.workload.iterations, 4);
    ck_assert_uint_eq(o.workload.duration, 4); /* its minimum is 1 */
    ck_assert_uint_eq(o.workload.jitter, 3);
    ck_assert_int_eq(o.workload.placement.policy, PLACE_SPREAD);
    ck_assert_int_eq(o.workload.data, HARNESS_SEPARATE_LINE);
    ck_assert_ptr_null(o.sets[0]);
    /* a row without an axis is none */
    g_autoptr(Sweep) t = sweep_load_string("locks: tas\nduration_ms: 5\n", "ms.yaml", &e);
    ck_assert(!t);
    ck_assert_msg(strstr(e->message, "ms.yaml:2:1: unknown axis 'duration_ms'"), "%s", e->message);
}
END_TEST

static JsonObject *echo(const WorkloadOptions *w, WorkloadCommand cmd, JsonNode **root)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    workload_add_json(w, cmd, b);
    json_builder_end_object(b);
    *root = json_builder_get_root(b);
    return json_node_get_object(*root);
}

/* The echo shows the command's rows, and only the settings of the run's mode. */
START_TEST(test_echo)
{
    WorkloadOptions w;
    workload_init(&w, WL_RUN);
    w.cs_writes = 5;
    JsonNode *root;
    JsonObject *o = echo(&w, WL_RUN, &root);
    ck_assert_int_eq(json_object_get_int_member(o, "cs_writes"), 5);
    ck_assert_str_eq(json_object_get_string_member(o, "data"), "separate-line");
    ck_assert_str_eq(json_object_get_string_member(o, "placement"), "fill");
    ck_assert_int_eq(json_object_get_int_member(o, "iterations"), 1000);
    ck_assert(!json_object_has_member(o, "duration"));
    ck_assert(!json_object_has_member(o, "duration_ms"));
    json_node_unref(root);
    w.duration = 500;
    o = echo(&w, WL_RUN, &root);
    ck_assert(!json_object_has_member(o, "iterations"));
    ck_assert_int_eq(json_object_get_int_member(o, "duration"), 500);
    json_node_unref(root);
    o = echo(&w, WL_NATIVE, &root);
    ck_assert(!json_object_has_member(o, "placement") && !json_object_has_member(o, "jitter"));
    ck_assert(json_object_has_member(o, "cs_work") && json_object_has_member(o, "threads"));
    json_node_unref(root);
}
END_TEST

START_TEST(test_reference_text)
{
    g_autofree char *md = workload_reference_markdown();
    for (guint i = 0; i < workload_schema_len; i++) {
        g_autofree char *flag = g_strdup_printf("`--%s`", workload_schema[i].flag);
        ck_assert_msg(strstr(md, flag), "%s missing:\n%s", flag, md);
    }
    ck_assert_msg(strstr(md, "verify: 2 (") && strstr(md, "native: 10000 ("), "%s", md);
    ck_assert_msg(strstr(md, "| 0 to 64 (8 lines"), "%s", md);
}
END_TEST

/* A failed verify prints a replay line with every workload option it ran (it used to drop
 * --cs-writes, so the replay ran another workload). */
START_TEST(test_verify_replay_has_workload)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-workload-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "broken.qs", NULL);
    ck_assert(g_file_set_contents(path, ".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                                        "lock:\n    ld32 r0, [lock_word]\n    bne r0, 0, lock\n"
                                        "    st32 [lock_word], 1\n    ret\nunlock:\n    st32.rel [lock_word], 0\n"
                                        "    ret\n", -1, NULL));
    g_autofree char *line = g_strdup_printf("verify --lock-file %s --cs-writes 2 --data same-line --seeds 50", path);
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line(line, &out, NULL), 1);
    ck_assert_msg(strstr(out, "replay: qsim verify --lock-file") && strstr(out, " --cs-writes 2 ") &&
                  strstr(out, " --data same-line ") && strstr(out, " --threads 2 ") &&
                  strstr(out, " --iterations 2 "), "%s", out);
    g_unlink(path);
    g_rmdir(dir);
}
END_TEST

Suite *make_workload_suite(void)
{
    Suite *s = suite_create("workload");
    TCase *tc = tcase_create("schema");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_defaults_in_range, 0, workload_schema_len);
    tcase_add_test(tc, test_names_unique);
    tcase_add_test(tc, test_every_field_a_row);
    tcase_add_test(tc, test_commands_share_defaults);
    tcase_add_loop_test(tc, test_options_generated, 0, 3);
    tcase_add_test(tc, test_parse_and_validate);
    tcase_add_test(tc, test_sweep_axes_from_table);
    tcase_add_test(tc, test_echo);
    tcase_add_test(tc, test_reference_text);
    suite_add_tcase(s, tc);
    tc = tcase_create("command");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_help_lists_rows, 0, 3);
    tcase_add_loop_test(tc, test_bad_value_names_option, 0, G_N_ELEMENTS(bad_values));
    tcase_add_test(tc, test_writers_sets_threads);
    tcase_add_test(tc, test_verify_replay_has_workload);
    suite_add_tcase(s, tc);
    return s;
}
