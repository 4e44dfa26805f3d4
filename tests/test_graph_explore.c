/* The execution-graph explorer (sim/memmodel/graph_explore.h) under `qsim verify`: built-in
 * locks verify under tso and arm64; broken locks fail where the states engine says they break
 * (the same verdict from both engines); a lock that never releases is a liveness failure with
 * its trace, not "verified"; the unroll bound never verifies; and, on small random loop-free
 * programs, the graph engine and the states engine reach the same set of final states under
 * sc, tso and arm64. */
#include <check.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include "tests/run_qsim.h"
#include "sim/validation/verify.h"
#include "sim/explore/explore.h"
#include "sim/memmodel/graph_explore.h"
#include "tests/isa_builder.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/interp.h"

static char *read_source(const char *rel)
{
    g_autofree char *path = g_build_filename(test_srcdir(), rel, NULL);
    char *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    return text;
}

/* Verifies lock `text` at threads x iterations under model (arm64 code for arm64). */
static void run(const char *name, const char *text, const ExploreModel *m, gboolean graphs, guint threads,
                guint iterations, VerifyResult *r)
{
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = threads;
    o.workload.iterations = iterations;
    if (m == &explore_model_arm64)
        o.target = arch_target(ARCH_ARM64);
    o.model = m;
    o.graphs = graphs;
    o.max_states = 2000000;
    g_autoptr(GError) err = NULL;
    ck_assert_msg(verify_lock(name, text, &o, r, &err), "%s: %s", name, err ? err->message : "");
}

/* ticket, qspin and qrwlock mix access sizes on one word (per byte in the graph engine);
 * futex-mutex sleeps in futex ops */
static const char *const builtin[] = { "tas", "ttas", "clh", "mcs", "ticket", "qspin", "qrwlock", "futex-mutex" };

START_TEST(test_builtin_verify)
{
    const char *name = builtin[_i / 2];
    const ExploreModel *m = _i % 2 ? &explore_model_arm64 : &explore_model_tso;
    g_autofree char *rel = g_strdup_printf("locks/%s.qs", name);
    g_autofree char *text = read_source(rel);
    VerifyResult r;
    run(name, text, m, TRUE, 2, 1, &r);
    ck_assert_msg(r.explore.verdict == EXPLORE_VERIFIED, "%s under %s: %s", name, m->name,
                  r.explore.message ? r.explore.message : "");
    ck_assert(r.explore.graphs && r.explore.transitions > 0);
    verify_result_clear(&r);
}
END_TEST

/* Broken locks and the model that breaks them, with the verdict both engines must give. */
static const struct {
    const char *file;
    gboolean arm64;
    gboolean fails;
} broken[] = {
    { "tests/broken-locks/peterson-nofence.qs", FALSE, TRUE },
    { "tests/broken-locks/tas-relaxed.qs", TRUE, TRUE },
    { "tests/broken-locks/tas-relaxed.qs", FALSE, FALSE },
    { "tests/broken-locks/tas-acqrel.qs", TRUE, FALSE },
};

START_TEST(test_broken_same_as_states)
{
    g_autofree char *text = read_source(broken[_i].file);
    const ExploreModel *m = broken[_i].arm64 ? &explore_model_arm64 : &explore_model_tso;
    VerifyResult g, s;
    run(broken[_i].file, text, m, TRUE, 2, 1, &g);
    run(broken[_i].file, text, m, FALSE, 2, 1, &s);
    ExploreVerdict want = broken[_i].fails ? EXPLORE_FAILED : EXPLORE_VERIFIED;
    ck_assert_msg(g.explore.verdict == want, "%s under %s (graphs): %s", broken[_i].file, m->name,
                  g.explore.message ? g.explore.message : "verified");
    ck_assert_int_eq(s.explore.verdict, want);
    if (broken[_i].fails) {
        g_autofree char *trace = explore_trace_text(g.explore.trace);
        ck_assert_msg(strstr(trace, "the failing execution graph's accesses, one step per instruction") &&
                          strstr(trace, "    1  T"), "%s",
                      trace);
    }
    verify_result_clear(&g);
    verify_result_clear(&s);
}
END_TEST

/* A test-and-set lock whose unlock forgets to release: the second thread spins forever on the
 * lock's latest value.  Spin-assume blocks it; the graph where nobody is left to write is a
 * liveness failure. */
