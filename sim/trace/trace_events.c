/* The trace event stream (see trace_events.h): the hooks turn what the memory system, the
 * cores and the harness report into TraceEvents, decide the filters once, and hand each event
 * to every sink in order.  The words all writers share live here too; the words of the
 * protocol itself are coherence/protocol_words.c's. */
#include <string.h>
#include "sim/trace/trace_events.h"
#include "coherence/protocol_words.h"
#include "cores/isa/asm.h"

/* ======================================================================================
 * --trace-only
 * ====================================================================================== */

static const struct {
    const char *name;
    guint bits;
} show_names[] = {
    { "transitions", TRACE_SHOW_TRANSITIONS },
    { "hits", TRACE_SHOW_HITS },
    { "messages", TRACE_SHOW_MESSAGES },
    { "pipeline", TRACE_SHOW_PIPELINE },
    { "locks", TRACE_SHOW_LOCKS },
    { "all", TRACE_SHOW_DEFAULT | TRACE_SHOW_HITS },
};

gboolean trace_show_parse(const char *text, guint *show, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    guint bits = 0;
    for (guint i = 0; parts[i]; i++) {
        const char *p = g_strstrip(parts[i]);
        guint k = 0;
        while (k < G_N_ELEMENTS(show_names) && strcmp(show_names[k].name, p))
            k++;
        if (k == G_N_ELEMENTS(show_names)) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--trace-only: unknown kind '%s' (transitions, hits, messages, pipeline, locks, all; "
                        "comma-separated)", p);
            return FALSE;
        }
        bits |= show_names[k].bits;
    }
    *show = bits;
    return TRUE;
}

/* ======================================================================================
 * The stream
 * ====================================================================================== */

struct TraceStream {
    TraceContext ctx;
    guint show;
    GArray *lines;               /* uint64_t, sorted; empty: every line */
    GPtrArray *sinks;
    Cycle *last_mark;            /* per core: when its last mark retired */
    const MemSys *ms;            /* whose rows in progress hold core events back */
    GArray *held;                /* HeldCoreEvent: reported inside a row, delivered after it */
    gint script_access;          /* the script's access in progress, -1: none (yet) */
};

typedef struct {
    guint core;
    CoreTraceEvent ev;
} HeldCoreEvent;

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

TraceStream *trace_stream_new(const TraceContext *ctx, const TraceFilter *filter)
{
    TraceStream *t = g_new0(TraceStream, 1);
    t->ctx = *ctx;
    t->show = filter->show;
    t->lines = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    if (filter->lines)
        g_array_append_vals(t->lines, filter->lines->data, filter->lines->len);
    g_array_sort(t->lines, u64_cmp);
    t->sinks = g_ptr_array_new();
    t->last_mark = g_new0(Cycle, ctx->ncores);
    t->held = g_array_new(FALSE, FALSE, sizeof(HeldCoreEvent));
    t->script_access = -1;
    return t;
}

void trace_stream_follow_rows(TraceStream *t, const MemSys *ms) { t->ms = ms; }

void trace_stream_script_access(TraceStream *t, guint i)
{
    if (i < t->ctx.nscript)
        t->script_access = (gint)i;
}

void trace_stream_add_sink(TraceStream *t, TraceSink *sink) { g_ptr_array_add(t->sinks, sink); }

void trace_stream_free(TraceStream *t)
{
    if (!t)
        return;
    for (guint i = 0; i < t->sinks->len; i++) {
        TraceSink *s = t->sinks->pdata[i];
        s->free(s);
    }
    g_ptr_array_free(t->sinks, TRUE);
    g_array_free(t->lines, TRUE);
    g_array_free(t->held, TRUE);
    g_free(t->last_mark);
    g_free(t);
}

static gboolean line_passes(const TraceStream *t, uint64_t line, gboolean has_line)
{
    if (!t->lines->len)
        return TRUE;
    if (!has_line)
        return TRUE; /* lock phases and mispredicts concern no line: they stay as context */
    return bsearch(&line, t->lines->data, t->lines->len, sizeof(uint64_t), u64_cmp) != NULL;
}

