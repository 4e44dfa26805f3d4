/* Running an access script (see access_script_run.h). */
#include <string.h>
#include "sim/run/access_script_run.h"
#include "sim/machine/mem_waiter.h"
#include "sim/base/engine.h"
#include "sim/base/report.h"
#include "coherence/memsys.h"
#include "coherence/protocol.h"
#include "coherence/protocol_fault.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "sim/trace/trace_names.h"

/* Where the variables are placed: as a run places its program. */
#define SCRIPT_MEMORY_BASE 0x10000

/* Who answered an access (MemSource), in words. */
static const char *const source_words[] = {
    [MEM_SRC_L1] = "L1",
    [MEM_SRC_L2] = "L2",
    [MEM_SRC_LLC] = "LLC",
    [MEM_SRC_PEER_SAME_SOCKET] = "another core",
    [MEM_SRC_PEER_REMOTE_SOCKET] = "another socket's core",
    [MEM_SRC_MEMORY] = "memory",
    [MEM_SRC_HOME_ATOMIC] = "the home",
    [MEM_SRC_REMOTE_LLC] = "another socket's LLC",
};


static void on_lost(void *obj G_GNUC_UNUSED, uint64_t line G_GNUC_UNUSED, LineLossCause cause G_GNUC_UNUSED) {}

/* Everything one script run owns. */
typedef struct {
    QsimConfig *cfg;
    IsaProgram *prog;
    IsaLayout *layout;
    TraceNames *names;
    TraceStream *trace;
    Engine *e;
    MemSys *ms;
    MemWaiter *cores;
    guint ncores;                /* physical cores */
    guint nthreads;              /* the script's threads: logical CPUs 0 .. nthreads - 1 */
    guint *thread_core;          /* per thread: its logical CPU (thread t is CPU t) */
    TraceScriptAccess *script;   /* the accesses as the trace names them */
} ScriptWiring;

/* The logical CPU an access runs on: core C's hardware thread T is CPU T x cores + C, as
 * config.h numbers them, and the trace names CPU c back as `core (c mod cores).(c / cores)`. */
static guint access_cpu(const ScriptWiring *w, const ScriptAccess *a)
{
    return a->hw_thread * w->ncores + a->thread;
}

static void wiring_free(ScriptWiring *w)
{
    trace_stream_free(w->trace);
    trace_names_free(w->names);
    memsys_free(w->ms);
    if (w->e)
        engine_free(w->e);
    if (w->layout)
        isa_layout_free(w->layout);
    if (w->prog)
        isa_program_free(w->prog);
    if (w->cfg)
        config_free(w->cfg);
    g_free(w->cores);
    g_free(w->thread_core);
    g_free(w->script);
}

/* The variables as a program (for their addresses and the trace's names): one line each. */
static gboolean wire_program(const AccessScript *s, ScriptWiring *w, GError **error)
{
    GString *src = g_string_new("# the variables of an access script, a line each\n");
    for (guint i = 0; i < s->vars->len; i++)
        g_string_append_printf(src, ".shared %s 8 own_line\n", (char *)s->vars->pdata[i]);
    g_string_append(src, ".entry main\nmain:\n    halt\n");
    w->prog = asm_assemble(s->who, src->str, asm_target_for_config(w->cfg), error);
    g_string_free(src, TRUE);
    if (!w->prog)
        return FALSE;
    w->layout = isa_layout_new(w->prog, w->nthreads, (uint32_t)w->cfg->line_size, SCRIPT_MEMORY_BASE);
    return TRUE;
}

/* What the script is called in the trace and the table: its file, or "script" for one given
 * on the command line. */
static const char *script_name(const AccessScript *s)
{
    return strcmp(s->who, "--script") ? s->who : "script";
}

