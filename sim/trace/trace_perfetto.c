/* The Perfetto timeline (see trace_perfetto.h).  One JSON object per line of the file, each
 * with ph, ts, pid and tid; a track's name (an "M" event) is written the first time the track
 * is used. */
#include <errno.h>
#include <string.h>
#include "sim/trace/trace_perfetto.h"
#include "sim/trace/trace_limit.h"
#include "sim/base/output_file.h"
#include "coherence/protocol_words.h"

#define PID_CORES 1
#define PID_FIRST_LINE 2

/* A line's state in one cache (or the directory) and since when: an open slice. */
typedef struct {
    gboolean open;
    guint8 state;
    Cycle since;
    const CohRow *entered_by;
} OpenState;

typedef struct {
    uint64_t line;
    guint pid;
    OpenState *caches;           /* per core id, then the directory at [ncores] */
    guint8 *named;               /* per tid: its thread_name written */
} LineTrack;

typedef struct {
    TraceSink sink;
    FILE *out;
    char *path;
    gboolean first;              /* no event written yet */
    guint ncores;
    gboolean *core_named;        /* per core id, then the home at [ncores], the process at
                                  * [ncores + 1], the bus at [ncores + 2] */
    gboolean bus;                /* a bus system: the home is the memory controller */
    GHashTable *lines;           /* uint64 line -> LineTrack* */
    GPtrArray *line_order;       /* LineTrack*, first seen first */
    TraceLimit limit;            /* the events' bytes (the file's frame is not counted) */
    Cycle now;                   /* the event being written */
} PerfettoSink;

/* ======================================================================================
 * JSON bits
 * ====================================================================================== */

static void json_str(GString *s, const char *text)
{
    g_string_append_c(s, '"');
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            g_string_append_printf(s, "\\%c", c);
        else if (c < 0x20)
            g_string_append_printf(s, "\\u%04x", c);
        else
            g_string_append_c(s, (char)c);
    }
    g_string_append_c(s, '"');
}

/* Cycles as the format's microseconds, one cycle shown as one nanosecond. */
static void json_us(GString *s, Cycle c)
{
    g_string_append_printf(s, "%" G_GUINT64_FORMAT ".%03u", c / 1000, (guint)(c % 1000));
}

/* Every event goes through here, within the trace's size limit. */
static void emit(PerfettoSink *p, GString *ev)
{
    if (trace_limit_take(&p->limit, ev->len + 2, p->now)) {
        fprintf(p->out, "%s%s", p->first ? "\n" : ",\n", ev->str);
        p->first = FALSE;
    }
    g_string_free(ev, TRUE);
}

/* {"ph":PH,"ts":TS,"pid":PID,"tid":TID,"name":NAME  (the caller closes it) */
static GString *ev_begin(const char *ph, Cycle ts, guint pid, guint tid, const char *name)
{
    GString *s = g_string_new("{\"ph\":");
    json_str(s, ph);
    g_string_append(s, ",\"ts\":");
    json_us(s, ts);
    g_string_append_printf(s, ",\"pid\":%u,\"tid\":%u,\"name\":", pid, tid);
    json_str(s, name);
    return s;
}

static void meta(PerfettoSink *p, const char *what, guint pid, guint tid, const char *name, guint sort)
{
    GString *s = ev_begin("M", 0, pid, tid, what);
    g_string_append(s, ",\"args\":{\"name\":");
    json_str(s, name);
    g_string_append(s, "}}");
    emit(p, s);
    GString *o = ev_begin("M", 0, pid, tid, g_str_has_prefix(what, "process") ? "process_sort_index"
                                                                              : "thread_sort_index");
    g_string_append_printf(o, ",\"args\":{\"sort_index\":%u}}", sort);
    emit(p, o);
}

/* ======================================================================================
 * Tracks
 * ====================================================================================== */

static guint perfetto_core_tid(const PerfettoSink *p, gint core)
{
    return core == MEMSYS_HOME ? p->ncores + 1 : core == MEMSYS_BUS ? p->ncores + 2 : (guint)core + 1;
}

/* The cores' process track of `core` (or the home), named on first use. */
static guint core_track(PerfettoSink *p, gint core)
{
    guint i = core == MEMSYS_HOME ? p->ncores : core == MEMSYS_BUS ? p->ncores + 2 : (guint)core;
    if (!p->core_named[p->ncores + 1]) {
        p->core_named[p->ncores + 1] = TRUE;
        meta(p, "process_name", PID_CORES, 0, "cores", 0);
    }
    if (!p->core_named[i]) {
        p->core_named[i] = TRUE;
        char who[16];
        g_autofree char *name = core == MEMSYS_HOME ? g_strdup(p->bus ? "home (memory controller)" : "home (directory)")
                                                    : g_strdup(trace_who(core, who));
        meta(p, "thread_name", PID_CORES, perfetto_core_tid(p, core), name, perfetto_core_tid(p, core));
    }
    return perfetto_core_tid(p, core);
}

