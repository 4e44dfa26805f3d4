/* The text trace (see trace_text.h). */
#include <string.h>
#include <stdarg.h>
#include "sim/trace/trace_text.h"
#include "sim/trace/trace_limit.h"

/* Hits and stalls of one row on one core's line since its last line printed. */
typedef struct {
    gint core;
    uint64_t line;
    const CohRow *row;
    guint64 count;
    Cycle first, last;
} Collapsed;

typedef struct {
    TraceSink sink;
    FILE *out;
    guint show;
    gboolean summaries;
    gboolean started;
    int line_w;                  /* width of the line column */
    int who_w;                   /* width of the who column ("core 12.1" with SMT) */
    GArray *collapsed;           /* Collapsed, in the order first seen */
    TraceLimit limit;
    Cycle now;                   /* the event being written */
    gint script_access;          /* the scripted access last announced (TraceContext.script_who) */
} TextSink;

#define ROW_W 26

/* Every line goes through here, within the trace's size limit. */
static void G_GNUC_PRINTF(2, 3) put(TextSink *t, const char *fmt, ...)
{
    if (t->limit.over)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *text = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (trace_limit_take(&t->limit, strlen(text), t->now))
        fputs(text, t->out);
}

static void header(TextSink *t, const TraceContext *ctx)
{
    if (t->started)
        return;
    t->started = TRUE;
    const GArray *lines = trace_names_lines(ctx->names);
    t->line_w = 10;
    t->who_w = ctx->threads_per_core > 1 ? 9 : 7;
    for (guint i = 0; i < lines->len; i++)
        t->line_w = MAX(t->line_w, (int)strlen(trace_names_line(ctx->names, g_array_index(lines, uint64_t, i))));
    put(t, "# qsim trace: %s on %s (%s), %u thread%s\n", ctx->lock, ctx->config, ctx->proto->name,
            ctx->nthreads, ctx->nthreads == 1 ? "" : "s");
    put(t, "# lines:");
    guint shown = 0;
    for (guint i = 0; i < lines->len; i++) {
        uint64_t l = g_array_index(lines, uint64_t, i);
        const char *vars = trace_names_line_vars(ctx->names, l);
        /* A lock in C: each thread's stack and init flag, the glue's (sim/cfront/cfront.h:
         * CF_STACK_VAR, CF_READY_VAR), are 65 lines a thread that are not the lock's. */
        if (g_str_has_prefix(vars, "cf_stack[") || g_str_has_prefix(vars, "cf_ready["))
            continue;
        put(t, "%s %s 0x%" G_GINT64_MODIFIER "x (%s)", shown++ ? ";" : "", trace_names_line(ctx->names, l), l, vars);
    }
    put(t, "\n# columns: cycle, who, line, protocol row (state + event -> next), what it did; "
                    "`qsim protocol %s --legend` explains them\n", ctx->proto->name);
}

static void put_collapsed(TextSink *t, const TraceContext *ctx, const Collapsed *c)
{
    char who[16];
    g_autofree char *row = coh_row_text(c->row, FALSE);
    gboolean stall = c->row->actions == CA_STALL;
    put(t, "%10s  %-*s %-*s  %" G_GUINT64_FORMAT " x %s  (%s, cycles %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
                    ")\n", "", t->who_w, trace_who(c->core, who), t->line_w, trace_names_line(ctx->names, c->line), c->count,
            row, stall ? (c->count == 1 ? "a stall" : "stalls") : (c->count == 1 ? "a hit" : "hits"), c->first,
            c->last);
}

/* Prints and forgets what was collapsed for (core, line); every core and line when core < -1. */
static void flush_collapsed(TextSink *t, const TraceContext *ctx, gint core, uint64_t line)
{
    guint keep = 0;
    for (guint i = 0; i < t->collapsed->len; i++) {
        Collapsed *c = &g_array_index(t->collapsed, Collapsed, i);
        if (core < -1 || (c->core == core && c->line == line))
            put_collapsed(t, ctx, c);
        else
            g_array_index(t->collapsed, Collapsed, keep++) = *c;
    }
    g_array_set_size(t->collapsed, keep);
}

static void collapse(TextSink *t, const MemTraceRow *r)
{
    for (guint i = 0; i < t->collapsed->len; i++) {
        Collapsed *c = &g_array_index(t->collapsed, Collapsed, i);
        if (c->core == r->core && c->line == r->line && c->row == r->row) {
            c->count++;
            c->last = r->cycle;
            return;
        }
    }
    Collapsed c = { r->core, r->line, r->row, 1, r->cycle, r->cycle };
    g_array_append_val(t->collapsed, c);
}