static const char missing_release[] =
    ".shared lock_word 4 own_line\n"
    ".entry lock\n"
    ".entry unlock\n"
    "lock:\n"
    "    xchg32.acq r0, [lock_word], 1\n"
    "    beq r0, 0, got\n"
    "    jmp lock\n"
    "got:\n"
    "    ret\n"
    "unlock:\n"
    "    ret\n";

START_TEST(test_missing_release_is_liveness)
{
    const ExploreModel *m = _i ? &explore_model_arm64 : &explore_model_tso;
    VerifyResult r;
    run("missing-release", missing_release, m, TRUE, 2, 1, &r);
    ck_assert_int_eq(r.explore.verdict, EXPLORE_FAILED);
    ck_assert_int_eq(r.explore.property, EXPLORE_PROP_NO_FINISH);
    ck_assert_msg(strstr(r.explore.message, "can spin forever"), "%s", r.explore.message);
    ck_assert(r.explore.trace && r.explore.trace->steps->len > 0);
    verify_result_clear(&r);
}
END_TEST

/* A test-and-set lock whose waiters sleep in wfe: the unlock must send an event (a waiter's
 * monitor is not armed: xchg does not arm it).  Without the sev, a waiter that went to sleep
 * after the last unlock sleeps for ever: a lost wake-up, reported with its trace; with it, the
 * lock verifies. */
static char *wfe_lock(gboolean with_sev)
{
    return g_strdup_printf(".shared lock_word 4 own_line\n"
                           ".entry lock\n"
                           ".entry unlock\n"
                           "lock:\n"
                           "    xchg32.acq r0, [lock_word], 1\n"
                           "    beq r0, 0, got\n"
                           "    wfe\n"
                           "    jmp lock\n"
                           "got:\n"
                           "    ret\n"
                           "unlock:\n"
                           "    st32.rel [lock_word], 0\n"
                           "%s"
                           "    ret\n", with_sev ? "    sev\n" : "");
}

START_TEST(test_missing_sev_is_lost_wakeup)
{
    g_autofree char *broken = wfe_lock(FALSE), *fixed = wfe_lock(TRUE);
    VerifyResult r;
    run("missing-sev", broken, &explore_model_arm64, TRUE, 2, 1, &r);
    ck_assert_int_eq(r.explore.verdict, EXPLORE_FAILED);
    ck_assert_int_eq(r.explore.property, EXPLORE_PROP_NO_FINISH);
    ck_assert_msg(strstr(r.explore.message, "lost wake-up") && strstr(r.explore.message, "wfe"), "%s",
                  r.explore.message);
    ck_assert(r.explore.trace && r.explore.trace->steps->len > 0);
    verify_result_clear(&r);
    run("with-sev", fixed, &explore_model_arm64, TRUE, 2, 2, &r);
    ck_assert_msg(r.explore.verdict == EXPLORE_VERIFIED, "%s", r.explore.message ? r.explore.message : "");
    verify_result_clear(&r);
}
END_TEST

/* Mixed sizes: the broken locks that mix 16- and 32-bit accesses to one word fail under arm64
 * by graphs at 2 x 2, where the state search gave no verdict in minutes (issue 40). */
static const char *const broken_mixed[] = { "tests/broken-locks/ticket-plain-unlock.qs",
                                            "tests/broken-locks/qspin-noacq.qs" };

START_TEST(test_broken_mixed_fails)
{
    g_autofree char *text = read_source(broken_mixed[_i]);
    VerifyResult r;
    run(broken_mixed[_i], text, &explore_model_arm64, TRUE, 2, 2, &r);
    ck_assert_msg(r.explore.verdict == EXPLORE_FAILED, "%s: %s", broken_mixed[_i],
                  r.explore.message ? r.explore.message : "verified");
    ck_assert(r.explore.graphs && r.explore.trace && r.explore.trace->steps->len > 0);
    verify_result_clear(&r);
}
END_TEST

/* An op's access size in bytes from its mnemonic: "fadd32.acq" 4, "st8" 1, "ld" 8. */
static unsigned op_size(const char *op)
{
    const char *p = op;
    while (*p && *p != ' ' && !g_ascii_isdigit(*p))
        p++;
    return g_ascii_isdigit(*p) ? (unsigned)g_ascii_strtoull(p, NULL, 10) / 8 : 8;
}