static LineTrack *line_track(PerfettoSink *p, const TraceContext *ctx, uint64_t line)
{
    LineTrack *t = g_hash_table_lookup(p->lines, &line);
    if (t)
        return t;
    t = g_new0(LineTrack, 1);
    t->line = line;
    t->pid = PID_FIRST_LINE + p->line_order->len;
    t->caches = g_new0(OpenState, p->ncores + 1);
    t->named = g_new0(guint8, p->ncores + 2);
    g_hash_table_insert(p->lines, &t->line, t);
    g_ptr_array_add(p->line_order, t);
    g_autofree char *name = g_strdup_printf("line %s (0x%" G_GINT64_MODIFIER "x: %s)",
                                            trace_names_line(ctx->names, line), line,
                                            trace_names_line_vars(ctx->names, line));
    meta(p, "process_name", t->pid, 0, name, t->pid);
    return t;
}

static guint line_tid(PerfettoSink *p, LineTrack *t, gint core)
{
    guint tid = perfetto_core_tid(p, core);
    if (!t->named[tid]) {
        t->named[tid] = TRUE;
        char who[16];
        g_autofree char *name = core == MEMSYS_HOME ? g_strdup(p->bus ? "memory" : "directory")
                                                    : g_strdup_printf("%s cache", trace_who(core, who));
        meta(p, "thread_name", t->pid, tid, name, tid);
    }
    return tid;
}

/* ======================================================================================
 * Events
 * ====================================================================================== */

static void close_state(PerfettoSink *p, LineTrack *t, gint core, Cycle now)
{
    OpenState *o = &t->caches[core == MEMSYS_HOME ? p->ncores : (guint)core];
    if (!o->open)
        return;
    gboolean dir = core == MEMSYS_HOME;
    GString *s = ev_begin("X", o->since, t->pid, line_tid(p, t, core),
                          dir ? coh_dir_state_name(o->state) : coh_cache_state_name(o->state));
    g_string_append(s, ",\"cat\":\"state\",\"dur\":");
    json_us(s, now - o->since);
    g_autofree char *row = coh_row_text(o->entered_by, dir);
    g_string_append(s, ",\"args\":{\"entered by\":");
    json_str(s, row);
    g_string_append(s, ",\"meaning\":");
    json_str(s, dir ? coh_dir_state_doc(o->state) : coh_cache_state_doc(o->state));
    g_string_append(s, "}}");
    emit(p, s);
    o->open = FALSE;
}

static void row_state(PerfettoSink *p, const TraceContext *ctx, const MemTraceRow *r)
{
    LineTrack *t = line_track(p, ctx, r->line);
    OpenState *o = &t->caches[r->core == MEMSYS_HOME ? p->ncores : (guint)r->core];
    if (o->open && o->state == r->row->next)
        return;
    close_state(p, t, r->core, r->cycle);
    *o = (OpenState){ TRUE, r->row->next, r->cycle, r->row };
}

static void message(PerfettoSink *p, const TraceContext *ctx, const MemTraceMsg *m)
{
    const char *type = memsys_msg_name(m->type);
    const char *line = trace_names_line(ctx->names, m->line);
    char a[16], b[16];
    guint src = core_track(p, m->src), dst = core_track(p, m->dst);
    g_autofree char *text = trace_msg_text(m);
    g_autofree char *out_name = g_strdup_printf("%s %s to %s", type, line, trace_who(m->dst, a));
    GString *s = ev_begin("X", m->sent, PID_CORES, src, out_name);
    g_string_append(s, ",\"cat\":\"msg\",\"dur\":0.001,\"args\":{\"message\":");
    json_str(s, text);
    g_string_append(s, ",\"meaning\":");
    json_str(s, coh_msg_doc(m->type));
    g_string_append_printf(s, ",\"arrives\":%" G_GUINT64_FORMAT "}}", m->arrives);
    emit(p, s);
    g_autofree char *in_name = g_strdup_printf("%s %s from %s", type, line, trace_who(m->src, b));
    s = ev_begin("X", m->arrives, PID_CORES, dst, in_name);
    g_string_append_printf(s, ",\"cat\":\"msg\",\"dur\":0.001,\"args\":{\"sent\":%" G_GUINT64_FORMAT "}}", m->sent);
    emit(p, s);
    s = ev_begin("s", m->sent, PID_CORES, src, type);
    g_string_append_printf(s, ",\"cat\":\"msg\",\"id\":%" G_GUINT64_FORMAT "}", m->id);
    emit(p, s);
    s = ev_begin("f", m->arrives, PID_CORES, dst, type);
    g_string_append_printf(s, ",\"cat\":\"msg\",\"bp\":\"e\",\"id\":%" G_GUINT64_FORMAT "}", m->id);
    emit(p, s);
}

static const char *const pipe_names[] = {
    [CORE_TRACE_RETIRE] = "retire", [CORE_TRACE_MACHINE_CLEAR] = "machine clear",
    [CORE_TRACE_MISPREDICT] = "mispredict", [CORE_TRACE_REPLAY] = "same-address replay",
    [CORE_TRACE_WFE_SLEEP] = "wfe sleep",
};

