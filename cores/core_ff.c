/* Fast-forward of steady loops: a core spinning on lines that do not change sleeps, and when
 * something it depends on changes it first advances by whole periods arithmetically.  Exact:
 * the run is the one it would have been without it (docs/performance.md).
 *
 * The rule.  At the start of a tick (after the cycle's memory events and hits, before the
 * core's tick) the core's state is everything that decides its future, given the lines it
 * reads: pipeline, registers, predictor, monitor, the pending tick.  At such a point, after a
 * loop closed (a backward branch retired), with nothing in flight to memory and the store
 * buffer empty, the state is written down made comparable: times relative to now, sequence
 * numbers relative to the ROB head; a time that only meets comparisons with the clock is
 * "past" once it is (any past value acts the same).  When it equals the one written P cycles
 * earlier, and in between nothing touched the core's caches but its own L1 load hits (the
 * memory system's epoch), and nothing else broke the stretch (a mark, an RNG draw, an SEV, a
 * lost line, a WFE, a store: the taint count), the next P cycles repeat those P exactly, and so
 * on forever: the evolution is a function of the comparable state and of the lines read, and
 * those lines cannot change without a message to the core or an eviction of its line.
 *
 * So the core sleeps: no events.  Before the memory system touches its caches for anyone else
 * it calls the core's catch_up (port.h), and the machine catches every sleeper up where it
 * reads them (watchdog windows, the end of the run).  Catching up to a place x in the engine's
 * order: k = the whole periods whose starts come before x; every counter grows by k times its
 * growth over one period (and the memory system's: hits, rows fired, LRU stamps); times and
 * sequence numbers move by k periods' worth; then the core runs alone from there up to x, its
 * loads answered from the frozen lines with the hit path's side effects; hits still in flight
 * at x become hit events, and its next tick an engine tick.
 *
 * SMT.  The two hardware threads of a core share its L1 (a sibling's store reaches it without a
 * message) and take fetch, dispatch and retirement by turns, so neither's loop is its own; the
 * pair is one unit.  Its snapshots are taken at the start of the leader's tick (the lower CPU id
 * ticks first in a cycle: nothing of the follower's has happened in that cycle's ticks yet) and
 * hold both threads' states, with what the turns read (the follower's pending and ghost ticks,
 * each thread's last use of a stage) and the cycle's parity (whose turn it is).  The pair
 * sleeps when the whole repeats, and wakes as one: a catch-up of either runs both, their hits
 * and ticks interleaved in the engine's order. */
#include <string.h>
#include "cores/core_internal.h"

/* A longer period is not worth the bookkeeping (and must stay well inside a watchdog window). */
#define FF_MAX_PERIOD 4096

/* Encodings of special values, far from any relative time or sequence number. */
#define ENC_NEVER (1ULL << 63)
#define ENC_PAST (ENC_NEVER + 1)

/* ==================== the comparable state ==================== */

static inline void put(FfSnap *s, guint64 w)
{
    if (G_UNLIKELY(s->len == s->cap)) {
        s->cap = MAX(256, s->cap * 2);
        s->words = g_renew(guint64, s->words, s->cap);
    }
    s->words[s->len++] = w;
}

/* A time used in arithmetic: exact, relative. */
static inline guint64 rel_time(Cycle x, Cycle t)
{
    return x == CYCLE_NEVER ? ENC_NEVER : x - t;
}

/* A time only compared with the clock (x <= now, x > now): every past value acts the same. */
static inline guint64 cmp_time(Cycle x, Cycle t)
{
    return x == CYCLE_NEVER ? ENC_NEVER : x <= t ? ENC_PAST : x - t;
}

/* A sequence number: relative to the head; every retired one acts the same. */
static inline guint64 rel_seq(uint64_t x, uint64_t head)
{
    return x == SEQ_NONE ? ENC_NEVER : x < head ? ENC_PAST : x - head;
}

/* A request id: relative to the next one. */
static inline guint64 rel_req(const Core *c, uint64_t req)
{
    return req ? c->next_req - req : ENC_NEVER;
}

/* A ROB slot: relative to the head's. */
static inline guint64 rel_slot(const Core *c, guint slot)
{
    return (slot - c->head_slot) & c->rob_mask;
}

