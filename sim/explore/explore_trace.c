/* Counterexamples: a path of moves replayed from the start, each move told as a person follows
 * it: the op and its file:line, what it read and which store wrote that value (the initial
 * memory, another thread's store and when it reached memory, or the thread's own store buffer),
 * what it wrote or buffered, the store buffers where they explain a read, and what followed at
 * once (an acquisition, a thread woken).  The search stores no writers (they would split equal
 * states), so they are found again here: the replay keeps, beside the state, which step wrote
 * each byte of memory and which step put each entry into a store buffer. */
#include <string.h>
#include "sim/explore/explore.h"
#include "sim/explore/explore_exec.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"

/* Who wrote a byte of memory: the store's step (0: nobody, the initial value), its thread, and
 * the step it reached memory (its drain; the same step without buffers). */
typedef struct {
    guint step, thread, in_memory;
} Writer;

typedef struct {
    const ExploreWorld *w;
    const ExploreModel *m;
    ExploreState *s;
    Writer *mem;               /* per byte of memory */
    guint **issued;            /* per thread, per buffer entry: the step that buffered it */
    guint *thread_steps;       /* per thread: its ops so far */
} Replay;

static void step_free(gpointer p)
{
    ExploreStep *st = p;
    g_free(st->op);
    g_free(st->at);
    g_free(st->addr);
    g_free(st->what);
    g_free(st->buffers);
    g_free(st->pending);
    g_free(st->after);
    g_free(st->not_seen);
    g_free(st);
}

ExploreTrace *explore_trace_new(void)
{
    ExploreTrace *tr = g_new0(ExploreTrace, 1);
    tr->steps = g_ptr_array_new_with_free_func(step_free);
    return tr;
}

void explore_trace_free(ExploreTrace *t)
{
    if (!t)
        return;
    g_ptr_array_free(t->steps, TRUE);
    g_free(t->end);
    g_free(t);
}

static char *sym_of(const ExploreWorld *w, uint64_t addr)
{
    char *s = isa_layout_symbolize(w->p, w->layout, addr);
    return s ? s : g_strdup_printf("0x%" G_GINT64_MODIFIER "x", addr);
}

static char *insn_text(const ExploreWorld *w, int32_t pc, char **at)
{
    if (pc < 0 || (guint)pc >= w->p->insns->len) {
        *at = g_strdup("?");
        return g_strdup_printf("pc %d", pc);
    }
    const IsaInsn *i = &g_array_index(w->p->insns, IsaInsn, pc);
    *at = isa_insn_pos(w->p, i);
    return asm_format_insn(w->p, i);
}

/* "flag+4 = 1 (step 3)" for each entry of t's buffer, oldest first. */
static void append_buffer(const Replay *x, GString *g, guint t)
{
    const ExploreThread *th = &x->s->th[t];
    g_string_append_printf(g, "T%u's store buffer:", t);
    if (!th->nbuf)
        g_string_append(g, " empty");
    for (guint k = 0; k < th->nbuf; k++) {
        g_autofree char *sym = sym_of(x->w, th->buf[k].addr);
        g_string_append_printf(g, "%s %s = %" G_GUINT64_FORMAT " (step %u)", k ? "," : "", sym, th->buf[k].value,
                               x->issued[t][k]);
    }
}

/* Stores still in other threads' buffers to bytes [addr, addr + size): the reason a read saw
 * an older value. */
static void append_pending(const Replay *x, GString *g, guint t, uint64_t addr, unsigned size)
{
    for (guint u = 0; u < x->w->nthreads; u++) {
        const ExploreThread *o = &x->s->th[u];
        for (guint k = 0; k < o->nbuf && u != t; k++) {
            const ExploreStore *e = &o->buf[k];
            if (e->addr >= addr + size || addr >= e->addr + e->size)
                continue;
            g_autofree char *sym = sym_of(x->w, e->addr);
            g_string_append_printf(g, "%snot yet in memory: T%u's store %s = %" G_GUINT64_FORMAT " (step %u) is in "
                                   "T%u's store buffer", g->len ? "; " : "", u, sym, e->value, x->issued[u][k], u);
        }
    }
}

