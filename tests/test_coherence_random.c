/* The random tester: many cores, a handful of lines, random loads, stores and atomics with
 * random timing through the port.  Each core keeps up to RT_MAX_INFLIGHT accesses in flight,
 * often to a line it already has an access in flight for, so accesses meet their lines in
 * every transient state (IS_D, IM_AD, SM_A, ...), not only the stable ones.
 *
 * The tester checks values against its own model, independent of the memory system's:
 *  - words 1..7 of a line take stores, exchanges and CASes of unique values.  The port
 *    performs a store or an atomic when `done` runs (coherence/port.h), so the order of the
 *    `done` calls is each word's coherence order and the tester keeps that history: an atomic
 *    must read the latest value, a load a value that was current at some moment between its
 *    issue and its `done`;
 *  - word 0 of a line is a counter that only fetch-adds of 1 change, near or far (a far add is
 *    performed at the home at some moment before its reply).  Each add reads a distinct old
 *    value, no fewer than the adds done when it was issued and no more than the adds that can
 *    have been performed by its `done`; loads of the counter fall in the same window; the
 *    final total is exact;
 * and the memory system checks its invariants after every transition.  A seeded protocol bug
 * must be caught.
 *
 * Coverage: across the runs of one protocol, every row of its cache table (stall rows too:
 * they are the accesses that meet a transient line) and every non-stall row of its directory
 * table must fire, except the rows named in `never_fire` with the reason.  Each protocol runs
 * on its interconnect: the directory machines, or a snooping bus (msi and mesi, whose tables
 * are then msi-bus and mesi-bus: a bus has one socket and no far atomics). */
#include <check.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/coh_rig.h"

#define NCORES 8
#define NSHARED 10
#define NLINES (NSHARED + NCORES)
#define WORDS 8
#define RT_MAX_INFLIGHT 4
/* Lines chosen to collide: the shared ones five to an L1 set and an LLC set of four ways, so
 * evictions, write-back races and back-invalidations all happen; then one line per core that
 * mostly that core uses (in the same sets), so lines also sit in E and get evicted from it. */
static const uint64_t line_idx[NLINES] = {
    0, 8, 16, 24, 32, 1, 9, 17, 25, 33,
    40, 41, 48, 49, 56, 57, 64, 65,
};

typedef struct Tester Tester;

/* One access in flight, with what the model needs to judge its answer. */
typedef struct {
    gboolean busy;
    MemRequest req;
    guint line, word;
    Cycle issued;
    guint hist_from;            /* data word: history index current at issue */
    guint64 adds_done_at_issue; /* counter word */
} Slot;

typedef struct {
    Tester *t;
    guint id;
    guint depth;                /* accesses this core keeps in flight, 1..RT_MAX_INFLIGHT */
    GRand *rnd;
    Slot slot[RT_MAX_INFLIGHT];
    guint64 seq;
} TCore;

/* The model of one line: the history of each data word, in coherence order (hist[w][0] is the
 * initial 0), and the counter's adds. */
typedef struct {
    GArray *hist[WORDS];        /* uint64_t; hist[0] unused */
    guint64 adds_issued, adds_done, far_in_flight;
    GArray *old_seen;           /* guint8 per counter value: an add read it */
} LineModel;

struct Tester {
    Engine *e;
    MemSys *ms;
    TCore *cores;
    guint ncores;
    guint64 issued, target;
    LineModel lines[NLINES];
    gboolean far;
    gboolean in_issue;          /* inside memsys_issue(): `done` must not come now */
    guint64 errors;
    char first_error[320];
};

static uint64_t addr_of(guint line, guint word) { return line_idx[line] * 64 + word * 8; }

static void G_GNUC_PRINTF(2, 3) tester_error(Tester *t, const char *fmt, ...)
{
    if (t->errors++)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(t->first_error, sizeof t->first_error, fmt, ap);
    va_end(ap);
}

static const char *kind_name(const MemRequest *q)
{
    static const char *const rmw[] = { "cas", "xchg", "fetch-add", "fetch-or", "fetch-and" };
    return q->kind == MEM_LOAD ? "load" : q->kind == MEM_STORE ? "store" : rmw[q->rmw];
}