gboolean trace_row_is_hit(const MemTraceRow *r)
{
    if (r->dir)
        return FALSE; /* a request queued at the home is where contention shows: never collapsed */
    return r->row->actions == CA_STALL || (r->row->actions == CA_HIT && r->row->next == r->row->state);
}

static guint event_category(const TraceEvent *ev)
{
    switch (ev->kind) {
    case TRACE_ROW: return trace_row_is_hit(ev->row) ? TRACE_SHOW_HITS : TRACE_SHOW_TRANSITIONS;
    case TRACE_MSG: return TRACE_SHOW_MESSAGES;
    case TRACE_PIPE: return TRACE_SHOW_PIPELINE;
    case TRACE_LOCK: return TRACE_SHOW_LOCKS;
    case TRACE_RETIRE: return 0;
    }
    return 0;
}

static void deliver(TraceStream *t, TraceEvent *ev, gboolean has_line)
{
    ev->line_ok = line_passes(t, ev->line, has_line);
    guint cat = event_category(ev);
    /* A row shown only for its messages (--trace-only messages) is still the messages' event. */
    if (ev->kind == TRACE_ROW && ev->nmsgs && (t->show & TRACE_SHOW_MESSAGES))
        cat |= TRACE_SHOW_MESSAGES;
    ev->shown = ev->line_ok && (cat & t->show);
    ev->script_access = t->script_access;
    for (guint i = 0; i < t->sinks->len; i++) {
        TraceSink *s = t->sinks->pdata[i];
        s->event(s, &t->ctx, ev);
    }
}

static void deliver_mem(TraceStream *t, const MemTraceRow *row, const MemTraceMsg *msgs, guint nmsgs)
{
    TraceEvent ev = { .msgs = msgs, .nmsgs = nmsgs };
    if (row) {
        ev.kind = TRACE_ROW;
        ev.cycle = row->cycle;
        ev.core = row->core;
        ev.line = row->line;
        ev.row = row;
    } else {
        g_assert(nmsgs == 1);
        ev.kind = TRACE_MSG;
        ev.cycle = msgs[0].sent;
        ev.core = msgs[0].src;
        ev.line = msgs[0].line;
    }
    deliver(t, &ev, TRUE);
}

static gboolean core_trace_is_bookkeeping(CoreTraceKind k)
{
    return k == CORE_TRACE_RETIRE || k >= CORE_TRACE_LOAD_ISSUE;
}

static void deliver_core(TraceStream *t, guint core, const CoreTraceEvent *pe)
{
    TraceEvent ev = {
        .kind = core_trace_is_bookkeeping(pe->kind) ? TRACE_RETIRE : TRACE_PIPE,
        .cycle = pe->when,
        .core = (gint)core,
        .line = pe->kind == CORE_TRACE_MACHINE_CLEAR ? pe->line : 0,
        .pipe = pe,
    };
    deliver(t, &ev, pe->kind == CORE_TRACE_MACHINE_CLEAR);
}

static void deliver_held(TraceStream *t)
{
    for (guint i = 0; i < t->held->len; i++) {
        const HeldCoreEvent *h = &g_array_index(t->held, HeldCoreEvent, i);
        deliver_core(t, h->core, &h->ev);
    }
    g_array_set_size(t->held, 0);
}

void trace_stream_mem(void *stream, const MemTraceRow *row, const MemTraceMsg *msgs, guint nmsgs)
{
    TraceStream *t = stream;
    deliver_mem(t, row, msgs, nmsgs);
    deliver_held(t); /* what the row made a core report */
}

void trace_stream_core(void *stream, guint core, const CoreTraceEvent *pe)
{
    TraceStream *t = stream;
    if (t->ms && memsys_trace_row_open(t->ms)) {
        HeldCoreEvent h = { core, *pe };
        g_array_append_val(t->held, h);
        return;
    }
    deliver_core(t, core, pe);
}

void trace_stream_mark(TraceStream *t, guint core, int64_t mark, Cycle when)
{
    if (mark < TRACE_LOCK_CALL || mark > TRACE_LOCK_RELEASED || core >= t->ctx.ncores)
        return;
    TraceEvent ev = {
        .kind = TRACE_LOCK,
        .cycle = when,
        .core = (gint)core,
        .line = 0,
        .mark = (TraceLockMark)mark,
        .mark_since = t->last_mark[core],
    };
    t->last_mark[core] = when;
    deliver(t, &ev, FALSE);
}

