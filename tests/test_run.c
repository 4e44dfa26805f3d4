/* The lock benchmark end to end: every lock on an x86 and an arm64 machine completes with
 * mutual exclusion and a complete report; runs are deterministic; bad input is exit 2; a
 * stalled run is exit 1 with what each core waited on. */
#include <check.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/run/run.h"
#include "sim/workload/placement.h"
#include "sim/base/report.h"
#include "tests/run_qsim.h"
#include "tests/temp_files.h"
#include "tests/skip.h"
#include "tests/report_keys.h"

static const char *const locks[] = { "tas", "ttas", "ticket", "mcs", "clh", "qspin", "qspin-cmpxchg", "qrwlock" };
static const char *const arch_configs[] = { "haswell", "neoverse-n1" };
static const guint thread_counts[] = { 1, 2, 4 };

/* The keys the issue promises, as flattened paths. */
static const char *const required_keys[] = {
    "config", "arch", "lock", "threads", "seed", "cycles", "acquisitions", "cycles_per_acquisition",
    "latency.mean", "latency.p50", "latency.p99", "per_thread.0.core", "per_thread.0.acquisitions",
    "per_thread.0.cycles_waiting", "fairness.min", "fairness.avg", "fairness.max", "mutual_exclusion",
    "machine_clears.memory_ordering", "machine_clears.penalty_cycles", "machine_clears.squashed_ops",
    "branch_mispredicts.count", "branch_mispredicts.penalty_cycles", "branch_mispredicts.squashed_ops", "paused_cycles",
    "atomics.count", "atomics.failed_cas", "atomics.cycles", "coherence.messages.GetS",
    "coherence.invalidations", "coherence.rfo", "coherence.lock_line.rfo", "coherence.lock_line.invalidations",
    "l1_hit_rate", "sim_instructions", "host_seconds",
};

static gboolean has_key(GArray *f, const char *key)
{
    for (guint i = 0; i < f->len; i++)
        if (!strcmp(g_array_index(f, ReportField, i).key, key))
            return TRUE;
    return FALSE;
}

START_TEST(test_every_lock_every_arch)
{
    guint n = _i;
    const char *lock = locks[n % G_N_ELEMENTS(locks)];
    n /= G_N_ELEMENTS(locks);
    const char *config = arch_configs[n % G_N_ELEMENTS(arch_configs)];
    n /= G_N_ELEMENTS(arch_configs);
    guint threads = thread_counts[n];
    RunOptions o;
    run_options_init(&o);
    o.config = config;
    o.lock = lock;
    o.workload.threads = threads;
    o.workload.iterations = test_scale_quick() ? 5 : 30;
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
    ck_assert_msg(r.ok, "%s on %s, %u threads: %s", lock, config, threads, r.failure);
    /* The JSON parses back and carries every promised key. */
    g_autofree char *json = report_to_json(r.report);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, json, -1, NULL));
    GArray *f = report_flatten(json_parser_get_root(p));
    for (guint k = 0; k < G_N_ELEMENTS(required_keys); k++)
        ck_assert_msg(has_key(f, required_keys[k]), "%s: no key %s", lock, required_keys[k]);
    report_fields_free(f);
    JsonObject *obj = json_node_get_object(r.report);
    ck_assert_int_eq(json_object_get_int_member(obj, "acquisitions"), threads * o.workload.iterations);
    ck_assert(json_object_get_boolean_member(obj, "mutual_exclusion"));
    ck_assert_int_gt(json_object_get_int_member(obj, "cycles"), 0);
    run_result_clear(&r);
}
END_TEST

/* Every machine model runs a two-thread ticket lock to completion with mutual exclusion. */
static const char *const all_configs[] = { "haswell", "westmere-ex", "skylake-sp", "neoverse-n1", "thunderx",
                                           "magny-cours", "teaching" };

START_TEST(test_every_config_runs_ticket)
{
    RunOptions o;
    run_options_init(&o);
    o.config = all_configs[_i];
    o.lock = "ticket";
    o.workload.iterations = test_scale_quick() ? 5 : 50;
    o.check = TRUE; /* coherence invariants after every transition */
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
    ck_assert_msg(r.ok, "%s: %s", o.config, r.failure);
    run_result_clear(&r);
}
END_TEST

static char *report_text(const RunOptions *o, ReportFormat fmt)
{
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(o, &r, &error), "%s", error ? error->message : "");
    char *s = report_format(r.report, fmt);
    run_result_clear(&r);
    return s;
}

