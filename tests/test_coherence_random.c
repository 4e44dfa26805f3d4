/* The random tester: many cores, a handful of lines, random loads, stores and fetch-adds with
 * random timing through the port.  Every load must return the last store to its address (the
 * tester keeps its own shadow, and the memory system checks its invariants after every
 * transition); the fetch-add totals must be exact.  A seeded protocol bug must be caught. */
#include <check.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/coh_rig.h"

#define NLINES 10
#define WORDS 8
/* Lines chosen to collide: five share an L1 set, five another, and five share an LLC set of
 * four ways, so evictions, write-back races and back-invalidations all happen. */
static const uint64_t line_idx[NLINES] = { 0, 8, 16, 24, 32, 1, 9, 17, 25, 33 };

typedef struct Tester Tester;
typedef struct {
    Tester *t;
    guint id;
    GRand *rnd;
    MemRequest req;
    guint line, word;
    guint64 seq;
} TCore;

struct Tester {
    Engine *e;
    MemSys *ms;
    TCore *cores;
    guint ncores;
    guint64 issued, target;
    uint64_t shadow[NLINES][WORDS];
    guint64 adds[NLINES];
    guint64 errors;
    gboolean far;
    char first_error[256];
};

static uint64_t addr_of(guint line, guint word) { return line_idx[line] * 64 + word * 8; }

static void issue_next(void *obj, uint64_t arg);

static void t_done(void *obj, const MemResponse *r)
{
    TCore *c = obj;
    Tester *t = c->t;
    uint64_t *sh = &t->shadow[c->line][c->word];
    /* Far adds are performed at the home before their reply arrives, so with them on, word 0's
     * exact values are left to the memory system's own check and the final totals. */
    gboolean exact = !(t->far && c->word == 0);
    if (exact && (c->req.kind == MEM_LOAD || c->req.kind == MEM_RMW)) {
        if (r->value != *sh && t->errors++ == 0)
            g_snprintf(t->first_error, sizeof t->first_error,
                       "core %u %s line %u word %u: got %" G_GINT64_MODIFIER "x, expected %"
                       G_GINT64_MODIFIER "x at cycle %" G_GUINT64_FORMAT, c->id,
                       c->req.kind == MEM_LOAD ? "load" : "fetch-add", c->line, c->word, r->value, *sh,
                       r->done);
    }
    if (c->req.kind == MEM_STORE)
        *sh = c->req.value;
    else if (c->req.kind == MEM_RMW)
        *sh += 1; /* far adds: performed earlier at the home, but only adds touch word 0 */
    if (t->issued < t->target)
        engine_schedule(t->e, g_rand_int_range(c->rnd, 0, 30), issue_next, c, 0);
}

static void t_lost(void *obj G_GNUC_UNUSED, uint64_t line G_GNUC_UNUSED, LineLossCause cause G_GNUC_UNUSED) {}

static void issue_next(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    TCore *c = obj;
    Tester *t = c->t;
    t->issued++;
    c->line = (guint)g_rand_int_range(c->rnd, 0, NLINES);
    guint r = (guint)g_rand_int_range(c->rnd, 0, 100);
    MemRequest q = { .size = 8, .tag = ++c->seq };
    if (r < 40) {
        q.kind = MEM_LOAD;
        c->word = (guint)g_rand_int_range(c->rnd, 0, WORDS);
    } else if (r < 70) {
        q.kind = MEM_STORE;
        c->word = (guint)g_rand_int_range(c->rnd, 1, WORDS);
        q.value = ((uint64_t)c->id << 40) | c->seq;
    } else {
        q.kind = MEM_RMW;
        q.rmw = RMW_ADD;
        q.value = 1;
        c->word = 0;
        q.far = t->far && g_rand_boolean(c->rnd);
        q.hold_cycles = g_rand_int_range(c->rnd, 0, 3) == 0 ? 15 : 0;
        t->adds[c->line]++;
    }
    q.addr = addr_of(c->line, c->word);
    c->req = q;
    memsys_issue(t->ms, c->id, &q);
}

static const char *random_yaml =
    "name: random\narch: arm64\nprotocol: %s\nline_size: 64\n"
    "topology:\n  sockets: %u\n  cores_per_socket: %u\n  ondie: ring\n  ondie_hop_cycles: 2\n"
    "  c2c_cycles: 15\n  socket_hop_cycles: 40\n  cross_socket: %s\n"
    "l1:\n  size: 1KiB\n  ways: 2\n  latency: 2\n"
    "l2:\n  enabled: %s\n  size: 2KiB\n  ways: 4\n  latency: 6\n"
    "llc:\n  size: 1KiB\n  ways: 4\n  latency: 20\n"
    "memory:\n  latency: 80\n";

