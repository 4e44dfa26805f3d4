/* `qsim validate` (see validate.h): each row answered by the model's own mechanism. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/validation/validate.h"
#include "sim/base/config.h"
#include "sim/base/input_file.h"
#include "sim/base/report.h"
#include "coherence/memsys.h"
#include "sim/validation/latency_probe.h"
#include "sim/validation/microbench.h"
#include "sim/run/run.h"

struct ValidationTable {
    GPtrArray *rows;          /* ValidationRow* */
};

#define VALIDATION_ERROR (g_quark_from_static_string("qsim-validation"))

static void row_free(gpointer p)
{
    ValidationRow *r = p;
    g_free(r->file);
    g_free(r->machine);
    g_free(r->what);
    g_free(r->conditions);
    g_free(r->unit);
    g_free(r->source);
    g_free(r->note);
    g_free(r);
}

ValidationTable *validation_table_new(void)
{
    ValidationTable *t = g_new0(ValidationTable, 1);
    t->rows = g_ptr_array_new_with_free_func(row_free);
    return t;
}

void validation_table_free(ValidationTable *t)
{
    if (!t)
        return;
    g_ptr_array_free(t->rows, TRUE);
    g_free(t);
}

guint validation_table_len(const ValidationTable *t) { return t->rows->len; }
const ValidationRow *validation_table_row(const ValidationTable *t, guint i) { return t->rows->pdata[i]; }

/* ---- reading ---- */

static const char *const columns[] = { "machine", "what", "conditions", "published", "unit", "tolerance",
                                       "source", "note" };

static gboolean parse_number(const char *s, double *out)
{
    char *end = NULL;
    *out = g_ascii_strtod(s, &end);
    return end && end != s && *end == '\0' && isfinite(*out);
}

gboolean validation_table_load(ValidationTable *t, const char *path, GError **error)
{
    g_autofree char *text = NULL;
    if (!input_file_read(path, INPUT_TABLE, &text, NULL, error))
        return FALSE;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    gboolean header = FALSE;
    for (guint n = 0; lines[n]; n++) {
        const char *line = lines[n];
        if (!*line || line[0] == '#')
            continue;
        g_auto(GStrv) f = g_strsplit(line, "\t", -1);
        guint nf = g_strv_length(f);
        if (!header) {
            for (guint i = 0; i < G_N_ELEMENTS(columns); i++)
                if (i >= nf || strcmp(f[i], columns[i])) {
                    g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: the header must be: machine, what, conditions, "
                                "published, unit, tolerance, source, note (tab-separated)", path, n + 1);
                    return FALSE;
                }
            header = TRUE;
            continue;
        }
        if (nf != G_N_ELEMENTS(columns)) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: %u fields, want %u (tab-separated)", path, n + 1, nf,
                        (guint)G_N_ELEMENTS(columns));
            return FALSE;
        }
        ValidationRow *r = g_new0(ValidationRow, 1);
        r->file = g_strdup(path);
        r->line = n + 1;
        r->machine = g_strdup(f[0]);
        r->what = g_strdup(f[1]);
        r->conditions = g_strdup(f[2]);
        r->unit = g_strdup(f[4]);
        r->source = g_strdup(f[6]);
        r->note = g_strdup(f[7]);
        g_ptr_array_add(t->rows, r);
        if (!parse_number(f[3], &r->published) || r->published <= 0) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: published value '%s' is not a positive number", path,
                        n + 1, f[3]);
            return FALSE;
        }
        if (!strcmp(f[5], "shown")) {
            r->tolerance = -1;
        } else if (!parse_number(f[5], &r->tolerance) || r->tolerance <= 0 || r->tolerance >= 1) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: tolerance '%s': a relative error in (0, 1), or 'shown'",
                        path, n + 1, f[5]);
            return FALSE;
        }
        if (strcmp(r->unit, "cycles") && strcmp(r->unit, "ns") && strcmp(r->unit, "ratio")) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: unit '%s': cycles, ns or ratio", path, n + 1, r->unit);
            return FALSE;
        }
    }
    if (!header) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s: no header line", path);
        return FALSE;
    }
    return TRUE;
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