START_TEST(test_deterministic)
{
    RunOptions o;
    run_options_init(&o);
    o.lock = "qspin";
    o.workload.threads = 4;
    o.workload.iterations = 20;
    o.workload.jitter = 40;
    o.host_time = FALSE;
    g_autofree char *a = report_text(&o, REPORT_JSON), *b = report_text(&o, REPORT_JSON);
    ck_assert_str_eq(a, b);
    g_autofree char *t1 = report_text(&o, REPORT_TEXT), *t2 = report_text(&o, REPORT_TEXT);
    ck_assert_str_eq(t1, t2);
    /* and the seed matters */
    o.seed = 2;
    g_autofree char *c = report_text(&o, REPORT_JSON);
    ck_assert_str_ne(a, c);
}
END_TEST

START_TEST(test_fixed_time_mode)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "teaching";
    o.lock = "ticket";
    o.workload.duration = 20000;
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
    ck_assert_msg(r.ok, "%s", r.failure);
    JsonObject *obj = json_node_get_object(r.report);
    ck_assert_int_eq(json_object_get_int_member(obj, "cycles"), 20000);
    JsonObject *fair = json_object_get_object_member(obj, "fairness");
    ck_assert_int_gt(json_object_get_int_member(fair, "min"), 0);
    ck_assert_str_eq(json_object_get_string_member(obj, "mode"), "fixed-time");
    run_result_clear(&r);
}
END_TEST

START_TEST(test_readers_and_writers)
{
    RunOptions o;
    run_options_init(&o);
    o.config = "neoverse-n1";
    o.lock = "qrwlock";
    o.workload.threads = 4;
    o.workload.readers = 2;
    o.workload.iterations = 20;
    RunResult r;
    GError *error = NULL;
    ck_assert_msg(run_simulation(&o, &r, &error), "%s", error ? error->message : "");
    ck_assert_msg(r.ok, "%s", r.failure);
    JsonArray *pt = json_object_get_array_member(json_node_get_object(r.report), "per_thread");
    ck_assert_str_eq(json_object_get_string_member(json_array_get_object_element(pt, 0), "role"), "reader");
    ck_assert_str_eq(json_object_get_string_member(json_array_get_object_element(pt, 3), "role"), "writer");
    run_result_clear(&r);
}
END_TEST

START_TEST(test_bad_input_is_exit_2)
{
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --threads 5000", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--threads 5000: out of range [1, 4096]"), "%s", err);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("--config teaching --lock tiket", NULL, &err), 2);
    ck_assert_msg(strstr(err, "no built-in lock `tiket`; did you mean `ticket`?"), "%s", err);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching", NULL, &err), 2);
    ck_assert_msg(strstr(err, "--lock NAME|PATH or --lock-file PATH"), "%s", err);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --format xml", NULL, &err), 2);
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config nosuch --lock ticket", NULL, &err), 2);
    ck_assert_msg(strstr(err, "nosuch: no such config file"), "%s", err);
}
END_TEST

START_TEST(test_cli_formats)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line("--config teaching --lock ticket --iterations 10 --format csv --no-host-time",
                                   &out, NULL), 0);
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 3); /* header, row, "" */
    ck_assert_msg(g_str_has_prefix(lines[0], "schema_version,kind,config,arch,lock,threads"), "%s", lines[0]);
    ck_assert_msg(g_str_has_prefix(lines[1], "1,report,teaching,x86,ticket,"), "%s", lines[1]);
    ck_assert(!strstr(lines[0], "host_seconds"));
    g_free(out);
    out = NULL;
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock qspin --vs qspin-cmpxchg --iterations 20", &out, NULL), 0);
    ck_assert_msg(strstr(out, "cycles_per_acquisition") && strstr(out, "a: qspin") && strstr(out, "b: qspin-cmpxchg") &&
                  strstr(out, "b/a"), "%s", out);
}
END_TEST

/* A comparison as one document: `labels`, both whole reports, and b/a of every number. */
static void assert_compare_json(const char *out, const char *la, const char *lb)
{
    g_autoptr(JsonParser) jp = json_parser_new();
    g_autoptr(GError) error = NULL;
    ck_assert_msg(json_parser_load_from_data(jp, out, -1, &error), "%s\n%s", error ? error->message : "", out);
    JsonObject *o = json_node_get_object(json_parser_get_root(jp));
    JsonObject *labels = json_object_get_object_member(o, "labels");
    ck_assert_str_eq(json_object_get_string_member(labels, "a"), la);
    ck_assert_str_eq(json_object_get_string_member(labels, "b"), lb);
    JsonObject *a = json_object_get_object_member(o, "a"), *b = json_object_get_object_member(o, "b");
    JsonObject *r = json_object_get_object_member(o, "b_over_a");
    ck_assert(json_object_has_member(a, "mutual_exclusion") && json_object_has_member(b, "mutual_exclusion"));
    static const char *const numbers[] = { "acquisitions", "cycles_per_acquisition", "latency.mean", "fairness.max" };
    for (guint i = 0; i < G_N_ELEMENTS(numbers); i++) {
        double x = report_key_double(a, numbers[i]), y = report_key_double(b, numbers[i]);
        ck_assert_msg(x != 0, "%s", numbers[i]);
        ck_assert_double_eq_tol(report_key_double(r, numbers[i]), y / x, 1e-9);
    }
    ck_assert(!json_object_has_member(r, "lock")); /* strings have no ratio */
}