static void encode_entry(const Core *c, const RobEntry *en, FfSnap *s, Cycle t)
{
    uint64_t h = c->head_seq;
    put(s, (guint64)(en->in - c->code));
    put(s, rel_req(c, en->req_id));
    put(s, (guint64)en->state | (guint64)en->ll << 8 | (guint64)en->older << 16 |
               (guint64)en->addr_known << 19 | (guint64)en->data_known << 20 | (guint64)en->performed << 21 |
               (guint64)en->watched << 22 | (guint64)en->stale << 23);
    put(s, rel_seq(en->wait_on, h));
    put(s, en->last_use - en->seq);
    for (guint i = 0; i < 3; i++)
        put(s, rel_seq(en->src[i], h));
    put(s, en->state == E_EXEC ? cmp_time(en->complete_at, t) : 0);
    /* An op done at t (a hit this cycle) retires from t + 1 only: past is before t here. */
    put(s, en->state == E_DONE ? cmp_time(en->done_at, t - 1) : 0);
    put(s, rel_time(en->head_since, t));
    put(s, en->value);
    put(s, en->addr);
    put(s, en->line);
    put(s, en->data);
    put(s, en->data_b);
    put(s, en->ll_new);
    put(s, (guint64)(guint32)en->pc | (guint64)(guint32)en->pred_next << 32);
    /* ras_val is only written, and read, with a return-stack change (ras_sp >= 0). */
    put(s, (guint64)(guint32)en->ras_sp | (guint64)(guint32)(en->ras_sp >= 0 ? en->ras_val : 0) << 32);
}

/* Everything that decides the core's future, at the start of the tick at t: the pipeline and
 * the L1 hits in flight to it.  Left out: what only counts (CoreStats, start_cycle; stall_since
 * is compared apart), what is empty here (the store buffer, misses), physical ring positions,
 * and configuration. */
static void encode(const Core *c, FfSnap *s, Cycle t)
{
    uint64_t h = c->head_seq;
    s->len = 0;
    put(s, s->nhits);
    for (guint i = 0; i < s->nhits; i++) {
        const PortFfHit *x = &s->hits[i];
        uint64_t tag = x->req.tag;
        g_assert(x->req.kind == MEM_LOAD && !(tag & TAG_KIND_SB));
        put(s, x->done - t);
        put(s, t - x->issued);
        put(s, x->req.addr);
        put(s, (guint64)x->req.size << 8 | (guint64)x->req.kind);
        put(s, rel_req(c, tag >> (TAG_SLOT_BITS + 1)));
        put(s, rel_slot(c, (guint)(tag & ((1u << TAG_SLOT_BITS) - 1))));
    }
    /* front end */
    put(s, (guint64)(guint32)c->fetch_pc | (guint64)c->fetch_stopped << 32);
    put(s, cmp_time(c->fetch_resume_at, t));
    put(s, (guint64)c->ras_sp);
    for (guint i = 0; i < RAS_DEPTH; i++)
        put(s, (guint64)(guint32)c->ras[i]);
    put(s, c->fq_count);
    for (guint i = 0; i < c->fq_count; i++) {
        const FetchSlot *f = &c->fq[ring_at(c->fq_head, i, c->fq_size)];
        put(s, (guint64)(guint32)f->pc | (guint64)(guint32)f->pred_next << 32);
        put(s, (guint64)(guint32)f->ras_sp | (guint64)(guint32)(f->ras_sp >= 0 ? f->ras_val : 0) << 32);
    }
    for (guint i = 0; i <= c->ncode; i += 8) {
        guint64 w = 0;
        for (guint j = 0; j < 8 && i + j <= c->ncode; j++)
            w |= (guint64)c->bp[i + j] << (8 * j);
        put(s, w);
    }
    /* dispatch */
    put(s, cmp_time(c->dispatch_blocked_until, t));
    put(s, c->stall_cause);
    /* registers */
    for (guint r = 0; r < ISA_NREG_SLOTS; r++) {
        put(s, c->regs[r]);
        put(s, rel_seq(c->rename[r], h));
    }
    /* window */
    put(s, c->next_seq - h);
    put(s, rel_seq(c->exec_lo, h));
    put(s, rel_seq(c->scan_from, h));
    put(s, c->scan_end == 0 ? ENC_NEVER : c->scan_end == UINT64_MAX ? ENC_PAST : c->scan_end - h);
    put(s, rel_seq(c->sb_waiter, h));
    put(s, (guint64)c->head_dirty | (guint64)c->lb_used << 8);
    put(s, cmp_time(c->timer_next, t));
    put(s, c->timers.len);
    for (guint i = 0; i < c->timers.len; i++) {
        put(s, cmp_time(c->timers.v[i].at, t));
        put(s, rel_seq(c->timers.v[i].seq, h));
    }
    for (uint64_t q = h; q < c->next_seq; q++)
        encode_entry(c, rob_at((Core *)c, q), s, t);
    /* arm64 monitor and event register */
    put(s, (guint64)c->mon_armed | (guint64)c->mon_size << 8 | (guint64)c->event_reg << 16 |
               (guint64)c->event_cause << 24);
    put(s, c->mon_line);
    put(s, c->mon_addr);
    put(s, c->mon_value);
    /* the clock as the core saw it */
    put(s, rel_time(c->last_tick, t));
    put(s, rel_time(c->last_retire, t));
    if (c->sib) {
        /* SMT: the pair's state is taken at the start of the leader's tick, where the follower
         * may have a tick pending later in the cycle or a ghost one; the stages' last users
         * are only compared with the clock (all before t here). */
        put(s, rel_time(c->tick_at, t));
        put(s, rel_time(c->ghost_tick, t));
        for (guint i = 0; i < G_N_ELEMENTS(c->stage_used); i++)
            put(s, cmp_time(c->stage_used[i], t - 1));
        put(s, (guint64)c->smt_denied);
        put(s, t & 1); /* whose turn the stages are (core_smt.h) */
    }
    guint64 hash = 1469598103934665603ULL;
    for (guint i = 0; i < s->len; i++)
        hash = (hash ^ s->words[i]) * 1099511628211ULL;
    s->hash = hash;
}

