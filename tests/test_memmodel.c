/* The axiomatic memory models (sim/memmodel/) and `qsim litmus --exhaustive`: the relation
 * algebra and the cat rows' parser; each model on hand-built event graphs; every test of herd's
 * catalogue getting herd7's verdict exactly (kinds.txt, and tests/litmus/herd-verdicts-extra.txt
 * where herd ships none), and ours; the exact SC states containing every state the SC
 * interpreter's runs see; the translator's marks; the command line. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "sim/litmus/litmus.h"
#include "sim/memmodel/memmodel.h"
#include "sim/memmodel/cat_expr.h"
#include "tests/litmus_files.h"
#include "tests/run_qsim.h"
#include "tests/skip.h"

/* ---- the relation algebra ---- */

/* A set of a graph of n events from a mask of its first 64. */
static void set_of_mask(MmSet *s, guint n, uint64_t mask)
{
    mm_set_clear(s, n);
    for (guint i = 0; i < n && i < 64; i++)
        if ((mask >> i) & 1)
            mm_set_add(s, i);
}

/* The first 64 members of s, as a mask. */
static uint64_t mask_of_set(const MmSet *s)
{
    uint64_t m = 0;
    for (guint i = 0; i < s->n && i < 64; i++)
        m |= (uint64_t)mm_set_has(s, i) << i;
    return m;
}

START_TEST(test_relation_algebra)
{
    g_auto(MmRel) a = MM_REL_INIT, b = MM_REL_INIT, c = MM_REL_INIT;
    g_auto(MmSet) s = MM_SET_INIT, t = MM_SET_INIT;
    mm_rel_clear(&a, 4);
    mm_rel_add(&a, 0, 1);
    mm_rel_add(&a, 1, 2);
    mm_rel_clear(&b, 4);
    mm_rel_add(&b, 2, 3);
    mm_rel_seq(&c, &a, &b);                       /* a;b = {1->3} */
    ck_assert(mm_rel_has(&c, 1, 3) && !mm_rel_has(&c, 0, 3) && !mm_rel_has(&c, 0, 1));
    mm_rel_union(&c, &a, &b);
    mm_rel_closure(&c);                           /* 0->1->2->3: 0 reaches 3 */
    ck_assert(mm_rel_has(&c, 0, 3) && mm_rel_has(&c, 1, 3) && !mm_rel_has(&c, 3, 0));
    ck_assert(mm_rel_is_acyclic(&c) && mm_rel_is_irreflexive(&c) && !mm_rel_is_empty(&c));
    mm_rel_add(&b, 3, 0);                         /* closes the cycle */
    mm_rel_union(&c, &a, &b);
    ck_assert(!mm_rel_is_acyclic(&c));
    ck_assert(mm_rel_is_irreflexive(&c));         /* a cycle of length 4 is no self-loop */
    mm_rel_inverse(&c, &a);
    ck_assert(mm_rel_has(&c, 1, 0) && mm_rel_has(&c, 2, 1) && !mm_rel_has(&c, 0, 1));
    mm_rel_domain(&s, &a);
    ck_assert_uint_eq(mask_of_set(&s), 0x3);
    mm_rel_range(&s, &a);
    ck_assert_uint_eq(mask_of_set(&s), 0x6);
    set_of_mask(&s, 4, 0x2);
    mm_rel_restrict_domain(&c, &a, &s);           /* [{1}]; a = {1->2} */
    ck_assert(!mm_rel_has(&c, 0, 1) && mm_rel_has(&c, 1, 2));
    mm_rel_restrict_range(&c, &a, &s);            /* a; [{1}] = {0->1} */
    ck_assert(mm_rel_has(&c, 0, 1) && !mm_rel_has(&c, 1, 2));
    set_of_mask(&s, 4, 0x1);
    set_of_mask(&t, 4, 0xc);
    mm_rel_cross(&c, 4, &s, &t);                  /* {0} * {2, 3} */
    ck_assert(mm_rel_has(&c, 0, 2) && mm_rel_has(&c, 0, 3) && !mm_rel_has(&c, 1, 2));
    set_of_mask(&s, 4, 0x5);
    mm_rel_identity(&c, 4, &s);
    ck_assert(mm_rel_has(&c, 0, 0) && mm_rel_has(&c, 2, 2) && !mm_rel_has(&c, 1, 1));
    ck_assert(!mm_rel_is_irreflexive(&c));
    mm_rel_minus(&c, &a, &c);
    mm_rel_inter(&c, &c, &a);
    ck_assert(mm_rel_has(&c, 0, 1) && mm_rel_has(&c, 1, 2));
    /* 64 events: the top bit works like the others */
    mm_rel_clear(&a, 64);
    mm_rel_add(&a, 63, 0);
    mm_rel_add(&a, 0, 63);
    ck_assert(!mm_rel_is_acyclic(&a));
    mm_set_fill(&s, 64);
    ck_assert_uint_eq(mask_of_set(&s), G_MAXUINT64);
    ck_assert_uint_eq(mm_set_count(&s), 64);
    mm_set_fill(&s, 130);                         /* and past it: 130 bits, none after */
    ck_assert_uint_eq(mm_set_count(&s), 130);
    ck_assert_int_eq(mm_set_next(&s, 129), 129);
    ck_assert_int_eq(mm_set_next(&s, 130), -1);
    mm_set_clear(&s, 130);
    mm_set_add(&s, 70);
    ck_assert_int_eq(mm_set_next(&s, 0), 70);
}
END_TEST

/* ---- relations of more than 64 events, against a naive bool matrix ---- */

/* A random relation of n events with about `per_row` edges a row, into r and m (m[i * n + j]). */
static void random_relation(GRand *rng, guint n, guint per_row, MmRel *r, gboolean *m)
{
    mm_rel_clear(r, n);
    memset(m, 0, sizeof(gboolean) * n * n);
    for (guint i = 0; i < n; i++)
        for (guint k = 0; k < per_row; k++) {
            guint j = (guint)g_rand_int_range(rng, 0, (gint32)n);
            mm_rel_add(r, i, j);
            m[i * n + j] = TRUE;
        }
}

/* m+ by Floyd-Warshall on booleans, in place. */
static void naive_closure(gboolean *m, guint n)
{
    for (guint k = 0; k < n; k++)
        for (guint i = 0; i < n; i++)
            if (m[i * n + k])
                for (guint j = 0; j < n; j++)
                    m[i * n + j] |= m[k * n + j];
}

