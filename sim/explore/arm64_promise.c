/* The ARMv8 model's promises: certification (can the thread, running alone from here, fulfil
 * every promise it made?) and the writes a thread may promise (the ones a run of it alone can
 * reach, each certified).  Both are a search over the states where only that thread moves
 * (breadth first for the candidates, depth first for certification), with a visited set,
 * bounded by ARM_CERT_STATES states: a search that reaches
 * the bound answers "no" (nothing unproven is promised) and says a bound was hit, so the main
 * search ends "cut short", never "verified".
 *
 * Certification runs make no promises of their own (a thread alone gains nothing by
 * promising: Pulte et al., PLDI 2019, section 5).  A write the thread would make as its very
 * next op is not offered as a promise: promising it and fulfilling it at once is the same
 * execution as making it, which the step already offers. */
#include <string.h>
#include "sim/explore/arm64_ops.h"
#include "sim/explore/arm64_state.h"
#include "sim/explore/explore_exec.h"

#define ARM_CERT_STATES 4000
#define ARM_CACHE_MAX 200000

typedef struct {
    uint64_t addr, value;
    uint8_t size;
    int32_t pc;                /* the op that makes it (reports) */
} Cand;

/* Over a search: the promise candidates of states already asked about. */
typedef struct {
    gboolean release_promises; /* the program has a futex op: release writes are candidates too */
    guint alone;               /* how deep in runs of one thread alone (certification, candidates) */
    GHashTable *cands;         /* GBytes (projected state bytes + thread) -> GArray of Cand */
    GHashTable *certified;     /* GBytes (projected state bytes + thread) -> 1 yes, 2 no */
    GHashTable *cut;           /* the keys of cands whose search a bound cut */
} Scratch;

/* The search's own 64-bit FNV-1a over a key's bytes, folded: GLib's g_bytes_hash (djb2) spreads
 * these long, alike keys poorly. */
static guint key_hash(gconstpointer key)
{
    gsize len;
    const guint8 *d = g_bytes_get_data((GBytes *)key, &len);
    uint64_t h = explore_hash(d, len);
    return (guint)(h ^ h >> 32);
}

void *explore_arm64_scratch_new(const ExploreWorld *w)
{
    Scratch *x = g_new0(Scratch, 1);
    for (guint k = 0; k < w->p->insns->len; k++) {
        IsaOp op = g_array_index(w->p->insns, IsaInsn, k).op;
        x->release_promises |= op == OP_FUTEX_WAIT || op == OP_FUTEX_WAKE;
    }
    x->cands = g_hash_table_new_full(key_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref,
                                     (GDestroyNotify)g_array_unref);
    x->certified = g_hash_table_new_full(key_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, NULL);
    x->cut = g_hash_table_new_full(key_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, NULL);
    return x;
}

void explore_arm64_scratch_free(void *p)
{
    Scratch *x = p;
    g_hash_table_destroy(x->cands);
    g_hash_table_destroy(x->certified);
    g_hash_table_destroy(x->cut);
    g_free(x);
}

gboolean arm_has_promise(const ExploreState *s, guint t)
{
    const ArmState *a = arm_of(s);
    for (guint k = 0; k < a->n; k++)
        if (a->msg[k].promised && a->msg[k].tid == t)
            return TRUE;
    return FALSE;
}

static GBytes *state_key(const ExploreWorld *w, const ExploreState *s, guint t)
{
    GByteArray *b = g_byte_array_new();
    explore_state_encode(w, s, b);
    guint8 tb = (guint8)t;
    g_byte_array_append(b, &tb, 1);
    return g_byte_array_free_to_bytes(b);
}

/* s as thread t alone sees it: the other threads stopped (halted, or asleep as they are, so a
 * futex_wake counts them), their views gone.  What t can do alone is the same, and states that
 * differ only in the others' positions are one. */
