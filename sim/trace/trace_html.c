/* The step-through page (see trace_html.h).  The sink keeps what the page needs as the events
 * come (the steps, the state changes, the messages, the retirements), and at the end writes
 * one HTML file: the page's style and script (trace_html_page.c) around the data as JSON.
 * Everything the page shows is computed here; the script only lays it out and navigates. */
#include <errno.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "sim/trace/trace_html.h"
#include "sim/trace/trace_limit.h"
#include "sim/base/output_file.h"
#include "sim/trace/trace_html_ops.h"
#include "coherence/protocol_words.h"

/* A page of more steps than this is no longer something to step through: it keeps the first. */
#define HTML_MAX_STEPS 20000

/* One step: an event as the text trace shows it. */
typedef struct {
    Cycle cycle;
    gint core;
    uint64_t line;               /* 0: none */
    char *kind;                  /* "row", "message", "pipeline", "lock" */
    char *title;                 /* "S + Store -> SM_AD", "acquires the lock" */
    char *what;                  /* what it did */
    char *explain;               /* the row in words */
    gboolean transition;         /* a row that changed its line's state */
    gint row_index;              /* a row step: the row in the protocol's table (-1: none) */
    gboolean row_dir;            /* ... of the directory's (or the bus memory's) table */
    guint changes_from, changes_to; /* into HtmlSink.changes */
    guint8 *phase;               /* per thread: 0 outside, 1 acquiring, 2 holding */
    gint script_access;          /* the scripted access in progress (TraceContext.script), -1: none */
    guint8 *where;               /* time-shared threads (TraceContext.thread_where), per thread:
                                  * TraceThreadWhere; NULL: each thread on its own core */
    guint *where_cpu;            /* ... and the CPU it runs on, waits for or last ran on */
} Step;

/* What the page draws of a line, column by column: the threads' caches (0 .. nthreads-1), then
 * these. */
enum { COL_DIR_AFTER_CORES, COL_MEM, COL_QUEUE, COL__N };

/* A line's state in one column after a step. */
typedef struct {
    uint64_t line;
    guint col;                   /* a thread's cache, or nthreads + COL_DIR_AFTER_CORES ... */
    const char *state;           /* caches and the directory; NULL for memory and the queue */
    char *holders;               /* directory: "owner core 1", "sharers 0 1"; else NULL */
    GArray *vals;                /* gint64: the line's words (a cache's or memory's data; NULL:
                                  * none valid), or the queue's requests as indices into msgs */
} Change;

/* A variable's bytes in a line, for its value. */
typedef struct {
    char *name;
    guint off, size;
} Word;

typedef struct {
    guint64 id;
    MsgType type;
    gint src, dst;
    uint64_t line;
    Cycle sent, arrives;
    char *text;
    gboolean data;               /* carries the line's data (a CopyBack does, whatever its name) */
    guint s0, s1;                /* in flight from step s0 (sent) until step s1 (delivered) */
    gboolean delivered;
} Message;

typedef struct {
    gint core;
    Cycle cycle;
    int32_t pc;
    guint after;                 /* steps recorded before it */
} Retire;

typedef struct {
    TraceSink sink;
    char *path;
    GPtrArray *steps;            /* Step* (step 0, the start, is implicit) */
    GArray *changes;             /* Change */
    GArray *msgs;                /* Message */
    GHashTable *msg_by_id;       /* guint64 id -> index+1 into msgs */
    GArray *retires;             /* Retire */
    GArray *seen_lines;          /* uint64_t, lines with a row, unsorted */
    GHashTable *words;           /* uint64 line -> GArray of Word: its variables */
    GHashTable *last;            /* "line:col" -> the signature of the last Change kept there */
    HtmlOps *ops;                /* the pipeline panel */
    guint8 *phase;               /* per thread: the lock phase now */
    guint *retire_after;         /* per core id: `after` of its last retire kept, G_MAXUINT: none */
    guint64 dropped;             /* steps past HTML_MAX_STEPS */
    guint64 limit;               /* the page's bytes at most (run.trace_limit) */
    TraceHtmlCut *cut;           /* where finish says whether the page holds the whole run; may be NULL */
} HtmlSink;

extern const char trace_html_page_head[], trace_html_page_tail[];

static void step_free(gpointer p)
{
    Step *s = p;
    g_free(s->kind);
    g_free(s->title);
    g_free(s->what);
    g_free(s->explain);
    g_free(s->phase);
    g_free(s->where);
    g_free(s->where_cpu);
    g_free(s);
}

static void change_clear(gpointer p)
{
    Change *c = p;
    g_free(c->holders);
    if (c->vals)
        g_array_free(c->vals, TRUE);
}

static void words_free(gpointer p)
{
    GArray *w = p;
    for (guint i = 0; i < w->len; i++)
        g_free(g_array_index(w, Word, i).name);
    g_array_free(w, TRUE);
}
static void message_clear(gpointer p) { g_free(((Message *)p)->text); }