GStrv validation_default_tables(GError **error)
{
    g_autoptr(GPtrArray) dirs = config_search_dirs("tests/validation");
    g_autoptr(GPtrArray) more = config_search_dirs("validation");
    for (guint i = 0; i < more->len; i++)
        g_ptr_array_add(dirs, g_strdup(more->pdata[i]));
    for (guint i = 0; i < dirs->len; i++) {
        GDir *d = g_dir_open(dirs->pdata[i], 0, NULL);
        if (!d)
            continue;
        GPtrArray *files = g_ptr_array_new();
        const char *name;
        while ((name = g_dir_read_name(d)))
            if (g_str_has_suffix(name, ".tsv"))
                g_ptr_array_add(files, g_build_filename(dirs->pdata[i], name, NULL));
        g_dir_close(d);
        if (!files->len) {
            g_ptr_array_free(files, TRUE);
            continue;
        }
        g_ptr_array_sort(files, compare_strings); /* never the directory's order */
        g_ptr_array_add(files, NULL);
        return (GStrv)g_ptr_array_free(files, FALSE);
    }
    g_set_error(error, VALIDATION_ERROR, 0, "no validation tables found (a `validation` folder of *.tsv files "
                "beside the configs)");
    return NULL;
}

/* ---- answering a row ---- */

/* What the run of one table needs more than once: each config and its latency table. */
typedef struct {
    const char *const *sets;  /* --set overrides for every config */
    GHashTable *cfgs;         /* name -> QsimConfig* (looked up only) */
    GHashTable *latency;      /* name -> LatencyTable* */
} Cache;

static const QsimConfig *cache_config(Cache *c, const char *name, GError **error)
{
    QsimConfig *cfg = g_hash_table_lookup(c->cfgs, name);
    if (!cfg && (cfg = config_load(name, c->sets, error)))
        g_hash_table_insert(c->cfgs, g_strdup(name), cfg);
    return cfg;
}

static const LatencyTable *cache_latency(Cache *c, const char *name, const QsimConfig *cfg, GError **error)
{
    LatencyTable *t = g_hash_table_lookup(c->latency, name);
    if (!t && (t = latency_measure(cfg, error)))
        g_hash_table_insert(c->latency, g_strdup(name), t);
    return t;
}

/* The value of `key=` among the row's conditions, or NULL. */
static const char *condition(const ValidationRow *r, GHashTable *conds, const char *key)
{
    (void)r;
    return g_hash_table_lookup(conds, key);
}

static GHashTable *parse_conditions(const ValidationRow *r, GError **error)
{
    GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_auto(GStrv) words = g_strsplit_set(r->conditions, " ", -1);
    for (guint i = 0; words[i]; i++) {
        if (!*words[i])
            continue;
        const char *eq = strchr(words[i], '=');
        if (!eq || eq == words[i]) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: condition '%s' is not key=value", r->file, r->line,
                        words[i]);
            g_hash_table_unref(h);
            return NULL;
        }
        g_hash_table_insert(h, g_strndup(words[i], (gsize)(eq - words[i])), g_strdup(eq + 1));
    }
    return h;
}

static gboolean need(const ValidationRow *r, const char *v, const char *key, GError **error)
{
    if (v)
        return TRUE;
    g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: `%s` needs condition %s=", r->file, r->line, r->what, key);
    return FALSE;
}

/* The distance names the probe uses; "other-socket" is the nearest remote socket. */
static const char *probe_distance(const char *d)
{
    return !strcmp(d, "other-socket") ? "1-hop" : d;
}

static gboolean from_probe(const ValidationRow *r, GHashTable *conds, const LatencyTable *lt, double *cycles,
                           GError **error)
{
    const char *op = r->what, *state, *distance = condition(r, conds, "distance");
    gboolean local = !strcmp(op, "l1-hit") || !strcmp(op, "l2-hit") || !strcmp(op, "llc-hit") || !strcmp(op, "memory");
    if (local) {
        state = op;
        op = "load";
        distance = distance ? probe_distance(distance) : "same-core";
    } else {
        state = condition(r, conds, "state");
        if (!need(r, state, "state", error) || !need(r, distance, "distance", error))
            return FALSE;
        distance = probe_distance(distance);
    }
    const LatencyRow *row = latency_find(lt, op, state, distance);
    if (!row) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: the latency probe has no %s %s row at %s on %s", r->file,
                    r->line, op, state, distance, r->machine);
        return FALSE;
    }
    *cycles = (double)row->cycles;
    return TRUE;
}