/* (Compared in plain loops, asserting once: each ck_assert reports to Check's parent.) */
static void assert_same(const MmRel *r, const gboolean *m, guint n, const char *what)
{
    ck_assert_uint_eq(r->n, n);
    guint bad_i = G_MAXUINT, bad_j = 0;
    for (guint i = 0; i < n && bad_i == G_MAXUINT; i++)
        for (guint j = 0; j < r->words * 64; j++)
            if (mm_rel_has(r, i, j) != (j < n && m[i * n + j])) {   /* and nothing past n */
                bad_i = i;
                bad_j = j;
                break;
            }
    ck_assert_msg(bad_i == G_MAXUINT, "%s, n %u: %u -> %u differs", what, n, bad_i, bad_j);
}

/* Closure, sequence, inverse and acyclicity on random relations of 1 to 200 events (one, two,
 * three and four words a row, and the word boundaries) equal a plain matrix's; a DAG with
 * its back edges gives the acyclic and the cyclic cases both, at every size. */
START_TEST(test_relation_large)
{
    static const guint sizes[] = { 1, 5, 63, 64, 65, 100, 127, 128, 129, 200 };
    g_autoptr(GRand) rng = g_rand_new_with_seed(1729);
    g_auto(MmRel) a = MM_REL_INIT, b = MM_REL_INIT, c = MM_REL_INIT;
    for (guint si = 0; si < G_N_ELEMENTS(sizes); si++) {
        guint n = sizes[si];
        g_autofree gboolean *ma = g_new(gboolean, n * n), *mb = g_new(gboolean, n * n), *mc = g_new(gboolean, n * n);
        for (guint round = 0; round < 4; round++) {
            random_relation(rng, n, 1 + round, &a, ma);
            random_relation(rng, n, 2, &b, mb);
            /* a ; b */
            mm_rel_seq(&c, &a, &b);
            for (guint i = 0; i < n; i++)
                for (guint j = 0; j < n; j++) {
                    gboolean any = FALSE;
                    for (guint k = 0; k < n && !any; k++)
                        any = ma[i * n + k] && mb[k * n + j];
                    mc[i * n + j] = any;
                }
            assert_same(&c, mc, n, "seq");
            /* a^-1 */
            mm_rel_inverse(&c, &a);
            for (guint i = 0; i < n; i++)
                for (guint j = 0; j < n; j++)
                    mc[i * n + j] = ma[j * n + i];
            assert_same(&c, mc, n, "inverse");
            /* a+, and acyclic a: whether a+ has a self-loop */
            mm_rel_copy(&c, &a);
            mm_rel_closure(&c);
            memcpy(mc, ma, sizeof(gboolean) * n * n);
            naive_closure(mc, n);
            assert_same(&c, mc, n, "closure");
            gboolean cyclic = FALSE;
            for (guint i = 0; i < n; i++)
                cyclic |= mc[i * n + i];
            ck_assert_msg(mm_rel_is_acyclic(&a) == !cyclic, "acyclic, n %u, round %u", n, round);
        }
        /* a DAG (edges only to later events) is acyclic; one back edge from the end of a long
         * path to its start is not */
        mm_rel_clear(&a, n);
        for (guint i = 0; i + 1 < n; i++) {
            mm_rel_add(&a, i, i + 1);
            if (i + 7 < n)
                mm_rel_add(&a, i, i + 7);
        }
        ck_assert_msg(mm_rel_is_acyclic(&a), "a DAG of %u is cyclic", n);
        if (n > 1) {
            mm_rel_add(&a, n - 1, 0);
            ck_assert_msg(!mm_rel_is_acyclic(&a), "a cycle through all %u is acyclic", n);
            mm_rel_closure(&a);
            ck_assert(mm_rel_has(&a, n - 1, n - 1) && mm_rel_has(&a, 0, 0));
        }
    }
}
END_TEST

/* ---- the rows' parser ---- */