/* Issue 40: the broken locks that mix sizes fail with one step per instruction (each read or
 * write at the instruction's size, not a step per byte event), a mixed read naming the writes
 * its bytes came from, an atomic's write in its read's step, and reads saying which newer
 * write they did not see; every write a step names is an earlier step. */
START_TEST(test_mixed_counterexample_steps)
{
    g_autofree char *text = read_source(broken_mixed[_i]);
    VerifyResult r;
    run(broken_mixed[_i], text, &explore_model_arm64, TRUE, 2, 2, &r);
    ck_assert_int_eq(r.explore.verdict, EXPLORE_FAILED);
    const ExploreTrace *tr = r.explore.trace;
    guint mixed_reads = 0, amo = 0, not_seen = 0;
    for (guint k = 0; k < tr->steps->len; k++) {
        const ExploreStep *st = tr->steps->pdata[k];
        ck_assert_uint_eq(st->step, k + 1);
        if (st->note.read)
            ck_assert_msg(st->note.rsize == op_size(st->op), "%s step %u `%s` reads %u bytes", broken_mixed[_i],
                          st->step, st->op, st->note.rsize);
        if (st->note.wrote)
            ck_assert_msg(st->note.wsize == op_size(st->op), "%s step %u `%s` writes %u bytes", broken_mixed[_i],
                          st->step, st->op, st->note.wsize);
        amo += st->note.read && st->note.wrote;
        for (guint j = 0; j < st->nsources; j++)
            ck_assert_uint_lt(st->sources[j].step, st->step);
        mixed_reads += st->nsources > 1 && strstr(st->what, "its bytes from T");
        for (guint j = 0; j < st->nunseen; j++)
            ck_assert_uint_lt(st->unseen[j].step, st->step);
        if (st->nunseen) {
            ck_assert_msg(g_str_has_prefix(st->not_seen, "did not see T") && strstr(st->not_seen, "(step "), "%s",
                          st->not_seen);
            not_seen++;
        }
    }
    ck_assert_msg(mixed_reads > 0 && amo > 0 && not_seen > 0, "%s: %u mixed reads, %u atomics, %u not seen",
                  broken_mixed[_i], mixed_reads, amo, not_seen);
    verify_result_clear(&r);
}
END_TEST

/* The same from the command line, text and JSON. */
START_TEST(test_mixed_counterexample_cli)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("verify --lock-file tests/broken-locks/ticket-plain-unlock.qs --arch arm64", &out, &err);
    ck_assert_msg(rc == 1 && strstr(out, "one step per instruction") && strstr(out, "its bytes from T") &&
                  strstr(out, "did not see T"), "rc %d, %.300s (stderr %.300s)", rc, out, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    rc = run_qsim_line("verify --lock-file tests/broken-locks/ticket-plain-unlock.qs --arch arm64 --format json", &out,
                       &err);
    ck_assert_msg(rc == 1, "%d %s", rc, err);
    g_autoptr(JsonParser) p = json_parser_new();
    ck_assert(json_parser_load_from_data(p, out, -1, NULL));
    JsonArray *steps = json_object_get_array_member(json_node_get_object(json_parser_get_root(p)), "counterexample");
    guint mixed = 0, not_seen = 0;
    for (guint k = 0; k < json_array_get_length(steps); k++) {
        JsonObject *st = json_array_get_object_element(steps, k);
        ck_assert_int_eq(json_object_get_int_member(st, "step"), k + 1);
        if (!json_object_has_member(st, "read"))
            continue;
        JsonObject *rd = json_object_get_object_member(st, "read");
        if (json_object_has_member(rd, "store_steps"))
            mixed += json_array_get_length(json_object_get_array_member(rd, "store_steps")) > 1;
        if (json_object_has_member(rd, "not_seen_steps")) {
            ck_assert(json_array_get_length(json_object_get_array_member(rd, "not_seen_steps")) > 0);
            ck_assert(g_str_has_prefix(json_object_get_string_member(st, "not_seen"), "did not see T"));
            not_seen++;
        }
    }
    ck_assert_msg(mixed > 0 && not_seen > 0, "%u %u", mixed, not_seen);
}
END_TEST

