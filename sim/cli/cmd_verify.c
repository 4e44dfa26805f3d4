/* `qsim verify`: every execution of a lock in the harness under a memory model (sim/explore/),
 * or, with --seeds/--seed, seeded interleavings on the reference interpreter (sampled, never
 * called verified); says whether mutual exclusion, progress and completion held. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/input_file.h"
#include "sim/validation/verify.h"
#include "sim/base/config.h"
#include "sim/workload/lock_find.h"
#include "cores/isa/asm.h"
#include "sim/base/report.h"
#include "sim/explore/explore.h"

/* The command line that replays one seed: every workload option of verify, as run. */
static char *replay_line(const char *lock, const char *lock_file, const char *config, const VerifyOptions *o,
                         guint64 seed)
{
    GString *s = g_string_new("qsim verify");
    g_string_append_printf(s, " %s %s", lock ? "--lock" : "--lock-file", lock ? lock : lock_file);
    for (guint i = 0; o->lock_params && o->lock_params[i]; i++)
        g_string_append_printf(s, " --lock-param %s", o->lock_params[i]);
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & WL_VERIFY))
            continue;
        g_autofree char *v = workload_value_text(k, &o->workload);
        g_string_append_printf(s, " --%s %s", k->flag, v);
    }
    if (config) {
        g_string_append_printf(s, " --config %s", config);
    } else {
        g_string_append_printf(s, " --arch %s", arch_name(o->target.arch));
        if (o->target.arch != ARCH_X86)
            g_string_append_printf(s, " --atomics %s", arch_atomics_name(o->target.atomics));
    }
    g_string_append_printf(s, " --seed %" G_GUINT64_FORMAT, seed);
    return g_string_free(s, FALSE);
}

/* What verify takes from a machine config: its architecture and atomics (which ops exist, how
 * they behave, which `.if` code is assembled) and its line size (the layout, and the exclusive
 * monitor's granule). */
static gboolean verify_options_from_config(VerifyOptions *o, const char *name, GError **error)
{
    g_autoptr(QsimConfig) c = config_load(name, NULL, error);
    if (!c)
        return FALSE;
    o->target = asm_target_for_config(c);
    o->line_size = (guint)c->line_size;
    return TRUE;
}

/* The sampled verdict (the interpreter under seeds): never called verified. */
static int print_sampled(const char *name, const char *lock, const char *lock_file, const char *config,
                         const VerifyOptions *o, VerifyResult *r)
{
    const WorkloadOptions *w = &o->workload;
    g_autofree char *on = arch_target_describe(o->target);
    if (r->ok) {
        printf("%s: sampled, not verified: %u seed%s of the sequentially consistent interpreter, %u threads x %u "
               "iterations%s on %s: mutual exclusion held, no deadlock or livelock, every thread finished",
               name, r->runs, r->runs == 1 ? "" : "s", w->threads, w->iterations, w->readers ? " (with readers)" : "",
               on);
        if (w->readers)
            printf("; up to %" G_GUINT64_FORMAT " readers inside at once", r->max_readers);
        printf(" (%" G_GUINT64_FORMAT " steps)\n", r->steps);
    } else {
        g_autofree char *replay = replay_line(lock, lock_file, config, o, r->failed_seed);
        printf("%s: FAILED with seed %" G_GUINT64_FORMAT " (after %u run%s): %s\n", name, r->failed_seed, r->runs,
               r->runs == 1 ? "" : "s", r->failure);
        printf("replay: %s\n", replay);
    }
    return r->ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}

static const char *property_words(ExploreProperty p)
{
    switch (p) {
    case EXPLORE_PROP_EXCLUSION: return "mutual exclusion failed";
    case EXPLORE_PROP_FAULT: return "a thread faulted";
    case EXPLORE_PROP_DEADLOCK: return "deadlock";
    case EXPLORE_PROP_END: return "wrong counts at the end";
    case EXPLORE_PROP_NO_FINISH: return "a thread can never finish";
    default: return "?";
    }
}

/* The explored verdict: verified (exit 0), failed with a counterexample (1), or cut short by a
 * bound (1: a search that did not finish says nothing of what it did not see). */