gboolean trace_stream_finish(TraceStream *t, Cycle end, GError **error)
{
    gboolean ok = TRUE;
    deliver_held(t);
    for (guint i = 0; i < t->sinks->len; i++) {
        TraceSink *s = t->sinks->pdata[i];
        if (s->finish && !s->finish(s, &t->ctx, end, ok ? error : NULL))
            ok = FALSE;
    }
    return ok;
}

/* ======================================================================================
 * Words
 * ====================================================================================== */

const char *trace_who(gint core, char buf[16])
{
    if (core == MEMSYS_HOME)
        return "home";
    if (core == MEMSYS_BUS)
        return "bus";
    g_snprintf(buf, 16, "core %d", core);
    return buf;
}

const char *trace_who_cpu(const TraceContext *ctx, gint cpu, char buf[16])
{
    if (ctx->threads_per_core < 2 || !ctx->machine_cores || cpu < 0)
        return trace_who(cpu, buf);
    g_snprintf(buf, 16, "core %u.%u", (guint)cpu % ctx->machine_cores, (guint)cpu / ctx->machine_cores);
    return buf;
}

char *trace_msg_text(const MemTraceMsg *m)
{
    char who[16];
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "%s to %s", memsys_msg_name(m->type), trace_who(m->dst, who));
    if (m->excl)
        g_string_append(s, " (exclusive)");
    else if (m->type == MSG_INV || m->type == MSG_FWD_GETS || m->type == MSG_FWD_GETM) {
        if (m->req != m->dst)
            g_string_append_printf(s, " (for %s)", trace_who(m->req, who));
    } else if (m->acks > 0)
        g_string_append_printf(s, " (expect %d ack%s)", m->acks, m->acks == 1 ? "" : "s");
    return g_string_free(s, FALSE);
}

static const char *const access_words[] = { "load", "store", "atomic" };

/* What fired the row, when the row alone does not say it: a request the home serves as another
 * event than its message's name (a queued Upgrade whose sender lost its copy is a GetM), a data
 * event a cache took from a message without data (an AckCount: Data_Acks), one that waited in
 * the home's queue, a snoop that waited for a locked op's hold on the line. */
static void append_cause(GString *s, const MemTraceRow *r)
{
    if (r->cause_type < 0)
        return;
    const char *msg = memsys_msg_name((MsgType)r->cause_type);
    const char *event = r->dir ? coh_dir_event_name(r->row->event) : coh_cache_event_name(r->row->event);
    const char *served_as = r->dir ? coh_dir_event_served_as(r->row->event) : coh_cache_event_served_as(r->row->event);
    gboolean renamed = r->dir ? (r->cause_type == MSG_UPGRADE || r->cause_type == MSG_GETM) && strcmp(msg, event)
                              : !r->cause_data && served_as;
    gboolean queued = r->queued_since && r->queued_since < r->cycle;
    if (!renamed && !queued && !r->held_since)
        return;
    char who[16];
    g_string_append_printf(s, "%s from %s", msg, trace_who(r->cause_src, who));
    if (queued)
        g_string_append_printf(s, ", queued at the home since %" G_GUINT64_FORMAT, r->queued_since);
    if (r->held_since)
        g_string_append_printf(s, ", arrived at %" G_GUINT64_FORMAT " and waited %" G_GUINT64_FORMAT " cycles for a locked "
                               "op's hold on the line (core.lock_hold_cycles)", r->held_since, r->cycle - r->held_since);
    if (renamed) /* the event's words (the page, the legend) say when each applies */
        g_string_append_printf(s, ", served as %s (%s)", event, served_as);
    g_string_append(s, ": ");
}