/* ======================================================================================
 * Judging answers
 * ====================================================================================== */

static void judge_data_word(Tester *t, TCore *c, const Slot *s, uint64_t v)
{
    GArray *h = t->lines[s->line].hist[s->word];
    uint64_t last = g_array_index(h, uint64_t, h->len - 1);
    if (s->req.kind == MEM_LOAD) {
        for (guint i = h->len; i-- > s->hist_from;)
            if (g_array_index(h, uint64_t, i) == v)
                return;
        tester_error(t, "core %u load line %u word %u at cycle %" G_GUINT64_FORMAT ": got %"
                     G_GINT64_MODIFIER "x, not a value the word held since the load was issued "
                     "(latest %" G_GINT64_MODIFIER "x)", c->id, s->line, s->word,
                     engine_now(t->e), v, last);
        return;
    }
    if (s->req.kind == MEM_RMW && v != last)
        tester_error(t, "core %u %s line %u word %u at cycle %" G_GUINT64_FORMAT ": read %"
                     G_GINT64_MODIFIER "x, the latest value is %" G_GINT64_MODIFIER "x", c->id,
                     kind_name(&s->req), s->line, s->word, engine_now(t->e), v, last);
    gboolean writes = s->req.kind == MEM_STORE || s->req.rmw == RMW_XCHG ||
                      (s->req.rmw == RMW_CAS && v == s->req.expected);
    if (writes)
        g_array_append_val(h, s->req.value);
}

static void judge_counter(Tester *t, TCore *c, const Slot *s, uint64_t v)
{
    LineModel *lm = &t->lines[s->line];
    gboolean far = s->req.kind == MEM_RMW && s->req.far;
    if (far)
        lm->far_in_flight--;
    /* Adds performed before this access: every add done before it was issued (for a near
     * access: every add done so far, as near accesses are performed at `done`), at most every
     * add done so far and every far add still in flight. */
    guint64 lo = (far || s->req.kind == MEM_LOAD) ? s->adds_done_at_issue : lm->adds_done;
    guint64 hi = lm->adds_done + lm->far_in_flight;
    if (v < lo || v > hi)
        tester_error(t, "core %u %s%s line %u counter at cycle %" G_GUINT64_FORMAT ": read %"
                     G_GUINT64_FORMAT ", legal %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, c->id,
                     far ? "far " : "", kind_name(&s->req), s->line, engine_now(t->e), v, lo, hi);
    if (s->req.kind == MEM_LOAD)
        return;
    if (v < lm->old_seen->len) {
        if (g_array_index(lm->old_seen, guint8, v)++)
            tester_error(t, "core %u fetch-add line %u: old value %" G_GUINT64_FORMAT
                         " read twice", c->id, s->line, v);
    }
    lm->adds_done++;
}

static void issue_next(void *obj, uint64_t slot);

static void t_done(void *obj, const MemResponse *r)
{
    TCore *c = obj;
    Tester *t = c->t;
    Slot *s = &c->slot[r->tag % RT_MAX_INFLIGHT];
    if (t->in_issue)
        tester_error(t, "core %u: done called from inside memsys_issue", c->id);
    if (!s->busy || s->req.tag != r->tag) {
        tester_error(t, "core %u: done for tag %" G_GUINT64_FORMAT ", not in flight", c->id, r->tag);
        return;
    }
    if (r->issued != s->issued || r->done != engine_now(t->e))
        tester_error(t, "core %u: tag %" G_GUINT64_FORMAT " reports issue/done cycles %" G_GUINT64_FORMAT
                     "/%" G_GUINT64_FORMAT ", not %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, c->id,
                     r->tag, r->issued, r->done, s->issued, engine_now(t->e));
    if (s->word == 0)
        judge_counter(t, c, s, r->value);
    else
        judge_data_word(t, c, s, r->value);
    s->busy = FALSE;
    if (t->issued < t->target)
        engine_schedule(t->e, g_rand_int_range(c->rnd, 0, 30), issue_next, c, (uint64_t)(s - c->slot));
}

static void t_lost(void *obj G_GNUC_UNUSED, uint64_t line G_GNUC_UNUSED, LineLossCause cause G_GNUC_UNUSED) {}