/* One op's text in the ISA, for microbenchmarks.  Registers r0 r2..r6 are scratch. */
static const char *op_text(const char *op)
{
    if (!strcmp(op, "cas"))
        return "    cas r0, [w], r2, r2\n";          /* succeeds: compares and writes 0 */
    if (!strcmp(op, "fai") || !strcmp(op, "lock-add"))
        return "    fadd r0, [w], 1\n";
    if (!strcmp(op, "swap"))
        return "    xchg r0, [w], r2\n";
    if (!strcmp(op, "mfence"))
        return "    fence\n";
    if (!strcmp(op, "lfence"))
        return "    fence.load\n";
    if (!strcmp(op, "sfence"))
        return "    fence.store\n";
    if (!strcmp(op, "pause"))
        return "    pause\n";
    return NULL;
}

#define MICRO_ITERS 400

#define MICRO_UNROLL 10

/* The op back to back, unrolled as instruction-table measurements are (so that the loop's own
 * ops hide behind it), after one warm-up: cycles per op on core 0. */
static gboolean micro_back_to_back(const QsimConfig *cfg, const ValidationRow *r, const char *op, double *cycles,
                                   GError **error)
{
    const char *body = op_text(op);
    if (!body) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: unknown op '%s'", r->file, r->line, op);
        return FALSE;
    }
    GString *unrolled = g_string_new(NULL);
    for (guint i = 0; i < MICRO_UNROLL; i++)
        g_string_append(unrolled, body);
    g_autofree char *src = g_strdup_printf(
        ".shared w 8 own_line\n.entry main\nmain:\n    mov r2, 0\n%s    mov r1, %d\n    mark 1\nloop:\n%s"
        "    sub r1, r1, 1\n    bne r1, 0, loop\n    mark 2\n    halt\n", body, MICRO_ITERS / MICRO_UNROLL, unrolled->str);
    g_string_free(unrolled, TRUE);
    MicrobenchResult res;
    if (!microbench_run(cfg, "<validate>", src, 1, NULL, &res, error))
        return FALSE;
    *cycles = (double)res.region / (MICRO_ITERS / MICRO_UNROLL * MICRO_UNROLL);
    return TRUE;
}

/* Seed 003's loop: x = i - *j; barrier; *j = x (a load, a store, the barrier, a load, a store). */
static gboolean micro_barrier_loop(const QsimConfig *cfg, const ValidationRow *r, const char *barrier, double *cycles,
                                   GError **error)
{
    const char *body = !strcmp(barrier, "lock-add") ? "    fadd r5, [p], 0\n"
                       : !strcmp(barrier, "xchg")   ? "    xchg r5, [p], r6\n"
                                                    : op_text(barrier);
    if (!body || !strcmp(barrier, "pause")) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: unknown barrier '%s' (mfence, lfence, sfence, lock-add, xchg)",
                    r->file, r->line, barrier);
        return FALSE;
    }
    g_autofree char *src = g_strdup_printf(
        ".shared x 8 own_line\n.shared j 8 own_line init 1234\n.thread p 8 own_line\n.entry main\nmain:\n"
        "    mov r0, 0\n    mov r9, %d\n    ld r1, [x]\n    ld r1, [p]\n    mark 1\nloop:\n"
        "    ld r1, [j]\n    sub r2, r0, r1\n    st [x], r2\n%s    ld r3, [x]\n    st [j], r3\n"
        "    add r0, r0, 1\n    bne r0, r9, loop\n    mark 2\n    halt\n", MICRO_ITERS, body);
    MicrobenchResult res;
    if (!microbench_run(cfg, "<validate>", src, 1, NULL, &res, error))
        return FALSE;
    if (g_getenv("QSIM_VALIDATE_DEBUG")) g_printerr("barrier %s: %.1f cycles/iter\n", barrier, (double)res.region / MICRO_ITERS);
    *cycles = (double)res.region / MICRO_ITERS;
    return TRUE;
}

