/* Core-to-core latency per state and operation, as ccbench measures it (David, Guerraoui,
 * Trigonakis, SOSP 2013): CPU B (and for S also CPU C) puts a set of lines in a state, then
 * CPU A times one operation on each of them.
 *
 *   M   B stores to every line                    (B: M)
 *   E   A flushes every line, B loads them        (B: E, nobody else has them)
 *   S   C stores to every line, B loads them      (B and C hold copies: S, or F/O)
 *
 * A's operations: loads chase a pointer chain through the lines in a random order (one
 * load-to-use latency each, no timer inside); stores are each followed by a full fence, so
 * each waits for its line (as ccbench, whose figures include that fence); CAS follows the
 * chain too, with compare-and-swaps that fail and return the next address (calib_bench.h).
 * A round times
 * all k lines and yields time / k.  The lines lie one per 4 KiB inside one 2 MiB block (huge
 * pages asked), at staggered offsets, so no prefetcher follows the chain and few TLB misses
 * add to it.
 *
 * The threads meet through mailboxes in lines of their own: A writes a command with a sequence
 * number, the helper performs it and acknowledges the number. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "locks/native/native_cpus.h"
#include "sim/calibrate/calib_internal.h"

#define CALIB_BLOCK (2u << 20)
#define CALIB_MAX_LINES (CALIB_BLOCK / 4096)

typedef enum { HELP_WRITE = 1, HELP_READ, HELP_STORE_FLAG, HELP_EXIT } HelperAction;

typedef struct {
    _Alignas(64) guint64 cmd;        /* seq << 4 | action, written by A */
    _Alignas(64) guint64 ack;        /* the last seq done, written by the helper */
    _Alignas(64) guint64 value;      /* HELP_STORE_FLAG: when the helper stored (ticks) */
} Mailbox;

typedef struct {
    void **lines;                    /* chain order: lines[i]'s first word points to lines[i+1] */
    guint k;
    Mailbox *box[2];                 /* B, C */
    guint64 seq;
    /* The WFE measurement's flag line and delay. */
    guint64 *flag;
    guint64 delay_ticks;
} C2cShared;

typedef struct {
    C2cShared *sh;
    guint who;                       /* 0: B, 1: C */
    guint cpu;
} HelperArg;

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("pause" : : : "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" : : : "memory");
#endif
}

static volatile guint64 calib_sink;

static void write_chain(C2cShared *sh)
{
    for (guint i = 0; i < sh->k; i++) {
        void **l = sh->lines[i];
        l[0] = sh->lines[(i + 1) % sh->k];
        ((guint64 *)l)[1] = 0;
    }
    calib_full_fence();
}

