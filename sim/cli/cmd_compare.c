/* `qsim compare [--config CFG] [--lock A] [--vs B] [--threads-list 2,3,4,8] [--data A|B|both] [--placements P,..]
 * [--seeds N] [--iterations N] [--thinks N,..] [--jitters N,..] [--timing-seeds N] [--timing-iterations N]
 * [--check-seeds N] [-j N] [--format text|json]`: the verdict table of sim/run/compare.h.
 * With no options it answers the seed's question (what `make run` prints). */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/report.h"
#include "sim/base/whole_number.h"
#include "sim/run/compare.h"
#include "sim/report/provenance.h"

static gboolean parse_threads(const char *text, CompareOptions *o, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    o->nthreads = 0;
    for (guint i = 0; parts[i]; i++) {
        if (o->nthreads == COMPARE_MAX_THREADS) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--threads-list %s: more than %d counts",
                        text, COMPARE_MAX_THREADS);
            return FALSE;
        }
        guint64 t;
        if (!whole_number_parse("--threads-list", parts[i], 1, 4096, &t, error))
            return FALSE;
        o->threads[o->nthreads++] = (guint)t;
    }
    return TRUE;
}

/* A list of cycle counts for a timing axis (--thinks, --jitters). */
static gboolean parse_cycles(const char *who, const char *text, guint *out, guint *n, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    *n = 0;
    for (guint i = 0; parts[i]; i++) {
        if (*n == COMPARE_MAX_TIMINGS) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s: more than %d values", who, text,
                        COMPARE_MAX_TIMINGS);
            return FALSE;
        }
        guint64 v;
        if (!whole_number_parse(who, parts[i], 0, 1000000, &v, error))
            return FALSE;
        out[(*n)++] = (guint)v;
    }
    return TRUE;
}

static gboolean parse_data(const char *text, CompareOptions *o, GError **error)
{
    static const struct {
        const char *name;
        HarnessPlacement d[2];
        guint n;
    } rows[] = {
        { "both", { HARNESS_SAME_LINE, HARNESS_SEPARATE_LINE }, 2 },
        { "A", { HARNESS_SAME_LINE }, 1 },
        { "same-line", { HARNESS_SAME_LINE }, 1 },
        { "B", { HARNESS_SEPARATE_LINE }, 1 },
        { "separate-line", { HARNESS_SEPARATE_LINE }, 1 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++)
        if (!strcmp(text, rows[i].name)) {
            memcpy(o->data, rows[i].d, sizeof o->data);
            o->ndata = rows[i].n;
            return TRUE;
        }
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--data %s: one of both, A (same-line), B (separate-line)", text);
    return FALSE;
}

static gboolean parse_placements(const char *text, CompareOptions *o, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    o->nplacements = 0;
    for (guint i = 0; parts[i]; i++) {
        Placement p;
        if (!placement_parse("--placements", parts[i], &p, error))
            return FALSE;
        if (p.policy == PLACE_CPUS || o->nplacements == G_N_ELEMENTS(o->placements)) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--placements %s: fill, smt and spread, each once", text);
            return FALSE;
        }
        o->placements[o->nplacements++] = p.policy;
    }
    return TRUE;
}