/* The logical CPU a second thread runs on to be at `distance` from CPU 0: core 0's second
 * hardware thread for smt-sibling (CPU cores, as Linux numbers siblings: sim/workload/placement.h), core 1
 * on the same die, else the first core of the first socket that far (same-package: the MCM
 * partner; N-hop(s): N socket hops; other-socket: the nearest other socket). */
static gboolean core_at(const QsimConfig *cfg, const ValidationRow *r, const char *distance, guint *core, GError **error)
{
    guint cps = (guint)cfg->topology.cores_per_socket, ns = (guint)cfg->topology.sockets;
    if (!strcmp(distance, "smt-sibling")) {
        *core = config_total_cores(cfg);
        if (cfg->topology.threads_per_core < 2)
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: %s has one thread per core: no distance 'smt-sibling'",
                        r->file, r->line, r->machine);
        return cfg->topology.threads_per_core > 1;
    }
    if (!strcmp(distance, "same-die") && cps > 1) {
        *core = 1;
        return TRUE;
    }
    Engine *e = engine_new(1);
    MemSys *ms = memsys_new(cfg, e, error);
    if (!ms) {
        engine_free(e);
        return FALSE;
    }
    gboolean mcm = cfg->topology.socket_links == SOCKETS_MCM_PAIRS, found = FALSE;
    guint want = !strcmp(distance, "1-hop") || !strcmp(distance, "other-socket") ? 1
                 : !strcmp(distance, "2-hops") ? 2 : 0;
    for (guint s = 1; s < ns && !found; s++) {
        gboolean partner = mcm && s / 2 == 0;
        if (!strcmp(distance, "same-package") ? partner : (!partner && memsys_socket_hops(ms, 0, s) == want)) {
            *core = s * cps;
            found = TRUE;
        }
    }
    memsys_free(ms);
    engine_free(e);
    if (!found)
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: %s has no distance '%s' for a second core", r->file, r->line,
                    r->machine, distance);
    return found;
}

/* Two threads pass a line back and forth by CAS, as core-to-core benchmarks do: thread t
 * retries compare-and-swap of t for 1 - t until it succeeds.  One way is half a round trip. */
static gboolean micro_ping_pong(const QsimConfig *cfg, const ValidationRow *r, const char *distance, double *cycles,
                                GError **error)
{
    guint cores[2] = { 0, 0 };
    if (!core_at(cfg, r, distance, &cores[1], error))
        return FALSE;
    g_autofree char *src = g_strdup_printf(
        ".shared w 8 own_line\n.entry main\nmain:\n    mov r1, %d\n    xor r4, tid, 1\n    mark 1\nwait:\n"
        "    cas r5, [w], tid, r4\n    bne r5, tid, wait\n    sub r1, r1, 1\n    bne r1, 0, wait\n"
        "    mark 2\n    halt\n", MICRO_ITERS / 4);
    MicrobenchResult res;
    if (!microbench_run(cfg, "<validate>", src, 2, cores, &res, error))
        return FALSE;
    *cycles = (double)res.region / (2.0 * (MICRO_ITERS / 4));
    return TRUE;
}

/* `threads` threads on socket 0 doing `op` on one line: cycles per op per thread. */
static gboolean micro_contended(const QsimConfig *cfg, const ValidationRow *r, const char *op, guint threads,
                                double *cycles, GError **error)
{
    const char *body = !strcmp(op, "cas") ? "retry:\n    ld r2, [w]\n    add r4, r2, 1\n    cas r5, [w], r2, r4\n"
                                            "    bne r5, r2, retry\n"
                                          : op_text(op);
    if (!body || threads < 1 || threads > (guint)cfg->topology.cores_per_socket) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: contended needs op=fai|cas and 1 <= threads <= cores per "
                    "socket", r->file, r->line);
        return FALSE;
    }
    g_autofree char *src = g_strdup_printf(
        ".shared w 8 own_line\n.entry main\nmain:\n    mov r1, %d\n    mark 1\nloop:\n%s"
        "    sub r1, r1, 1\n    bne r1, 0, loop\n    mark 2\n    halt\n", MICRO_ITERS / 2, body);
    MicrobenchResult res;
    if (!microbench_run(cfg, "<validate>", src, threads, NULL, &res, error))
        return FALSE;
    *cycles = (double)res.region / (MICRO_ITERS / 2);
    return TRUE;
}