/* ======================================================================================
 * Issuing
 * ====================================================================================== */

/* Half the time a line this core already has an access in flight for, else its own line
 * (one time in five), another core's (one in twenty) or a shared one. */
static guint pick_line(TCore *c)
{
    guint busy[RT_MAX_INFLIGHT], n = 0;
    for (guint i = 0; i < c->depth; i++)
        if (c->slot[i].busy)
            busy[n++] = c->slot[i].line;
    if (n && g_rand_boolean(c->rnd))
        return busy[g_rand_int_range(c->rnd, 0, (gint32)n)];
    guint r = (guint)g_rand_int_range(c->rnd, 0, 20);
    if (r < 4)
        return NSHARED + c->id;
    if (r < 5)
        return NSHARED + (guint)g_rand_int_range(c->rnd, 0, NCORES);
    return (guint)g_rand_int_range(c->rnd, 0, NSHARED);
}

static void issue_next(void *obj, uint64_t slot)
{
    TCore *c = obj;
    Tester *t = c->t;
    Slot *s = &c->slot[slot];
    g_assert(!s->busy);
    t->issued++;
    c->seq++;
    s->line = pick_line(c);
    LineModel *lm = &t->lines[s->line];
    guint r = (guint)g_rand_int_range(c->rnd, 0, 100);
    MemRequest q = { .size = 8, .tag = c->seq * RT_MAX_INFLIGHT + slot };
    uint64_t unique = ((uint64_t)(c->id + 1) << 40) | c->seq; /* never 0, never repeated */
    /* Half loads: they make the sharers whose invalidations keep writers waiting for acks
     * (SM_A, OM_A), the states that fewer loads leave rare. */
    if (r < 50 && g_rand_int_range(c->rnd, 0, 4)) {
        q.kind = MEM_LOAD;
        s->word = (guint)g_rand_int_range(c->rnd, 1, WORDS);
    } else if (r < 50) {
        q.kind = MEM_LOAD;
        s->word = 0;
    } else if (r < 75) {
        q.kind = MEM_STORE;
        s->word = (guint)g_rand_int_range(c->rnd, 1, WORDS);
        q.value = unique;
    } else if (r < 90) {
        q.kind = MEM_RMW;
        s->word = (guint)g_rand_int_range(c->rnd, 1, WORDS);
        q.value = unique;
        q.rmw = g_rand_boolean(c->rnd) ? RMW_XCHG : RMW_CAS;
        /* a CAS expects the current value half the time, so both outcomes happen */
        GArray *h = lm->hist[s->word];
        q.expected = g_array_index(h, uint64_t, g_rand_boolean(c->rnd) ? h->len - 1
                                   : (guint)g_rand_int_range(c->rnd, 0, (gint32)h->len));
        q.hold_cycles = g_rand_int_range(c->rnd, 0, 3) == 0 ? 15 : 0;
    } else {
        q.kind = MEM_RMW;
        q.rmw = RMW_ADD;
        q.value = 1;
        s->word = 0;
        q.far = t->far && g_rand_boolean(c->rnd);
        q.hold_cycles = !q.far && g_rand_int_range(c->rnd, 0, 3) == 0 ? 15 : 0;
        lm->adds_issued++;
        if (q.far)
            lm->far_in_flight++;
        guint8 zero = 0;
        g_array_append_val(lm->old_seen, zero);
    }
    q.addr = addr_of(s->line, s->word);
    s->req = q;
    s->busy = TRUE;
    s->issued = engine_now(t->e);
    s->adds_done_at_issue = lm->adds_done;
    s->hist_from = s->word ? lm->hist[s->word]->len - 1 : 0;
    t->in_issue = TRUE;
    memsys_issue(t->ms, c->id, &q);
    t->in_issue = FALSE;
}

/* ======================================================================================
 * Runs
 * ====================================================================================== */