/* futex-mutex whose unlock forgets its futex_wake: a waiter that queued itself sleeps for ever,
 * a lost wake-up with its trace under tso and arm64 (futex ops as read-modify-writes of the
 * word's queue, graph_replay.c). */
START_TEST(test_missing_futex_wake_is_lost_wakeup)
{
    const ExploreModel *m = _i ? &explore_model_arm64 : &explore_model_tso;
    g_autofree char *text = read_source("locks/futex-mutex.qs");
    const char *wake = "    futex_wake r1, [lock_word], 1\n";
    char *at = strstr(text, wake);
    ck_assert(at);
    memset(at, ' ', strlen(wake) - 1);          /* the line blanked, the rest kept */
    VerifyResult r;
    run("futex-mutex-no-wake", text, m, TRUE, 2, 1, &r);
    ck_assert_int_eq(r.explore.verdict, EXPLORE_FAILED);
    ck_assert_int_eq(r.explore.property, EXPLORE_PROP_NO_FINISH);
    ck_assert_msg(strstr(r.explore.message, "lost wake-up") && strstr(r.explore.message, "futex_wait"), "%s",
                  r.explore.message);
    ck_assert(r.explore.graphs && r.explore.trace && r.explore.trace->steps->len > 0);
    verify_result_clear(&r);
}
END_TEST

/* A bound that cuts the search never says verified. */
START_TEST(test_unroll_bound_not_verified)
{
    g_autofree char *text = read_source("locks/ttas.qs");
    VerifyOptions o;
    verify_options_init(&o);
    o.workload.threads = 2;
    o.workload.iterations = 2;
    o.model = &explore_model_tso;
    o.graphs = TRUE;
    o.unroll = 1;
    VerifyResult r;
    ck_assert(verify_lock("ttas", text, &o, &r, NULL));
    ck_assert_int_eq(r.explore.verdict, EXPLORE_INCOMPLETE);
    ck_assert_msg(strstr(r.explore.message, "not verified: bound reached"), "%s", r.explore.message);
    verify_result_clear(&r);
}
END_TEST

/* The command line: --engine graphs prints its sizes, and takes mixed sizes and futex ops (a
 * lock it does not take is explored by states, and the verdict says so; --model arm64 on x86 code is refused. */