static gboolean wire(const AccessScript *s, const ScriptRunOptions *o, ScriptWiring *w, TraceHtmlCut *page_cut,
                     GError **error)
{
    w->cfg = config_load(o->config, o->sets, error);
    if (!w->cfg)
        return FALSE;
    guint ncores = config_total_cores(w->cfg), tpc = (guint)w->cfg->topology.threads_per_core;
    w->ncores = ncores;
    for (guint i = 0; i < s->accesses->len; i++) {
        const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
        if (a->thread >= ncores) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "%s:%u:%u: %s %u: %s has %u cores, %s 0 to %u (more with --set "
                        "topology.cores_per_socket=N)", s->who, a->line, a->col, a->hw_named ? "core" : "thread",
                        a->thread, w->cfg->name, ncores, a->hw_named ? "cores" : "threads", ncores - 1);
            return FALSE;
        }
        if (a->hw_thread >= tpc) {
            g_autofree char *range = tpc == 1 ? g_strdup("thread 0 only") : g_strdup_printf("threads 0 to %u", tpc - 1);
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "%s:%u:%u: core %u.%u: %s has %u hardware thread%s per core, %s (more with --set "
                        "topology.threads_per_core=N)", s->who, a->line, a->hw_col, a->thread, a->hw_thread,
                        w->cfg->name, tpc, tpc == 1 ? "" : "s", range);
            return FALSE;
        }
        /* the threads are the logical CPUs up to the highest one named: `N:` is CPU N as before */
        w->nthreads = MAX(w->nthreads, access_cpu(w, a) + 1);
    }
    if (!wire_program(s, w, error))
        return FALSE;
    w->e = engine_new(o->seed);
    w->ms = memsys_new(w->cfg, w->e, error);
    if (!w->ms)
        return FALSE;
    memsys_set_check(w->ms, o->check);
    if (o->fault && !memsys_apply_fault(w->ms, o->fault, error))
        return FALSE;
    /* every core's first hardware thread, as always, and the others up to the highest named */
    guint ncpus = MAX(ncores, w->nthreads);
    w->cores = g_new0(MemWaiter, ncpus);
    static const PortClient client = { mem_waiter_done, on_lost, NULL, NULL };
    for (guint c = 0; c < ncpus; c++)
        memsys_attach(w->ms, c, &client, &w->cores[c]);
    w->thread_core = g_new0(guint, w->nthreads);
    for (guint t = 0; t < w->nthreads; t++)
        w->thread_core[t] = t;
    if (!o->trace.text && !o->trace.perfetto && !o->trace.html)
        return TRUE;
    w->names = trace_names_new(w->prog, w->layout);
    w->script = g_new0(TraceScriptAccess, s->accesses->len);
    for (guint i = 0; i < s->accesses->len; i++) {
        const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
        w->script[i] = (TraceScriptAccess){ a->text, access_cpu(w, a) };
    }
    TraceContext ctx = {
        .config = w->cfg->name,
        .lock = script_name(s),
        .proto = memsys_protocol(w->ms),
        .prog = w->prog,
        .names = w->names,
        .nthreads = w->nthreads,
        .cores = w->thread_core,
        .ncores = ncpus,
        .machine_cores = ncores,
        .harness = TRACE_HARNESS_SCRIPT,
        .threads_per_core = (guint)w->cfg->topology.threads_per_core,
        .script = w->script,
        .nscript = s->accesses->len,
        .script_who = s->hw_named,
    };
    w->trace = run_trace_open(&o->trace, &ctx, (guint64)w->cfg->run.trace_limit, page_cut, error);
    if (!w->trace)
        return FALSE;
    memsys_set_trace(w->ms, trace_stream_mem, w->trace);
    return TRUE;
}

/* Runs the engine until nothing is pending: the access's last messages (an Unblock, a
 * copy-back) are in before the next access starts. */

/* One access, issued now and run to its end; its entry in the report.  FALSE when the memory
 * system fell quiet without answering it (a protocol with a fault planted). */