/* ======================================================================================
 * Collecting
 * ====================================================================================== */

static void see_line(HtmlSink *h, uint64_t line)
{
    for (guint i = 0; i < h->seen_lines->len; i++)
        if (g_array_index(h->seen_lines, uint64_t, i) == line)
            return;
    g_array_append_val(h->seen_lines, line);
}

/* What the home's cell says beside its state: a directory's holders ("owner core 1", "sharers
 * 0 1", "no holders"); a bus's memory keeps no list of them, so what its state means (the
 * state's words up to their first clause: "one cache holds the line in M"). */
static char *home_words(const TraceContext *ctx, guint state, const MemTraceRow *r)
{
    if (ctx->proto->bus) {
        if (!coh_dir_state_stable(state))
            return g_strdup_printf("waiting for %s", coh_dir_state_wait(state));
        const char *doc = coh_dir_state_doc(state);
        return g_strndup(doc, strcspn(doc, ";"));
    }
    GString *s = g_string_new(NULL);
    if (r && r->dir_owner >= 0)
        g_string_append_printf(s, "owner core %d", r->dir_owner);
    if (r && r->dir_sharers) {
        g_string_append_printf(s, "%ssharers", s->len ? ", " : "");
        for (guint c = 0; c < 64; c++)
            if (r->dir_sharers & (1ull << c))
                g_string_append_printf(s, " %u", c);
    }
    if (!s->len)
        g_string_append(s, "no holders");
    return g_string_free(s, FALSE);
}

static Step *step_add(HtmlSink *h, const TraceContext *ctx, const TraceEvent *ev, const char *kind)
{
    if (h->steps->len >= HTML_MAX_STEPS) {
        h->dropped++;
        return NULL;
    }
    Step *s = g_new0(Step, 1);
    s->cycle = ev->cycle;
    s->core = ev->core;
    s->line = ev->line;
    s->kind = g_strdup(kind);
    s->changes_from = s->changes_to = h->changes->len;
    s->row_index = -1;
    s->phase = g_new0(guint8, ctx->nthreads);
    s->script_access = ev->script_access;
    if (ctx->thread_where) {
        s->where = g_new(guint8, ctx->nthreads);
        s->where_cpu = g_new(guint, ctx->nthreads);
        for (guint t = 0; t < ctx->nthreads; t++)
            s->where[t] = (guint8)ctx->thread_where(ctx->thread_where_arg, t, &s->where_cpu[t]);
    }
    g_ptr_array_add(h->steps, s);
    return s;
}

static void add_messages(HtmlSink *h, const TraceEvent *ev, guint step)
{
    for (guint i = 0; i < ev->nmsgs; i++) {
        const MemTraceMsg *m = &ev->msgs[i];
        Message msg = { m->id, m->type, m->src, m->dst, m->line, m->sent, m->arrives, trace_msg_text(m), m->data, step, 0,
                        FALSE };
        g_array_append_val(h->msgs, msg);
        g_hash_table_insert(h->msg_by_id, GSIZE_TO_POINTER(m->id), GUINT_TO_POINTER(h->msgs->len));
    }
}

/* The physical core of a logical CPU: the memory system's core, whose L1 its hardware threads
 * share (trace_who_cpu numbers CPU c as core c % machine_cores, thread c / machine_cores). */
static guint physical_core(const TraceContext *ctx, guint cpu)
{
    return ctx->threads_per_core > 1 && ctx->machine_cores ? cpu % ctx->machine_cores : cpu;
}

/* The page's columns are per thread, in thread order; the directory is last.  A CPU's pipeline
 * is drawn in the column of the first thread on that CPU (time-shared threads share it) ... */
static guint cpu_column(const TraceContext *ctx, gint cpu)
{
    for (guint t = 0; t < ctx->nthreads; t++)
        if ((gint)ctx->cores[t] == cpu)
            return t;
    return ctx->nthreads;
}

/* ... and a core's cache (a memory row's `core`) in the column of the first thread on that
 * physical core: its hardware threads and its time-shared threads all use that one cache. */
static guint cache_column(const TraceContext *ctx, gint core)
{
    for (guint t = 0; t < ctx->nthreads; t++)
        if ((gint)physical_core(ctx, ctx->cores[t]) == core)
            return t;
    return ctx->nthreads;
}

/* The thread whose lock mark retired on `cpu`: the one running there. */
static guint thread_on(const TraceContext *ctx, guint cpu)
{
    for (guint t = 0; ctx->thread_where && t < ctx->nthreads; t++) {
        guint at = 0;
        if (ctx->thread_where(ctx->thread_where_arg, t, &at) == TRACE_THREAD_RUNNING && at == cpu)
            return t;
    }
    return cpu_column(ctx, (gint)cpu);
}

static gboolean steps_full(const HtmlSink *h) { return h->steps->len >= HTML_MAX_STEPS; }