/* ccbench's way (SOSP 2013): a second core at `distance` writes the line (it is then in M
 * there) and raises a flag; core 0 sees the flag, fences, and times the op with ccbench's own
 * fences around it (a load behind a load fence, a store behind a full fence; atomics are
 * fences).  The op runs on the core, so its own cost (a LOCK'd op's latency) is in the figure. */
static gboolean micro_ccbench(const QsimConfig *cfg, const ValidationRow *r, const char *op, const char *state,
                              const char *distance, double *cycles, GError **error)
{
    static const struct { const char *op, *text; } ops[] = {
        { "load", "    ld r2, [x]\n    fence.load\n" },
        { "store", "    st [x], 2\n    fence\n" },
        { "cas", "    cas r2, [x], 1, 2\n" },
        { "fai", "    fadd r2, [x], 1\n" },
        { "swap", "    xchg r2, [x], 2\n" },
    };
    const char *text = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(ops); i++)
        if (!strcmp(ops[i].op, op))
            text = ops[i].text;
    guint cores[2] = { 0, 0 };
    if (!text || strcmp(state, "M")) {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: method=ccbench measures load, store, cas, fai or swap on a "
                    "line in state M", r->file, r->line);
        return FALSE;
    }
    if (!core_at(cfg, r, distance, &cores[1], error))
        return FALSE;
    g_autofree char *src = g_strdup_printf(
        ".shared x 8 own_line\n.shared flag 8 own_line\n.entry main\nmain:\n    beq tid, 0, wait\n"
        "    st [x], 1\n    fence\n    st [flag], 1\n    halt\nwait:\n    ld r1, [flag]\n"
        "    beq r1, 0, wait\n    fence\n    mark 1\n%s    mark 2\n    halt\n", text);
    MicrobenchResult res;
    if (!microbench_run(cfg, "<validate>", src, 2, cores, &res, error))
        return FALSE;
    *cycles = (double)res.region;
    return TRUE;
}

static gboolean run_cycles(const char *config, const char *const *sets, const char *lock, guint threads,
                           const char *data, double *cycles, GError **error)
{
    RunOptions o;
    run_options_init(&o);
    o.config = config;
    o.sets = sets;
    o.lock = lock;
    o.workload.threads = threads;
    o.workload.data = !strcmp(data, "same-line") ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
    o.host_time = FALSE;
    RunResult res;
    if (!run_simulation(&o, &res, error))
        return FALSE;
    *cycles = (double)json_object_get_int_member(json_node_get_object(res.report), "cycles");
    run_result_clear(&res);
    return TRUE;
}