/* CSV: the pair document flattened, one header and one row: labels, a's keys, b's, then b/a. */
static void assert_compare_csv(const char *out, const char *la, const char *lb)
{
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    ck_assert_uint_eq(g_strv_length(lines), 3); /* header, row, "" */
    ck_assert_msg(g_str_has_prefix(lines[0], "schema_version,kind,labels.a,labels.b,a.config,a.arch,a.lock,"), "%s",
                  lines[0]);
    g_autofree char *row = g_strdup_printf("1,pair,%s,%s,", la, lb);
    ck_assert_msg(g_str_has_prefix(lines[1], row), "%s", lines[1]);
    ck_assert_msg(strstr(lines[0], ",b.cycles_per_acquisition,") && strstr(lines[0], ",b_over_a.cycles_per_acquisition,"),
                  "%s", lines[0]);
}

/* --vs with --format json|csv: one document, not the text table (it used to print text). */
START_TEST(test_vs_formats)
{
    g_autofree char *json = NULL, *csv = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --vs tas --iterations 20 --no-host-time "
                                   "--format json", &json, &err), 0);
    assert_compare_json(json, "ticket", "tas");
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --vs tas --iterations 20 --no-host-time "
                                   "--format csv", &csv, NULL), 0);
    assert_compare_csv(csv, "ticket", "tas");
}
END_TEST

/* --native with --format json|csv: the model (a) and the host (b) in one document. */
START_TEST(test_native_formats)
{
    g_autofree char *json = NULL, *csv = NULL, *err = NULL;
    int rc = run_qsim_line("run --config teaching --lock ticket --threads 1 --iterations 200 --native --format json",
                           &json, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    assert_compare_json(json, "model", "host");
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock ticket --threads 1 --iterations 200 --native "
                                   "--format csv", &csv, NULL), 0);
    assert_compare_csv(csv, "model", "host");
}
END_TEST

/* --native: the same lock and workload on the host, printed beside the model. */
START_TEST(test_native_beside_model)
{
    if (g_get_num_processors() < 2) {
        qsim_test_skip("run/test_native_beside_model", "one CPU: the model-vs-host comparison is not run");
        return;
    }
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("run --config haswell --lock ticket --threads 2 --iterations 200 --native", &out, &err);
    ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
    ck_assert_msg(strstr(out, "model") && strstr(out, "host") && strstr(out, "cycles_per_acquisition"), "%s", out);
    /* printed once */
    ck_assert_ptr_eq(strstr(out, "cycles_per_acquisition"), g_strrstr(out, "cycles_per_acquisition"));
}
END_TEST

/* Runs `qsim run --config CONFIG --lock-file F --set run.stall_cycles=STALL` on a lock whose
 * `lock` body is `lock_body` (its unlock just returns); the exit status, and what it printed. */
static int run_lock_body(const char *config, const char *lock_body, int stall, char **out, char **err)
{
    g_autofree char *dir = g_dir_make_tmp("qsim-run-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "lock.qs", NULL);
    g_autofree char *text = g_strdup_printf(".shared lock_word 4 own_line\n.entry lock\n.entry unlock\n"
                                            "lock:\n%sunlock:\n    ret\n", lock_body);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    g_autofree char *line = g_strdup_printf("run --config %s --lock-file %s --set run.stall_cycles=%d", config,
                                            path, stall);
    int rc = run_qsim_line(line, out, err);
    g_unlink(path);
    g_rmdir(dir);
    return rc;
}

/* Calls nested past the 64-deep return stack stop the thread (they used to wrap around and
 * return to the wrong place): a fault, exit 1 (tests/test_robustness.c has the words). */
START_TEST(test_call_depth_stops_the_thread)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_lock_body("teaching", "    call lock\n    ret\n", 2000, &out, &err), 1);
    ck_assert_msg(strstr(err, "the run faulted") && strstr(err, "call stack overflow"), "%s", err);
    ck_assert_msg(!strstr(out, "MUTUAL EXCLUSION VIOLATED"), "%s", out);
}
END_TEST