/* The variables in a line as the program's layout names them (offset 0 always starts one, a
 * word of memory when no variable is there), each up to 8 bytes: its value is shown. */
static const GArray *line_words(HtmlSink *h, const TraceContext *ctx, uint64_t line, guint line_size)
{
    GArray *w = g_hash_table_lookup(h->words, &line);
    if (w)
        return w;
    w = g_array_new(FALSE, FALSE, sizeof(Word));
    gboolean carry = FALSE; /* the last word stopped at 8 bytes inside its variable: the next goes on */
    for (guint off = 0; off < line_size;) {
        char *name = trace_names_addr(ctx->names, line + off);
        gboolean named = (carry || !strchr(name, '+')) && !g_str_has_prefix(name, "0x");
        if (!named && off) {
            g_free(name);
            off++;
            continue;
        }
        Word word = { name, off, 1 };
        g_autofree char *var = carry ? g_strndup(name, strcspn(name, "+")) : g_strdup(name);
        g_autofree char *inside = g_strdup_printf("%s+", var);
        while (word.size < 8 && off + word.size < line_size) {
            g_autofree char *next = trace_names_addr(ctx->names, line + off + word.size);
            if (named ? !g_str_has_prefix(next, inside) : !g_str_has_prefix(next, "0x"))
                break;
            word.size++;
        }
        g_array_append_val(w, word);
        off += word.size;
        g_autofree char *after = off < line_size ? trace_names_addr(ctx->names, line + off) : NULL;
        carry = named && word.size == 8 && after && g_str_has_prefix(after, inside);
    }
    uint64_t *key = g_new(uint64_t, 1);
    *key = line;
    g_hash_table_insert(h->words, key, w);
    return w;
}

/* The words' values in `data` (little-endian), NULL when there is no data. */
static GArray *word_values(const GArray *words, const guint8 *data)
{
    if (!data)
        return NULL;
    GArray *v = g_array_sized_new(FALSE, FALSE, sizeof(gint64), words->len);
    for (guint i = 0; i < words->len; i++) {
        const Word *w = &g_array_index(words, Word, i);
        uint64_t x = 0;
        for (guint b = w->size; b-- > 0;)
            x = x << 8 | data[w->off + b];
        gint64 y = (gint64)x;
        g_array_append_val(v, y);
    }
    return v;
}

/* Keeps a change of (line, col) unless it shows what the last one there showed; takes holders
 * and vals. */
static void keep_change(HtmlSink *h, uint64_t line, guint col, const char *state, char *holders, GArray *vals)
{
    GString *sig = g_string_new(NULL);
    g_string_append_printf(sig, "%s|%s|", state ? state : "", holders ? holders : "");
    for (guint i = 0; vals && i < vals->len; i++)
        g_string_append_printf(sig, "%" G_GINT64_FORMAT ",", g_array_index(vals, gint64, i));
    if (!vals)
        g_string_append(sig, "-");
    char *key = g_strdup_printf("%" G_GINT64_MODIFIER "x:%u", line, col);
    const char *last = g_hash_table_lookup(h->last, key);
    if (last ? !strcmp(last, sig->str) : (!state || !strcmp(state, "I")) && (!holders || !*holders) && (!vals || !vals->len)) {
        g_free(key);
        g_string_free(sig, TRUE);
        g_free(holders);
        if (vals)
            g_array_free(vals, TRUE);
        return;
    }
    g_hash_table_insert(h->last, key, g_string_free(sig, FALSE));
    Change c = { line, col, state, holders, vals };
    g_array_append_val(h->changes, c);
}

/* What a row changed on the page: its column's state (and data), memory's data, the home's queue. */
static void row_changes(HtmlSink *h, const TraceContext *ctx, const MemTraceRow *r)
{
    const GArray *w = line_words(h, ctx, r->line, r->line_size);
    guint home = ctx->nthreads;
    if (r->dir)
        keep_change(h, r->line, home + COL_DIR_AFTER_CORES, coh_dir_state_name(r->row->next),
                    home_words(ctx, r->row->next, r), NULL);
    else
        keep_change(h, r->line, cache_column(ctx, r->core), coh_cache_state_name(r->row->next), NULL,
                    word_values(w, r->data));
    keep_change(h, r->line, home + COL_MEM, NULL, NULL, word_values(w, r->mem));
    GArray *q = g_array_new(FALSE, FALSE, sizeof(gint64));
    for (guint i = 0; i < r->nqueued; i++) {
        guint at = GPOINTER_TO_UINT(g_hash_table_lookup(h->msg_by_id, GSIZE_TO_POINTER(r->queued[i])));
        gint64 idx = (gint64)at - 1;
        if (at)
            g_array_append_val(q, idx);
    }
    keep_change(h, r->line, home + COL_QUEUE, NULL, NULL, q);
}

/* The first page step that shows a core's bookkeeping event at `cycle`: the last step kept when
 * it is of the same cycle or later, else the next. */