int cmd_compare(int argc, char **argv)
{
    g_autofree char *command = provenance_command_line(argc, argv);
    CompareOptions o;
    compare_options_init(&o);
    g_autofree char *config = NULL, *lock = NULL, *vs = NULL, *threads = NULL, *data = NULL, *format = NULL,
                     *placements = NULL, *thinks = NULL, *jitters = NULL;
    gint seeds = (gint)o.seeds, iterations = (gint)o.iterations, jobs = 0;
    gint timing_seeds = (gint)o.timing_seeds, timing_iterations = (gint)o.timing_iterations,
         check_seeds = (gint)o.check_seeds;
    g_auto(CcFlags) cc = { 0 };
    GOptionEntry entries[] = {
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "Machine config (default haswell)", "CFG" },
        { "lock", 'l', 0, G_OPTION_ARG_STRING, &lock, "Lock a, the baseline (default qspin)", "NAME|PATH" },
        { "vs", 0, 0, G_OPTION_ARG_STRING, &vs, "Lock b, the challenger (default qspin-cmpxchg)", "NAME|PATH" },
        CC_FLAGS_ENTRIES(&cc),
        { "threads-list", 0, 0, G_OPTION_ARG_STRING, &threads, "Thread counts, one row each (default 2,3,4,8)",
          "N,N,..." },
        { "data", 0, 0, G_OPTION_ARG_STRING, &data,
          "Workloads: both (default), A (data in the lock's line) or B (in its own line)", "both|A|B" },
        { "placements", 0, 0, G_OPTION_ARG_STRING, &placements,
          "Where the threads run, a row each: fill, smt, spread, comma-separated (default: fill, and smt and spread "
          "where the machine has them, those two up to 4 threads unless --threads-list is given)", "P,P,..." },
        { "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "Seeded runs per lock and row, with timing noise (default 10)", "N" },
        { "iterations", 'i', 0, G_OPTION_ARG_INT, &iterations, "Acquisitions per thread (default 300)", "N" },
        { "thinks", 0, 0, G_OPTION_ARG_STRING, &thinks,
          "Timing axis: think times, each row again at each (default 0,50,100,120,180,400)", "N,N,..." },
        { "jitters", 0, 0, G_OPTION_ARG_STRING, &jitters, "Timing axis: jitters, with each think (default 50,500)",
          "N,N,..." },
        { "timing-seeds", 0, 0, G_OPTION_ARG_INT, &timing_seeds,
          "Seeded runs per lock and timing (default 3; 0: no timing axis; 6 or more: regimes per timing)", "N" },
        { "timing-iterations", 0, 0, G_OPTION_ARG_INT, &timing_iterations,
          "Acquisitions per thread at each timing (default 100)", "N" },
        { "check-seeds", 0, 0, G_OPTION_ARG_INT, &check_seeds,
          "Seeded runs per lock for the window and the clear penalty's ends (default 3; 0: neither)", "N" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Runs at once (default: the host's CPUs)", "N" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output: text (default) or json", "text|json" },
        { NULL },
    };
    static const CliIntRange ranges[] = {
        { "seeds", 2, 10000 }, { "iterations", 1, 100000000 }, { "jobs", 1, 256 }, { "timing-seeds", 0, 10000 },
        { "timing-iterations", 1, 100000000 }, { "check-seeds", 0, 10000 }, { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Answer \"does lock b beat lock a on this machine?\" as a table of verdicts: for each\n"
                           "workload and thread count, b/a of the cycles per acquisition over seeded runs with its\n"
                           "95% interval, the published measurement where there is one, and a sentence saying who\n"
                           "wins, which counters moved with the cost, and whether load rollback (the seed's\n"
                           "mechanism) is where a's time goes (a again with core.rollback=none).  Beside each row:\n"
                           "b/a over harness timings (think x jitter), regimes among the seeds, throughput and\n"
                           "fairness over a measured window, and on x86 whether the side holds over the clear\n"
                           "penalty's range (the mispredict refill to 500).  With no options:\n"
                           "qspin against qspin-cmpxchg on haswell, the seed's question (`make run`).  Exit 0, 1\n"
                           "when a run failed, 2 for bad input.",
                           entries, ranges))
        return QSIM_EXIT_USAGE;
    if (argc != 1) {
        cli_eprintf("qsim compare: unexpected argument '%s' (try `qsim compare --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    ReportFormat fmt = REPORT_TEXT;
    if ((format && !report_format_parse(format, &fmt, &error)) || (threads && !parse_threads(threads, &o, &error)) ||
        (data && !parse_data(data, &o, &error)) || (placements && !parse_placements(placements, &o, &error)) ||
        (thinks && !parse_cycles("--thinks", thinks, o.thinks, &o.nthinks, &error)) ||
        (jitters && !parse_cycles("--jitters", jitters, o.jitters, &o.njitters, &error)) ||
        !cc_flags_apply(&cc, (const char *const[]){ lock, vs }, 2, &error))
        return cli_fail(error);
    if (threads)
        o.other_max_threads = 0;   /* the counts asked for, at every placement */
    if (fmt == REPORT_CSV) {
        cli_eprintf("qsim compare: --format takes text or json\n");
        return QSIM_EXIT_USAGE;
    }
    o.config = config ? config : o.config;
    o.lock_a = lock ? lock : o.lock_a;
    o.lock_b = vs ? vs : o.lock_b;
    o.seeds = (guint)seeds;
    o.iterations = (guint)iterations;
    o.jobs = (guint)jobs;
    o.timing_seeds = (guint)timing_seeds;
    o.timing_iterations = (guint)timing_iterations;
    o.check_seeds = (guint)check_seeds;
    g_autoptr(CompareResult) r = compare_run(&o, &error);
    if (!r)
        return cli_fail(error);
    g_autofree char *out = NULL;
    if (fmt != REPORT_TEXT) {
        g_autoptr(JsonNode) root = compare_json(r);
        json_object_set_object_member(json_node_get_object(root), "provenance", provenance_of_command(command));
        out = report_document_format(root, "compare", fmt);
    } else {
        out = compare_text(r);
    }
    fputs(out, stdout);
    return r->ok ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}