/* --trace quotes the protocol rows as they fire. */
START_TEST(test_trace_quotes_rows)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock tas --iterations 1 --trace", &out, &err), 0);
    ck_assert_msg(strstr(err, "I + Store -> IM_AD") && strstr(err, "IM_AD + Data -> M") && strstr(err, "home"),
                  "%.2000s", err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* and the pipeline's events, with the source line of the op */
    ck_assert_int_eq(run_qsim_line("run --config haswell --lock qspin --threads 3 --iterations 30 --trace", &out, &err), 0);
    ck_assert_msg(strstr(err, "pipeline: memory-ordering machine clear: the load at qspin:"), "%.2000s", err);
    ck_assert_msg(strstr(err, "pipeline: mispredict: the branch at "), "%.2000s", err);
}
END_TEST

/* A lock that sleeps for good stops every core retiring: the watchdog ends the run, exit 1. */
START_TEST(test_stall_is_exit_1)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_lock_body("neoverse-n1", "    wfe\n    jmp lock\n", 5000, &out, &err), 1);
    ck_assert_msg(strstr(err, "the run stalled") && strstr(err, "core 0"), "%s", err);
    /* Nothing was left to happen, so it ended before the window closed: the message says so,
     * not that nothing retired for the whole window (issue 45: "nothing retired for 1000200
     * cycles ... stalled at cycle 1600"). */
    ck_assert_msg(strstr(err, "no core retired anything after cycle ") &&
                  strstr(err, "nothing was left to happen before the stall window (5000 cycles: run.stall_cycles) closed") &&
                  !strstr(err, "for 5000 cycles"), "%s", err);
    ck_assert_msg(!strstr(err, "every thread had finished"), "%s", err);
}
END_TEST

/* A noiseless run that locked into one interleaving says so on stderr; the same run with noise,
 * or a fair lock, does not.  The streak is in the report. */
static const struct {
    const char *line, *warning;   /* NULL: none */
} phase_cases[] = {
    { "run --config haswell --lock ttas --threads 2 --duration 200000", "never acquired the lock in the measured window" },
    { "run --config haswell --lock ttas --threads 2 --iterations 600", "one thread acquired the lock 600 times in a row" },
    { "run --config haswell --lock ttas --threads 2 --iterations 600 --jitter 50", NULL },
    { "run --config haswell --lock ticket --threads 2 --iterations 600", NULL },
    { "run --config haswell --lock ticket --vs ttas --threads 2 --iterations 600", "ttas: one thread acquired the lock 600" },
};

START_TEST(test_phase_lock_warning)
{
    g_autofree char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_qsim_line(phase_cases[_i].line, &out, &err), 0);
    if (phase_cases[_i].warning)
        ck_assert_msg(strstr(err, "qsim run: warning: ") && strstr(err, phase_cases[_i].warning), "%s: %s",
                      phase_cases[_i].line, err);
    else
        ck_assert_msg(!strstr(err, "warning"), "%s: %s", phase_cases[_i].line, err);
    if (strstr(phase_cases[_i].line, "--vs"))
        ck_assert_msg(strstr(out, "one seed is one sample"), "%s", out);
    else
        ck_assert_msg(strstr(out, "longest_streak:"), "%s", out);
}
END_TEST

/* Provenance: the report names what it was made of, and the config's hash is that of what
 * `qsim config` prints for the same --set. */
START_TEST(test_provenance)
{
    g_autofree char *out = NULL, *err = NULL, *yaml = NULL;
    ck_assert_int_eq(run_qsim_line("run --config teaching --lock tas --threads 2 --iterations 20 --set "
                                   "core.pause_cycles=9 --format json", &out, &err), 0);
    ck_assert_int_eq(run_qsim_line("config teaching --set core.pause_cycles=9", &yaml, NULL), 0);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *prov = json_object_get_object_member(json_node_get_object(json_parser_get_root(p)), "provenance");
    ck_assert_ptr_nonnull(prov);
    ck_assert_str_eq(json_object_get_string_member(prov, "qsim"), QSIM_VERSION);
    ck_assert(strlen(json_object_get_string_member(prov, "commit")) > 0);
    ck_assert_msg(strstr(json_object_get_string_member(prov, "command"), "qsim run --config teaching --lock tas"),
                  "%s", json_object_get_string_member(prov, "command"));
    JsonObject *cfg = json_object_get_object_member(prov, "config");
    g_autofree char *sha = g_compute_checksum_for_string(G_CHECKSUM_SHA256, yaml, -1);
    ck_assert_str_eq(json_object_get_string_member(cfg, "sha256"), sha);
    ck_assert(g_str_has_suffix(json_object_get_string_member(cfg, "path"), "/configs/teaching.yaml"));
    ck_assert_str_eq(json_array_get_string_element(json_object_get_array_member(cfg, "sets"), 0), "core.pause_cycles=9");
    JsonObject *lock = json_object_get_object_member(prov, "lock");
    ck_assert(g_str_has_suffix(json_object_get_string_member(lock, "path"), "/locks/tas.qs"));
    ck_assert_uint_eq(strlen(json_object_get_string_member(lock, "sha256")), 64);
}
END_TEST