/* A few words of the comparable state, for a cheap first look: equal states have equal
 * fingerprints. */
static guint64 fingerprint(const Core *c, const FfSnap *s, Cycle t)
{
    guint64 h = 1469598103934665603ULL;
#define MIX(x) (h = (h ^ (guint64)(x)) * 1099511628211ULL)
    MIX((guint32)c->fetch_pc);
    MIX(c->fetch_stopped);
    MIX(c->ras_sp);
    MIX(c->fq_count);
    MIX(c->next_seq - c->head_seq);
    MIX(c->lb_used);
    MIX(c->stall_cause);
    MIX(cmp_time(c->dispatch_blocked_until, t));
    MIX(rel_time(c->last_retire, t));
    MIX(s->nhits);
    for (guint r = 0; r < ISA_NREG_SLOTS; r++)
        MIX(c->regs[r]);
    if (c->next_seq != c->head_seq) {
        const RobEntry *en = rob_at((Core *)c, c->head_seq);
        MIX(en->in - c->code);
        MIX(en->state);
    }
    if (c->sib) {
        /* A pair's thread is often mid-way through a `work` or a miss while its sibling spins:
         * its timers tell those states apart without writing the whole down. */
        MIX(rel_time(c->tick_at, t));
        MIX(t & 1);
        MIX(cmp_time(c->timer_next, t));
        MIX(c->fq_count ? (guint32)c->fq[c->fq_head].pc : 0);
    }
#undef MIX
    return h;
}

/* One core's part of the match: its state at b is the one at a, P cycles on. */
static gboolean snap_match(const Core *c, const FfSnap *a, const FfSnap *b)
{
    if (a->hash != b->hash || a->len != b->len || a->taint != b->taint)
        return FALSE;
    /* A stall that began in the period began at the same place in it; one older than the
     * period goes on through every period (and only counts when it ends). */
    if (c->stall_cause != STALL_NONE && b->stall_since - b->t != a->stall_since - a->t &&
        b->stall_since != a->stall_since)
        return FALSE;
    /* The profile's head clock, likewise: the head changed at the same place in the period, or
     * one op stayed at the head through it. */
    if (c->prof.rows && b->prof_head_since - b->t != a->prof_head_since - a->t &&
        b->prof_head_since != a->prof_head_since)
        return FALSE;
    return memcmp(a->words, b->words, a->len * sizeof(guint64)) == 0;
}