static void put_messages(TextSink *t, const TraceContext *ctx, const MemTraceMsg *msgs, guint n)
{
    for (guint i = 0; i < n; i++) {
        const MemTraceMsg *m = &msgs[i];
        char a[16], b[16];
        g_autofree char *route = g_strdup_printf("%s -> %s", trace_who(m->src, a), trace_who(m->dst, b));
        g_autofree char *text = trace_msg_text(m);
        /* the text says "X to Y (...)": the route is in its own column, keep the rest */
        const char *extra = strstr(text, " (");
        g_autofree char *what = g_strdup_printf("%s%s", memsys_msg_name(m->type), extra ? extra : "");
        put(t, "%10" G_GUINT64_FORMAT "  %-16s %-*s  %-*s  arrives %" G_GUINT64_FORMAT "\n", m->sent, route,
                t->line_w, trace_names_line(ctx->names, m->line), ROW_W, what, m->arrives);
    }
}

static void text_event(TraceSink *s, const TraceContext *ctx, const TraceEvent *ev)
{
    TextSink *t = (TextSink *)s;
    if (ev->kind == TRACE_RETIRE)
        return;
    t->now = ev->cycle;
    header(t, ctx);
    char who[16];
    if (ctx->script_who && ev->script_access > t->script_access) {
        /* a script's access starts: its thread, named as the other thread lines name it, since
         * the rows name the cache, which the core's hardware threads share */
        const TraceScriptAccess *a = &ctx->script[ev->script_access];
        flush_collapsed(t, ctx, -2, 0);
        put(t, "%10" G_GUINT64_FORMAT "  %-*s %-*s  script: access #%d %s\n", ev->cycle, t->who_w,
            trace_who_cpu(ctx, (gint)a->core, who), t->line_w, "", ev->script_access + 1, a->text);
        t->script_access = ev->script_access;
    }
    if (ev->kind == TRACE_ROW && !ev->shown) {
        if (ev->line_ok && t->summaries && trace_row_is_hit(ev->row))
            collapse(t, ev->row);
        return;
    }
    if (!ev->shown)
        return;
    switch (ev->kind) {
    case TRACE_ROW: {
        const MemTraceRow *r = ev->row;
        if (!(t->show & (TRACE_SHOW_TRANSITIONS | TRACE_SHOW_HITS))) {
            put_messages(t, ctx, ev->msgs, ev->nmsgs); /* --trace-only messages */
            break;
        }
        flush_collapsed(t, ctx, r->core, r->line);
        g_autofree char *row = coh_row_text(r->row, r->dir);
        g_autofree char *what = trace_row_actions(ctx, r, ev->msgs, ev->nmsgs);
        put(t, "%10" G_GUINT64_FORMAT "  %-*s %-*s  %-*s  %s\n", r->cycle, t->who_w, trace_who(r->core, who), t->line_w,
                trace_names_line(ctx->names, r->line), ROW_W, row, what);
        break;
    }
    case TRACE_MSG:
        put_messages(t, ctx, ev->msgs, ev->nmsgs);
        break;
    case TRACE_PIPE: {
        g_autofree char *text = trace_pipe_text(ctx, ev->pipe);
        put(t, "%10" G_GUINT64_FORMAT "  %-*s %-*s  pipeline: %s\n", ev->cycle, t->who_w, trace_who_cpu(ctx, ev->core, who),
                t->line_w, ev->line ? trace_names_line(ctx->names, ev->line) : "", text);
        break;
    }
    case TRACE_LOCK: {
        g_autofree char *text = trace_lock_text(ctx, ev);
        put(t, "%10" G_GUINT64_FORMAT "  %-*s %-*s  %s: %s\n", ev->cycle, t->who_w, trace_who_cpu(ctx, ev->core, who),
                t->line_w, "", ctx->harness == TRACE_HARNESS_SCENARIO ? "body" : "lock", text);
        break;
    }
    case TRACE_RETIRE:
        break;
    }
}

static gboolean text_finish(TraceSink *s, const TraceContext *ctx, Cycle end, GError **error)
{
    TextSink *t = (TextSink *)s;
    t->now = end;
    header(t, ctx);
    flush_collapsed(t, ctx, -2, 0);
    put(t, "# end of run at cycle %" G_GUINT64_FORMAT "\n", end);
    if (t->limit.over)
        fprintf(t->out, "# the trace stops at cycle %" G_GUINT64_FORMAT ", at its size limit (run.trace_limit)\n",
                t->limit.over_at);
    fflush(t->out);
    return trace_limit_check(&t->limit, "--trace", "the lines before it were written", error);
}

static void text_free(TraceSink *s)
{
    TextSink *t = (TextSink *)s;
    g_array_free(t->collapsed, TRUE);
    g_free(t);
}

TraceSink *trace_text_new(FILE *out, guint show, gboolean summaries, guint64 limit)
{
    TextSink *t = g_new0(TextSink, 1);
    t->limit = trace_limit_init(limit);
    t->sink = (TraceSink){ text_event, text_finish, text_free };
    t->out = out;
    t->show = show;
    t->summaries = summaries;
    t->collapsed = g_array_new(FALSE, FALSE, sizeof(Collapsed));
    t->script_access = -1;
    return &t->sink;
}