/* Runs the tester; returns the number of problems found (0: all well), message in why. */
static guint64 run_random(const char *proto, guint sockets, gboolean l2, gboolean far,
                          const char *xsock, guint64 ops, guint seed, gboolean seed_bug, char **why)
{
    guint ncores = 8;
    g_autofree char *y = g_strdup_printf(random_yaml, proto, sockets, ncores / sockets, xsock,
                                         l2 ? "true" : "false");
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) cfg = config_load_string(y, "random.yaml", NULL, &error);
    ck_assert_msg(cfg, "%s", error ? error->message : "");
    Tester t = { 0 };
    t.e = engine_new(seed);
    t.ms = memsys_new(cfg, t.e, &error);
    ck_assert_msg(t.ms, "%s", error ? error->message : "");
    memsys_set_check(t.ms, TRUE);
    if (seed_bug) /* a sharer acks an invalidation but keeps its copy */
        memsys_override_cache_row(t.ms, CS_S, CE_INV, CA_ACK_TO_REQ, CS_S);
    t.ncores = ncores;
    t.target = ops;
    t.far = far;
    t.cores = g_new0(TCore, ncores);
    static const PortClient client = { t_done, t_lost };
    for (guint i = 0; i < ncores; i++) {
        t.cores[i] = (TCore){ .t = &t, .id = i, .rnd = engine_rand_new(t.e, "tester", i) };
        memsys_attach(t.ms, i, &client, &t.cores[i]);
        engine_schedule(t.e, i, issue_next, &t.cores[i], 0);
    }
    while (engine_step(t.e))
        ;
    guint64 problems = t.errors;
    GString *msg = g_string_new(t.first_error);
    for (guint l = 0; l < NLINES; l++) {
        uint64_t got = memsys_peek(t.ms, addr_of(l, 0), 8);
        if (got != t.adds[l]) {
            problems++;
            g_string_append_printf(msg, "; line %u: %" G_GUINT64_FORMAT " fetch-adds, total %"
                                   G_GUINT64_FORMAT, l, t.adds[l], got);
        }
    }
    if (!memsys_check_invariants(t.ms, &error)) {
        problems++;
        g_string_append_printf(msg, "; %s", error->message);
    }
    const MemStats *st = memsys_stats(t.ms);
    if (!seed_bug && g_getenv("QSIM_TEST_VERBOSE"))
        g_printerr("%s %us l2=%d far=%d %s: %" G_GUINT64_FORMAT " ops, %" G_GUINT64_FORMAT
                   " cycles, l1 hits %" G_GUINT64_FORMAT " misses %" G_GUINT64_FORMAT " backinv %"
                   G_GUINT64_FORMAT " evict %" G_GUINT64_FORMAT " queue %" G_GUINT64_FORMAT
                   " hold %" G_GUINT64_FORMAT "\n", proto, sockets, l2, far, xsock, t.issued,
                   engine_now(t.e), st->l1_hits, st->l1_misses, st->back_invalidations,
                   st->evictions, st->home_queue_cycles, st->hold_wait_cycles);
    for (guint i = 0; i < ncores; i++)
        g_rand_free(t.cores[i].rnd);
    g_free(t.cores);
    memsys_free(t.ms);
    engine_free(t.e);
    *why = g_string_free(msg, FALSE);
    return problems;
}

/* The loop index picks the protocol and the machine. */
static const struct {
    const char *proto;
    guint sockets;
    gboolean l2, far;
    const char *xsock;
    guint64 ops;
} random_cases[] = {
    { "mesi", 1, FALSE, FALSE, "directory", 1000000 },
    { "moesi", 1, FALSE, FALSE, "directory", 1000000 },
    { "mesi", 2, TRUE, FALSE, "directory", 1000000 },
    { "moesi", 2, TRUE, FALSE, "broadcast", 1000000 },
    { "mesi", 2, FALSE, TRUE, "broadcast", 200000 },
    { "moesi", 2, TRUE, TRUE, "directory", 200000 },
};

START_TEST(test_random)
{
    g_autofree char *why = NULL;
    guint64 p = run_random(random_cases[_i].proto, random_cases[_i].sockets, random_cases[_i].l2,
                           random_cases[_i].far, random_cases[_i].xsock,
                           rig_scaled(random_cases[_i].ops), 100 + _i, FALSE, &why);
    ck_assert_msg(p == 0, "%s, %u socket(s): %s", random_cases[_i].proto, random_cases[_i].sockets, why);
}
END_TEST

/* The tester must catch a protocol bug; it runs in a child so an internal error counts too. */
START_TEST(test_random_catches_seeded_bug)
{
    const char *proto = _i ? "moesi" : "mesi";
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        g_autofree char *why = NULL;
        guint64 p = run_random(proto, 1, FALSE, FALSE, "directory", 20000, 7, TRUE, &why);
        _exit(p ? 3 : 0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert_msg(!(WIFEXITED(status) && WEXITSTATUS(status) == 0),
                  "%s: the tester did not notice a sharer that ignores invalidations", proto);
}
END_TEST

Suite *make_coh_random_suite(void)
{
    Suite *s = suite_create("coh_random");
    TCase *tc = tcase_create("tester");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_random, 0, G_N_ELEMENTS(random_cases));
    tcase_add_loop_test(tc, test_random_catches_seeded_bug, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