/* The unit's match (o: the SMT follower, ao and bo its parts, or NULL): a period of at most
 * FF_MAX_PERIOD in which something retired, nothing but the core's own L1 load hits touched its
 * caches, and every thread's state came back. */
static gboolean unit_match(const Core *c, const FfSnap *a, const FfSnap *b, const Core *o, const FfSnap *ao,
                           const FfSnap *bo)
{
    Cycle p = b->t - a->t;
    if (p == 0 || p > FF_MAX_PERIOD)
        return FALSE;
    if (o && p % 2)
        return FALSE; /* SMT: the stages go by turns on even and odd cycles (core_smt.h) */
    if (b->head_seq == a->head_seq && (!o || bo->head_seq == ao->head_seq))
        return FALSE;
    if (!c->ff.mem->quiet(&a->mem, &b->mem))
        return FALSE;
    return snap_match(c, a, b) && (!o || snap_match(o, ao, bo));
}

/* ==================== going to sleep ==================== */

/* The core's requests in flight, when every one is an L1 load hit: in completion order (one
 * cycle's in issue order, as their events run).  FALSE when some other is in flight. */
static gboolean hits_in_flight(Core *c, FfSnap *s)
{
    CoreFf *f = &c->ff;
    guint n = 0;
    f->mem->hits_in_flight(c->ms, c->id, s->hits, s->hits_cap, &n);
    if (n > s->hits_cap) {
        s->hits_cap = MAX(n, 16);
        s->hits = g_renew(PortFfHit, s->hits, s->hits_cap);
        f->mem->hits_in_flight(c->ms, c->id, s->hits, s->hits_cap, &n);
    }
    if (n != f->inflight)
        return FALSE;
    s->nhits = n;
    for (guint i = 1; i < n; i++) { /* insertion: stable, nearly sorted already */
        PortFfHit x = s->hits[i];
        guint j = i;
        for (; j > 0 && s->hits[j - 1].done > x.done; j--)
            s->hits[j] = s->hits[j - 1];
        s->hits[j] = x;
    }
    return TRUE;
}

/* Waiting for the OS model: a system call at the ROB head (its answer comes from outside). */
static gboolean in_syscall(Core *c)
{
    if (c->next_seq == c->head_seq)
        return FALSE;
    const RobEntry *en = rob_at(c, c->head_seq);
    return isa_op_info[en->in->op].is_syscall && en->state == E_EXEC && en->req_id;
}

/* Whether core c is at a point to compare at: nothing in flight but L1 load hits (written into
 * s), an empty store buffer, not in WFE. */
static gboolean at_point(Core *c, FfSnap *s)
{
    if (c->sb_count || c->wfe_sleeping || c->trace_fn || !c->started || c->halted)
        return FALSE;
    return c->ff.inflight <= c->lb_used && hits_in_flight(c, s);
}

/* Writes down what a period adds to, at the start of the tick at t. */
static void snap_counters(Core *c, FfSnap *s, Cycle t)
{
    s->t = t;
    s->head_seq = c->head_seq;
    s->next_req = c->next_req;
    s->sb_epoch = c->sb_epoch;
    s->stall_since = c->stall_since;
    s->taint = c->ff.taint;
    s->st = c->st;
    if (c->prof.rows) {
        if (s->prof_n != c->prof.n) {
            s->prof = g_renew(ProfileRow, s->prof, c->prof.n);
            s->prof_n = c->prof.n;
        }
        memcpy(s->prof, c->prof.rows, c->prof.n * sizeof(ProfileRow));
        s->prof_head_since = c->prof.head_since;
    }
}

static void sleep_from(Core *c, FfSnap *a, FfSnap *b)
{
    CoreFf *f = &c->ff;
    f->sleeping = TRUE;
    f->t0 = b->t;
    f->period = b->t - a->t;
    f->a = a;
    f->b = b;
}

/* How many snapshots the unit keeps.  A pair's period is a whole number of its leader's loops
 * (taken at its closures) that brings both threads, and the turns' parity, back together: one
 * or two for a core alone, up to FF_HISTORY_SMT - 1 for a pair. */