static int print_explored(const char *name, const VerifyOptions *o, const VerifyResult *vr, ReportFormat fmt)
{
    const ExploreResult *r = &vr->explore;
    const WorkloadOptions *w = &o->workload;
    g_autofree char *on = arch_target_describe(o->target);
    int rc = r->verdict == EXPLORE_VERIFIED ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
    if (fmt == REPORT_JSON) {
        g_autoptr(JsonBuilder) b = json_builder_new();
        json_builder_begin_object(b);
        report_add_string(b, "lock", name);
        report_add_string(b, "model", o->model->name);
        report_add_string(b, "target", on);
        report_add_int(b, "threads", w->threads);
        report_add_int(b, "iterations", w->iterations);
        report_add_int(b, "readers", w->readers);
        explore_result_add_json(r, b);
        if (vr->graphs_refused)
            report_add_string(b, "graphs_refused", vr->graphs_refused);
        json_builder_end_object(b);
        g_autoptr(JsonNode) root = json_builder_get_root(b);
        g_autofree char *text = report_to_json(root);
        fputs(text, stdout);
        return rc;
    }
    g_autofree char *shape = g_strdup_printf("%u threads x %u acquisition%s%s", w->threads, w->iterations,
                                             w->iterations == 1 ? "" : "s",
                                             w->readers ? " (with readers)" : "");
    g_autofree char *size = r->graphs ? g_strdup_printf("%" G_GUINT64_FORMAT " executions, %" G_GUINT64_FORMAT
                                                        " graphs, %" G_GUINT64_FORMAT " blocked in spin loops",
                                                        r->transitions, r->states, r->blocked)
                                      : g_strdup_printf("%" G_GUINT64_FORMAT " states, %" G_GUINT64_FORMAT " transitions",
                                                        r->states, r->transitions);
    if (vr->graphs_refused)
        printf("%s: the graph engine does not take it (%s): explored by the state search instead\n", name,
               vr->graphs_refused);
    switch (r->verdict) {
    case EXPLORE_VERIFIED:
        printf("%s: verified under %s on %s: %s, %s", name, o->model->name, on, size, shape);
        if (w->readers)
            printf(", up to %" G_GUINT64_FORMAT " readers inside at once", r->max_shared);
        printf(", in %.1f s\n", r->seconds);
        break;
    case EXPLORE_FAILED: {
        g_autofree char *trace = explore_trace_text(r->trace);
        printf("%s: FAILED under %s on %s, %s: %s: %s\n%s(found after %s, in %.1f s)\n", name, o->model->name, on,
               shape, property_words(r->property), r->message, trace, size, r->seconds);
        break;
    }
    case EXPLORE_INCOMPLETE:
        printf("%s: not verified under %s on %s, %s: %s; nothing failed in what was explored (%s, in %.1f s)\n",
               name, o->model->name, on, shape, r->message, size, r->seconds);
        break;
    }
    return rc;
}

/* The model to explore under: --model, else the arch's (a model row with a `why` is not yet
 * usable: sc instead, said on stderr).  NULL after printing why (exit 2). */
static const ExploreModel *pick_model(const char *given, Arch arch)
{
    const ExploreModelRow *row = given ? explore_model_row(given) : explore_model_for_arch(arch);
    if (!row) {
        g_autofree char *names = explore_model_names();
        cli_eprintf("qsim verify: --model %s: no such model (%s)\n", given, names);
        return NULL;
    }
    if (row->model && (given || !row->why))
        return row->model;
    if (given) {
        cli_eprintf("qsim verify: --model %s: %s (--model sc explores under sequential consistency, which is "
                    "stronger: a lock verified under it may still break on %s)\n", given, row->why, given);
        return NULL;
    }
    cli_eprintf("qsim verify: note: %s: exploring under sc, which is stronger (a lock verified under it may still "
                "break on %s)\n", row->why, arch_name(arch));
    return &explore_model_sc;
}