static gboolean run_access(const AccessScript *s, guint i, ScriptWiring *w, JsonBuilder *b)
{
    const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
    guint cpu = access_cpu(w, a), core = a->thread;
    int sym = isa_program_find_sym(w->prog, s->vars->pdata[a->var]);
    uint64_t addr = isa_sym_addr(w->layout, (guint)sym, 0);
    Cycle start = engine_now(w->e);
    gboolean completed = TRUE;
    if (w->trace) /* what follows, to the next access, is this one's */
        trace_stream_script_access(w->trace, i);
    json_builder_begin_object(b);
    report_add_int(b, "n", i + 1);
    report_add_string(b, "access", a->text);
    report_add_int(b, "thread", cpu);
    report_add_int(b, "core", core);
    if (s->hw_named)
        report_add_int(b, "hw_thread", a->hw_thread);
    report_add_string(b, "var", s->vars->pdata[a->var]);
    report_add_int(b, "start", (gint64)start);
    if (a->op == SCRIPT_EVICT) {
        gboolean held = memsys_evict(w->ms, core, addr); /* the core's copy: its threads share it */
        mem_waiter_settle(w->e);
        report_add_int(b, "cycles", (gint64)(engine_now(w->e) - start));
        report_add_string(b, "answered_by", held ? "-" : "nothing to evict");
    } else {
        MemRequest q = { .kind = a->op == SCRIPT_LD ? MEM_LOAD : a->op == SCRIPT_ST ? MEM_STORE : MEM_RMW,
                         .rmw = a->op == SCRIPT_FADD ? RMW_ADD : RMW_XCHG, .addr = addr, .size = 8,
                         .value = a->value, .tag = i };
        const MemResponse *r = mem_waiter_try_access(&w->cores[cpu], w->ms, w->e, cpu, &q);
        mem_waiter_settle(w->e);
        completed = r != NULL;
        report_add_int(b, "cycles", (gint64)((r ? r->done : engine_now(w->e)) - start));
        report_add_string(b, "answered_by", r ? source_words[r->source] : "never completed");
        if (r && a->op != SCRIPT_ST)
            report_add_int(b, a->op == SCRIPT_LD ? "value" : "old_value", (gint64)r->value);
        if (a->op != SCRIPT_LD)
            report_add_int(b, a->op == SCRIPT_FADD ? "added" : "wrote", (gint64)a->value);
    }
    /* the line everywhere afterwards */
    json_builder_set_member_name(b, "states");
    json_builder_begin_array(b);
    for (guint t = 0; t < w->nthreads; t++)
        json_builder_add_string_value(b, coh_cache_state_name(memsys_cache_state(w->ms, w->thread_core[t], addr)));
    json_builder_end_array(b);
    report_add_string(b, "home", coh_dir_state_name(memsys_dir_state(w->ms, addr)));
    json_builder_end_object(b);
    return completed;
}

/* After access i: the invariant checker's complaint (caller frees), or NULL when there is none.
 * An access that never completed left the memory system quiet: quiet must mean stable. */
static char *check_after(const AccessScript *s, guint i, ScriptWiring *w, gboolean completed)
{
    g_autoptr(GError) e = NULL;
    if (memsys_check_invariants(w->ms, &e) && (completed || memsys_check_quiet(w->ms, &e)))
        return completed ? NULL : g_strdup("the access never completed, and the memory system is quiet");
    const ScriptAccess *a = &g_array_index(s->accesses, ScriptAccess, i);
    return g_strdup_printf("after access #%u %s: %s", i + 1, a->text, e->message);
}

JsonNode *access_script_run(const AccessScript *s, const ScriptRunOptions *o, TraceHtmlCut *page_cut, GError **error)
{
    ScriptWiring w = { 0 };
    if (!wire(s, o, &w, page_cut, error)) {
        wiring_free(&w);
        return NULL;
    }
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    report_add_string(b, "config", w.cfg->name);
    report_add_string(b, "protocol", memsys_protocol(w.ms)->name);
    report_add_string(b, "harness", "script");
    report_add_string(b, "script", script_name(s));
    report_add_int(b, "threads", w.nthreads);
    if (s->hw_named) { /* each thread's name, as the trace gives it: the states' columns */
        json_builder_set_member_name(b, "thread_names");
        json_builder_begin_array(b);
        for (guint t = 0; t < w.nthreads; t++) {
            g_autofree char *name = g_strdup_printf("core %u.%u", t % w.ncores, t / w.ncores);
            json_builder_add_string_value(b, name);
        }
        json_builder_end_array(b);
    }
    json_builder_set_member_name(b, "accesses");
    json_builder_begin_array(b);
    g_autofree char *complaint = NULL;
    for (guint i = 0; i < s->accesses->len && !complaint; i++) {
        gboolean completed = run_access(s, i, &w, b);
        /* the first complaint ends the script: the page ends where the class can see it */
        if (o->check || !completed)
            complaint = check_after(s, i, &w, completed);
    }
    json_builder_end_array(b);
    report_add_int(b, "cycles", (gint64)engine_now(w.e));
    if (o->fault)
        report_add_string(b, "fault", o->fault);
    if (complaint)
        report_add_string(b, "invariant", complaint);
    gboolean ok = TRUE;
    if (w.trace)
        ok = trace_stream_finish(w.trace, engine_now(w.e), error);
    json_builder_end_object(b);
    wiring_free(&w);
    return ok ? json_builder_get_root(b) : NULL;
}