static inline guint ff_history(const Core *c)
{
    return c->sib ? FF_HISTORY_SMT : FF_HISTORY;
}

/* c is the unit's leader (ff_lead), at the start of its tick.  SMT: the follower o is written
 * down with it, in the snapshot ring's same slot; the two are one state, which repeats only as
 * a whole, and sleep and wake together. */
gboolean ff_try_sleep(Core *c)
{
    CoreFf *f = &c->ff;
    Core *o = c->sib;
    g_assert(ff_lead(c) == c);
    FfSnap *s = &f->snap[f->snap_next];
    FfSnap *so = o ? &o->ff.snap[f->snap_next] : NULL;
    /* A core alone tries again next tick; a pair at the next loop either thread closes (a
     * leader ticking every cycle while its sibling's store waits for a line costs more than
     * the sleep saves). */
    if (!at_point(c, s)) {
        f->want_snap = f->want_snap && !o;
        return FALSE;
    }
    if (o && (!smt_active(o) || o->stopped || c->stopped || in_syscall(c) || in_syscall(o) || !at_point(o, so))) {
        f->want_snap = FALSE;
        return FALSE;
    }
    f->want_snap = FALSE;
    if (!f->mem->mark(c->ms, c->id, &s->mem))
        return FALSE;
    Cycle t = c->now;
    s->fingerprint = fingerprint(c, s, t);
    if (o)
        s->fingerprint = (s->fingerprint ^ fingerprint(o, so, t)) * 1099511628211ULL;
    s->full = FALSE;
    snap_counters(c, s, t);
    if (o)
        snap_counters(o, so, t);
    /* The oldest kept one was just overwritten when the ring was full.  The whole state is
     * written down only once its fingerprint repeats, and compared with a whole one. */
    guint hist = ff_history(c), older = MIN(f->nsnap, hist - 1);
    for (guint i = 1; i <= older; i++) {
        guint slot = (f->snap_next + hist - i) % hist;
        FfSnap *a = &f->snap[slot], *ao = o ? &o->ff.snap[slot] : NULL;
        if (a->fingerprint != s->fingerprint || a->taint != s->taint || (o && ao->taint != so->taint))
            continue;
        if (!s->full) {
            encode(c, s, t);
            if (o)
                encode(o, so, t);
            s->full = TRUE;
        }
        if (a->full && unit_match(c, a, s, o, ao, so)) {
            sleep_from(c, a, s);
            c->tick_at = t; /* this tick, not run: the frozen state's next step */
            if (o) {
                sleep_from(o, ao, so);
                if (o->tick_at != CYCLE_NEVER)
                    engine_tick_cancel(o->e, o->id); /* kept in tick_at: the frozen state's */
            }
            f->mem->hits_cancel(c->ms, c->id); /* its hits in flight (both threads') are its own business now */
            return TRUE;
        }
    }
    f->snap_next = (f->snap_next + 1) % hist;
    f->nsnap = MIN(f->nsnap + 1, hist);
    return FALSE;
}

/* ==================== catching up ==================== */

static inline void shift_cmp(Cycle *x, Cycle t0, Cycle dt)
{
    if (*x != CYCLE_NEVER && *x > t0)
        *x += dt;
}

static inline void shift_seq(uint64_t *x, uint64_t d)
{
    if (*x != SEQ_NONE)
        *x += d;
}

/* One core's state k periods on: counters, times and sequence numbers (the memory's side is
 * the unit's, ff_catch_up). */