START_TEST(test_cli)
{
    g_autofree char *out = NULL, *err = NULL;
    int rc = run_qsim_line("verify --lock tas --engine graphs --threads 2 --iterations 1", &out, &err);
    ck_assert_msg(rc == 0 && strstr(out, "verified under tso") && strstr(out, "executions"), "%d %s %s", rc, out, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* the ticket lock mixes sizes on one word: the graph engine takes it per byte */
    rc = run_qsim_line("verify --lock ticket --engine graphs --threads 2 --iterations 1", &out, &err);
    ck_assert_msg(rc == 0 && !strstr(out, "state search") && strstr(out, "ticket: verified under tso") &&
                  strstr(out, "graphs"), "%d %s %s", rc, out, err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* futex ops too */
    rc = run_qsim_line("verify --lock futex-mutex --engine graphs --threads 2 --iterations 1 --format json", &out, &err);
    ck_assert_msg(rc == 0 && !strstr(out, "\"graphs_refused\"") && strstr(out, "\"graphs\""), "%d %s %s", rc, out,
                  err);
    g_free(out);
    g_free(err);
    out = err = NULL;
    /* issue 40: arm64's model on x86 code explores code no machine runs */
    rc = run_qsim_line("verify --lock tas --model arm64 --threads 2 --iterations 1", &out, &err);
    ck_assert_msg(rc == 2 && strstr(err, "--model arm64 on x86 code"), "%d %s %s", rc, out, err);
}
END_TEST

/* ======================================================================= differential */

#define NSYMS 3
#define NREGS_USED 4

static IsaSrc src(GRand *r) { return g_rand_boolean(r) ? tb_i(g_rand_int_range(r, 0, 3)) : tb_r(g_rand_int_range(r, 0, NREGS_USED)); }
static int reg(GRand *r) { return g_rand_int_range(r, 0, NREGS_USED); }
/* Whether the random programs mix access sizes: 1, 2, 4 or 8 bytes at an aligned offset of an
 * 8-byte variable, so that one access reads bytes of several writes (Flur et al., POPL 2017). */
static gboolean mixed_sizes;

static IsaMem mem(GRand *r, uint8_t *size)
{
    *size = 8;
    int64_t off = 0;
    if (mixed_sizes) {
        *size = (uint8_t)(1u << g_rand_int_range(r, 0, 4));
        off = *size * g_rand_int_range(r, 0, 8 / *size);
    }
    return tb_m(g_rand_int_range(r, 0, NSYMS), off);
}

/* Loads, stores (plain, acquire, release), every read-modify-write, fences, ALU ops and forward
 * branches: what both engines take without loops (ldx/stx are left out: herd and the graph
 * engine let a store-exclusive fail spuriously, the states engine does not). */
static void random_op(GRand *r, IsaProgram *p, guint left)
{
    static const IsaOp rmw[] = { OP_CAS, OP_XCHG, OP_FADD, OP_FOR, OP_FAND };
    static const IsaOp alu[] = { OP_MOV, OP_ADD, OP_XOR };
    IsaInsn *i;
    switch (g_rand_int_range(r, 0, 8)) {
    case 0:
        i = tb_op(p, alu[g_rand_int_range(r, 0, G_N_ELEMENTS(alu))]);
        i->rd = (int8_t)reg(r);
        i->a = src(r);
        i->b = src(r);
        break;
    case 1: case 5:
        i = tb_op(p, OP_LD);
        i->rd = (int8_t)reg(r);
        i->mem = mem(r, &i->size);
        i->order = g_rand_int_range(r, 0, 3) ? ORD_PLAIN : ORD_ACQ;
        break;
    case 2: case 6:
        i = tb_op(p, OP_ST);
        i->mem = mem(r, &i->size);
        i->a = src(r);
        i->order = g_rand_int_range(r, 0, 3) ? ORD_PLAIN : ORD_REL;
        break;
    case 3:
        i = tb_op(p, rmw[g_rand_int_range(r, 0, G_N_ELEMENTS(rmw))]);
        i->rd = (int8_t)reg(r);
        i->mem = mem(r, &i->size);
        i->a = src(r);
        i->b = src(r);
        i->order = g_rand_boolean(r) ? ORD_PLAIN : ORD_ACQREL;
        break;
    case 4:
        i = tb_op(p, OP_FENCE);
        i->fence = (IsaFence)g_rand_int_range(r, 0, 3);
        break;
    default:
        i = tb_op(p, OP_BR);
        i->cond = (IsaCond)g_rand_int_range(r, 0, 2);
        i->a = tb_r(reg(r));
        i->b = src(r);
        i->target = (int32_t)(p->insns->len + (left > 1 ? 1 : 0));
        break;
    }
}

static IsaProgram *random_program(GRand *r, guint nthreads)
{
    return tb_random_program(r, nthreads, 2, 6, random_op);
}

/* A final state as text: the three variables, then each thread's registers r0..r3. */
static char *final_key(const uint64_t *vars, const uint64_t *const *regs, guint nthreads)
{
    GString *g = g_string_new(NULL);
    for (guint k = 0; k < NSYMS; k++)
        g_string_append_printf(g, "%" G_GINT64_MODIFIER "x ", vars[k]);
    for (guint t = 0; t < nthreads; t++) {
        g_string_append(g, "|");
        for (guint k = 0; k < NREGS_USED; k++)
            g_string_append_printf(g, " %" G_GINT64_MODIFIER "x", regs[t][k]);
    }
    return g_string_free(g, FALSE);
}

static char *states_end(const ExploreWorld *w, const ExploreState *s, void *ctx)
{
    uint64_t vars[NSYMS];
    for (guint k = 0; k < NSYMS; k++)
        vars[k] = explore_mem_load(w, s, isa_sym_addr(w->layout, k, 0), 8);
    const uint64_t *regs[4];
    for (guint t = 0; t < w->nthreads; t++)
        regs[t] = s->th[t].regs;
    g_hash_table_add(ctx, final_key(vars, regs, w->nthreads));
    return NULL;
}

typedef struct {
    GHashTable *ends;
    IsaLayout *layout;
    guint nthreads;
} GraphEnds;

static void graphs_end(const MmGraphEnd *e, void *ctx)
{
    GraphEnds *x = ctx;
    uint64_t vars[NSYMS];
    for (guint k = 0; k < NSYMS; k++)
        vars[k] = mm_graph_end_load(e, isa_sym_addr(x->layout, k, 0), 8);
    const uint64_t *regs[4];
    for (guint t = 0; t < x->nthreads; t++)
        regs[t] = mm_graph_end_thread(e, t)->regs;
    g_hash_table_add(x->ends, final_key(vars, regs, x->nthreads));
}

static char *keys_text(GHashTable *h)
{
    GString *g = g_string_new(NULL);
    GList *keys = g_list_sort(g_hash_table_get_keys(h), (GCompareFunc)strcmp);
    for (GList *k = keys; k; k = k->next)
        g_string_append_printf(g, "  %s\n", (const char *)k->data);
    g_list_free(keys);
    return g_string_free(g, FALSE);
}

/* _i: sc, tso, arm64; then the same with mixed sizes.  Each random program's final states,
 * both engines. */
START_TEST(test_engines_agree)
{
    static const ExploreModel *const models[] = { &explore_model_sc, &explore_model_tso, &explore_model_arm64 };
    const ExploreModel *m = models[_i % 3];
    mixed_sizes = _i >= 3;
    GRand *r = g_rand_new_with_seed(40 + _i);
    guint nprograms = 40;
    for (guint n = 0; n < nprograms; n++) {
        guint nthreads = g_rand_int_range(r, 0, 3) ? 2 : 3;
        g_autoptr(IsaProgram) p = random_program(r, nthreads);
        GHashTable *se = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        ExploreOptions eo = { .model = m, .threads = nthreads, .max_memory = 64 << 20, .end_check = states_end,
                              .ctx = se, .keep_regs = ~(IsaRegMask)0 };
        ExploreResult er = { 0 };
        ck_assert(explore_run(p, &eo, &er, NULL));
        ck_assert_msg(er.verdict == EXPLORE_VERIFIED, "program %u: the states engine did not finish: %s", n,
                      er.message ? er.message : "");
        GraphEnds ge = { g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                         isa_layout_new(p, nthreads, 64, INTERP_BASE), nthreads };
        MmGraphOptions go = { .prog = p, .nthreads = nthreads, .model = mm_model_def_find(m->name),
                              .arch = m == &explore_model_arm64 ? ARCH_ARM64 : ARCH_X86,
                              .on_execution = graphs_end, .ctx = &ge };
        MmGraphResult gr;
        g_autoptr(GError) err = NULL;
        ck_assert_msg(mm_graph_explore(&go, &gr, &err), "%s", err ? err->message : "");
        ck_assert_int_eq(gr.verdict, MM_GRAPH_VERIFIED);
        g_autofree char *st = keys_text(se), *gt = keys_text(ge.ends);
        ck_assert_msg(!strcmp(st, gt), "program %u under %s: states engine:\n%sgraph engine:\n%s", n, m->name, st, gt);
        mm_graph_result_clear(&gr);
        explore_result_clear(&er);
        isa_layout_free(ge.layout);
        g_hash_table_destroy(ge.ends);
        g_hash_table_destroy(se);
    }
    g_rand_free(r);
}
END_TEST

Suite *make_graph_explore_suite(void)
{
    Suite *s = suite_create("graph_explore");
    TCase *tc = tcase_create("verify");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_builtin_verify, 0, 2 * G_N_ELEMENTS(builtin));
    tcase_add_loop_test(tc, test_broken_same_as_states, 0, G_N_ELEMENTS(broken));
    tcase_add_loop_test(tc, test_missing_release_is_liveness, 0, 2);
    tcase_add_test(tc, test_missing_sev_is_lost_wakeup);
    tcase_add_loop_test(tc, test_broken_mixed_fails, 0, G_N_ELEMENTS(broken_mixed));
    tcase_add_loop_test(tc, test_mixed_counterexample_steps, 0, G_N_ELEMENTS(broken_mixed));
    tcase_add_test(tc, test_mixed_counterexample_cli);
    tcase_add_loop_test(tc, test_missing_futex_wake_is_lost_wakeup, 0, 2);
    tcase_add_test(tc, test_unroll_bound_not_verified);
    tcase_add_test(tc, test_cli);
    suite_add_tcase(s, tc);
    tc = tcase_create("differential");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_engines_agree, 0, 6);
    suite_add_tcase(s, tc);
    return s;
}