char *access_script_report_text(JsonNode *report)
{
    JsonObject *o = json_node_get_object(report);
    JsonArray *acc = json_object_get_array_member(o, "accesses");
    guint n = json_array_get_length(acc), threads = (guint)json_object_get_int_member(o, "threads");
    GString *s = g_string_new(NULL);
    const char *name = json_object_get_string_member(o, "script");
    g_string_append_printf(s, "script%s%s on %s (%s): %u access%s, each once the one before it completed\n",
                           strcmp(name, "script") ? " " : "", strcmp(name, "script") ? name : "",
                           json_object_get_string_member(o, "config"),
                           json_object_get_string_member(o, "protocol"), n, n == 1 ? "" : "es");
    guint w = (guint)strlen("access");
    for (guint i = 0; i < n; i++)
        w = MAX(w, (guint)strlen(json_object_get_string_member(json_array_get_object_element(acc, i), "access")));
    g_string_append_printf(s, "  %3s  %-*s  %6s  %-21s  %5s  after:", "#", (int)w, "access", "cycles", "answered by",
                           "value");
    /* the columns: "core N", or with hardware threads named, "core C.T" as the trace has them */
    JsonArray *names = json_object_has_member(o, "thread_names") ? json_object_get_array_member(o, "thread_names")
                                                                  : NULL;
    int cw = names ? 8 : 7;
    for (guint t = 0; t < threads; t++) {
        if (names)
            g_string_append_printf(s, " %-*s", cw, json_array_get_string_element(names, t));
        else
            g_string_append_printf(s, " core %-2u", t);
    }
    g_string_append(s, " home\n");
    for (guint i = 0; i < n; i++) {
        JsonObject *a = json_array_get_object_element(acc, i);
        const char *vkey = json_object_has_member(a, "value") ? "value" : json_object_has_member(a, "old_value")
                                                                              ? "old_value" : NULL;
        g_autofree char *value = vkey ? g_strdup_printf("%" G_GINT64_FORMAT, json_object_get_int_member(a, vkey))
                                      : g_strdup("-");
        g_string_append_printf(s, "  %3" G_GINT64_FORMAT "  %-*s  %6" G_GINT64_FORMAT "  %-21s  %5s        ",
                               json_object_get_int_member(a, "n"), (int)w, json_object_get_string_member(a, "access"),
                               json_object_get_int_member(a, "cycles"), json_object_get_string_member(a, "answered_by"),
                               value);
        JsonArray *st = json_object_get_array_member(a, "states");
        for (guint t = 0; t < json_array_get_length(st); t++)
            g_string_append_printf(s, " %-*s", cw, json_array_get_string_element(st, t));
        g_string_append_printf(s, " %s\n", json_object_get_string_member(a, "home"));
    }
    if (json_object_has_member(o, "invariant"))
        g_string_append_printf(s, "  stopped: %s\n", json_object_get_string_member(o, "invariant"));
    g_string_append_printf(s, "(value: what a load read, or an atomic's old value; the states are the line's after "
                              "the access, in each core's L1 and at the home; %" G_GINT64_FORMAT " cycles in all)\n",
                           json_object_get_int_member(o, "cycles"));
    return g_string_free(s, FALSE);
}