/* --out keeps a run and --replay makes it again byte for byte, in each format; an edited
 * input is refused, an edited report is a difference (exit 1). */
START_TEST(test_out_and_replay)
{
    static const char *const runs[] = {
        "--config teaching --lock tas --threads 2 --iterations 30 --set core.pause_cycles=9",
        "--config haswell --lock adaptive-mutex --threads 3 --iterations 20 --lock-param spin_count=7 --format json",
        "--config haswell --lock qspin --threads 2 --iterations 20 --jitter 20 --seed 4 --profile --format csv",
    };
    g_autofree char *dir = tmpdir();
    for (guint i = 0; i < G_N_ELEMENTS(runs); i++) {
        g_autofree char *kept = g_strdup_printf("%s/run%u", dir, i);
        g_autofree char *line = g_strdup_printf("run %s --out %s", runs[i], kept);
        g_autofree char *first = NULL, *again = NULL, *err = NULL;
        ck_assert_int_eq(run_qsim_line(line, &first, NULL), 0);
        const char *replay[] = { "run", "--replay", kept, NULL };
        ck_assert_int_eq(run_qsim(replay, &again, &err), 0);
        ck_assert_msg(!strcmp(first, again), "%s: the replay differs", runs[i]);
        ck_assert_msg(strstr(err, "the same report as report."), "%s", err);
        ck_assert_msg(!strstr(first, "host_seconds"), "a kept report has no host time");
    }
    /* a second --out into the same folder is refused */
    g_autofree char *twice = g_strdup_printf("run --config teaching --lock tas --out %s/run0", dir);
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line(twice, NULL, &err), 2);
    ck_assert_msg(strstr(err, "holds a run already"), "%s", err);
    /* an edited report: the replay says where it differs */
    g_autofree char *report = g_strdup_printf("%s/run0/report.txt", dir);
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(report, &text, NULL, NULL));
    g_autoptr(GString) edited = g_string_new(text);
    g_string_replace(edited, "threads:                           2", "threads:                           5", 1);
    ck_assert(g_file_set_contents(report, edited->str, -1, NULL));
    g_autofree char *kept0 = g_strdup_printf("%s/run0", dir);
    const char *replay0[] = { "run", "--replay", kept0, NULL };
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(replay0, NULL, &err), 1);
    ck_assert_msg(strstr(err, "the report differs from report.txt at line 7"), "%s", err);
    /* an edited lock is refused before anything runs */
    g_autofree char *lock = g_strdup_printf("%s/run0/lock.qs", dir);
    ck_assert(g_file_set_contents(lock, "; edited\n", -1, NULL));
    g_free(err);
    err = NULL;
    ck_assert_int_eq(run_qsim(replay0, NULL, &err), 2);
    ck_assert_msg(strstr(err, "lock.qs: changed since the run wrote it"), "%s", err);
    rm_rf(dir);
}
END_TEST

static const struct {
    const char *line, *err;
} out_refusals[] = {
    { "run --config teaching --lock tas --vs ttas --out /nonexistent/x", "--out keeps one model run and its inputs" },
    { "run --config teaching --lock tas --repeat 2 --out /nonexistent/x", "--out keeps one model run and its inputs" },
    { "run --replay /nonexistent/x --seed 2", "--replay takes no other option" },
    { "run --replay /nonexistent/x", "--replay /nonexistent/x: " },
};

START_TEST(test_out_refusals)
{
    g_autofree char *err = NULL;
    ck_assert_int_eq(run_qsim_line(out_refusals[_i].line, NULL, &err), 2);
    ck_assert_msg(strstr(err, out_refusals[_i].err), "%s: %s", out_refusals[_i].line, err);
}
END_TEST