START_TEST(test_cat_parse)
{
    GError *e = NULL;
    /* herd's precedence: '|' loosest, then ';' */
    CatExpr *x = cat_expr_parse("po | addr; rf", cat_builtin_lookup, NULL, &e);
    ck_assert_msg(x != NULL, "%s", e ? e->message : "");
    ck_assert_int_eq(x->op, CAT_UNION);
    ck_assert_int_eq(x->b->op, CAT_SEQ);
    ck_assert(x->dynamic && x->monotone && !x->is_set);
    cat_expr_free(x);
    x = cat_expr_parse("[R \\ NoRet]; po; [W]", cat_builtin_lookup, NULL, &e);
    ck_assert_msg(x != NULL, "%s", e ? e->message : "");
    ck_assert(!x->dynamic);
    cat_expr_free(x);
    /* taking away rf: not monotone, so a partial candidate cannot be judged by it */
    x = cat_expr_parse("po \\ rf^-1", cat_builtin_lookup, NULL, &e);
    ck_assert(x != NULL && x->dynamic && !x->monotone);
    cat_expr_free(x);
    static const struct { const char *text, *error; } bad[] = {
        { "po | nonsense", "unknown name 'nonsense'" },
        { "po | R", "a set and a relation combined" },
        { "[po]", "[...] takes a set" },
        { "R+", "'+' and '^-1' take a relation" },
        { "(po", "expected ')'" },
        { "po po", "unexpected text" },
        { "po * W", "'*' takes two sets" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_clear_error(&e);
        ck_assert_msg(cat_expr_parse(bad[i].text, cat_builtin_lookup, NULL, &e) == NULL, "%s parsed", bad[i].text);
        ck_assert_msg(e && strstr(e->message, bad[i].error), "%s: %s", bad[i].text, e ? e->message : "no error");
    }
    g_clear_error(&e);
}
END_TEST

START_TEST(test_models_compile)
{
    static const char *const names[] = { "sc", "tso", "arm64" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        const MmModelDef *d = mm_model_def_find(names[i]);
        ck_assert(d != NULL);
        GError *e = NULL;
        g_autoptr(MmModel) m = mm_model_compile(d, &e);
        ck_assert_msg(m != NULL, "%s: %s", names[i], e ? e->message : "");
    }
    ck_assert(mm_model_def_find("power") == NULL);
}
END_TEST

/* ---- the models on hand-built graphs ---- */

/* A graph under construction: events, then the candidate's rf and co and the dependencies. */
typedef struct {
    MmGraph g;
} Hand;

static void hand_clear(Hand *h)
{
    mm_graph_clear(&h->g);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Hand, hand_clear)

static guint ev(Hand *h, MmKind k, int thread, guint instance, int loc, uint64_t value, guint32 flags)
{
    MmEvent e = { k, thread, instance, loc, value, 4, flags, MM_FENCE_NONE, 0 };
    return mm_graph_add(&h->g, &e);
}

static guint fence(Hand *h, int thread, guint instance, MmFenceKind kind)
{
    guint i = ev(h, MM_FENCE, thread, instance, -1, 0, 0);
    h->g.ev[i].fence = kind;
    return i;
}

static void edge(Hand *h, MmRelName r, guint a, guint b)
{
    mm_rel_add(&h->g.rels[r], a, b);
}

/* Whether `model` allows the candidate; *failed names the axiom that forbids it. */
static gboolean allows(Hand *h, const char *model, const char **failed)
{
    GError *e = NULL;
    g_autoptr(MmModel) m = mm_model_compile(mm_model_def_find(model), &e);
    ck_assert_msg(m != NULL, "%s", e ? e->message : "");
    g_autoptr(MmEval) v = mm_eval_new(m);
    *failed = NULL;
    return mm_eval_prepare(v, &h->g, failed) && mm_eval_check(v, &h->g, FALSE, failed);
}

/* One access of a hand-built shape: a write of 1, or a read returning `value`, to x (0) or y (1). */
typedef struct {
    MmKind kind;
    int loc;
    uint64_t value;
    guint32 flags;
} Access;

/* Two threads, thread t doing a[t][0], then a fence of kind f[t] (NONE: none), then a[t][1];
 * a read of 0 reads its location's initial write, a read of 1 the write of 1 there; co puts
 * the initial writes first.  at[t][k]: the event of thread t's first access, fence, second
 * access (the initial writes of x and y are events 0 and 1). */
static void build_shape(Hand *h, const Access a[2][2], const MmFenceKind f[2], guint at[2][3])
{
    mm_graph_init(&h->g);
    guint init[2] = { ev(h, MM_WRITE, -1, 0, 0, 0, MM_INIT), ev(h, MM_WRITE, -1, 0, 1, 0, MM_INIT) };
    for (guint t = 0; t < 2; t++) {
        at[t][0] = ev(h, a[t][0].kind, (int)t, 0, a[t][0].loc, a[t][0].value, a[t][0].flags);
        at[t][1] = f[t] != MM_FENCE_NONE ? fence(h, (int)t, 1, f[t]) : G_MAXUINT;
        at[t][2] = ev(h, a[t][1].kind, (int)t, 2, a[t][1].loc, a[t][1].value, a[t][1].flags);
    }
    mm_graph_finish(&h->g);
    for (guint i = 0; i < h->g.n; i++) {
        const MmEvent *e = &h->g.ev[i];
        if (e->kind == MM_WRITE && e->thread >= 0)
            edge(h, MM_REL_CO, init[e->loc], i);
        if (e->kind != MM_READ)
            continue;
        guint from = init[e->loc];
        for (guint j = 0; j < h->g.n; j++)
            if (e->value && h->g.ev[j].kind == MM_WRITE && h->g.ev[j].thread >= 0 && h->g.ev[j].loc == e->loc)
                from = j;
        edge(h, MM_REL_RF, from, i);
    }
}

/* SB: Wx=1; Ry=0 || Wy=1; Rx=0, the writes and reads annotated with wflags and rflags. */
static void build_sb(Hand *h, gboolean fences, guint32 wflags, guint32 rflags)
{
    const Access a[2][2] = { { { MM_WRITE, 0, 1, wflags }, { MM_READ, 1, 0, rflags } },
                             { { MM_WRITE, 1, 1, wflags }, { MM_READ, 0, 0, rflags } } };
    MmFenceKind f = fences ? MM_FENCE_FULL : MM_FENCE_NONE;
    guint at[2][3];
    build_shape(h, a, (MmFenceKind[]){ f, f }, at);
}

START_TEST(test_model_sb)
{
    g_auto(Hand) h = { MM_GRAPH_INIT };
    const char *why;
    build_sb(&h, FALSE, 0, 0);
    ck_assert(!allows(&h, "sc", &why));
    ck_assert_str_eq(why, "sc");
    ck_assert_msg(allows(&h, "tso", &why), "TSO forbade SB by %s", why);
    ck_assert_msg(allows(&h, "arm64", &why), "ARMv8 forbade SB by %s", why);
    build_sb(&h, TRUE, 0, 0);
    ck_assert(!allows(&h, "tso", &why));
    ck_assert_str_eq(why, "tso");
    ck_assert(!allows(&h, "arm64", &why));
    ck_assert_str_eq(why, "external");
}
END_TEST

/* MP: Wx=1; [F0]; Wy=1 || Ry=1; [F1]; Rx=0, the fences of the kinds given (NONE: none); at[][]
 * as build_shape's. */
static void build_mp(Hand *h, MmFenceKind f0, MmFenceKind f1, guint32 wy_flags, guint32 ry_flags, guint at[2][3])
{
    const Access a[2][2] = { { { MM_WRITE, 0, 1, 0 }, { MM_WRITE, 1, 1, wy_flags } },
                             { { MM_READ, 1, 1, ry_flags }, { MM_READ, 0, 0, 0 } } };
    build_shape(h, a, (MmFenceKind[]){ f0, f1 }, at);
}

START_TEST(test_model_mp)
{
    g_auto(Hand) h = { MM_GRAPH_INIT };
    const char *why;
    guint at[2][3];
    build_mp(&h, MM_FENCE_NONE, MM_FENCE_NONE, 0, 0, at);
    ck_assert(!allows(&h, "tso", &why));          /* TSO keeps W->W and R->R */
    ck_assert(allows(&h, "arm64", &why));
    build_mp(&h, MM_FENCE_FULL, MM_FENCE_NONE, 0, 0, at);
    ck_assert_msg(allows(&h, "arm64", &why), "MP+dmb.sy+po forbidden by %s", why);
    build_mp(&h, MM_FENCE_FULL, MM_FENCE_FULL, 0, 0, at);
    ck_assert(!allows(&h, "arm64", &why));
    ck_assert_str_eq(why, "external");
    build_mp(&h, MM_FENCE_STORE, MM_FENCE_LOAD, 0, 0, at);
    ck_assert(!allows(&h, "arm64", &why));        /* DMB ST orders the writes, DMB LD the reads */
    build_mp(&h, MM_FENCE_LOAD, MM_FENCE_STORE, 0, 0, at);
    ck_assert(allows(&h, "arm64", &why));         /* ...and not the other way round */
    build_mp(&h, MM_FENCE_NONE, MM_FENCE_NONE, MM_REL, MM_ACQ, at);
    ck_assert(!allows(&h, "arm64", &why));        /* MP+rel+acq */
    build_mp(&h, MM_FENCE_NONE, MM_FENCE_NONE, MM_REL, MM_ACQ_PC, at);
    ck_assert(!allows(&h, "arm64", &why));        /* MP+rel+acqpc: Q orders what follows it too */
    build_mp(&h, MM_FENCE_FULL, MM_FENCE_ISB, 0, 0, at);
    ck_assert(allows(&h, "arm64", &why));         /* an ISB without a dependency into it orders nothing */
    /* ...with a control dependency from Ry into it, it orders the read after it */
    edge(&h, MM_REL_CTRL, at[1][0], at[1][1]);
    edge(&h, MM_REL_CTRL, at[1][0], at[1][2]);
    ck_assert(!allows(&h, "arm64", &why));
}
END_TEST

/* SB with a release write and an acquire (or acquire-pc) read on each side: [L]; po; [A]
 * orders them, Q does not. */
START_TEST(test_model_rel_acq)
{
    g_auto(Hand) h = { MM_GRAPH_INIT };
    const char *why;
    build_sb(&h, FALSE, MM_REL, MM_ACQ);
    ck_assert(!allows(&h, "arm64", &why));
    build_sb(&h, FALSE, MM_REL, MM_ACQ_PC);
    ck_assert_msg(allows(&h, "arm64", &why), "SB+rel-acqpc forbidden by %s", why);
}
END_TEST

/* LB: Rx=1; Wy=1 || Ry=1; Wx=1: ARMv8 allows it, unless both sides have a dependency. */
START_TEST(test_model_lb)
{
    g_auto(Hand) h = { MM_GRAPH_INIT };
    const char *why;
    const Access a[2][2] = { { { MM_READ, 0, 1, 0 }, { MM_WRITE, 1, 1, 0 } },
                             { { MM_READ, 1, 1, 0 }, { MM_WRITE, 0, 1, 0 } } };
    guint at[2][3];
    build_shape(&h, a, (MmFenceKind[]){ MM_FENCE_NONE, MM_FENCE_NONE }, at);
    guint rx = at[0][0], wy = at[0][2], ry = at[1][0], wx = at[1][2];
    ck_assert(allows(&h, "arm64", &why));
    ck_assert(!allows(&h, "tso", &why));
    ck_assert(!allows(&h, "sc", &why));
    edge(&h, MM_REL_DATA, rx, wy);
    ck_assert(allows(&h, "arm64", &why));         /* one side ordered is not enough */
    edge(&h, MM_REL_ADDR, ry, wx);
    ck_assert(!allows(&h, "arm64", &why));
    ck_assert_str_eq(why, "external");
    /* a pick (CSEL) dependency orders a later write too */
    mm_rel_clear(&h.g.rels[MM_REL_ADDR], h.g.n);
    edge(&h, MM_REL_PICK_DATA, ry, wx);
    ck_assert(!allows(&h, "arm64", &why));
}
END_TEST

/* Coherence and atomicity: CoRR (a later read of the same location seeing an older write) and
 * a read-modify-write with another thread's write between its read and its write. */
START_TEST(test_model_coherence_atomic)
{
    g_auto(Hand) h = { MM_GRAPH_INIT };
    const char *why;
    mm_graph_init(&h.g);
    guint ix = ev(&h, MM_WRITE, -1, 0, 0, 0, MM_INIT);
    guint w = ev(&h, MM_WRITE, 0, 0, 0, 1, 0);
    guint r1 = ev(&h, MM_READ, 1, 0, 0, 1, 0), r2 = ev(&h, MM_READ, 1, 1, 0, 0, 0);
    mm_graph_finish(&h.g);
    edge(&h, MM_REL_RF, w, r1);
    edge(&h, MM_REL_RF, ix, r2);
    edge(&h, MM_REL_CO, ix, w);
    static const char *const models[] = { "sc", "tso", "arm64" };
    static const char *const axioms[] = { "sc", "uniproc", "internal" };
    for (guint m = 0; m < G_N_ELEMENTS(models); m++) {
        ck_assert_msg(!allows(&h, models[m], &why), "%s allowed CoRR", models[m]);
        ck_assert_str_eq(why, axioms[m]);
    }
    /* thread 0: an atomic increment reading 0 and writing 1; thread 1 writes 5 in between */
    mm_graph_init(&h.g);
    ix = ev(&h, MM_WRITE, -1, 0, 0, 0, MM_INIT);
    guint r = ev(&h, MM_READ, 0, 0, 0, 0, MM_ATOMIC), wr = ev(&h, MM_WRITE, 0, 0, 0, 1, MM_ATOMIC);
    guint w5 = ev(&h, MM_WRITE, 1, 0, 0, 5, 0);
    mm_graph_finish(&h.g);
    edge(&h, MM_REL_RMW, r, wr);
    edge(&h, MM_REL_AMO, r, wr);
    edge(&h, MM_REL_RF, ix, r);
    edge(&h, MM_REL_CO, ix, w5);
    edge(&h, MM_REL_CO, ix, wr);
    edge(&h, MM_REL_CO, w5, wr);
    static const char *const atomic_axioms[] = { "atom", "atomic", "atomic" };
    for (guint m = 0; m < G_N_ELEMENTS(models); m++) {
        ck_assert_msg(!allows(&h, models[m], &why), "%s allowed a write inside an rmw", models[m]);
        ck_assert_str_eq(why, atomic_axioms[m]);
    }
    /* the other order of the writes is fine */
    mm_rel_clear(&h.g.rels[MM_REL_CO], h.g.n);
    edge(&h, MM_REL_CO, ix, w5);
    edge(&h, MM_REL_CO, ix, wr);
    edge(&h, MM_REL_CO, wr, w5);
    for (guint m = 0; m < G_N_ELEMENTS(models); m++)
        ck_assert_msg(allows(&h, models[m], &why), "%s: %s", models[m], why);
}
END_TEST

/* ---- litmus tests through the whole search ---- */

static LitmusResult *explore_text(const char *text, const char *model, GError **e)
{
    g_autoptr(LitmusTest) t = litmus_parse_string(text, "test.litmus", e);
    ck_assert_msg(t != NULL, "%s", *e ? (*e)->message : "");
    g_autoptr(LitmusProgram) p = litmus_translate(t, e);
    ck_assert_msg(p != NULL, "%s", *e ? (*e)->message : "");
    LitmusExhaustive o = { model, LITMUS_DEFAULT_UNROLL };
    return litmus_explore_test(t, p, &o, e);
}

/* Herd's verdict of each: the translator's marks are what make them right (an ISB run as a
 * full fence, LDAPR as LDAR, CSEL's dependency on both operands would each flip one). */
static const struct {
    const char *name, *text;
    LitmusKind kind;
} mark_cases[] = {
    { "ISB alone orders no reads", "AArch64 MP+dmb.sy+isb\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
      " P0          | P1          ;\n MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] | ISB         ;\n"
      " DMB SY      | LDR W2,[X3] ;\n MOV W2,#1   |             ;\n STR W2,[X3] |             ;\n"
      "exists (1:X0=1 /\\ 1:X2=0)\n", LK_ALLOWED },
    { "a control dependency into an ISB does", "AArch64 MP+dmb.sy+ctrlisb\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
      " P0          | P1          ;\n MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] | CBNZ W0,L0  ;\n"
      " DMB SY      | L0:         ;\n MOV W2,#1   | ISB         ;\n STR W2,[X3] | LDR W2,[X3] ;\n"
      "exists (1:X0=1 /\\ 1:X2=0)\n", LK_FORBIDDEN },
    { "STLR then LDAPR is not ordered", "AArch64 SB+rel-acqpcs\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
      " P0           | P1           ;\n MOV W0,#1    | MOV W0,#1    ;\n STLR W0,[X1] | STLR W0,[X1] ;\n"
      " LDAPR W2,[X3] | LDAPR W2,[X3] ;\nexists (0:X2=0 /\\ 1:X2=0)\n", LK_ALLOWED },
    { "STLR then LDAR is", "AArch64 SB+rel-acqs\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
      " P0           | P1           ;\n MOV W0,#1    | MOV W0,#1    ;\n STLR W0,[X1] | STLR W0,[X1] ;\n"
      " LDAR W2,[X3] | LDAR W2,[X3] ;\nexists (0:X2=0 /\\ 1:X2=0)\n", LK_FORBIDDEN },
    { "CSEL carries the selected operand only", "AArch64 LB+rel+CSEL-unselected\n{ 0:X5=x; 0:X4=y; 1:X4=y; 1:X5=x; }\n"
      " P0           | P1                 ;\n LDR W0,[X5]  | LDR W3,[X4]        ;\n"
      " MOV W2,#1    | CMP W0,#0          ;\n STLR W2,[X4] | MOV W1,#7          ;\n"
      "              | CSEL W1,W1,W3,EQ   ;\n              | STR W1,[X5]        ;\n"
      "exists (0:X0=7 /\\ 1:X3=1)\n", LK_ALLOWED },
    { "and the selected one", "AArch64 LB+rel+CSEL-selected\n{ 0:X5=x; 0:X4=y; 1:X4=y; 1:X5=x; }\n"
      " P0           | P1                 ;\n LDR W0,[X5]  | LDR W3,[X4]        ;\n"
      " MOV W2,#1    | CMP W0,#0          ;\n STLR W2,[X4] | MOV W1,#7          ;\n"
      "              | CSEL W1,W3,W1,EQ   ;\n              | STR W1,[X5]        ;\n"
      "exists (0:X0=1 /\\ 1:X3=1)\n", LK_FORBIDDEN },
    { "DMB LD does not order a no-return read", "AArch64 MP+rel+LDADDnoret-dmb.ld\n"
      "{ 0:X1=x; 0:X3=y; 1:X1=x; 1:X3=y; }\n P0           | P1                ;\n"
      " MOV W0,#1    | MOV W4,#1         ;\n STR W0,[X1]  | LDADD W4,WZR,[X3] ;\n"
      " MOV W2,#1    | DMB LD            ;\n STLR W2,[X3] | LDR W0,[X1]       ;\n"
      "exists (y=2 /\\ 1:X0=0)\n", LK_ALLOWED },
};

static void check_verdict(const LitmusResult *r, LitmusKind k, const char *what)
{
    guint64 judged = r->runs - r->filtered;
    gboolean ok = k == LK_ALLOWED ? r->positive > 0 : k == LK_FORBIDDEN ? r->positive == 0 : r->positive == judged;
    g_autofree char *txt = litmus_result_text(r);
    ck_assert_msg(ok, "%s: expected %s:\n%s", what, litmus_kind_name(k), txt);
}

START_TEST(test_translator_marks)
{
    GError *e = NULL;
    g_autoptr(LitmusResult) r = explore_text(mark_cases[_i].text, NULL, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    check_verdict(r, mark_cases[_i].kind, mark_cases[_i].name);
}
END_TEST

/* The marks on the instructions themselves. */
START_TEST(test_translator_mark_bits)
{
    GError *e = NULL;
    g_autoptr(LitmusTest) t = litmus_parse_string(
        "AArch64 marks\n{ 0:X1=x; }\n P0 ;\n LDAPR W0,[X1] ;\n LDAR W2,[X1] ;\n ISB ;\n DMB SY ;\n"
        " CMP W0,#0 ;\n CSEL W3,W0,W2,EQ ;\n SWP W0,WZR,[X1] ;\n CAS WZR,W0,[X1] ;\n SWP W0,W4,[X1] ;\n"
        "exists (0:X0=0)\n", "marks.litmus", &e);
    ck_assert_msg(t != NULL, "%s", e ? e->message : "");
    g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
    ck_assert_msg(p != NULL, "%s", e ? e->message : "");
    guint rcpc = 0, acq = 0, isb = 0, fence = 0, select = 0, noret = 0, ret = 0;
    for (guint i = 0; i < p->prog->insns->len; i++) {
        const IsaInsn *in = &g_array_index(p->prog->insns, IsaInsn, i);
        if (in->op == OP_LD)
            in->mm & ISA_MM_ACQ_PC ? rcpc++ : acq++;
        if (in->op == OP_FENCE) {
            ck_assert_int_eq(in->fence, FENCE_FULL);   /* what the timing model and interpreter run */
            in->mm & ISA_MM_ISB ? isb++ : fence++;
        }
        select += in->op == OP_AND && (in->mm & ISA_MM_SELECT);
        if (isa_op_is_rmw(in->op))
            in->mm & ISA_MM_NORET ? noret++ : ret++;
    }
    ck_assert_uint_eq(rcpc, 1);
    ck_assert_uint_eq(acq, 1);
    ck_assert_uint_eq(isb, 1);
    ck_assert_uint_eq(fence, 1);
    ck_assert_uint_eq(select, 2);
    ck_assert_uint_eq(noret, 2);
    ck_assert_uint_eq(ret, 1);
}
END_TEST

/* A loop: bounded, and the report says so. */
START_TEST(test_loop_bound)
{
    GError *e = NULL;
    const char *text = "AArch64 spin\n{ 0:X1=x; 1:X1=x; }\n P0          | P1          ;\n"
                       " L0:         | MOV W0,#1   ;\n LDR W0,[X1] | STR W0,[X1] ;\n CBZ W0,L0   |             ;\n"
                       "forall (0:X0=1)\n";
    g_autoptr(LitmusResult) r = explore_text(text, NULL, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    ck_assert_uint_gt(r->paths_cut, 0);
    ck_assert_uint_eq(r->unroll, LITMUS_DEFAULT_UNROLL);
    check_verdict(r, LK_REQUIRED, "spin");   /* every run that ends read 1 */
    g_autofree char *txt = litmus_result_text(r);
    ck_assert_msg(strstr(txt, "Bound: a thread takes a backward branch at most 2 times"), "%s", txt);
}
END_TEST

/* SB with `pad` fences of kind `fence` between each thread's write and read, and a DMB SY in
 * the middle of thread 1's when `full`: 2 * (pad + 2) + 2 events, the last read far past
 * event 64. */
static char *sb_padded(guint pad, const char *fence, gboolean full)
{
    GString *s = g_string_new("AArch64 SB+padded\n{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n P0 | P1 ;\n"
                              " MOV W0,#1 | MOV W0,#1 ;\n STR W0,[X1] | STR W0,[X1] ;\n");
    for (guint i = 0; i < pad; i++)
        g_string_append_printf(s, " %s | %s ;\n", fence, full && i == pad / 2 ? "DMB SY" : fence);
    g_string_append(s, " LDR W2,[X3] | LDR W2,[X3] ;\nexists (0:X2=0 /\\ 1:X2=0)\n");
    return g_string_free(s, FALSE);
}

/* Graphs of more than 64 events (a relation row of two words) go through the whole search:
 * 86 events, SB's verdicts as with none of the padding. */
START_TEST(test_graph_over_64_events)
{
    static const struct { const char *fence, *model; gboolean full; LitmusKind kind; } cases[] = {
        { "DMB ST", "arm64", FALSE, LK_ALLOWED },     /* DMB ST orders no write before a read */
        { "DMB ST", "sc", FALSE, LK_FORBIDDEN },
        { "DMB SY", "arm64", FALSE, LK_FORBIDDEN },
        { "DMB ST", "arm64", TRUE, LK_ALLOWED },      /* one side fenced is not enough */
        { "DMB LD", "arm64", TRUE, LK_ALLOWED },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        GError *e = NULL;
        g_autofree char *text = sb_padded(41, cases[i].fence, cases[i].full);
        g_autoptr(LitmusResult) r = explore_text(text, cases[i].model, &e);
        ck_assert_msg(r != NULL, "%s", e ? e->message : "");
        g_autofree char *what = g_strdup_printf("SB padded with %s under %s", cases[i].fence, cases[i].model);
        check_verdict(r, cases[i].kind, what);
        ck_assert_uint_eq(r->states->len, cases[i].kind == LK_ALLOWED ? 4 : 3);
    }
}
END_TEST

/* A byte written into a word another thread reads whole: the word holds 0x200, so the read
 * gives 0x200 or 0x201, never 1.  Rf and co are per location here, a write replacing the whole
 * value, which would give 1 as an exact state: the search refuses it by name instead.  A
 * narrower read of the low bytes is modelled (its value is the word's cut to its size). */
START_TEST(test_mixed_size_refused)
{
    GError *e = NULL;
    const char *narrow_write = "AArch64 MIX-narrow-write\n{ x=0x200; 0:X1=x; 1:X1=x; }\n"
                               " P0           | P1          ;\n MOV W0,#1    | LDR W2,[X1] ;\n"
                               " STRB W0,[X1] |             ;\nexists (1:X2=1)\n";
    g_autoptr(LitmusResult) r = explore_text(narrow_write, NULL, &e);
    ck_assert_msg(r == NULL, "a byte store into a word was explored as if it wrote the word");
    ck_assert_msg(e && strstr(e->message, "a 1-byte write and a 4-byte access: mixed-size accesses are not modelled"),
                  "%s", e ? e->message : "no error");
    g_clear_error(&e);
    const char *narrow_read = "AArch64 MIX-narrow-read\n{ x=0x200; 0:X1=x; 1:X1=x; }\n"
                              " P0          | P1           ;\n MOV W0,#0x301 | LDRB W2,[X1] ;\n"
                              " STR W0,[X1] |              ;\nexists (1:X2=1)\n";
    g_autoptr(LitmusResult) ok = explore_text(narrow_read, NULL, &e);
    ck_assert_msg(ok != NULL, "%s", e ? e->message : "");
    check_verdict(ok, LK_ALLOWED, "a byte read of the low byte");   /* 0x301's low byte */
    ck_assert_uint_eq(ok->states->len, 2);                          /* 1 or 0x200's low byte, 0 */
}
END_TEST

/* ---- the catalogues ---- */

/* The verdict of test `name`: kinds first, then extra. */
static gboolean verdict_of(GHashTable *kinds, GHashTable *extra, const char *name, LitmusKind *k)
{
    gpointer v;
    if ((kinds && g_hash_table_lookup_extended(kinds, name, NULL, &v)) ||
        (extra && g_hash_table_lookup_extended(extra, name, NULL, &v))) {
        *k = (LitmusKind)GPOINTER_TO_INT(v);
        return TRUE;
    }
    return FALSE;
}

/* Every test in `dir` gets its verdict; prints the tally.  Returns the tests checked. */
static guint check_folder(const char *label, const char *dir, const char *kinds_path, GHashTable *extra,
                          const char *whose)
{
    g_autoptr(GPtrArray) files = litmus_files(dir);
    ck_assert_msg(files != NULL, "%s is missing", dir);
    GError *e = NULL;
    g_autoptr(GHashTable) kinds = NULL;
    if (kinds_path && g_file_test(kinds_path, G_FILE_TEST_EXISTS)) {
        kinds = litmus_kinds_load(kinds_path, &e);
        ck_assert_msg(kinds != NULL, "%s", e ? e->message : "");
    }
    guint tests = 0, match = 0, stubs = 0;
    GString *mismatches = g_string_new(NULL);
    gint64 start = g_get_monotonic_time();
    for (guint i = 0; i < files->len; i++) {
        const char *f = files->pdata[i];
        g_autoptr(LitmusTest) t = litmus_parse_file(f, &e);
        if (!t && e && strstr(e->message, "symbolic-link stub")) {
            stubs++;   /* a file that only names a missing target: no test in it */
            g_clear_error(&e);
            continue;
        }
        ck_assert_msg(t != NULL, "%s: %s", f, e ? e->message : "");
        g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
        ck_assert_msg(p != NULL, "%s: %s", f, e ? e->message : "");
        LitmusKind k;
        ck_assert_msg(verdict_of(kinds, extra, t->name, &k), "%s: no verdict for %s", label, t->name);
        g_autoptr(LitmusResult) r = litmus_explore_test(t, p, NULL, &e);
        ck_assert_msg(r != NULL, "%s: %s", f, e ? e->message : "");
        litmus_result_check(r, k);
        tests++;
        if (r->expect_ok)
            match++;
        else
            g_string_append_printf(mismatches, "  %s: %s says %s; %s\n", t->name, whose, litmus_kind_name(k),
                                   r->positive ? "reachable" : "not reachable");
    }
    double secs = (double)(g_get_monotonic_time() - start) / 1e6;
    /* the tally (seconds are for the reader, not checked) */
    fprintf(stderr, "memmodel: %s: %u tests, %u match %s (%u stub%s skipped; %.2f s)\n%s", label, tests, match,
            whose, stubs, stubs == 1 ? "" : "s", secs, mismatches->str);
    ck_assert_msg(match == tests, "%s: %u of %u tests differ from %s:\n%s", label, tests - match, tests, whose,
                  mismatches->str);
    g_string_free(mismatches, TRUE);
    ck_assert_uint_le(stubs, 1);
    return tests;
}

static GHashTable *extra_verdicts(void)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "tests", "litmus", "herd-verdicts-extra.txt", NULL);
    GError *e = NULL;
    GHashTable *extra = litmus_kinds_load(path, &e);
    ck_assert_msg(extra != NULL, "%s", e ? e->message : "");
    return extra;
}

static const char *const herd_folders[] = { "aarch64", "x86", "x86_64" };

START_TEST(test_herd_catalogue_exact)
{
    g_autofree char *test = g_strdup_printf("memmodel/test_herd_catalogue_exact (%s)", herd_folders[_i]);
    if (!herd_catalogue_or_skip(test))
        return;
    g_autofree char *dir = g_build_filename(herd_dir(), herd_folders[_i], NULL);
    g_autofree char *kinds = g_build_filename(dir, "kinds.txt", NULL);
    g_autoptr(GHashTable) extra = extra_verdicts();
    guint n = check_folder(herd_folders[_i], dir, kinds, extra, "herd");
    ck_assert_uint_ge(n, 20);
}
END_TEST

/* Every line of the extra table names a test of the catalogue that has no kinds.txt line. */
START_TEST(test_extra_verdicts_needed)
{
    if (!herd_catalogue_or_skip("memmodel/test_extra_verdicts_needed"))
        return;
    g_autoptr(GHashTable) extra = extra_verdicts();
    GHashTableIter it;
    gpointer name;
    g_hash_table_iter_init(&it, extra);
    while (g_hash_table_iter_next(&it, &name, NULL)) {
        /* needed: some folder has the test and no kinds.txt line for it */
        gboolean needed = FALSE;
        for (guint f = 0; f < G_N_ELEMENTS(herd_folders) && !needed; f++) {
            g_autofree char *base = g_strdup_printf("%s.litmus", (char *)name);
            g_autofree char *path = g_build_filename(herd_dir(), herd_folders[f], base, NULL);
            g_autofree char *kpath = g_build_filename(herd_dir(), herd_folders[f], "kinds.txt", NULL);
            g_autoptr(GHashTable) kinds = g_file_test(kpath, G_FILE_TEST_EXISTS) ? litmus_kinds_load(kpath, NULL) : NULL;
            needed = g_file_test(path, G_FILE_TEST_EXISTS) && !(kinds && g_hash_table_contains(kinds, name));
        }
        ck_assert_msg(needed, "%s (herd-verdicts-extra.txt): every folder with the test has a kinds.txt line for it",
                      (char *)name);
    }
}
END_TEST

static const char *const our_folders[] = { "x86", "aarch64" };

START_TEST(test_our_catalogue_exact)
{
    g_autofree char *dir = own_litmus_dir(our_folders[_i]);
    g_autofree char *kinds = g_build_filename(dir, "kinds.txt", NULL);
    g_autofree char *label = g_strdup_printf("tests/litmus/%s", our_folders[_i]);
    guint n = check_folder(label, dir, kinds, NULL, "kinds.txt");
    ck_assert_uint_ge(n, 20);
}
END_TEST

/* Under --model sc the exact states contain every state the SC interpreter's runs show. */
static void sc_subset(const char *dir)
{
    g_autoptr(GPtrArray) files = litmus_files(dir);
    ck_assert_msg(files != NULL, "%s is missing", dir);
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    LitmusRunOptions o = { test_scale_quick() ? 10 : 40, 11 };
    LitmusExhaustive x = { "sc", LITMUS_DEFAULT_UNROLL };
    guint checked = 0;
    for (guint i = 0; i < files->len; i++) {
        GError *e = NULL;
        g_autoptr(LitmusTest) t = litmus_parse_file(files->pdata[i], &e);
        g_clear_error(&e);
        if (!t)
            continue;   /* a stub: the catalogue tests name it */
        g_autoptr(LitmusProgram) p = litmus_translate(t, &e);
        ck_assert_msg(p != NULL, "%s", e ? e->message : "");
        g_autoptr(LitmusResult) runs = litmus_run_test(t, p, sc, &o, &e);
        ck_assert_msg(runs != NULL, "%s", e ? e->message : "");
        g_autoptr(LitmusResult) all = litmus_explore_test(t, p, &x, &e);
        ck_assert_msg(all != NULL, "%s", e ? e->message : "");
        g_autoptr(GHashTable) exact = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint k = 0; k < all->states->len; k++)
            g_hash_table_add(exact, ((LitmusState *)all->states->pdata[k])->key);
        for (guint k = 0; k < runs->states->len; k++) {
            const char *key = ((LitmusState *)runs->states->pdata[k])->key;
            ck_assert_msg(g_hash_table_contains(exact, key), "%s: the interpreter reached %s, the SC model did not",
                          (char *)files->pdata[i], key);
        }
        checked++;
    }
    ck_assert_uint_gt(checked, 0);
}