/* A directory row's entry after it says what the bookkeeping actions did. */
static void append_dir_entry(GString *s, const MemTraceRow *r, gboolean sep)
{
    GString *e = g_string_new(NULL);
    if (r->dir_owner >= 0)
        g_string_append_printf(e, "owner core %d", r->dir_owner);
    if (r->dir_sharers) {
        g_string_append_printf(e, "%ssharers", e->len ? ", " : "");
        for (guint c = 0; c < 64; c++)
            if (r->dir_sharers & (1ull << c))
                g_string_append_printf(e, " %u", c);
    }
    g_string_append_printf(s, "%sdir: %s", sep ? "; " : "", e->len ? e->str : "no holders");
    g_string_free(e, TRUE);
}

char *trace_row_actions(const TraceContext *ctx, const MemTraceRow *r, const MemTraceMsg *msgs, guint n)
{
    GString *s = g_string_new(NULL);
    if (r->access >= 0 && r->access < (gint)G_N_ELEMENTS(access_words)) {
        g_autofree char *var = trace_names_addr(ctx->names, r->addr);
        g_string_append_printf(s, "%s %s", access_words[r->access], var);
        if (r->bus_wait) /* a free bus grants the cycle after the ask: that one is not waiting */
            g_string_append_printf(s, " (asked for the bus at %" G_GUINT64_FORMAT ", granted %" G_GUINT64_FORMAT
                                   " cycles later: waited %" G_GUINT64_FORMAT " cycles for other transactions)",
                                   r->cycle - r->bus_wait - 1, r->bus_wait + 1, r->bus_wait);
        g_string_append(s, ": ");
    }
    append_cause(s, r);
    gsize start = s->len;
    for (guint i = 0; i < n; i++) {
        g_autofree char *m = trace_msg_text(&msgs[i]);
        g_string_append_printf(s, "%s%s", i ? ", " : "sends ", m);
    }
    guint nbits = coh_action_bits(r->dir);
    for (guint b = 0; b < nbits; b++) {
        const char *brief = (r->row->actions & (1u << b)) ? coh_action_brief_for(b, r->dir, r->cause_data) : NULL;
        if (brief)
            g_string_append_printf(s, "%s%s", s->len > start ? "; " : "", brief);
    }
    char who[16];
    if (r->dir && (r->row->actions & DA_STALL) && r->dir_req >= 0)
        g_string_append_printf(s, " behind %s's transaction: %s waits for %s", trace_who(r->dir_req, who),
                               coh_dir_state_name(r->row->state), coh_dir_state_wait(r->row->state));
    if (r->dir && !(r->row->actions & DA_STALL) && !ctx->proto->bus)
        append_dir_entry(s, r, s->len > start);
    if (s->len == start && start >= 2)
        g_string_truncate(s, start - 2); /* "load x" alone */
    else if (!s->len)
        g_string_append(s, "nothing to do"); /* a blank cell of the Primer's tables */
    return g_string_free(s, FALSE);
}

char *trace_insn_pos(const TraceContext *ctx, int32_t pc)
{
    if (pc < 0 || (guint)pc >= ctx->prog->insns->len)
        return g_strdup("?");
    return isa_insn_pos(ctx->prog, &g_array_index(ctx->prog->insns, IsaInsn, pc));
}

char *trace_insn_text(const TraceContext *ctx, int32_t pc)
{
    if (pc < 0 || (guint)pc >= ctx->prog->insns->len)
        return g_strdup("?");
    return asm_format_insn(ctx->prog, &g_array_index(ctx->prog->insns, IsaInsn, pc));
}