/* Per-variable counters: each line's share, the lock's lines named in the headline, and the
 * shares add up to the memory system's totals (a line is counted once, under the variables that
 * share it), over the whole run and over a measured window alike. */
static const struct {
    const char *line, *lock_lines;
} var_cases[] = {
    { "run --config haswell --lock mcs --threads 4 --iterations 60 --format json", "lock_word mcs_node" },
    { "run --config haswell --lock clh --threads 3 --iterations 60 --format json", "clh_node" },
    { "run --config haswell --lock qrwlock --threads 4 --readers 2 --iterations 60 --format json", "lock_word+wait_lock" },
    { "run --config haswell --lock ticket --threads 3 --data same-line --iterations 60 --format json",
      "lock_word+h_counter+h_flag+h_data" },
    { "run --config haswell --lock qspin --threads 4 --duration 60000 --warmup 20000 --format json", "lock_word qnode" },
};

START_TEST(test_per_variable_counters)
{
    g_autofree char *out = NULL;
    ck_assert_int_eq(run_qsim_line(var_cases[_i].line, &out, NULL), 0);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonObject *r = json_node_get_object(json_parser_get_root(p));
    const char *named = json_object_get_string_member(r, "lock_lines");
    ck_assert_msg(strstr(named, var_cases[_i].lock_lines), "%s: lock_lines '%s'", var_cases[_i].line, named);
    JsonObject *vars = json_object_get_object_member(r, "variables");
    static const struct { const char *var, *total; } sums[] = {
        { "rfo", "coherence.rfo" },
        { "invalidations", "coherence.invalidations" },
        { "c2c_transfers", "memory_system.c2c_transfers" },
        { "l1_misses", "memory_system.l1_misses" },
        { "machine_clears", "machine_clears.memory_ordering" },
    };
    for (guint k = 0; k < G_N_ELEMENTS(sums); k++) {
        gint64 sum = 0;
        g_autoptr(GList) names = json_object_get_members(vars);
        for (GList *l = names; l; l = l->next)
            sum += json_object_get_int_member(json_object_get_object_member(vars, l->data), sums[k].var);
        gint64 total = report_key_int(r, sums[k].total);
        ck_assert_msg(sum == total, "%s: variables' %s add to %" G_GINT64_FORMAT ", %s is %" G_GINT64_FORMAT,
                      var_cases[_i].line, sums[k].var, sum, sums[k].total, total);
    }
    /* the lock's lines are the lock's groups summed */
    gint64 lock_rfo = 0;
    g_auto(GStrv) groups = g_strsplit(named, " ", -1);
    for (guint g = 0; groups[g]; g++)
        lock_rfo += json_object_get_int_member(json_object_get_object_member(vars, groups[g]), "rfo");
    ck_assert_int_eq(lock_rfo, report_key_int(r, "coherence.lock_lines.rfo"));
}
END_TEST

/* ---- the headline and warnings, from the run's figures ---- */

/* The figures of a made-up run of `lock` on teaching: 2 writers, 100 acquisitions in 5000 cycles. */
static RunHeadline made_up(const char *lock)
{
    RunHeadline h = {
        .lock = g_strdup(lock), .config = g_strdup("teaching"), .arch = "x86", .data = g_strdup("separate-line"),
        .threads = 2, .cycles = 5000, .acquisitions = 100, .longest_streak = 3, .mutual_exclusion = TRUE,
        .lock_lines = g_strdup("lock_word qnode"), .memory_ordering_clears = 50, .paused_cycles = 1000,
        .atomics = 200, .failed_cas = 20, .atomic_cycles = 3000, .lock_lines_rfo = 150,
        .lock_lines_invalidations = 120, .lock_lines_l1_misses = 180,
    };
    h.thread_acquisitions = g_new0(guint64, h.threads);
    h.thread_acquisitions[0] = h.thread_acquisitions[1] = 50;
    return h;
}

static void assert_headline(const RunHeadline *h, const char *want)
{
    g_autofree char *got = run_headline(h);
    ck_assert_str_eq(got, want);
}

/* The headline says what the figures say, and nothing else: a lock's cost, a verdict, an
 * unfinished run, a scenario's iterations. */