/* Where a read's bytes came from, into st (source, source_step, ...) and words. */
static void read_source(const Replay *x, ExploreStep *st, GString *what)
{
    const ExploreNote *n = &st->note;
    gboolean fwd = FALSE, mem = FALSE, same = TRUE;
    Writer first = { 0 };
    for (unsigned b = 0; b < n->rsize; b++) {
        Writer wr;
        if (n->from_buffer[b] >= 0) {
            fwd = TRUE;
            wr = (Writer){ x->issued[n->thread][n->from_buffer[b]], n->thread, 0 };
        } else {
            mem = TRUE;
            wr = x->mem[n->raddr - x->w->layout->base + b];
        }
        if (b == 0)
            first = wr;
        else if (wr.step != first.step)
            same = FALSE;
    }
    g_string_append_printf(what, "read %s = %" G_GUINT64_FORMAT, st->addr, n->rvalue);
    st->source_step = first.step;
    st->source_thread = first.thread;
    st->source_in_memory = first.in_memory;
    if (fwd && mem) {
        st->source = "mixed";
        g_string_append(what, ", partly forwarded from its own store buffer, partly from memory");
    } else if (fwd) {
        st->source = "forwarded";
        g_string_append_printf(what, same ? ", forwarded from T%u's store buffer (its store at step %u)"
                                          : ", forwarded from T%u's store buffer (several stores)",
                               n->thread, first.step);
    } else if (!same) {
        st->source = "mixed";
        g_string_append(what, " from memory, written by several stores");
    } else if (!first.step) {
        st->source = "initial";
        g_string_append(what, " from memory: the initial value");
    } else {
        st->source = "memory";
        if (first.in_memory != first.step)
            g_string_append_printf(what, " from memory: T%u's store at step %u (in memory since step %u)",
                                   first.thread, first.step, first.in_memory);
        else
            g_string_append_printf(what, " from memory: T%u's write at step %u", first.thread, first.step);
    }
}

static void note_memory_write(Replay *x, const ExploreNote *n, guint step, guint issued)
{
    for (unsigned b = 0; b < n->wsize; b++)
        x->mem[n->waddr - x->w->layout->base + b] = (Writer){ issued, n->thread, step };
}

/* What changed by the move and the local ops after it: marks, waits, wake-ups. */
static char *what_followed(const Replay *x, const ExploreState *before, guint t)
{
    GString *g = g_string_new(NULL);
    const ExploreThread *a = &before->th[t], *b = &x->s->th[t];
    /* In the order a harness loop runs them: a release, the next call, its acquisition. */
    static const struct { guint mark; const char *words; } marks[] = {
        { 3, "released" }, { 1, "calls lock" }, { 2, "acquired" },
    };
    for (guint k = 0; k < G_N_ELEMENTS(marks); k++)
        if (b->marks[marks[k].mark] > a->marks[marks[k].mark])
            g_string_append_printf(g, "%s%s", g->len ? ", " : "", marks[k].words);
    if (b->state != a->state) {
        static const char *const now[] = { NULL, "waits in wfe", "sleeps in futex_wait", "halted", "faulted" };
        if (now[b->state])
            g_string_append_printf(g, "%s%s", g->len ? ", " : "", now[b->state]);
    }
    for (guint u = 0; u < x->w->nthreads; u++)
        if (u != t && before->th[u].state != THREAD_RUNNABLE && before->th[u].state != THREAD_HALTED &&
            x->s->th[u].state == THREAD_RUNNABLE)
            g_string_append_printf(g, "%swakes T%u", g->len ? ", " : "", u);
    if (!g->len) {
        g_string_free(g, TRUE);
        return NULL;
    }
    return g_string_free(g, FALSE);
}