static guint step_showing(const HtmlSink *h, Cycle cycle)
{
    guint n = h->steps->len;
    return n && cycle <= ((const Step *)h->steps->pdata[n - 1])->cycle ? n : n + 1;
}

static void html_event(TraceSink *sink, const TraceContext *ctx, const TraceEvent *ev)
{
    HtmlSink *h = (HtmlSink *)sink;
    if (!h->phase) {
        h->phase = g_new0(guint8, ctx->nthreads);
        h->retire_after = g_new(guint, ctx->ncores);
        for (guint c = 0; c < ctx->ncores; c++)
            h->retire_after[c] = G_MAXUINT;
    }
    if (ev->kind == TRACE_RETIRE && !steps_full(h))
        html_ops_event(h->ops, cpu_column(ctx, ev->core), ev->pipe, step_showing(h, ev->cycle));
    if (ev->kind == TRACE_RETIRE && ev->pipe->kind != CORE_TRACE_RETIRE)
        return;
    if (ev->kind == TRACE_RETIRE) {
        /* Once the page is full only each core's next op after the last step is shown: the
         * rest of a long run is not kept (it grew without bound). */
        if (steps_full(h) && h->retire_after[ev->core] == h->steps->len)
            return;
        Retire r = { ev->core, ev->cycle, ev->pipe->pc, h->steps->len };
        g_array_append_val(h->retires, r);
        h->retire_after[ev->core] = h->steps->len;
        return;
    }
    if (ev->kind == TRACE_LOCK && thread_on(ctx, (guint)ev->core) < ctx->nthreads)
        h->phase[thread_on(ctx, (guint)ev->core)] = ev->mark == TRACE_LOCK_CALL ? 1 : ev->mark == TRACE_LOCK_ACQUIRED ? 2 : 0;
    Message *consumed = NULL;
    if (ev->kind == TRACE_ROW && ev->line_ok) {
        const MemTraceRow *r = ev->row;
        see_line(h, r->line);
        guint at = GPOINTER_TO_UINT(g_hash_table_lookup(h->msg_by_id, GSIZE_TO_POINTER(r->cause)));
        if (r->cause && at && !g_array_index(h->msgs, Message, at - 1).delivered) {
            consumed = &g_array_index(h->msgs, Message, at - 1);
            consumed->delivered = TRUE;
            consumed->s1 = h->steps->len + 1; /* from the next step on, unless this row is one */
        }
        if (!steps_full(h)) /* a change after the last step is no step's */
            row_changes(h, ctx, r);
        /* A row not shown (a hit) in the cycle of the last step shows its change there: the
         * access a Data row woke performs in that cycle, so its value belongs to that step. */
        if (!ev->shown && h->steps->len) {
            Step *last = h->steps->pdata[h->steps->len - 1];
            if (last->cycle == ev->cycle)
                last->changes_to = h->changes->len;
        }
    }
    if (!ev->shown)
        return;
    Step *s = NULL;
    switch (ev->kind) {
    case TRACE_ROW:
        if (!(s = step_add(h, ctx, ev, "row")))
            return;
        s->title = coh_row_text(ev->row->row, ev->row->dir);
        s->what = trace_row_actions(ctx, ev->row, ev->msgs, ev->nmsgs);
        s->explain = coh_row_explain_on(ev->row->row, ev->row->dir, ctx->proto->bus);
        s->transition = ev->row->row->next != ev->row->row->state;
        s->row_index = (gint)ev->row->index;
        s->row_dir = ev->row->dir;
        break;
    case TRACE_MSG:
        if (!(s = step_add(h, ctx, ev, "message")))
            return;
        s->title = trace_msg_text(&ev->msgs[0]);
        s->what = g_strdup_printf("sends %s", s->title);
        s->explain = g_strdup(coh_msg_doc(ev->msgs[0].type));
        break;
    case TRACE_PIPE:
        if (!(s = step_add(h, ctx, ev, "pipeline")))
            return;
        s->title = g_strdup("pipeline event");
        s->what = trace_pipe_text(ctx, ev->pipe);
        s->explain = g_strdup(ev->pipe->kind != CORE_TRACE_MACHINE_CLEAR
            ? "The core's pipeline threw away work it did on a guess and starts again."
            : ev->pipe->sibling
            ? "x86 keeps loads in order: this hardware thread's load read the line before it retired, and the "
              "other hardware thread of the same core has since stored to it (the two share the core's cache, so "
              "nothing was invalidated); the load may have read a value that store made stale, so the thread "
              "squashes from that load and fetches again (a memory-ordering machine clear)."
            : ev->pipe->evicted
            ? "x86 keeps loads in order: a load that already read a line which has since been evicted from the "
              "cache, before it retired, can no longer be sure no store made its value stale; the core squashes "
              "from that load and fetches again (a memory-ordering machine clear)."
            : "x86 keeps loads in order: a load that already read a line which is now invalidated, before it "
              "retired, may have read a value that a store made stale; the core squashes from that load and "
              "fetches again (a memory-ordering machine clear).");
        break;
    case TRACE_LOCK:
        if (!(s = step_add(h, ctx, ev, "lock")))
            return;
        s->title = trace_lock_text(ctx, ev);
        s->what = g_strdup("");
        s->explain = g_strdup(ctx->harness == TRACE_HARNESS_SCENARIO
                              ? (ev->mark == TRACE_LOCK_CALL ? "The harness calls the scenario's body."
                                 : ev->mark == TRACE_LOCK_ACQUIRED ? "The body returned."
                                                                   : "The iteration ends.")
                              : ev->mark == TRACE_LOCK_CALL ? "The harness calls the lock's acquire function."
                              : ev->mark == TRACE_LOCK_ACQUIRED ? "The acquire function returned: this core is in "
                                                                  "its critical section."
                                                                : "The release function returned.");
        break;
    case TRACE_RETIRE:
        return;
    }
    s->changes_from = h->steps->len > 1 ? ((Step *)h->steps->pdata[h->steps->len - 2])->changes_to : 0;
    s->changes_to = h->changes->len;
    memcpy(s->phase, h->phase, ctx->nthreads);
    if (consumed)
        consumed->s1 = h->steps->len;
    add_messages(h, ev, h->steps->len);
}