static void advance_periods(Core *c, guint64 k)
{
    CoreFf *f = &c->ff;
    const FfSnap *a = f->a, *b = f->b;
    Cycle t0 = f->t0, dt = k * f->period;
    uint64_t dseq = k * (b->head_seq - a->head_seq);
    guint64 *st = (guint64 *)&c->st;
    const guint64 *sa = (const guint64 *)&a->st, *sb = (const guint64 *)&b->st;
    for (gsize i = 0; i < sizeof(CoreStats) / sizeof(guint64); i++)
        st[i] += k * (sb[i] - sa[i]);
    if (c->prof.rows) {
        guint64 *pr = (guint64 *)c->prof.rows;
        const guint64 *pa = (const guint64 *)a->prof, *pb = (const guint64 *)b->prof;
        for (gsize i = 0; i < c->prof.n * (sizeof(ProfileRow) / sizeof(guint64)); i++)
            pr[i] += k * (pb[i] - pa[i]);
        if (a->prof_head_since != b->prof_head_since)
            c->prof.head_since += dt;
    }
    uint64_t dreq = k * (b->next_req - a->next_req);
    c->next_req += dreq;
    c->sb_epoch += k * (b->sb_epoch - a->sb_epoch);
    /* times (an SMT follower's pending or ghost tick too: the leader's is t0, its ghost none) */
    if (c->tick_at != CYCLE_NEVER)
        c->tick_at += dt;
    if (c->ghost_tick != CYCLE_NEVER)
        c->ghost_tick += dt;
    c->last_tick += dt;
    c->last_retire += dt;
    if (c->stall_cause != STALL_NONE && a->stall_since != b->stall_since)
        c->stall_since += dt;
    shift_cmp(&c->fetch_resume_at, t0, dt);
    shift_cmp(&c->dispatch_blocked_until, t0, dt);
    shift_cmp(&c->timer_next, t0, dt);
    /* sequence numbers (slots stay where they are: rob_at counts from head_slot) */
    for (uint64_t q = c->head_seq; q < c->next_seq; q++) {
        RobEntry *en = rob_at(c, q);
        en->seq += dseq;
        if (en->req_id)
            en->req_id += dreq;
        shift_seq(&en->wait_on, dseq);
        en->last_use += dseq;
        for (guint i = 0; i < 3; i++)
            shift_seq(&en->src[i], dseq);
        shift_cmp(&en->complete_at, t0, dt);
        shift_cmp(&en->done_at, t0 - 1, dt);
        if (en->head_since != CYCLE_NEVER)
            en->head_since += dt;
    }
    for (guint r = 0; r < ISA_NREG_SLOTS; r++)
        shift_seq(&c->rename[r], dseq);
    for (guint i = 0; i < c->timers.len; i++) {
        shift_cmp(&c->timers.v[i].at, t0, dt);
        c->timers.v[i].seq += dseq;
    }
    shift_seq(&c->scan_from, dseq);
    shift_seq(&c->sb_waiter, dseq);
    if (c->scan_end != 0 && c->scan_end != UINT64_MAX)
        c->scan_end += dseq;
    c->exec_lo += dseq;
    c->head_seq += dseq;
    c->next_seq += dseq;
    f->cycles_skipped += dt;
    /* The hits in flight at the start of the tick at t0 + k * period. */
    for (guint i = 0; i < f->nhits; i++) {
        PortFfHit *x = &f->hits[i];
        uint64_t tag = x->req.tag;
        x->issued += dt;
        x->done += dt;
        x->req.tag = tag_make((tag >> (TAG_SLOT_BITS + 1)) + dreq, FALSE, (guint)(tag & ((1u << TAG_SLOT_BITS) - 1)));
    }
}

void ff_local_issue(Core *c, const MemRequest *r)
{
    CoreFf *f = &c->ff;
    Cycle lat = 0;
    if (!f->mem->load_hit(c->ms, c->id, r, &lat))
        g_error("fast-forward: core %u replayed an access the L1 does not answer (addr 0x%" G_GINT64_MODIFIER
                "x, cycle %" G_GUINT64_FORMAT ")", c->id, r->addr, c->now);
    if (f->nhits == f->hits_cap) {
        f->hits_cap = MAX(8, f->hits_cap * 2);
        f->hits = g_renew(PortFfHit, f->hits, f->hits_cap);
    }
    /* In completion order; one cycle's in issue order. */
    PortFfHit h = { *r, c->now, c->now + lat };
    guint i = f->nhits++;
    while (i > 0 && f->hits[i - 1].done > h.done) {
        f->hits[i] = f->hits[i - 1];
        i--;
    }
    f->hits[i] = h;
}

/* The unit's next event of its own (a hit completing, a tick), in the engine's order: FALSE
 * when it has none. */