/* Performs one move and tells it. */
static ExploreStep *replay_move(Replay *x, ExploreMove mv, guint step, ExploreState *before)
{
    const ExploreWorld *w = x->w;
    guint t = mv.thread;
    ExploreStep *st = g_new0(ExploreStep, 1);
    st->step = step;
    st->note.thread = t;
    st->note.kind = mv.kind;
    explore_state_copy(w, before, x->s);
    x->m->apply(w, x->s, mv, &st->note);
    ExploreNote *n = &st->note;
    st->op = insn_text(w, n->pc, &st->at);
    GString *what = g_string_new(NULL), *bufs = g_string_new(NULL), *pending = g_string_new(NULL);
    if (mv.kind == EXPLORE_MOVE_DRAIN) {
        guint issued = x->issued[t][0];
        memmove(x->issued[t], x->issued[t] + 1, (before->th[t].nbuf - 1) * sizeof(guint));
        st->addr = sym_of(w, n->waddr);
        note_memory_write(x, n, step, issued);
        g_string_append_printf(what, "T%u's store %s = %" G_GUINT64_FORMAT " (step %u) reaches memory", t, st->addr,
                               n->wvalue, issued);
    } else if (x->m->ext) {
        /* A model with its own memory (arm64) tells the step itself (ExploreNote.why). */
        if (mv.kind == EXPLORE_MOVE_STEP)
            st->thread_step = ++x->thread_steps[t];
        if (n->read) {
            st->addr = sym_of(w, n->raddr);
            g_string_append_printf(what, "read %s = %" G_GUINT64_FORMAT, st->addr, n->rvalue);
        }
        if (n->wrote) {
            g_autofree char *sym = sym_of(w, n->waddr);
            g_string_append_printf(what, "%s%s %s = %" G_GUINT64_FORMAT, what->len ? "; " : "",
                                   mv.kind == EXPLORE_MOVE_PROMISE ? "promised" : "wrote", sym, n->wvalue);
            if (!st->addr)
                st->addr = g_steal_pointer(&sym);
        }
        if (n->why[0])
            g_string_append_printf(what, "%s%s", what->len ? ": " : "", n->why);
    } else {
        st->thread_step = ++x->thread_steps[t];
        if (n->read) {
            st->addr = sym_of(w, n->raddr);
            read_source(x, st, what);
            gboolean from_memory = st->source && strcmp(st->source, "forwarded");
            if (from_memory && x->m->has_buffers) {
                if (before->th[t].nbuf) {
                    append_buffer(x, bufs, t);
                }
                append_pending(x, pending, t, n->raddr, n->rsize);
            }
        }
        if (n->wrote) {
            g_autofree char *sym = sym_of(w, n->waddr);
            note_memory_write(x, n, step, step);
            g_string_append_printf(what, "%swrote %s = %" G_GUINT64_FORMAT, what->len ? "; " : "", sym, n->wvalue);
            if (!st->addr)
                st->addr = g_steal_pointer(&sym);
        }
        if (n->buffered) {
            const ExploreThread *th = &x->s->th[t];
            const ExploreStore *e = &th->buf[th->nbuf - 1];
            x->issued[t][th->nbuf - 1] = step;
            st->addr = sym_of(w, e->addr);
            g_string_append_printf(what, "%s = %" G_GUINT64_FORMAT " into T%u's store buffer (not yet visible to "
                                   "other threads)", st->addr, e->value, t);
        }
    }
    explore_settle(w, x->m, x->s);
    st->after = what_followed(x, before, t);
    st->what = g_string_free(what, FALSE);
    st->buffers = bufs->len ? g_string_free(bufs, FALSE) : (g_string_free(bufs, TRUE), NULL);
    st->pending = pending->len ? g_string_free(pending, FALSE) : (g_string_free(pending, TRUE), NULL);
    return st;
}

static char *describe_end(const Replay *x)
{
    static const char *const how[] = { "runnable", "waiting in wfe", "asleep in futex_wait", "halted", "faulted" };
    GString *g = g_string_new(NULL);
    for (guint t = 0; t < x->w->nthreads; t++) {
        const ExploreThread *th = &x->s->th[t];
        g_autofree char *at = NULL;
        g_autofree char *op = insn_text(x->w, th->pc, &at);
        g_string_append_printf(g, "  T%u: %s at %s `%s`, acquired %" G_GUINT64_FORMAT " time%s", t, how[th->state], at,
                               op, th->marks[2], th->marks[2] == 1 ? "" : "s");
        if (x->m->has_buffers) {
            g_string_append(g, "; ");
            append_buffer(x, g, t);
        }
        g_string_append_c(g, '\n');
    }
    return g_string_free(g, FALSE);
}

ExploreTrace *explore_trace_build(const ExploreWorld *w, const ExploreModel *m, const ExploreMove *moves, guint n)
{
    Replay x = { .w = w, .m = m };
    x.s = explore_state_new(w);
    x.mem = g_new0(Writer, w->layout->size + 1);
    x.issued = g_new0(guint *, w->nthreads);
    for (guint t = 0; t < w->nthreads; t++)
        x.issued[t] = g_new0(guint, EXPLORE_SB_MAX + 1);
    x.thread_steps = g_new0(guint, w->nthreads);
    ExploreState *before = explore_state_new(w);
    explore_settle(w, m, x.s);
    ExploreTrace *tr = g_new0(ExploreTrace, 1);
    tr->steps = g_ptr_array_new_with_free_func(step_free);
    for (guint k = 0; k < n; k++)
        g_ptr_array_add(tr->steps, replay_move(&x, moves[k], k + 1, before));
    tr->end = describe_end(&x);
    explore_state_free(before);
    explore_state_free(x.s);
    g_free(x.mem);
    for (guint t = 0; t < w->nthreads; t++)
        g_free(x.issued[t]);
    g_free(x.issued);
    g_free(x.thread_steps);
    return tr;
}