/* ======================================================================================
 * Writing
 * ====================================================================================== */

static int u64_cmp(gconstpointer a, gconstpointer b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static gint line_index(const GArray *lines, uint64_t line)
{
    for (guint i = 0; i < lines->len; i++)
        if (g_array_index(lines, uint64_t, i) == line)
            return (gint)i;
    return -1;
}

static void add_str(JsonBuilder *b, const char *key, const char *value)
{
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, value ? value : "");
}

static void add_int(JsonBuilder *b, const char *key, gint64 value)
{
    json_builder_set_member_name(b, key);
    json_builder_add_int_value(b, value);
}

/* Per thread, the op it retires next after step k (page numbering: 0 is the start). */
static void add_next_retires(JsonBuilder *b, const HtmlSink *h, const TraceContext *ctx, guint k, guint *cursor)
{
    json_builder_begin_array(b);
    for (guint t = 0; t < ctx->nthreads; t++) {
        guint i = cursor[t];
        while (i < h->retires->len) {
            const Retire *r = &g_array_index(h->retires, Retire, i);
            if (r->core == (gint)ctx->cores[t] && r->after >= k)
                break;
            i++;
        }
        cursor[t] = i;
        json_builder_begin_array(b);
        if (i < h->retires->len) {
            const Retire *r = &g_array_index(h->retires, Retire, i);
            json_builder_add_int_value(b, r->pc);
            json_builder_add_int_value(b, (gint64)r->cycle);
        } else {
            json_builder_add_int_value(b, -1);
            json_builder_add_int_value(b, -1);
        }
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}

/* The run: title, protocol, the home's column, the cores and the lines. */
static void add_header(JsonBuilder *b, const HtmlSink *h, const TraceContext *ctx, const GArray *lines, Cycle end)
{
    g_autofree char *title = g_strdup_printf("%s on %s (%s), %u thread%s", ctx->lock, ctx->config, ctx->proto->name,
                                             ctx->nthreads, ctx->nthreads == 1 ? "" : "s");
    add_str(b, "title", title);
    add_str(b, "protocol", ctx->proto->name);
    /* the home's column: a directory, or a bus's memory controller, and its state at the start */
    add_str(b, "homeTitle", ctx->proto->bus ? "home (memory)" : "home (directory)");
    add_str(b, "homeStart", coh_dir_state_name(ctx->proto->dir_start));
    g_autofree char *home = home_words(ctx, ctx->proto->dir_start, NULL);
    add_str(b, "homeWords", home);
    add_int(b, "end", (gint64)end);
    add_int(b, "dropped", (gint64)h->dropped);
    add_int(b, "bus", ctx->proto->bus);
    /* a script's accesses, "#2 1:st x=5", and the core each runs on: the steps name theirs */
    json_builder_set_member_name(b, "accesses");
    json_builder_begin_array(b);
    for (guint i = 0; i < ctx->nscript; i++) {
        json_builder_begin_object(b);
        g_autofree char *text = g_strdup_printf("#%u %s", i + 1, ctx->script[i].text);
        add_str(b, "t", text);
        add_int(b, "core", ctx->script[i].core);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "phases");
    json_builder_begin_array(b);
    for (guint k = 0; k < 3; k++)
        json_builder_add_string_value(b, trace_phase_word(ctx, k));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "cores");
    json_builder_begin_array(b);
    for (guint t = 0; t < ctx->nthreads; t++)
        json_builder_add_int_value(b, ctx->cores[t]);
    json_builder_end_array(b);
    /* per thread: its name as the text trace gives it ("core 0.1" with SMT) and its physical
     * core, whose one cache its hardware threads and time-shared threads use */
    char who[16];
    json_builder_set_member_name(b, "names");
    json_builder_begin_array(b);
    for (guint t = 0; t < ctx->nthreads; t++)
        json_builder_add_string_value(b, trace_who_cpu(ctx, (gint)ctx->cores[t], who));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "phys");
    json_builder_begin_array(b);
    for (guint t = 0; t < ctx->nthreads; t++)
        json_builder_add_int_value(b, physical_core(ctx, ctx->cores[t]));
    json_builder_end_array(b);
    add_int(b, "timeShared", ctx->thread_where != NULL);
    json_builder_set_member_name(b, "lines");
    json_builder_begin_array(b);
    for (guint i = 0; i < lines->len; i++) {
        uint64_t l = g_array_index(lines, uint64_t, i);
        g_autofree char *addr = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", l);
        json_builder_begin_object(b);
        add_str(b, "name", trace_names_line(ctx->names, l));
        add_str(b, "addr", addr);
        add_str(b, "vars", trace_names_line_vars(ctx->names, l));
        const GArray *w = g_hash_table_lookup(h->words, &l);
        json_builder_set_member_name(b, "words");
        json_builder_begin_array(b);
        for (guint k = 0; w && k < w->len; k++)
            json_builder_add_string_value(b, g_array_index(w, Word, k).name);
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    add_int(b, "lockLine", ctx->lock_line ? line_index(lines, ctx->lock_line) : -1);
}