static ExploreState *project(const ExploreWorld *w, const ExploreState *s, guint t)
{
    ExploreState *p = explore_state_new(w);
    explore_state_copy(w, p, s);
    for (guint u = 0; u < w->nthreads; u++) {
        ExploreThread *o = &p->th[u];
        if (u == t)
            continue;
        gboolean asleep = o->state == THREAD_FUTEX;
        uint64_t faddr = o->futex_addr;
        guint frank = o->futex_rank;
        memset(o, 0, offsetof(ExploreThread, buf));
        o->state = asleep ? THREAD_FUTEX : THREAD_HALTED;
        o->pc = w->entry;
        o->futex_addr = faddr;
        o->futex_rank = frank;
        o->fault_kind = 0;
        o->nbuf = 0;
    }
    arm_of(p)->appended = FALSE;
    explore_state_canonicalize(w, p);
    return p;
}

/* A release write (STLR, an atomic or stx with release) is never promised: it must come after
 * everything its thread read or wrote before it (ts > vrOld | vwOld), so every step the thread
 * takes between such a promise and its fulfilment reads older messages and adds none, and moves
 * ahead of the promise; the promise then sits at its own write, which is the plain write step.
 * The argument fails across a futex_wake (it wakes only the threads asleep when it runs, so it
 * cannot move ahead of another thread's futex_wait): a program with futex ops keeps them. */
static gboolean release_needs_none(const ExploreWorld *w, int32_t pc)
{
    const Scratch *x = w->scratch;
    if (x->release_promises || pc < 0 || (guint)pc >= w->p->insns->len)
        return FALSE;
    IsaOrder o = g_array_index(w->p->insns, IsaInsn, pc).order;
    return o == ORD_REL || o == ORD_ACQREL;
}

/* A run of thread t alone from s.  With `found` NULL: TRUE as soon as a state without t's
 * promises is reached.  Otherwise every write it makes as a new message (not as its first
 * step) is added to `found`, and the answer is FALSE. */
static gboolean alone(const ExploreWorld *w, const ExploreState *s, guint t, GArray *found, gboolean *bounded)
{
    g_autoptr(GHashTable) seen = g_hash_table_new_full(key_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref, NULL);
    GPtrArray *queue = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    GBytes *k0 = state_key(w, s, t);
    g_hash_table_add(seen, g_bytes_ref(k0));
    g_ptr_array_add(queue, k0);
    ExploreState *cur = explore_state_new(w), *next = explore_state_new(w);
    gboolean ok = FALSE;
    ((Scratch *)w->scratch)->alone++;
    /* Certification (found NULL) wants any run that fulfils: depth first, the newest message
     * read first, finds one soon; the candidates want every write, in a fixed order: breadth first. */
    for (guint q = 0, first = 1; q < queue->len && !ok; q++, first = 0) {
        gsize len;
        GBytes *item = found ? g_bytes_ref(queue->pdata[q]) : g_ptr_array_steal_index(queue, queue->len - 1);
        if (!found)
            q = (guint)-1; /* depth first: the queue is a stack, always taken from its end */
        const guint8 *bytes = g_bytes_get_data(item, &len);
        explore_state_decode(w, cur, bytes, len - 1);
        g_bytes_unref(item);
        if (!found && !arm_has_promise(cur, t)) {
            ok = TRUE;
            break;
        }
        if (cur->th[t].state != THREAD_RUNNABLE)
            continue;
        guint n = arm_step_count(w, cur, t, bounded, NULL);
        for (guint k = 0; k < n; k++) {
            explore_state_copy(w, next, cur);
            ExploreNote note = { .terse = TRUE };
            guint before = arm_of(next)->n;
            arm_step(w, next, t, k, &note);
            if (found && !first && note.wrote && arm_of(next)->n > before && !release_needs_none(w, note.pc)) {
                Cand c = { note.waddr, note.wvalue, (uint8_t)note.wsize, note.pc };
                gboolean dup = FALSE;
                for (guint j = 0; j < found->len && !dup; j++) {
                    const Cand *d = &g_array_index(found, Cand, j);
                    dup = d->addr == c.addr && d->value == c.value && d->size == c.size;
                }
                if (!dup)
                    g_array_append_val(found, c);
            }
            explore_settle(w, w->model, next);
            GBytes *key = state_key(w, next, t);
            if (g_hash_table_contains(seen, key)) {
                g_bytes_unref(key);
                continue;
            }
            if (g_hash_table_size(seen) >= ARM_CERT_STATES) {
                *bounded = TRUE;
                g_bytes_unref(key);
                g_ptr_array_set_size(queue, 0);
                q = (guint)-1;
                break;
            }
            g_hash_table_add(seen, g_bytes_ref(key));
            g_ptr_array_add(queue, key);
        }
    }
    ((Scratch *)w->scratch)->alone--;
    explore_state_free(cur);
    explore_state_free(next);
    g_ptr_array_free(queue, TRUE);
    return ok;
}