static const char *random_yaml =
    "name: random\narch: arm64\nprotocol: %s\nline_size: 64\n"
    "topology:\n  sockets: %u\n  cores_per_socket: %u\n  ondie: ring\n  ondie_hop_cycles: 2\n"
    "  snoop_response_cycles: 15\n  socket_hop_cycles: 40\n  cross_socket: %s\n  interconnect: %s\n"
    "bus:\n  address_cycles: 4\n  data_cycles: 3\n"
    "l1:\n  size: 1KiB\n  ways: 2\n  latency: 2\n"
    "l2:\n  enabled: %s\n  size: 2KiB\n  ways: 4\n  latency: 6\n"
    "llc:\n  size: 1KiB\n  ways: 4\n  latency: 20\n"
    "memory:\n  latency: 80\n";

/* Operations for a run: n, or an eighth under QSIM_TEST_SCALE=quick (not rig_scaled()'s
 * twentieth: the sanitizer pass also checks coverage, and needs that many). */
static guint64 random_ops(guint64 n)
{
    return rig_scaled(n) < n ? n / 8 : n;
}

/* The machines each protocol runs on. */
typedef struct {
    guint sockets;
    gboolean l2, far;
    const char *xsock;
    guint64 ops;
    const char *interconnect;   /* NULL: directory */
} RandomMachine;

static const RandomMachine random_machines[] = {
    { 1, FALSE, FALSE, "directory", 500000, NULL },
    { 2, TRUE,  FALSE, "broadcast", 500000, NULL },
    { 2, FALSE, TRUE,  "directory", 250000, NULL },
    /* far atomics meeting broadcast snoops and an L2; four sockets */
    { 2, TRUE,  TRUE,  "broadcast", 100000, NULL },
    { 4, FALSE, FALSE, "directory", 100000, NULL },
};

/* A bus: one socket; with and without an L2 (whose evictions send write-backs of their own). */
static const RandomMachine bus_machines[] = {
    { 1, FALSE, FALSE, "directory", 300000, "bus" },
    { 1, TRUE,  FALSE, "directory", 300000, "bus" },
};

/* The rows that fired, summed over the runs of one protocol. */
typedef struct {
    const CohProtocol *p;
    guint64 *cache, *dir;
} Coverage;

static void coverage_add(Coverage *cov, MemSys *ms)
{
    const CohProtocol *p = memsys_protocol(ms);
    if (!cov->p) {
        cov->p = p;
        cov->cache = g_new0(guint64, p->n_cache);
        cov->dir = g_new0(guint64, p->n_dir);
    }
    g_assert(cov->p == p);
    const guint64 *fc = memsys_cache_rows_fired(ms), *fd = memsys_dir_rows_fired(ms);
    for (guint i = 0; i < p->n_cache; i++)
        cov->cache[i] += fc[i];
    for (guint i = 0; i < p->n_dir; i++)
        cov->dir[i] += fd[i];
}

/* Runs the tester; returns the number of problems found (0: all well), message in why.
 * memsys_checks: the memory system's own checks count too (else only the tester's model);
 * cov (may be NULL) gets the rows that fired. */