/* The states this protocol's tables use, with their meaning, and which of them are stable (the
 * page draws the others as transient). */
static void add_states(JsonBuilder *b, const CohProtocol *proto)
{
    gboolean cache_used[CS__N] = { [CS_I] = TRUE }, dir_used[DS__N] = { [DS_I] = TRUE };
    for (guint i = 0; i < proto->n_cache; i++)
        cache_used[proto->cache[i].state] = cache_used[proto->cache[i].next] = TRUE;
    for (guint i = 0; i < proto->n_dir; i++)
        dir_used[proto->dir[i].state] = dir_used[proto->dir[i].next] = TRUE;
    json_builder_set_member_name(b, "cacheStates");
    json_builder_begin_object(b);
    for (guint st = 0; st < CS__N; st++)
        if (cache_used[st])
            add_str(b, coh_cache_state_name(st), coh_cache_state_doc(st));
    json_builder_end_object(b);
    json_builder_set_member_name(b, "dirStates");
    json_builder_begin_object(b);
    for (guint st = 0; st < DS__N; st++)
        if (dir_used[st])
            add_str(b, coh_dir_state_name(st), coh_dir_state_doc(st));
    json_builder_end_object(b);
    json_builder_set_member_name(b, "stable");
    json_builder_begin_array(b);
    for (guint st = 0; st < CS__N; st++)
        if (coh_cache_state_stable(st) && cache_used[st])
            json_builder_add_string_value(b, coh_cache_state_name(st));
    for (guint st = 0; st < DS__N; st++)
        if (coh_dir_state_stable(st) && dir_used[st])
            json_builder_add_string_value(b, coh_dir_state_name(st));
    json_builder_end_array(b);
}

/* The protocol's tables, a row a string ("S + Store -> SM_AD"), for the table beside the
 * machine: a row step names its row by index. */