static gboolean answer(Cache *c, const ValidationRow *r, double *value, GError **error)
{
    const QsimConfig *cfg = cache_config(c, r->machine, error);
    if (!cfg)
        return FALSE;
    g_autoptr(GHashTable) conds = parse_conditions(r, error);
    if (!conds)
        return FALSE;
    const char *w = r->what;
    double cycles = 0, ratio = -1;
    if (!strcmp(w, "load") || !strcmp(w, "store") || !strcmp(w, "cas") || !strcmp(w, "fai") || !strcmp(w, "swap") ||
        !strcmp(w, "l1-hit") || !strcmp(w, "l2-hit") || !strcmp(w, "llc-hit") || !strcmp(w, "memory")) {
        const char *method = condition(r, conds, "method");
        if (method && strcmp(method, "ccbench")) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: method=%s: the only method is ccbench (default: the "
                        "latency probe)", r->file, r->line, method);
            return FALSE;
        }
        if (method) {
            const char *state = condition(r, conds, "state"), *d = condition(r, conds, "distance");
            if (!need(r, state, "state", error) || !need(r, d, "distance", error) ||
                !micro_ccbench(cfg, r, w, state, d, &cycles, error))
                return FALSE;
        } else {
            const LatencyTable *lt = cache_latency(c, r->machine, cfg, error);
            if (!lt || !from_probe(r, conds, lt, &cycles, error))
                return FALSE;
        }
    } else if (!strcmp(w, "hot")) {
        const char *op = condition(r, conds, "op");
        if (!need(r, op, "op", error) || !micro_back_to_back(cfg, r, op, &cycles, error))
            return FALSE;
    } else if (!strcmp(w, "mfence") || !strcmp(w, "lfence") || !strcmp(w, "sfence") || !strcmp(w, "pause")) {
        if (!micro_back_to_back(cfg, r, w, &cycles, error))
            return FALSE;
    } else if (!strcmp(w, "c2c-oneway")) {
        const char *d = condition(r, conds, "distance");
        if (!need(r, d, "distance", error) || !micro_ping_pong(cfg, r, d, &cycles, error))
            return FALSE;
    } else if (!strcmp(w, "contended")) {
        const char *op = condition(r, conds, "op"), *t = condition(r, conds, "threads");
        if (!need(r, op, "op", error) || !need(r, t, "threads", error) ||
            !micro_contended(cfg, r, op, (guint)atoi(t), &cycles, error))
            return FALSE;
    } else if (!strcmp(w, "barrier-ratio")) {
        const char *a = condition(r, conds, "a"), *b = condition(r, conds, "b");
        double ca, cb;
        if (!need(r, a, "a", error) || !need(r, b, "b", error) || !micro_barrier_loop(cfg, r, a, &ca, error) ||
            !micro_barrier_loop(cfg, r, b, &cb, error))
            return FALSE;
        ratio = ca / cb;
    } else if (!strcmp(w, "lock-ratio")) {
        const char *a = condition(r, conds, "lock"), *b = condition(r, conds, "vs"), *t = condition(r, conds, "threads"),
                   *d = condition(r, conds, "data");
        double ca, cb;
        if (!need(r, a, "lock", error) || !need(r, b, "vs", error) || !need(r, t, "threads", error) ||
            !need(r, d, "data", error) || !run_cycles(r->machine, c->sets, a, (guint)atoi(t), d, &ca, error) ||
            !run_cycles(r->machine, c->sets, b, (guint)atoi(t), d, &cb, error))
            return FALSE;
        ratio = ca / cb;
    } else {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: unknown `what` '%s' (see `qsim validate --help`)", r->file,
                    r->line, w);
        return FALSE;
    }
    if (ratio >= 0) {
        if (strcmp(r->unit, "ratio")) {
            g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: `%s` is a ratio: unit must be ratio", r->file, r->line, w);
            return FALSE;
        }
        *value = ratio;
    } else if (!strcmp(r->unit, "ns")) {
        *value = cycles / cfg->frequency_ghz;
    } else if (!strcmp(r->unit, "cycles")) {
        *value = cycles;
    } else {
        g_set_error(error, VALIDATION_ERROR, 0, "%s:%u: `%s` is a time: unit must be cycles or ns", r->file, r->line, w);
        return FALSE;
    }
    return TRUE;
}

GArray *validation_run(const ValidationTable *t, const char *only, const char *const *sets, GError **error)
{
    Cache c = { sets, g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)config_free),
                g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)latency_table_free) };
    GArray *out = g_array_new(FALSE, TRUE, sizeof(ValidationResult));
    for (guint i = 0; i < t->rows->len; i++) {
        const ValidationRow *r = t->rows->pdata[i];
        if (only && strcmp(only, r->machine))
            continue;
        ValidationResult res = { r, 0, 0, TRUE };
        if (!answer(&c, r, &res.model, error)) {
            g_array_free(out, TRUE);
            out = NULL;
            break;
        }
        res.error = (res.model - r->published) / r->published;
        res.pass = r->tolerance < 0 || fabs(res.error) <= r->tolerance + 1e-9;
        g_array_append_val(out, res);
    }
    g_hash_table_unref(c.cfgs);
    g_hash_table_unref(c.latency);
    return out;
}

guint validation_failures(const GArray *results)
{
    guint n = 0;
    for (guint i = 0; i < results->len; i++)
        n += !g_array_index(results, ValidationResult, i).pass;
    return n;
}

/* ---- writing ---- */

static const char *verdict(const ValidationResult *v)
{
    return v->row->tolerance < 0 ? "shown" : v->pass ? "pass" : "FAIL";
}