START_TEST(test_headline_from_figures)
{
    RunHeadline h = made_up("mcs");
    assert_headline(&h, "mcs on teaching (x86), 2 threads, separate-line data: 50.0 cycles per acquisition\n"
                        "  per acquisition: 0.50 memory-ordering machine clears, 1.50 RFOs and 1.20 invalidations of "
                        "the lock's lines (lock_word, qnode), 2.00 atomics (0.20 failed CAS), 30.0 atomic cycles, "
                        "10.0 paused cycles\n\n");
    h.mutual_exclusion = FALSE;
    g_autofree char *violated = run_headline(&h);
    ck_assert_msg(g_str_has_suffix(strtok(violated, "\n"), "50.0 cycles per acquisition  ** MUTUAL EXCLUSION "
                                                           "VIOLATED **"), "%s", violated);
    h.stalled = TRUE;
    g_autofree char *stalled = run_headline(&h);
    ck_assert_msg(strstr(stalled, ": STALLED after 5000 cycles and 100 acquisitions (an unfinished run"), "%s",
                  stalled);
    h.stalled = FALSE;
    h.mutual_exclusion = TRUE;
    h.acquisitions = 0;
    g_autofree char *none = run_headline(&h);
    ck_assert_msg(strstr(none, ": no acquisition in the measured window\n"), "%s", none);
    run_headline_clear(&h);
    h = made_up("ping-pong");
    h.scenario = TRUE;
    h.mutual_exclusion = FALSE; /* a scenario has no such verdict: it says nothing of it */
    assert_headline(&h, "scenario ping-pong on teaching (x86), 2 threads, no lock: 50.0 cycles per iteration\n"
                        "  per iteration: 0.50 memory-ordering machine clears, 1.50 RFOs and 1.20 invalidations of "
                        "the scenario's lines (lock_word, qnode), 1.80 L1 misses of them, 10.0 paused cycles\n\n");
    h.faulted = TRUE;
    g_autofree char *faulted = run_headline(&h);
    ck_assert_msg(g_str_has_prefix(faulted, "scenario ping-pong on teaching (x86), 2 threads, no lock: UNFINISHED "
                                            "after 5000 cycles and 100 iterations\n"), "%s", faulted);
    run_headline_clear(&h);
}
END_TEST

/* Warnings only without timing noise: a long streak of one thread's, or (fixed time) a writer
 * that never acquired. */
START_TEST(test_warnings_from_figures)
{
    RunHeadline h = made_up("ttas");
    g_autoptr(GPtrArray) none = run_warnings(&h);
    ck_assert_uint_eq(none->len, 0);
    h.longest_streak = 50;
    g_autoptr(GPtrArray) streak = run_warnings(&h);
    ck_assert_uint_eq(streak->len, 1);
    ck_assert_msg(g_str_has_prefix(streak->pdata[0], "one thread acquired the lock 50 times in a row (of 100 "
                                                     "acquisitions)"), "%s", (char *)streak->pdata[0]);
    h.jitter = 50;
    g_autoptr(GPtrArray) noisy = run_warnings(&h);
    ck_assert_uint_eq(noisy->len, 0);
    h.jitter = 0;
    h.fixed_time = TRUE;
    h.thread_acquisitions[1] = 0;
    g_autoptr(GPtrArray) starved = run_warnings(&h);
    ck_assert_uint_eq(starved->len, 1);
    ck_assert_msg(g_str_has_prefix(starved->pdata[0], "thread 1 never acquired the lock in the measured window"), "%s",
                  (char *)starved->pdata[0]);
    run_headline_clear(&h);
}
END_TEST

/* A run's headline figures are its report's: the same counters, filled in one place. */
static const struct {
    const char *config, *lock, *scenario, *placement;
    guint threads;
    guint64 duration;
} headline_runs[] = {
    { "teaching", "ticket", NULL, "fill", 3, 0 },
    { "haswell", "mcs", NULL, "smt", 4, 40000 },
    { "neoverse-n1", "qspin", NULL, "fill", 2, 0 },
    { "teaching", NULL, "false-sharing", "fill", 2, 0 },
    { "haswell", NULL, "ping-pong", "smt", 2, 0 },
};