static guint64 run_random(const char *proto, const RandomMachine *mc, guint64 ops, guint seed,
                          gboolean memsys_checks, gboolean seed_bug, Coverage *cov, char **why)
{
    guint ncores = NCORES;
    g_autofree char *y = g_strdup_printf(random_yaml, proto, mc->sockets, ncores / mc->sockets,
                                         mc->xsock, mc->interconnect ? mc->interconnect : "directory",
                                         mc->l2 ? "true" : "false");
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) cfg = config_load_string(y, "random.yaml", NULL, &error);
    ck_assert_msg(cfg, "%s", error ? error->message : "");
    Tester t = { 0 };
    t.e = engine_new(seed);
    t.ms = memsys_new(cfg, t.e, &error);
    ck_assert_msg(t.ms, "%s", error ? error->message : "");
    memsys_set_check(t.ms, memsys_checks);
    if (seed_bug && memsys_protocol(t.ms)->bus) /* a sharer ignores another cache's GetM */
        memsys_override_cache_row(t.ms, CS_S, CE_OTHER_GETM, 0, CS_S);
    else if (seed_bug) /* a sharer acks an invalidation but keeps its copy */
        memsys_override_cache_row(t.ms, CS_S, CE_INV, CA_ACK_TO_REQ, CS_S);
    t.ncores = ncores;
    t.target = ops;
    t.far = mc->far;
    for (guint l = 0; l < NLINES; l++) {
        for (guint w = 1; w < WORDS; w++) {
            t.lines[l].hist[w] = g_array_new(FALSE, FALSE, sizeof(uint64_t));
            uint64_t zero = 0;
            g_array_append_val(t.lines[l].hist[w], zero);
        }
        t.lines[l].old_seen = g_array_new(FALSE, FALSE, sizeof(guint8));
    }
    t.cores = g_new0(TCore, ncores);
    static const PortClient client = { t_done, t_lost, NULL, NULL };
    for (guint i = 0; i < ncores; i++) {
        TCore *c = &t.cores[i];
        *c = (TCore){ .t = &t, .id = i, .rnd = engine_rand_new(t.e, "tester", i),
                      .depth = 1 + i % RT_MAX_INFLIGHT };
        memsys_attach(t.ms, i, &client, c);
        for (guint s = 0; s < c->depth; s++)
            engine_schedule(t.e, i + (Cycle)g_rand_int_range(c->rnd, 0, 30), issue_next, c, s);
    }
    while (engine_step(t.e))
        ;
    guint64 problems = t.errors;
    GString *msg = g_string_new(t.first_error);
    for (guint i = 0; i < ncores; i++)
        for (guint s = 0; s < RT_MAX_INFLIGHT; s++)
            if (t.cores[i].slot[s].busy && problems++ == 0)
                g_string_append_printf(msg, "; core %u: an access never completed", i);
    for (guint l = 0; l < NLINES; l++) {
        LineModel *lm = &t.lines[l];
        uint64_t got = memsys_peek(t.ms, addr_of(l, 0), 8);
        if (got != lm->adds_issued || lm->adds_done != lm->adds_issued) {
            problems++;
            g_string_append_printf(msg, "; line %u: %" G_GUINT64_FORMAT " fetch-adds, total %"
                                   G_GUINT64_FORMAT, l, lm->adds_issued, got);
        }
        for (guint w = 1; w < WORDS; w++) {
            GArray *h = lm->hist[w];
            uint64_t want = g_array_index(h, uint64_t, h->len - 1);
            if (memsys_peek(t.ms, addr_of(l, w), 8) != want) {
                problems++;
                g_string_append_printf(msg, "; line %u word %u: final value is not the last write",
                                       l, w);
            }
            g_array_free(h, TRUE);
        }
        g_array_free(lm->old_seen, TRUE);
    }
    if (memsys_checks && !memsys_check_invariants(t.ms, &error)) {
        problems++;
        g_string_append_printf(msg, "; %s", error->message);
    }
    const MemStats *st = memsys_stats(t.ms);
    if (!seed_bug && g_getenv("QSIM_TEST_VERBOSE"))
        g_printerr("%s %s %us l2=%d far=%d %s: %" G_GUINT64_FORMAT " ops, %" G_GUINT64_FORMAT
                   " cycles, l1 hits %" G_GUINT64_FORMAT " misses %" G_GUINT64_FORMAT " backinv %"
                   G_GUINT64_FORMAT " evict %" G_GUINT64_FORMAT " queue %" G_GUINT64_FORMAT
                   " hold %" G_GUINT64_FORMAT "\n", proto, mc->interconnect ? mc->interconnect : "", mc->sockets,
                   mc->l2, mc->far, mc->xsock,
                   t.issued, engine_now(t.e), st->l1_hits, st->l1_misses, st->back_invalidations,
                   st->evictions, st->home_queue_cycles, st->hold_wait_cycles);
    if (cov)
        coverage_add(cov, t.ms);
    for (guint i = 0; i < ncores; i++)
        g_rand_free(t.cores[i].rnd);
    g_free(t.cores);
    memsys_free(t.ms);
    engine_free(t.e);
    *why = g_string_free(msg, FALSE);
    return problems;
}

/* ======================================================================================
 * Coverage
 * ====================================================================================== */

/* Rows no run can make fire, each with the reason (the table carries it as a comment too);
 * they are left out of the coverage check by name, as a trace prints them.  All four wait for
 * a message to overtake a chain of messages that left after it: qsim's routes obey the
 * triangle inequality (a route through a third party is never shorter than the direct one,
 * memsys.h), so that never happens; a network that reorders would reach them. */