static void add_table(JsonBuilder *b, const CohProtocol *proto)
{
    json_builder_set_member_name(b, "table");
    json_builder_begin_array(b);
    for (guint dir = 0; dir < 2; dir++) {
        json_builder_begin_array(b);
        for (guint i = 0; i < (dir ? proto->n_dir : proto->n_cache); i++) {
            g_autofree char *t = coh_row_text(dir ? &proto->dir[i] : &proto->cache[i], dir);
            json_builder_add_string_value(b, t);
        }
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}

/* The program, an op a row: its source position and text. */
static void add_insns(JsonBuilder *b, const TraceContext *ctx)
{
    json_builder_set_member_name(b, "insns");
    json_builder_begin_array(b);
    for (guint pc = 0; pc < ctx->prog->insns->len; pc++) {
        g_autofree char *pos = trace_insn_pos(ctx, (int32_t)pc), *text = trace_insn_text(ctx, (int32_t)pc);
        json_builder_begin_array(b);
        json_builder_add_string_value(b, pos);
        json_builder_add_string_value(b, text);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}

/* Step k: the event, the states it changed, the threads' lock phases, what each retires next. */
static void add_step(JsonBuilder *b, const HtmlSink *h, const TraceContext *ctx, const GArray *lines, guint k,
                     guint *cursor)
{
    const Step *s = h->steps->pdata[k];
    char who[16];
    json_builder_begin_object(b);
    add_int(b, "c", (gint64)s->cycle);
    /* as the text trace names it: a memory row's core, or a pipeline's CPU ("core 0.1") */
    add_str(b, "who", !strcmp(s->kind, "row") || !strcmp(s->kind, "message") ? trace_who(s->core, who)
                                                                              : trace_who_cpu(ctx, s->core, who));
    add_int(b, "l", s->line ? line_index(lines, s->line) : -1);
    add_str(b, "k", s->kind);
    add_str(b, "t", s->title);
    add_str(b, "w", s->what);
    add_str(b, "x", s->explain);
    add_int(b, "tr", s->transition);
    if (s->row_index >= 0) {
        add_int(b, "ri", s->row_index);
        add_int(b, "rd", s->row_dir);
    }
    if (s->script_access >= 0)
        add_int(b, "a", s->script_access);
    json_builder_set_member_name(b, "ch");
    json_builder_begin_array(b);
    for (guint c = s->changes_from; c < s->changes_to; c++) {
        const Change *ch = &g_array_index(h->changes, Change, c);
        json_builder_begin_array(b);
        json_builder_add_int_value(b, line_index(lines, ch->line));
        json_builder_add_int_value(b, ch->col);
        json_builder_add_string_value(b, ch->state ? ch->state : "");
        json_builder_add_string_value(b, ch->holders ? ch->holders : "");
        if (ch->vals) {
            json_builder_begin_array(b);
            for (guint v = 0; v < ch->vals->len; v++)
                json_builder_add_int_value(b, g_array_index(ch->vals, gint64, v));
            json_builder_end_array(b);
        } else
            json_builder_add_null_value(b);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "ph");
    json_builder_begin_array(b);
    for (guint t = 0; t < ctx->nthreads; t++)
        json_builder_add_int_value(b, s->phase[t]);
    json_builder_end_array(b);
    if (s->where) { /* time-shared threads: [where, cpu] each, where "run", "ready", "asleep", "done",
                     * "load" (being switched onto the CPU) */
        static const char *const where_word[] = { "run", "ready", "asleep", "done", "load" };
        json_builder_set_member_name(b, "tw");
        json_builder_begin_array(b);
        for (guint t = 0; t < ctx->nthreads; t++) {
            json_builder_begin_array(b);
            json_builder_add_string_value(b, where_word[s->where[t]]);
            json_builder_add_int_value(b, s->where_cpu[t]);
            json_builder_end_array(b);
        }
        json_builder_end_array(b);
    }
    json_builder_set_member_name(b, "run");
    add_next_retires(b, h, ctx, k + 1, cursor);
    json_builder_end_object(b);
}

/* What kind of message, for its colour: by what it carries, not by its name (a CopyBack is
 * data, an AckCount an ack). */
static const char *msg_kind(const Message *m)
{
    if (m->data)
        return "data";
    switch (m->type) {
    case MSG_INV_ACK: case MSG_PUT_ACK: case MSG_ACK_COUNT: return "ack";
    case MSG_INV: case MSG_FWD_GETS: case MSG_FWD_GETM: return "inv";
    default: return "req";
    }
}

/* On a bus, the last cycle request i holds the bus.  Its transaction is atomic
 * (coherence/bus.c): the bus is held from the grant (when the request is sent) through the
 * address phase, the responder's wait and the data phase, until the last data it asked for has
 * arrived; no other request is granted meanwhile, so that data is what is sent after it and
 * before the next request on the bus. */
static Cycle bus_held_until(const HtmlSink *h, guint i)
{
    Cycle until = g_array_index(h->msgs, Message, i).arrives;
    for (guint j = i + 1; j < h->msgs->len; j++) {
        const Message *m = &g_array_index(h->msgs, Message, j);
        if (m->dst == MEMSYS_BUS)
            break;
        if (m->data)
            until = MAX(until, m->arrives);
    }
    return until;
}

/* The messages, each in flight from the step that sent it to the step that took it; on a bus
 * a request says until when its transaction holds the bus ("h"). */
static void add_msgs(JsonBuilder *b, HtmlSink *h, const GArray *lines)
{
    char who[16];
    Cycle bus_free = 0; /* the first cycle after the last transaction on the bus */
    json_builder_set_member_name(b, "msgs");
    json_builder_begin_array(b);
    for (guint i = 0; i < h->msgs->len; i++) {
        Message *m = &g_array_index(h->msgs, Message, i);
        if (!m->delivered) { /* no row took it (a far atomic's reply), or the run ended first */
            m->s1 = h->steps->len + 1;
            for (guint k = m->s0; k < h->steps->len; k++)
                if (((const Step *)h->steps->pdata[k])->cycle >= m->arrives) {
                    m->s1 = k + 1;
                    break;
                }
        }
        json_builder_begin_object(b);
        add_str(b, "t", memsys_msg_name(m->type));
        add_str(b, "f", trace_who(m->src, who));
        add_str(b, "to", trace_who(m->dst, who));
        add_int(b, "l", line_index(lines, m->line));
        add_int(b, "s", (gint64)m->sent);
        add_int(b, "a", (gint64)m->arrives);
        add_str(b, "x", m->text);
        add_str(b, "d", coh_msg_doc(m->type));
        add_str(b, "k", msg_kind(m));
        add_int(b, "s0", m->s0);
        add_int(b, "s1", m->s1);
        if (m->dst == MEMSYS_BUS) {
            /* a request is sent at its grant; a write-back when its line is replaced, and takes
             * the bus's next slot (coherence/bus.c, bus_writeback_delay): its grant "g" */
            Cycle grant = m->type == MSG_PUTM ? MAX(m->sent + 1, bus_free) : m->sent;
            add_int(b, "g", (gint64)grant);
            add_int(b, "h", (gint64)bus_held_until(h, i));
            bus_free = bus_held_until(h, i) + 1;
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}

/* The JSON for a <script> element: '<' only occurs inside JSON strings, so escaped, no
 * "</script>" can end the data early. */
static char *script_safe(const char *json)
{
    GString *safe = g_string_new(NULL);
    for (const char *p = json; *p; p++)
        if (*p == '<')
            g_string_append(safe, "\\u003c");
        else
            g_string_append_c(safe, *p);
    return g_string_free(safe, FALSE);
}

static char *page_data(HtmlSink *h, const TraceContext *ctx, Cycle end)
{
    GArray *lines = h->seen_lines;
    g_array_sort(lines, u64_cmp);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    add_header(b, h, ctx, lines, end);
    add_states(b, ctx->proto);
    add_table(b, ctx->proto);
    add_insns(b, ctx);
    g_autofree guint *cursor = g_new0(guint, ctx->nthreads);
    json_builder_set_member_name(b, "start");
    add_next_retires(b, h, ctx, 0, cursor);
    json_builder_set_member_name(b, "steps");
    json_builder_begin_array(b);
    for (guint k = 0; k < h->steps->len; k++)
        add_step(b, h, ctx, lines, k, cursor);
    json_builder_end_array(b);
    add_msgs(b, h, lines);
    html_ops_json(b, h->ops, ctx, lines, h->steps->len);
    json_builder_end_object(b);
    g_autoptr(JsonGenerator) gen = json_generator_new();
    g_autoptr(JsonNode) root = json_builder_get_root(b);
    json_generator_set_root(gen, root);
    g_autofree char *json = json_generator_to_data(gen, NULL);
    return script_safe(json);
}

static gboolean html_finish(TraceSink *sink, const TraceContext *ctx, Cycle end, GError **error)
{
    HtmlSink *h = (HtmlSink *)sink;
    if (h->cut)
        *h->cut = (TraceHtmlCut){ h->steps->len, h->dropped };
    g_autofree char *data = page_data(h, ctx, end);
    g_autofree char *page = g_strconcat(trace_html_page_head, data, trace_html_page_tail, NULL);
    TraceLimit limit = trace_limit_init(h->limit);
    if (!trace_limit_take(&limit, strlen(page), CYCLE_NEVER)) {
        g_autofree char *what = g_strdup_printf("--trace-html %s", h->path);
        g_autofree char *kept = g_strdup_printf("nothing was written (the page would take %" G_GSIZE_FORMAT " bytes)",
                                                strlen(page));
        return trace_limit_check(&limit, what, kept, error);
    }
    if (!output_file_write(h->path, OUTPUT_TRUNCATE, page, strlen(page), error)) {
        g_prefix_error(error, "--trace-html ");
        return FALSE;
    }
    return TRUE;
}

static void html_free(TraceSink *sink)
{
    HtmlSink *h = (HtmlSink *)sink;
    g_ptr_array_free(h->steps, TRUE);
    g_array_free(h->changes, TRUE);
    g_array_free(h->msgs, TRUE);
    g_hash_table_destroy(h->msg_by_id);
    g_array_free(h->retires, TRUE);
    g_array_free(h->seen_lines, TRUE);
    g_hash_table_destroy(h->words);
    g_hash_table_destroy(h->last);
    html_ops_free(h->ops);
    g_free(h->phase);
    g_free(h->retire_after);
    g_free(h->path);
    g_free(h);
}

TraceSink *trace_html_new(const char *path, guint64 limit, TraceHtmlCut *cut)
{
    HtmlSink *h = g_new0(HtmlSink, 1);
    h->limit = limit;
    h->cut = cut;
    h->sink = (TraceSink){ html_event, html_finish, html_free };
    h->path = g_strdup(path);
    h->steps = g_ptr_array_new_with_free_func(step_free);
    h->changes = g_array_new(FALSE, FALSE, sizeof(Change));
    g_array_set_clear_func(h->changes, change_clear);
    h->msgs = g_array_new(FALSE, FALSE, sizeof(Message));
    g_array_set_clear_func(h->msgs, message_clear);
    h->msg_by_id = g_hash_table_new(g_direct_hash, g_direct_equal);
    h->retires = g_array_new(FALSE, FALSE, sizeof(Retire));
    h->seen_lines = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    h->words = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, words_free);
    h->last = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    h->ops = html_ops_new();
    return &h->sink;
}