START_TEST(test_headline_is_the_report)
{
    RunOptions o;
    run_options_init(&o);
    o.config = headline_runs[_i].config;
    o.lock = headline_runs[_i].lock;
    o.scenario = headline_runs[_i].scenario;
    o.workload.threads = headline_runs[_i].threads;
    o.workload.iterations = 100;
    o.workload.duration = headline_runs[_i].duration;
    o.host_time = FALSE;
    ck_assert(placement_parse(NULL, headline_runs[_i].placement, &o.workload.placement, NULL));
    RunResult r;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(run_simulation(&o, &r, &err), "%s", err ? err->message : "");
    ck_assert_msg(r.ok, "%s", r.failure);
    const RunHeadline *h = &r.headline;
    JsonObject *rep = json_node_get_object(r.report);
    ck_assert_str_eq(h->lock, report_key_string(rep, "lock"));
    ck_assert_str_eq(h->config, report_key_string(rep, "config"));
    ck_assert_str_eq(h->arch, report_key_string(rep, "arch"));
    ck_assert_str_eq(h->data, report_key_string(rep, "data"));
    ck_assert_int_eq(h->threads, report_key_int(rep, "threads"));
    ck_assert_int_eq(h->jitter, report_key_int(rep, "jitter"));
    ck_assert_int_eq(h->cycles, report_key_int(rep, "cycles"));
    ck_assert_int_eq(h->acquisitions, report_key_int(rep, "acquisitions"));
    for (guint t = 0; t < h->threads; t++) {
        g_autofree char *key = g_strdup_printf("per_thread.%u.acquisitions", t);
        ck_assert_int_eq(h->thread_acquisitions[t], report_key_int(rep, key));
    }
    ck_assert_int_eq(h->longest_streak, report_key_int(rep, "fairness.longest_streak"));
    ck_assert_str_eq(h->lock_lines, report_key_string(rep, "lock_lines"));
    ck_assert_int_eq(h->stalled, report_key_bool(rep, "stalled"));
    ck_assert_int_eq(h->faulted, report_key_bool(rep, "faulted"));
    if (h->scenario) {
        ck_assert_str_eq(report_key_string(rep, "harness"), "scenario");
        ck_assert(!json_object_has_member(rep, "mutual_exclusion"));
    } else {
        ck_assert(!json_object_has_member(rep, "harness"));
        ck_assert_int_eq(h->mutual_exclusion, report_key_bool(rep, "mutual_exclusion"));
        ck_assert_int_eq(h->halted_in_lock, report_key_bool(rep, "halted_in_lock"));
    }
    static const struct { gsize field; const char *key; } counters[] = {
        { G_STRUCT_OFFSET(RunHeadline, memory_ordering_clears), "machine_clears.memory_ordering" },
        { G_STRUCT_OFFSET(RunHeadline, paused_cycles), "paused_cycles" },
        { G_STRUCT_OFFSET(RunHeadline, atomics), "atomics.count" },
        { G_STRUCT_OFFSET(RunHeadline, failed_cas), "atomics.failed_cas" },
        { G_STRUCT_OFFSET(RunHeadline, atomic_cycles), "atomics.cycles" },
        { G_STRUCT_OFFSET(RunHeadline, lock_lines_rfo), "coherence.lock_lines.rfo" },
        { G_STRUCT_OFFSET(RunHeadline, lock_lines_invalidations), "coherence.lock_lines.invalidations" },
        { G_STRUCT_OFFSET(RunHeadline, lock_lines_l1_misses), "coherence.lock_lines.l1_misses" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(counters); i++)
        ck_assert_msg(G_STRUCT_MEMBER(guint64, h, counters[i].field) == (guint64)report_key_int(rep, counters[i].key),
                      "%s", counters[i].key);
    run_result_clear(&r);
}
END_TEST

Suite *make_run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("end_to_end");
    tcase_add_loop_test(tc, test_every_lock_every_arch, 0,
                        G_N_ELEMENTS(locks) * G_N_ELEMENTS(arch_configs) * G_N_ELEMENTS(thread_counts));
    tcase_add_loop_test(tc, test_every_config_runs_ticket, 0, G_N_ELEMENTS(all_configs));
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_fixed_time_mode);
    tcase_add_test(tc, test_readers_and_writers);
    tcase_add_test(tc, test_headline_from_figures);
    tcase_add_test(tc, test_warnings_from_figures);
    tcase_add_loop_test(tc, test_headline_is_the_report, 0, G_N_ELEMENTS(headline_runs));
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("command");
    tcase_add_test(tc, test_bad_input_is_exit_2);
    tcase_add_test(tc, test_cli_formats);
    tcase_add_test(tc, test_vs_formats);
    tcase_add_test(tc, test_native_formats);
    tcase_add_test(tc, test_stall_is_exit_1);
    tcase_add_test(tc, test_native_beside_model);
    tcase_add_test(tc, test_trace_quotes_rows);
    tcase_add_test(tc, test_call_depth_stops_the_thread);
    tcase_add_loop_test(tc, test_phase_lock_warning, 0, G_N_ELEMENTS(phase_cases));
    tcase_add_test(tc, test_provenance);
    tcase_add_loop_test(tc, test_per_variable_counters, 0, G_N_ELEMENTS(var_cases));
    tcase_add_test(tc, test_out_and_replay);
    tcase_add_loop_test(tc, test_out_refusals, 0, G_N_ELEMENTS(out_refusals));
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