char *trace_pipe_text(const TraceContext *ctx, const CoreTraceEvent *ev)
{
    g_autofree char *pos = trace_insn_pos(ctx, ev->pc);
    g_autofree char *insn = trace_insn_text(ctx, ev->pc);
    switch (ev->kind) {
    case CORE_TRACE_MACHINE_CLEAR: {
        const char *line = trace_names_line(ctx->names, ev->line);
        GString *s = g_string_new(NULL);
        g_string_append_printf(s, "memory-ordering machine clear: the load at %s (%s) had read %s, which was %s "
                               "before the load retired; %u ops squashed, that load and all after it; fetch "
                               "resumes at cycle %" G_GUINT64_FORMAT " (core.machine_clear_penalty, %" G_GUINT64_FORMAT
                               " cycles)",
                               pos, insn, line,
                               ev->sibling   ? "written by the other hardware thread of its core (SMT)"
                               : ev->evicted ? "evicted"
                                             : "invalidated",
                               ev->squashed, ev->when + ev->penalty, ev->penalty);
        if (ev->inflight)
            g_string_append_printf(s, "; %u of the squashed loads had already sent %s to the L1, which "
                                   "still performs %s (a miss there asks for the line again) and drops the value%s",
                                   ev->inflight, ev->inflight == 1 ? "its access" : "their accesses",
                                   ev->inflight == 1 ? "it" : "them", ev->inflight == 1 ? "" : "s");
        return g_string_free(s, FALSE);
    }
    case CORE_TRACE_MISPREDICT: {
        g_autofree char *to = trace_insn_pos(ctx, ev->resume_pc);
        return g_strdup_printf("mispredict: the branch at %s (%s) went the other way; %u younger ops squashed, "
                               "fetch resumes at %s after %" G_GUINT64_FORMAT " cycles",
                               pos, insn, ev->squashed, to, ev->penalty);
    }
    case CORE_TRACE_REPLAY:
        return g_strdup_printf("same-address replay: the load at %s (%s) read older data than an older load "
                               "to the same bytes; %u ops squashed", pos, insn, ev->squashed);
    case CORE_TRACE_WFE_SLEEP:
        return g_strdup_printf("wfe at %s: asleep until an event", pos);
    case CORE_TRACE_RETIRE:
        return g_strdup_printf("retires %s (%s)", pos, insn);
    case CORE_TRACE_LOAD_ISSUE:
    case CORE_TRACE_LOAD_PERFORM:
    case CORE_TRACE_SQUASH:
    case CORE_TRACE_SB_COMMIT:
    case CORE_TRACE_SB_DRAIN:
        break; /* bookkeeping: only the page draws them */
    }
    return g_strdup("?");
}

/* The words for a thread's phase, per harness: a row each. */
static const struct {
    const char *phase[3];        /* outside, between marks 1 and 2, between 2 and 3 */
    const char *span[3];         /* a timeline's name for the spans of phases 1 and 2 */
} harness_words[] = {
    [TRACE_HARNESS_LOCK] = { { "outside the lock", "acquiring", "holding the lock" },
                             { NULL, "acquiring the lock", "holding the lock" } },
    [TRACE_HARNESS_SCENARIO] = { { "between calls", "in its body", "returned" },
                                 { NULL, "in the scenario's body", "between the body and the next call" } },
    [TRACE_HARNESS_SCRIPT] = { { "scripted", "scripted", "scripted" }, { NULL, "scripted", "scripted" } },
};

const char *trace_phase_word(const TraceContext *ctx, guint phase)
{
    g_assert(phase < 3 && (guint)ctx->harness < G_N_ELEMENTS(harness_words));
    return harness_words[ctx->harness].phase[phase];
}

const char *trace_phase_span(const TraceContext *ctx, guint phase)
{
    g_assert(phase >= 1 && phase < 3 && (guint)ctx->harness < G_N_ELEMENTS(harness_words));
    return harness_words[ctx->harness].span[phase];
}

char *trace_lock_text(const TraceContext *ctx, const TraceEvent *ev)
{
    if (ctx->harness == TRACE_HARNESS_SCENARIO) {
        switch (ev->mark) {
        case TRACE_LOCK_CALL:
            return g_strdup("calls body");
        case TRACE_LOCK_ACQUIRED:
            return g_strdup_printf("returns from body (after %" G_GUINT64_FORMAT " cycles)", ev->cycle - ev->mark_since);
        case TRACE_LOCK_RELEASED:
            return g_strdup("ends the iteration");
        }
        return g_strdup("?");
    }
    switch (ev->mark) {
    case TRACE_LOCK_CALL:
        return g_strdup("calls lock");
    case TRACE_LOCK_ACQUIRED:
        return g_strdup_printf("acquires the lock (waited %" G_GUINT64_FORMAT " cycles)", ev->cycle - ev->mark_since);
    case TRACE_LOCK_RELEASED:
        return g_strdup_printf("releases the lock (held %" G_GUINT64_FORMAT " cycles)", ev->cycle - ev->mark_since);
    }
    return g_strdup("?");
}