char *validation_text(const GArray *results)
{
    GString *s = g_string_new(NULL);
    guint shown = 0, failed = 0;
    g_autoptr(GHashTable) sources = g_hash_table_new(g_str_hash, g_str_equal);
    g_autoptr(GHashTable) machines = g_hash_table_new(g_str_hash, g_str_equal);
    g_string_append_printf(s, "%-12s %-14s %-36s %10s %10s %-6s %8s %5s %-6s %s\n", "machine", "what", "conditions",
                           "model", "published", "unit", "error", "tol", "verdict", "source");
    for (guint i = 0; i < results->len; i++) {
        const ValidationResult *v = &g_array_index(results, ValidationResult, i);
        const ValidationRow *r = v->row;
        g_hash_table_add(sources, r->source);
        g_hash_table_add(machines, r->machine);
        shown += r->tolerance < 0;
        failed += !v->pass;
        g_autofree char *tol = r->tolerance < 0 ? g_strdup("-") : g_strdup_printf("%.0f%%", r->tolerance * 100);
        g_string_append_printf(s, "%-12s %-14s %-36s %10.4g %10.4g %-6s %+7.1f%% %5s %-6s %s\n", r->machine, r->what,
                               r->conditions, v->model, r->published, r->unit, v->error * 100, tol, verdict(v),
                               r->source);
    }
    g_string_append_printf(s, "%u rows from %u sources on %u configs: %u checked, %u failed; %u shown, not checked\n",
                           results->len, g_hash_table_size(sources), g_hash_table_size(machines),
                           results->len - shown, failed, shown);
    return g_string_free(s, FALSE);
}

/* A Markdown cell: pipes escaped, no line breaks. */
static void md_cell(GString *s, const char *v)
{
    g_string_append(s, " ");
    for (const char *p = v; *p; p++)
        if (*p == '|')
            g_string_append(s, "\\|");
        else if (*p == '\n' || *p == '\t')
            g_string_append_c(s, ' ');
        else
            g_string_append_c(s, *p);
    g_string_append(s, " |");
}

char *validation_markdown(const GArray *results)
{
    GString *s = g_string_new("| machine | what | conditions | model | published | unit | error | tolerance | verdict | source |\n"
                              "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |\n");
    for (guint i = 0; i < results->len; i++) {
        const ValidationResult *v = &g_array_index(results, ValidationResult, i);
        const ValidationRow *r = v->row;
        g_autofree char *model = g_strdup_printf("%.4g", v->model);
        g_autofree char *pub = g_strdup_printf("%.4g", r->published);
        g_autofree char *err = g_strdup_printf("%+.1f%%", v->error * 100);
        g_autofree char *tol = r->tolerance < 0 ? g_strdup("-") : g_strdup_printf("%.0f%%", r->tolerance * 100);
        g_string_append(s, "|");
        md_cell(s, r->machine);
        md_cell(s, r->what);
        md_cell(s, r->conditions);
        md_cell(s, model);
        md_cell(s, pub);
        md_cell(s, r->unit);
        md_cell(s, err);
        md_cell(s, tol);
        md_cell(s, verdict(v));
        md_cell(s, r->source);
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

JsonNode *validation_json(const GArray *results)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "rows");
    json_builder_begin_array(b);
    for (guint i = 0; i < results->len; i++) {
        const ValidationResult *v = &g_array_index(results, ValidationResult, i);
        const ValidationRow *r = v->row;
        json_builder_begin_object(b);
        report_add_string(b, "machine", r->machine);
        report_add_string(b, "what", r->what);
        report_add_string(b, "conditions", r->conditions);
        report_add_double(b, "model", v->model);
        report_add_double(b, "published", r->published);
        report_add_string(b, "unit", r->unit);
        report_add_double(b, "error", v->error);
        if (r->tolerance >= 0)
            report_add_double(b, "tolerance", r->tolerance);
        report_add_string(b, "verdict", verdict(v));
        report_add_string(b, "source", r->source);
        report_add_string(b, "note", r->note);
        g_autofree char *where = g_strdup_printf("%s:%u", r->file, r->line);
        report_add_string(b, "where", where);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    report_add_int(b, "failed", validation_failures(results));
    json_builder_end_object(b);
    return json_builder_get_root(b);
}