START_TEST(test_sc_contains_interpreter)
{
    for (guint a = 0; a < G_N_ELEMENTS(our_folders); a++) {
        g_autofree char *dir = own_litmus_dir(our_folders[a]);
        sc_subset(dir);
    }
    if (!herd_catalogue_or_skip("memmodel/test_sc_contains_interpreter (herd)"))
        return;
    for (guint f = 0; f < G_N_ELEMENTS(herd_folders); f++) {
        g_autofree char *dir = g_build_filename(herd_dir(), herd_folders[f], NULL);
        sc_subset(dir);
    }
}
END_TEST

/* ---- the command line ---- */

START_TEST(test_command)
{
    g_autofree char *sb = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "SB.litmus", NULL);
    g_autofree char *mp = g_build_filename(test_srcdir(), "tests", "litmus", "aarch64", "MP.litmus", NULL);
    g_autofree char *kinds = g_build_filename(test_srcdir(), "tests", "litmus", "x86", "kinds.txt", NULL);
    g_autofree char *out = NULL, *err = NULL;
    const char *text[] = { "litmus", "--exhaustive", sb, NULL };
    ck_assert_int_eq(run_qsim(text, &out, &err), 0);
    ck_assert_msg(strstr(out, "States 4 (every final state under tso)") && strstr(out, "Observation SB Sometimes 1 3")
                  && strstr(out, "*>0:EAX=0; 1:EAX=0;"), "%s", out);
    g_clear_pointer(&out, g_free);
    const char *sc[] = { "litmus", "--exhaustive", "--model", "sc", sb, "--expect", kinds, NULL };
    ck_assert_int_eq(run_qsim(sc, &out, &err), 1);   /* SB is Allowed, and SC never reaches it */
    ck_assert_msg(strstr(err, "SB: Allowed, but no execution under sc reaches its condition"), "%s", err);
    g_clear_pointer(&out, g_free);
    g_clear_pointer(&err, g_free);
    const char *json[] = { "litmus", "--exhaustive", mp, "--format", "json", NULL };
    ck_assert_int_eq(run_qsim(json, &out, &err), 0);
    g_autoptr(JsonParser) jp = json_parser_new();
    ck_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(jp));
    ck_assert_str_eq(json_object_get_string_member(o, "model"), "arm64");
    ck_assert(json_object_get_boolean_member(o, "exhaustive"));
    ck_assert_str_eq(json_object_get_string_member(o, "observation"), "Sometimes");
    ck_assert_int_eq(json_object_get_int_member(o, "executions"), json_object_get_int_member(o, "runs"));
    ck_assert_int_eq(json_object_get_size(json_object_get_object_member(o, "states")), 4);
    static const struct { const char *line, *error; } bad[] = {
        { "litmus --model sc tests/litmus/x86/SB.litmus --sc", "--model goes with --exhaustive" },
        { "litmus --exhaustive --model power tests/litmus/x86/SB.litmus", "--model power: use one of sc, tso, arm64" },
        { "litmus --exhaustive --sc tests/litmus/x86/SB.litmus", "--exhaustive or --sc, not both" },
        { "litmus --unroll 3 --sc tests/litmus/x86/SB.litmus", "--unroll goes with --exhaustive" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_clear_pointer(&out, g_free);
        g_clear_pointer(&err, g_free);
        ck_assert_int_eq(run_qsim_line(bad[i].line, &out, &err), 2);
        ck_assert_msg(strstr(err, bad[i].error), "%s: %s", bad[i].line, err);
    }
}
END_TEST