static const struct {
    const char *proto; /* the table's name (mesif runs "mesi") */
    gboolean dir;
    const char *row;
    const char *why;
} never_fire[] = {
    { "mesi", TRUE, "S_DU + Unblock -> S_D",
      "the requester's Unblock follows the owner's data, which left with the copy-back" },
    { "mesi", TRUE, "S_D + CopyBack -> S", "only S_DU + Unblock leads to S_D" },
    { "moesi", TRUE, "S + Put-Stale -> S",
      "an overtaken Put arrives before the line can have gone on through O back to S" },
    { "moesi", TRUE, "O + PutE -> I",
      "a clean owner's PutE arrives before the sharer its Fwd-GetS made has unblocked" },
    { "msi", TRUE, "S_DU + Unblock -> S_D",
      "the requester's Unblock follows the owner's data, which left with the copy-back" },
    { "msi", TRUE, "S_D + CopyBack -> S", "only S_DU + Unblock leads to S_D" },
};

static gboolean row_excluded(const CohProtocol *p, gboolean dir, const CohRow *r)
{
    g_autofree char *text = coh_row_text(r, dir);
    for (guint i = 0; i < G_N_ELEMENTS(never_fire); i++)
        if (!g_strcmp0(never_fire[i].proto, p->name) && never_fire[i].dir == dir &&
            !g_strcmp0(never_fire[i].row, text))
            return TRUE;
    return FALSE;
}

/* The rows of one table that should have fired and did not, appended to `missing`; returns
 * how many fired of those that count. */
static guint coverage_table(const Coverage *cov, gboolean dir, guint *counted, GString *missing)
{
    const CohProtocol *p = cov->p;
    const CohRow *rows = dir ? p->dir : p->cache;
    guint n = dir ? p->n_dir : p->n_cache, fired = 0;
    const guint64 *hits = dir ? cov->dir : cov->cache;
    *counted = 0;
    for (guint i = 0; i < n; i++) {
        if ((dir && (rows[i].actions & DA_STALL)) || row_excluded(p, dir, &rows[i]))
            continue;
        (*counted)++;
        if (hits[i]) {
            fired++;
            continue;
        }
        g_autofree char *text = coh_row_text(&rows[i], dir);
        g_string_append_printf(missing, "\n  %s %s", dir ? "directory" : "cache", text);
    }
    return fired;
}

/* A protocol (the config's name) and the machines it runs on. */
static const struct {
    const char *proto;
    const RandomMachine *machines;
    guint n;
} random_protocols[] = {
    { "mesi", random_machines, G_N_ELEMENTS(random_machines) },
    { "mesif", random_machines, G_N_ELEMENTS(random_machines) },
    { "moesi", random_machines, G_N_ELEMENTS(random_machines) },
    { "msi", random_machines, G_N_ELEMENTS(random_machines) },
    { "msi", bus_machines, G_N_ELEMENTS(bus_machines) },
    { "mesi", bus_machines, G_N_ELEMENTS(bus_machines) },
};