static gboolean next_event(Core *const *u, guint n, Core **who, EventPos *at)
{
    gboolean any = FALSE;
    for (guint i = 0; i < n; i++) {
        Core *c = u[i];
        const CoreFf *f = &c->ff;
        EventPos e[2] = { { f->nhits ? f->hits[0].done : CYCLE_NEVER, EV_HIT, c->id },
                          { c->tick_at, EV_TICK, c->id } };
        for (guint j = 0; j < 2; j++) {
            if (e[j].when == CYCLE_NEVER)
                continue;
            if (!any || event_pos_before(e[j].when, e[j].cls, e[j].sub, *at)) {
                *at = e[j];
                *who = c;
                any = TRUE;
            }
        }
    }
    return any;
}

/* Runs the unit (u[0], and u[1] its SMT follower when n is 2) alone, its hits and ticks in the
 * engine's order, up to place x. */
static void run_alone(Core *const *u, guint n, EventPos x)
{
    for (guint i = 0; i < n; i++)
        u[i]->ff.local = TRUE;
    Core *c = NULL;
    EventPos e = { CYCLE_NEVER, EV_TICK, 0 };
    while (next_event(u, n, &c, &e) && event_pos_before(e.when, e.cls, e.sub, x)) {
        CoreFf *f = &c->ff;
        c->now = e.when;
        if (e.cls == EV_HIT) {
            PortFfHit h = f->hits[0];
            memmove(f->hits, f->hits + 1, --f->nhits * sizeof(PortFfHit));
            f->mem->hit_done(c->ms, c->id, &h.req, h.issued);
        } else {
            c->tick_at = CYCLE_NEVER;
            core_tick(c);
            g_assert(!c->halted); /* a period does not halt, nor does its replay */
        }
    }
    for (guint i = 0; i < n; i++) {
        c = u[i];
        CoreFf *f = &c->ff;
        f->local = FALSE;
        for (guint j = 0; j < f->nhits; j++)
            f->mem->hit_resume(c->ms, c->id, &f->hits[j].req, f->hits[j].issued, f->hits[j].done);
        f->nhits = 0;
        if (c->tick_at != CYCLE_NEVER)
            engine_tick_at(c->e, c->id, c->tick_at);
    }
}

/* The frozen state's hits in flight become the catch-up's. */
static void hits_from_snap(Core *c)
{
    CoreFf *f = &c->ff;
    const FfSnap *b = f->b;
    if (b->nhits > f->hits_cap) {
        f->hits_cap = b->nhits;
        f->hits = g_renew(PortFfHit, f->hits, f->hits_cap);
    }
    if (b->nhits)
        memcpy(f->hits, b->hits, b->nhits * sizeof(PortFfHit));
    f->nhits = b->nhits;
}

void ff_catch_up(Core *c, EventPos x)
{
    c = ff_lead(c); /* SMT: the pair wakes as one */
    CoreFf *f = &c->ff;
    g_assert(f->sleeping);
    Core *u[2] = { c, c->sib };
    guint n = c->sib ? 2 : 1;
    g_assert(n == 1 || u[1]->ff.sleeping);
    /* The start of the leader's tick at t0 + kP comes before x when the unit's hits of that
     * cycle do (the follower's, a higher CPU id, come last). */
    Cycle t0 = f->t0, p = f->period;
    guint64 k = 0;
    if (x.when > t0) {
        k = (x.when - t0) / p;
        if (k && t0 + k * p == x.when && !event_pos_before(x.when, EV_HIT, u[n - 1]->id, x))
            k--;
    }
    for (guint i = 0; i < n; i++) {
        u[i]->ff.sleeping = FALSE;
        hits_from_snap(u[i]);
        if (k)
            advance_periods(u[i], k);
    }
    if (k)
        f->mem->advance(c->ms, c->id, &f->a->mem, &f->b->mem, k);
    f->nsnap = 0;
    f->snap_next = 0;
    run_alone(u, n, x);
}

void ff_free(Core *c)
{
    for (guint i = 0; i < FF_HISTORY_SMT; i++) {
        g_free(c->ff.snap[i].words);
        g_free(c->ff.snap[i].hits);
        g_free(c->ff.snap[i].prof);
    }
    g_free(c->ff.hits);
}