int cmd_verify(int argc, char **argv)
{
    g_autofree char *arch_s = NULL, *atomics_s = NULL, *config = NULL, *model_s = NULL, *format = NULL,
                    *engine_s = NULL;
    gint unroll = 0;
    g_auto(LockFlags) lf = { 0 };
    gint seeds = 0, store_buffer = EXPLORE_DEFAULT_SB;
    gint64 seed = -1, max_states = -1,
           max_memory = (gint64)(EXPLORE_DEFAULT_MAX_MEMORY >> 20);
    VerifyOptions o;
    verify_options_init(&o);
    WorkloadFlags wf;
    workload_flags_init(&wf, &o.workload, WL_VERIFY);
    GOptionEntry what[LOCK_FLAGS_N + 1] = { { NULL } };
    lock_flags_entries(&lf, what);
    const GOptionEntry how[] = {
        { "model", 'm', 0, G_OPTION_ARG_STRING, &model_s, "Memory model to explore every execution under: sc (sequential consistency), tso (x86-TSO; the default for x86 code) or arm64 (ARMv8: the axiomatic model by execution graphs, or Promising-ARM with --engine states; the default for arm64 code)", "sc|tso|arm64" },
        { "engine", 0, 0, G_OPTION_ARG_STRING, &engine_s, "How to explore: graphs (execution graphs checked against the axiomatic model, GenMC's way; the default under arm64) or states (the operational state search; the default under tso and sc)", "graphs|states" },
        { "unroll", 0, 0, G_OPTION_ARG_INT, &unroll, "graphs: backward jumps each thread may take outside spin loops; past it the verdict is 'not verified: bound reached' (default 64)", "N" },
        { "max-states", 0, 0, G_OPTION_ARG_INT64, &max_states, "Stop after this many states: the search is then cut short, not verified (default 20000000; under arm64, whose states cost more, 250000)", "N" },
        { "max-memory", 0, 0, G_OPTION_ARG_INT64, &max_memory, "Stop when the search holds this many MiB: cut short, not verified (default 2048)", "MIB" },
        { "store-buffer", 0, 0, G_OPTION_ARG_INT, &store_buffer, "tso: entries in each thread's store buffer; a store that finds it full waits, and the search says the bound was reached (default 16)", "N" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output: text (default) or json (keys: " QSIM_DOC("verify.md") ")", "text|json" },
        { "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "Sample instead of exploring: K seeded interleavings on the sequentially consistent interpreter, seeds 1..K (sampled, never verified)", "K" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Sample this one seed only (to replay a sampled failure)", "S" },
        { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_s, "x86 (default) or arm64: which ops are allowed and which `.if arch=` code is assembled", "ARCH" },
        { "atomics", 0, 0, G_OPTION_ARG_STRING, &atomics_s, "arm64: llsc (default) or lse, for `.if atomics=` code", "KIND" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "take the arch, atomics and line size from machine config CFG (instead of --arch/--atomics)", "CFG" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    static const CliIntRange ranges[] = {
        { "seeds", 1, G_MAXINT }, { "seed", 0, G_MAXINT64 }, { "max-states", 1, 4000000000 },
        { "max-memory", 1, 1 << 20 }, { "store-buffer", 1, EXPLORE_SB_MAX }, { "unroll", 0, 100000 }, { NULL },
    };
    gboolean parsed = cli_parse_workload_command(
        &argc, &argv, NULL,
        "Check a lock in the workload harness: mutual exclusion (and readers apart from\n"
        "writers), no deadlock, no thread that can never finish, no fault, and the\n"
        "counts at the end.  By default every execution is explored under the arch's\n"
        "memory model (x86: tso) up to the bounds; --seeds/--seed sample the\n"
        "sequentially consistent interpreter instead.  Exit 0 verified (or every seed\n"
        "held), 1 a check failed or a bound cut the search short, 2 bad input.\n"
        "What verified means: " QSIM_DOC("verify.md"),
        what, &wf, how, ranges);
    workload_flags_clear(&wf);
    if (!parsed)
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        cli_eprintf("qsim verify: unexpected argument `%s` (try `qsim verify --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    const char *lock = lf.lock, *lock_file = lf.lock_file;
    if (!lock == !lock_file) {
        cli_eprintf("qsim verify: name the lock with --lock NAME or --lock-file PATH (one of them)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    if (config && (arch_s || atomics_s)) {
        cli_eprintf("qsim verify: --config gives the arch and atomics: give --config or --arch/--atomics, not both\n");
        return QSIM_EXIT_USAGE;
    }
    if (config ? !verify_options_from_config(&o, config, &error) : !arch_target_parse(arch_s, atomics_s, &o.target, &error)) {
        return cli_fail(error);
    }
    if (!workload_validate(&o.workload, WL_VERIFY, &error) || !cc_flags_apply(&lf.cc, (const char *const[]){ lock, lock_file }, 2, &error))
        return cli_fail(error);
    ReportFormat fmt = REPORT_TEXT;
    if (format && (!report_format_parse(format, &fmt, &error) || fmt == REPORT_CSV)) {
        cli_eprintf("qsim verify: --format %s: use text or json\n", format);
        return QSIM_EXIT_USAGE;
    }
    gboolean sampled = seeds > 0 || seed >= 0;
    if (sampled && ((model_s && strcmp(model_s, "sc")) || fmt == REPORT_JSON)) {
        cli_eprintf("qsim verify: --seeds/--seed sample the sequentially consistent interpreter, as text: they do not "
                    "go with %s (leave them out to explore every execution)\n", fmt == REPORT_JSON ? "--format json" : "--model");
        return QSIM_EXIT_USAGE;
    }
    o.lock_params = (const char *const *)lf.params;
    if (sampled) {
        o.seeds = seed >= 0 ? 1 : (guint)seeds;
        o.first_seed = seed >= 0 ? (guint64)seed : 1;
    } else if (!(o.model = pick_model(model_s, o.target.arch))) {
        return QSIM_EXIT_USAGE;
    }
    if (o.model && o.model->has_promises && o.target.arch != ARCH_ARM64) {
        /* x86 code under ARMv8 runs the locks' `.else` branches: no machine runs that code */
        cli_eprintf("qsim verify: --model arm64 on x86 code: that explores the lock's x86 code under ARMv8, which no "
                    "machine runs; add --arch arm64 (or a --config of an arm64 machine)\n");
        return QSIM_EXIT_USAGE;
    }
    if (max_states < 0)
        max_states = (gint64)(o.model && o.model->has_promises ? EXPLORE_DEFAULT_MAX_STATES_ARM64
                                                                : EXPLORE_DEFAULT_MAX_STATES);
    o.max_states = (guint64)max_states;
    o.max_memory = (guint64)max_memory << 20;
    o.store_buffer = (guint)store_buffer;
    o.unroll = (guint)unroll;
    if (engine_s && strcmp(engine_s, "graphs") && strcmp(engine_s, "states")) {
        cli_eprintf("qsim verify: --engine %s: use graphs or states\n", engine_s);
        return QSIM_EXIT_USAGE;
    }
    /* The graph engine is arm64's default: it gives verdicts where the Promising-ARM state
     * search does not finish (docs/verify.md's bench table); under tso and sc the state search
     * is faster, and stays. */
    o.graphs = engine_s ? !strcmp(engine_s, "graphs") : !sampled && o.model && o.model->has_promises;
    if (o.graphs && sampled) {
        cli_eprintf("qsim verify: --engine graphs explores; it does not go with --seeds/--seed\n");
        return QSIM_EXIT_USAGE;
    }

    g_autofree char *path = lock_file ? g_strdup(lock_file) : lock_find(lock, &error);
    if (!path)
        return cli_fail(error);
    g_autofree char *text = NULL;
    if (!lock_read(path, o.target, &text, &error))
        return cli_fail(error);
    VerifyResult r;
    if (!verify_lock(path, text, &o, &r, &error)) {
        cli_eprintf("%s\n", error->message);
        return QSIM_EXIT_USAGE;
    }
    const char *name = lock ? lock : lock_file;
    int rc = sampled ? print_sampled(name, lock, lock_file, config, &o, &r) : print_explored(name, &o, &r, fmt);
    verify_result_clear(&r);
    return rc;
}