/* mm_graph_finish's static relations against their definitions, on random graphs whose
 * threads' events are in runs (the row-by-row path) and on the same events with two threads'
 * events interleaved (the pairwise path): po (same thread, earlier instance), same-instance,
 * sca-class (the same kind within an instance, and the identity on memory events), int, ext
 * (an initial write external to all), loc. */
static void finish_check(const MmGraph *g)
{
    for (guint i = 0; i < g->n; i++)
        for (guint j = 0; j < g->n; j++) {
            const MmEvent *a = &g->ev[i], *b = &g->ev[j];
            gboolean st = a->thread >= 0 && a->thread == b->thread, si = st && a->instance == b->instance;
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_PO], i, j), st && a->instance < b->instance);
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_SAME_INSTANCE], i, j), si);
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_SCA_CLASS], i, j),
                             a->kind != MM_FENCE && a->kind == b->kind && (i == j || si));
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_INT], i, j), st);
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_EXT], i, j), !st);
            ck_assert_int_eq(mm_rel_has(&g->rels[MM_REL_LOC], i, j), a->loc >= 0 && a->loc == b->loc);
        }
}

START_TEST(test_finish_relations)
{
    GRand *r = g_rand_new_with_seed(43);
    for (guint round = 0; round < 50; round++) {
        g_auto(MmGraph) g = MM_GRAPH_INIT;
        guint nlocs = (guint)g_rand_int_range(r, 1, 5), nthreads = (guint)g_rand_int_range(r, 1, 4);
        for (guint l = 0; l < nlocs; l++) {
            MmEvent iw = { MM_WRITE, -1, 0, (int)l, 0, 1, MM_INIT, MM_FENCE_NONE, -1 };
            mm_graph_add(&g, &iw);
        }
        for (guint t = 0; t < nthreads; t++) {
            guint inst = 0, n = (guint)g_rand_int_range(r, 1, 90);
            for (guint k = 0; k < n; k++) {
                inst += g_rand_int_range(r, 0, 3) ? 1 : 0;      /* some events share an instance */
                MmKind kind = (MmKind)g_rand_int_range(r, 0, 3);
                MmEvent e = { kind, (int)t, inst, kind == MM_FENCE ? -1 : g_rand_int_range(r, 0, (int)nlocs), 0, 1, 0,
                              kind == MM_FENCE ? MM_FENCE_FULL : MM_FENCE_NONE, 0 };
                mm_graph_add(&g, &e);
            }
        }
        mm_graph_finish(&g);
        finish_check(&g);
        if (nthreads > 1 && g.n > nlocs + 2) {
            /* move the last event (the last thread's) to the front of the threads: the runs break */
            MmEvent last = g.ev[g.n - 1];
            memmove(&g.ev[nlocs + 1], &g.ev[nlocs], sizeof(MmEvent) * (g.n - 1 - nlocs));
            g.ev[nlocs] = last;
            mm_graph_finish(&g);
            finish_check(&g);
        }
    }
    g_rand_free(r);
}
END_TEST