/* Protocol _i on every machine: values right, then every row that counts has fired. */
START_TEST(test_random)
{
    const char *proto = random_protocols[_i].proto;
    Coverage cov = { 0 };
    for (guint m = 0; m < random_protocols[_i].n; m++) {
        const RandomMachine *mc = &random_protocols[_i].machines[m];
        g_autofree char *why = NULL;
        guint64 p = run_random(proto, mc, random_ops(mc->ops), 100 + 10 * _i + m, TRUE, FALSE,
                               &cov, &why);
        ck_assert_msg(p == 0, "%s, %u socket(s), l2 %d, far %d, %s%s%s: %s", proto, mc->sockets,
                      mc->l2, mc->far, mc->xsock, mc->interconnect ? ", " : "",
                      mc->interconnect ? mc->interconnect : "", why);
    }
    g_autoptr(GString) missing = g_string_new(NULL);
    guint nc, nd;
    guint fc = coverage_table(&cov, FALSE, &nc, missing);
    guint fd = coverage_table(&cov, TRUE, &nd, missing);
    if (g_getenv("QSIM_TEST_VERBOSE")) {
        guint stalls = 0, stalls_fired = 0;
        for (guint i = 0; i < cov.p->n_dir; i++)
            if (cov.p->dir[i].actions & DA_STALL) {
                stalls++;
                stalls_fired += cov.dir[i] != 0;
            }
        g_printerr("%s coverage: cache rows %u/%u, directory rows %u/%u (and stall rows %u/%u), "
                   "%u rows excluded\n", cov.p->name, fc, nc, fd, nd, stalls_fired, stalls,
                   cov.p->n_cache + cov.p->n_dir - stalls - nc - nd);
    }
    g_free(cov.cache);
    g_free(cov.dir);
    ck_assert_msg(missing->len == 0, "%s: rows that never fired (cache %u/%u, directory %u/%u):%s",
                  cov.p->name, fc, nc, fd, nd, missing->str);
}
END_TEST

/* The coverage check names what never fired as a trace prints it, skips the directory's
 * stall rows and the rows in never_fire, and counts the cache table's stall rows. */
START_TEST(test_coverage_names_missing_rows)
{
    guint64 cache[256] = { 0 }, dir[256] = { 0 };
    ck_assert_uint_le(coh_mesi.n_cache, G_N_ELEMENTS(cache));
    ck_assert_uint_le(coh_mesi.n_dir, G_N_ELEMENTS(dir));
    Coverage cov = { &coh_mesi, cache, dir };
    for (guint i = 1; i < coh_mesi.n_cache; i++)
        cache[i] = 1; /* all but the first cache row */
    g_autoptr(GString) missing = g_string_new(NULL);
    guint nc, nd;
    guint fc = coverage_table(&cov, FALSE, &nc, missing);
    ck_assert_uint_eq(nc, coh_mesi.n_cache);
    ck_assert_uint_eq(fc, coh_mesi.n_cache - 1);
    ck_assert_str_eq(missing->str, "\n  cache I + Load -> IS_D");
    guint fd = coverage_table(&cov, TRUE, &nd, missing);
    ck_assert_uint_eq(fd, 0);
    ck_assert_ptr_nonnull(strstr(missing->str, "\n  directory I + GetS -> EM_U"));
    ck_assert_ptr_null(strstr(missing->str, "S_DU + Unblock"));  /* in never_fire */
    ck_assert_ptr_null(strstr(missing->str, "S_DU + GetS"));     /* a stall row */
    guint stalls = 0;
    for (guint i = 0; i < coh_mesi.n_dir; i++)
        stalls += (coh_mesi.dir[i].actions & DA_STALL) != 0;
    ck_assert_uint_eq(nd, coh_mesi.n_dir - stalls - 2);
}
END_TEST

/* The tester must catch a protocol bug, with the memory system's checks (_i & 1) and on its
 * own model alone, on a directory (mesi, moesi) and on a bus (mesi); it runs in a child so an
 * internal error counts too. */
START_TEST(test_random_catches_seeded_bug)
{
    const char *proto = _i & 2 ? "moesi" : "mesi";
    const RandomMachine *mc = _i & 4 ? &bus_machines[0] : &random_machines[0];
    gboolean memsys_checks = _i & 1;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        g_autofree char *why = NULL;
        guint64 p = run_random(proto, mc, 20000, 7, memsys_checks, TRUE, NULL, &why);
        _exit(p ? 3 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert_msg(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
                  "%s%s%s: the tester did not notice a sharer that ignores invalidations", proto,
                  mc->interconnect ? " on a bus" : "", memsys_checks ? "" : " (tester's model only)");
}
END_TEST

Suite *make_coh_random_suite(void)
{
    Suite *s = suite_create("coh_random");
    TCase *tc = tcase_create("tester");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_random, 0, G_N_ELEMENTS(random_protocols));
    tcase_add_loop_test(tc, test_random_catches_seeded_bug, 0, 6); /* 4, 5: mesi on a bus */
    tcase_add_test(tc, test_coverage_names_missing_rows);
    suite_add_tcase(s, tc);
    return s;
}