static void *helper_main(void *p)
{
    HelperArg *h = p;
    Mailbox *box = h->sh->box[h->who];
    guint64 last = 0;
    for (;;) {
        guint64 c = __atomic_load_n(&box->cmd, __ATOMIC_ACQUIRE);
        if (c >> 4 == last) {
            cpu_relax();
            continue;
        }
        last = c >> 4;
        switch ((HelperAction)(c & 15)) {
        case HELP_WRITE:
            write_chain(h->sh);
            break;
        case HELP_READ:
            calib_sink += calib_read_lines(h->sh->lines, h->sh->k);
            break;
        case HELP_STORE_FLAG: {
            /* Let the other CPU fall asleep first. */
            guint64 t0 = calib_ticks();
            while (calib_ticks() - t0 < h->sh->delay_ticks)
                cpu_relax();
            guint64 t = calib_ticks();
            __atomic_store_n(&box->value, t, __ATOMIC_RELAXED);
            __atomic_store_n(h->sh->flag, __atomic_load_n(h->sh->flag, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
            break;
        }
        case HELP_EXIT:
            __atomic_store_n(&box->ack, last, __ATOMIC_RELEASE);
            return NULL;
        }
        __atomic_store_n(&box->ack, last, __ATOMIC_RELEASE);
    }
}

static void helper_send(C2cShared *sh, guint who, HelperAction a)
{
    guint64 seq = ++sh->seq;
    __atomic_store_n(&sh->box[who]->cmd, seq << 4 | a, __ATOMIC_RELEASE);
}

static void helper_wait(C2cShared *sh, guint who)
{
    while (__atomic_load_n(&sh->box[who]->ack, __ATOMIC_ACQUIRE) != sh->seq)
        cpu_relax();
}

static void helper_do(C2cShared *sh, guint who, HelperAction a)
{
    helper_send(sh, who, a);
    helper_wait(sh, who);
}

/* ======================================================================================
 * CPU A: the rows
 * ====================================================================================== */

/* ccbench's rows, in the order measured. */
static const struct {
    CalibC2cOp op;
    char state;
} c2c_rows[] = {
    { CALIB_OP_LOAD, 'M' }, { CALIB_OP_LOAD, 'E' }, { CALIB_OP_LOAD, 'S' },
    { CALIB_OP_STORE, 'M' }, { CALIB_OP_STORE, 'S' },
    { CALIB_OP_CAS, 'M' }, { CALIB_OP_CAS, 'S' },
};

typedef struct {
    C2cShared *sh;
    gboolean have_c;
    CalibC2cOp op;
    char state;
    double cycles_per_tick;
} RoundCtx;

static double one_round(void *p)
{
    RoundCtx *rc = p;
    C2cShared *sh = rc->sh;
    switch (rc->state) {
    case 'M':
        helper_do(sh, 0, HELP_WRITE);
        break;
    case 'E':
        for (guint i = 0; i < sh->k; i++)
            calib_flush(sh->lines[i]);
        calib_full_fence();
        helper_do(sh, 0, HELP_READ);
        break;
    case 'S':
        helper_do(sh, 1, HELP_WRITE);
        helper_do(sh, 0, HELP_READ);
        break;
    }
    guint64 t0 = calib_ticks();
    switch (rc->op) {
    case CALIB_OP_LOAD:
        calib_sink += (guint64)(guintptr)calib_chase(sh->lines[0], sh->k);
        break;
    case CALIB_OP_STORE:
        calib_store_lines(sh->lines, sh->k, 8);
        break;
    case CALIB_OP_CAS:
    default:
        calib_sink += (guint64)(guintptr)calib_cas_chain(sh->lines[0], sh->k);
        break;
    }
    guint64 t1 = calib_ticks();
    return (double)(t1 - t0) / sh->k * rc->cycles_per_tick;
}

typedef struct {
    C2cShared *sh;
    CalibResult *r;
    CalibPairClass pair;
    guint a, b;
    gint c;
    const CalibPlan *plan;
    double cycles_per_tick;
    gboolean wfe;                    /* the WFE wake-up instead of the rows */
} MeasurerArg;

static double one_wakeup(void *p)
{
    MeasurerArg *m = p;
    C2cShared *sh = m->sh;
    guint64 old = __atomic_load_n(sh->flag, __ATOMIC_ACQUIRE);
    helper_send(sh, 0, HELP_STORE_FLAG);
    guint64 woke = calib_wfe_wait(sh->flag, old);
    helper_wait(sh, 0);
    guint64 stored = __atomic_load_n(&sh->box[0]->value, __ATOMIC_RELAXED);
    /* Woken before the store (an event-stream tick, or the helper late): not this round. */
    if (woke < stored)
        return -1;
    return (double)(woke - stored) * m->cycles_per_tick;
}

static void *measurer_main(void *p)
{
    MeasurerArg *m = p;
    const CalibBudget *b = &m->plan->budget[CALIB_B_C2C];
    if (m->wfe) {
        m->r->wfe_wakeup = calib_repeat(one_wakeup, m, b);
    } else {
        write_chain(m->sh);
        for (guint i = 0; i < G_N_ELEMENTS(c2c_rows); i++) {
            if (c2c_rows[i].state == 'S' && m->c < 0)
                continue;
            RoundCtx rc = { m->sh, m->c >= 0, c2c_rows[i].op, c2c_rows[i].state, m->cycles_per_tick };
            CalibC2cRow row = { m->pair, m->a, m->b, m->c, rc.op, rc.state, calib_repeat(one_round, &rc, b) };
            g_array_append_val(m->r->c2c, row);
        }
    }
    helper_send(m->sh, 0, HELP_EXIT);
    if (m->c >= 0)
        helper_send(m->sh, 1, HELP_EXIT);
    return NULL;
}

/* ======================================================================================
 * Threads
 * ====================================================================================== */

static gboolean start_pinned(pthread_t *t, guint cpu, void *(*fn)(void *), void *arg, GError **error)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    native_pin_attr(&attr, cpu);
    int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    if (rc) {
        g_set_error(error, CALIB_ERROR, CALIB_ERROR_SYSTEM, "cannot start a thread on CPU %u: %s", cpu,
                    g_strerror(rc));
        return FALSE;
    }
    return TRUE;
}

gboolean calib_run_pinned(guint cpu, void *(*fn)(void *), void *arg, GError **error)
{
    pthread_t t;
    if (!start_pinned(&t, cpu, fn, arg, error))
        return FALSE;
    pthread_join(t, NULL);
    return TRUE;
}

/* The lines' block, first touched on CPU A so that on a NUMA host their memory (and in the
 * model, their home) is A's. */
static void *alloc_block_main(void *p)
{
    char **out = p;
    *out = aligned_alloc(CALIB_BLOCK, CALIB_BLOCK);
    if (*out) {
        madvise(*out, CALIB_BLOCK, MADV_HUGEPAGE);
        memset(*out, 0, CALIB_BLOCK);
    }
    return NULL;
}

/* Runs the measurer on a and helpers on b (and c), over fresh lines. */
static gboolean run_threads(MeasurerArg *m, guint lines, GError **error)
{
    g_autofree char *block = NULL;
    if (!calib_run_pinned(m->a, alloc_block_main, &block, error))
        return FALSE;
    g_autofree Mailbox *boxes = aligned_alloc(64, 2 * sizeof(Mailbox) + 64);
    g_autofree void **order = g_new(void *, CALIB_MAX_LINES);
    if (!block || !boxes) {
        g_set_error(error, CALIB_ERROR, CALIB_ERROR_SYSTEM, "out of memory for the core-to-core lines");
        return FALSE;
    }
    memset(boxes, 0, 2 * sizeof(Mailbox));
    C2cShared sh = { order, MIN(MAX(lines, 2u), CALIB_MAX_LINES), { &boxes[0], &boxes[1] }, 0,
                     (guint64 *)(block + CALIB_BLOCK - 64), 0 };
    /* Line i of the block at page i, staggered by i lines; the chain visits them shuffled. */
    g_autoptr(GRand) rand = g_rand_new_with_seed(2013);
    for (guint i = 0; i < sh.k; i++)
        order[i] = block + (gsize)i * 4096 + (gsize)(i % 63) * 64;
    for (guint i = sh.k - 1; i > 0; i--) {
        guint j = (guint)g_rand_int_range(rand, 0, (gint32)i + 1);
        void *t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    if (m->wfe)
        sh.delay_ticks = (guint64)(2000.0 / m->cycles_per_tick); /* about 2000 cycles */
    m->sh = &sh;
    HelperArg hb = { &sh, 0, m->b }, hc = { &sh, 1, m->c >= 0 ? (guint)m->c : 0 };
    pthread_t tb, tc, ta;
    if (!start_pinned(&tb, m->b, helper_main, &hb, error))
        return FALSE;
    if (m->c >= 0 && !start_pinned(&tc, (guint)m->c, helper_main, &hc, error)) {
        helper_do(&sh, 0, HELP_EXIT);
        pthread_join(tb, NULL);
        return FALSE;
    }
    if (!start_pinned(&ta, m->a, measurer_main, m, error)) {
        helper_do(&sh, 0, HELP_EXIT);
        pthread_join(tb, NULL);
        if (m->c >= 0) {
            helper_do(&sh, 1, HELP_EXIT);
            pthread_join(tc, NULL);
        }
        return FALSE;
    }
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    if (m->c >= 0)
        pthread_join(tc, NULL);
    return TRUE;
}

gboolean calib_c2c_measure(CalibResult *r, CalibPairClass pair, guint a, guint b, gint c,
                           const CalibPlan *plan, double cycles_per_tick, GError **error)
{
    MeasurerArg m = { NULL, r, pair, a, b, c, plan, cycles_per_tick, FALSE };
    r->c2c_lines = MIN(MAX(plan->c2c_lines, 2u), CALIB_MAX_LINES);
    return run_threads(&m, plan->c2c_lines, error);
}

gboolean calib_wfe_measure(CalibResult *r, guint a, guint b, const CalibPlan *plan,
                           double cycles_per_tick, GError **error)
{
    if (!calib_have_wfe())
        return TRUE;
    MeasurerArg m = { NULL, r, CALIB_PAIR_SAME_LLC, a, b, -1, plan, cycles_per_tick, TRUE };
    return run_threads(&m, 2, error);
}