Suite *make_memmodel_suite(void)
{
    Suite *s = suite_create("memmodel");
    TCase *tc = tcase_create("algebra");
    tcase_add_test(tc, test_relation_algebra);
    tcase_add_test(tc, test_relation_large);
    tcase_add_test(tc, test_cat_parse);
    tcase_add_test(tc, test_models_compile);
    tcase_add_test(tc, test_finish_relations);
    suite_add_tcase(s, tc);
    tc = tcase_create("models");
    tcase_add_test(tc, test_model_sb);
    tcase_add_test(tc, test_model_mp);
    tcase_add_test(tc, test_model_rel_acq);
    tcase_add_test(tc, test_model_lb);
    tcase_add_test(tc, test_model_coherence_atomic);
    suite_add_tcase(s, tc);
    tc = tcase_create("search");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_translator_marks, 0, G_N_ELEMENTS(mark_cases));
    tcase_add_test(tc, test_translator_mark_bits);
    tcase_add_test(tc, test_loop_bound);
    tcase_add_test(tc, test_graph_over_64_events);
    tcase_add_test(tc, test_mixed_size_refused);
    tcase_add_loop_test(tc, test_herd_catalogue_exact, 0, G_N_ELEMENTS(herd_folders));
    tcase_add_test(tc, test_extra_verdicts_needed);
    tcase_add_loop_test(tc, test_our_catalogue_exact, 0, G_N_ELEMENTS(our_folders));
    tcase_add_test(tc, test_sc_contains_interpreter);
    tcase_add_test(tc, test_command);
    suite_add_tcase(s, tc);
    return s;
}