gboolean arm_alone(const ExploreWorld *w) { return ((const Scratch *)w->scratch)->alone > 0; }

gboolean arm_certify(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded)
{
    if (!arm_has_promise(s, t))
        return TRUE;
    Scratch *x = w->scratch;
    ExploreState *p = project(w, s, t);
    GBytes *key = state_key(w, p, t);
    gpointer got = g_hash_table_lookup(x->certified, key);
    if (got) {
        g_bytes_unref(key);
        explore_state_free(p);
        return GPOINTER_TO_INT(got) == 1;
    }
    gboolean cut = FALSE;
    gboolean ok = alone(w, p, t, NULL, &cut);
    explore_state_free(p);
    if (cut) {
        *bounded = TRUE;
        g_bytes_unref(key);
        return ok;
    }
    if (g_hash_table_size(x->certified) >= ARM_CACHE_MAX)
        g_hash_table_remove_all(x->certified);
    g_hash_table_insert(x->certified, key, GINT_TO_POINTER(ok ? 1 : 2));
    return ok;
}

static void add_promise(const ExploreWorld *w, ExploreState *s, guint t, const Cand *c, ExploreNote *note)
{
    ArmState *a = arm_of(s);
    a->msg[a->n++] = (ArmMsg){ .addr = c->addr, .value = c->value, .size = c->size, .tid = (uint8_t)t,
                               .promised = TRUE, .pc = -1 };
    explore_mem_store(w, s, t, c->addr, c->size, c->value, note);
}

/* The certified candidates of thread t in s (cached over the search, on s as t alone sees it). */
static GArray *candidates(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded)
{
    Scratch *x = w->scratch;
    ExploreState *p = project(w, s, t);
    GBytes *key = state_key(w, p, t);
    GArray *got = g_hash_table_lookup(x->cands, key);
    if (got) {
        if (g_hash_table_contains(x->cut, key))
            *bounded = TRUE;
        g_bytes_unref(key);
        explore_state_free(p);
        return got;
    }
    gboolean cut = FALSE;
    GArray *found = g_array_new(FALSE, FALSE, sizeof(Cand));
    GArray *ok = g_array_new(FALSE, FALSE, sizeof(Cand));
    if (arm_of(p)->n < ARM_MAX_MSGS)
        alone(w, p, t, found, &cut);
    else
        cut = TRUE;
    ExploreState *n = explore_state_new(w);
    for (guint k = 0; k < found->len; k++) {
        explore_state_copy(w, n, p);
        add_promise(w, n, t, &g_array_index(found, Cand, k), NULL);
        explore_state_canonicalize(w, n);
        if (arm_certify(w, n, t, &cut))
            g_array_append_val(ok, g_array_index(found, Cand, k));
    }
    explore_state_free(n);
    explore_state_free(p);
    g_array_free(found, TRUE);
    if (g_hash_table_size(x->cands) >= ARM_CACHE_MAX) {
        g_hash_table_remove_all(x->cands);
        g_hash_table_remove_all(x->cut);
    }
    if (cut) {
        *bounded = TRUE;
        g_hash_table_add(x->cut, g_bytes_ref(key));
    }
    g_hash_table_insert(x->cands, key, ok);
    return ok;
}

guint arm_promise_count(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded)
{
    return candidates(w, s, t, bounded)->len;
}

void arm_promise(const ExploreWorld *w, ExploreState *s, guint t, guint k, ExploreNote *note)
{
    gboolean bounded = FALSE;
    GArray *c = candidates(w, s, t, &bounded);
    g_assert(k < c->len);
    Cand cand = g_array_index(c, Cand, k);
    if (note) {
        note->pc = cand.pc;
        g_snprintf(note->why, sizeof note->why,
                   "T%u promises this write ahead of its position: running alone from here it can make it and "
                   "every promise it holds (certified); other threads may read it before T%u gets there", t, t);
    }
    add_promise(w, s, t, &cand, note);
}