static void sized(PerfettoSink *p, const TraceContext *ctx)
{
    if (!p->core_named) {
        p->ncores = ctx->ncores;
        p->core_named = g_new0(gboolean, p->ncores + 3);
        p->bus = ctx->proto->bus;
    }
}

static void perfetto_event(TraceSink *sink, const TraceContext *ctx, const TraceEvent *ev)
{
    PerfettoSink *p = (PerfettoSink *)sink;
    sized(p, ctx);
    p->now = ev->cycle;
    switch (ev->kind) {
    case TRACE_ROW:
        /* the line's states whatever --trace-only says: they are the picture the events sit in */
        if (ev->line_ok)
            row_state(p, ctx, ev->row);
        G_GNUC_FALLTHROUGH; /* the row's messages */
    case TRACE_MSG:
        if (ev->shown)
            for (guint i = 0; i < ev->nmsgs; i++)
                message(p, ctx, &ev->msgs[i]);
        break;
    case TRACE_PIPE: {
        if (!ev->shown)
            break;
        guint tid = core_track(p, ev->core);
        g_autofree char *text = trace_pipe_text(ctx, ev->pipe);
        GString *s = ev_begin("i", ev->cycle, PID_CORES, tid, pipe_names[ev->pipe->kind]);
        g_string_append(s, ",\"cat\":\"pipeline\",\"s\":\"t\",\"args\":{\"what\":");
        json_str(s, text);
        g_string_append(s, "}}");
        emit(p, s);
        break;
    }
    case TRACE_LOCK: {
        if (!ev->shown || ev->mark == TRACE_LOCK_CALL)
            break;
        guint tid = core_track(p, ev->core);
        GString *s = ev_begin("X", ev->mark_since, PID_CORES, tid,
                              trace_phase_span(ctx, ev->mark == TRACE_LOCK_ACQUIRED ? 1 : 2));
        g_string_append(s, ",\"cat\":\"lock\",\"dur\":");
        json_us(s, ev->cycle - ev->mark_since);
        g_string_append(s, "}");
        emit(p, s);
        break;
    }
    case TRACE_RETIRE:
        break;
    }
}

static gboolean perfetto_finish(TraceSink *sink, const TraceContext *ctx, Cycle end, GError **error)
{
    PerfettoSink *p = (PerfettoSink *)sink;
    sized(p, ctx);
    p->now = end;
    for (guint i = 0; i < p->line_order->len; i++) {
        LineTrack *t = p->line_order->pdata[i];
        for (guint c = 0; c <= p->ncores; c++)
            close_state(p, t, c == p->ncores ? MEMSYS_HOME : (gint)c, end);
    }
    GString *o = g_string_new(NULL);
    g_string_append(o, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"config\":");
    json_str(o, ctx->config);
    g_string_append(o, ",\"lock\":");
    json_str(o, ctx->lock);
    g_string_append(o, ",\"protocol\":");
    json_str(o, ctx->proto->name);
    g_string_append_printf(o, ",\"cycles\":%" G_GUINT64_FORMAT ",\"time\":\"one cycle shows as one nanosecond\"", end);
    if (p->limit.over)
        g_string_append_printf(o, ",\"cut_at_cycle\":%" G_GUINT64_FORMAT ",\"cut\":\"the events stop at run.trace_limit\"",
                               p->limit.over_at);
    g_string_append(o, "}\n}\n");
    fputs(o->str, p->out);
    g_string_free(o, TRUE);
    gboolean ok = output_file_close(p->out, p->path, error);
    p->out = NULL;
    if (!ok) {
        g_prefix_error(error, "--trace-out ");
        return FALSE;
    }
    g_autofree char *what = g_strdup_printf("--trace-out %s", p->path);
    return trace_limit_check(&p->limit, what, "the file holds the events before it, as valid JSON", error);
}

static void line_track_free(gpointer v)
{
    LineTrack *t = v;
    g_free(t->caches);
    g_free(t->named);
    g_free(t);
}

static void perfetto_free(TraceSink *sink)
{
    PerfettoSink *p = (PerfettoSink *)sink;
    if (p->out)
        fclose(p->out);
    g_hash_table_destroy(p->lines);
    g_ptr_array_free(p->line_order, TRUE);
    g_free(p->core_named);
    g_free(p->path);
    g_free(p);
}

TraceSink *trace_perfetto_new(const char *path, guint64 limit, GError **error)
{
    FILE *f = output_file_open(path, OUTPUT_TRUNCATE, error);
    if (!f) {
        g_prefix_error(error, "--trace-out ");
        return NULL;
    }
    PerfettoSink *p = g_new0(PerfettoSink, 1);
    p->sink = (TraceSink){ perfetto_event, perfetto_finish, perfetto_free };
    p->out = f;
    p->path = g_strdup(path);
    p->first = TRUE;
    p->limit = trace_limit_init(limit);
    p->lines = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, line_track_free);
    p->line_order = g_ptr_array_new();
    fputs("{\"traceEvents\":[", f);
    return &p->sink;
}
