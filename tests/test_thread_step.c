/* The thread step (cores/isa/thread_step.h) as its two users run it: random small multi-thread
 * programs (loads, stores, every read-modify-write, ldx/stx, wfe/sev/sevl, futex_wait and
 * futex_wake, ALU ops and forward branches), each run on the reference interpreter under a
 * seeded schedule, then
 *
 *   - replayed op by op on the explorer's state under sc (the same thread each step), the two
 *     states compared after every step: registers, control, monitor, event, run state, futex
 *     queue order and memory;
 *   - held against the explorer's search under sc: when every execution finishes, the
 *     interpreter's final state is one of the explorer's final states.
 *
 * Deterministic: one GRand seed makes every program and schedule. */
#include <check.h>
#include <string.h>
#include "tests/isa_builder.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"
#include "sim/explore/explore.h"
#include "sim/explore/explore_exec.h"

#define NPROGRAMS 150
#define NSYMS 3
#define NREGS_USED 4
#define MAX_STEPS 400

static int64_t small(GRand *r) { return g_rand_int_range(r, 0, 3); }
static IsaSrc src(GRand *r)
{
    return g_rand_boolean(r) ? tb_i(small(r)) : tb_r(g_rand_int_range(r, 0, NREGS_USED));
}
static int reg(GRand *r) { return g_rand_int_range(r, 0, NREGS_USED); }
/* The first two variables share a line (ldx/stx and events see each other's writes). */
static IsaMem mem(GRand *r) { return tb_m(g_rand_int_range(r, 0, NSYMS), 0); }
/* A futex word: mostly one word, so that sleepers queue on it together. */
static IsaMem futex_word(GRand *r) { return g_rand_int_range(r, 0, 3) ? tb_m(0, 0) : mem(r); }

static void random_op(GRand *r, IsaProgram *p, guint left)
{
    static const IsaOp rmw[] = { OP_CAS, OP_XCHG, OP_FADD, OP_FOR, OP_FAND };
    static const IsaOp alu[] = { OP_MOV, OP_ADD, OP_SUB, OP_XOR };
    IsaInsn *i;
    switch (g_rand_int_range(r, 0, 14)) {
    case 0:
        i = tb_op(p, alu[g_rand_int_range(r, 0, G_N_ELEMENTS(alu))]);
        i->rd = (int8_t)reg(r);
        i->a = src(r);
        i->b = src(r);
        break;
    case 1:
        i = tb_op(p, OP_LD);
        i->size = 8;
        i->rd = (int8_t)reg(r);
        i->mem = mem(r);
        break;
    case 2:
        i = tb_op(p, OP_ST);
        i->size = 8;
        i->mem = mem(r);
        i->a = src(r);
        break;
    case 3:
        i = tb_op(p, rmw[g_rand_int_range(r, 0, G_N_ELEMENTS(rmw))]);
        i->size = 8;
        i->rd = (int8_t)reg(r);
        i->mem = mem(r);
        i->a = src(r);
        i->b = src(r);
        break;
    case 4: {
        IsaMem m = mem(r);
        i = tb_op(p, OP_LDX);
        i->size = 8;
        i->rd = (int8_t)reg(r);
        i->mem = m;
        if (g_rand_boolean(r)) {
            i = tb_op(p, OP_FADD);  /* a write between: the stx may fail */
            i->size = 8;
            i->rd = (int8_t)reg(r);
            i->mem = mem(r);
            i->a = tb_i(1);
        }
        i = tb_op(p, OP_STX);
        i->size = 8;
        i->rd = (int8_t)reg(r);
        i->mem = m;
        i->a = src(r);
        break;
    }
    case 5:
        tb_op(p, OP_WFE);
        break;
    case 6:
        tb_op(p, g_rand_boolean(r) ? OP_SEV : OP_SEVL);
        break;
    case 7: case 11: case 12: /* futexes are weighted up: two sleepers on one word, then a wake */
        i = tb_op(p, OP_FUTEX_WAIT);
        i->size = 4;
        i->rd = (int8_t)reg(r);
        i->mem = futex_word(r);
        i->a = tb_i(g_rand_int_range(r, 0, 3) ? 0 : small(r));
        break;
    case 8: case 13:
        i = tb_op(p, OP_FUTEX_WAKE);
        i->size = 4;
        i->rd = (int8_t)reg(r);
        i->mem = futex_word(r);
        i->a = tb_i(g_rand_int_range(r, 0, 3) ? 1 : 2);
        break;
    case 9:
        /* A forward branch over the next op (or to the halt). */
        i = tb_op(p, OP_BR);
        i->cond = (IsaCond)g_rand_int_range(r, 0, 6);
        i->a = tb_r(reg(r));
        i->b = src(r);
        i->target = (int32_t)(p->insns->len + (left > 1 ? 1 : 0));
        break;
    default:
        i = tb_op(p, OP_MARK);
        i->n = g_rand_int_range(r, 0, 4);
        break;
    }
}

static IsaProgram *random_program(GRand *r, guint nthreads)
{
    return tb_random_program(r, nthreads, 2, 7, random_op);
}

/* ======================================================================= replay */

static void assert_same_thread(const InterpThread *a, const ExploreThread *b, guint t, guint step)
{
    ck_assert_msg(a->state == b->state, "step %u thread %u: state %d vs %d", step, t, a->state, b->state);
    ck_assert_msg(a->pc == b->pc, "step %u thread %u: pc %d vs %d", step, t, a->pc, b->pc);
    ck_assert_msg(!memcmp(a->regs, b->regs, sizeof a->regs), "step %u thread %u: registers differ", step, t);
    ck_assert_int_eq(a->depth, b->depth);
    ck_assert_msg(a->monitor == b->monitor && a->event == b->event, "step %u thread %u: monitor/event", step, t);
    ck_assert_int_eq(a->has_ldx_line, b->has_ldx_line);
    if (a->has_ldx_line)
        ck_assert_uint_eq(a->ldx_line, b->ldx_line);
    ck_assert_msg(!memcmp(a->marks, b->marks, sizeof a->marks), "step %u thread %u: marks", step, t);
    if (a->state == THREAD_FUTEX)
        ck_assert_uint_eq(a->futex_addr, b->futex_addr);
}

/* The futex queue: the same sleepers in the same order (the interpreter numbers sleeps, the
 * explorer ranks today's sleepers). */
static void assert_same_queue(const Interp *in, const ExploreState *s, guint n)
{
    for (guint t = 0; t < n; t++)
        for (guint u = 0; u < n; u++) {
            const InterpThread *a = interp_thread(in, t), *b = interp_thread(in, u);
            if (a->state != THREAD_FUTEX || b->state != THREAD_FUTEX)
                continue;
            ck_assert_int_eq(a->futex_seq < b->futex_seq, s->th[t].futex_rank < s->th[u].futex_rank);
        }
}

static void assert_same_memory(const Interp *in, const ExploreWorld *w, const ExploreState *s)
{
    const IsaLayout *l = w->layout;
    for (uint64_t at = l->base; at < l->base + l->size; at++) {
        uint64_t v = 0;
        ck_assert(interp_read(in, at, 1, &v));
        ck_assert_msg(v == explore_mem_load(w, s, at, 1), "memory at 0x%" G_GINT64_MODIFIER "x differs", at);
    }
}

/* Runs p on the interpreter with `seed`, replaying each step on an explorer state. */
static Interp *run_and_replay(const IsaProgram *p, guint nthreads, guint64 seed)
{
    InterpOptions o = { .threads = nthreads, .seed = seed, .max_steps = MAX_STEPS };
    Interp *in = interp_new(p, &o, NULL);
    ck_assert_ptr_nonnull(in);
    ExploreWorld *w = explore_world_new(p, nthreads, 64, "main", 1, NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_uint_eq(w->layout->base, interp_layout(in)->base);
    ExploreState *s = explore_state_new(w);
    for (guint step = 1; interp_outcome(in) == INTERP_RUNNING; step++) {
        uint64_t before[8];
        IsaThreadState was[8];
        for (guint t = 0; t < nthreads; t++) {
            before[t] = interp_thread(in, t)->steps;
            was[t] = interp_thread(in, t)->state;
        }
        interp_step(in);
        guint ran = G_MAXUINT;
        for (guint t = 0; t < nthreads; t++) {
            const InterpThread *th = interp_thread(in, t);
            if (th->steps != before[t] || (was[t] == THREAD_RUNNABLE && th->state == THREAD_FAULT))
                ran = t;
        }
        if (ran == G_MAXUINT)
            break; /* the outcome was decided: no op ran */
        ck_assert_int_eq(s->th[ran].state, THREAD_RUNNABLE);
        explore_exec_op(w, &explore_model_sc, s, ran, NULL);
        for (guint t = 0; t < nthreads; t++)
            assert_same_thread(interp_thread(in, t), &s->th[t], t, step);
        assert_same_queue(in, s, nthreads);
        assert_same_memory(in, w, s);
    }
    explore_state_free(s);
    explore_world_free(w);
    return in;
}

/* ======================================================================= final states */

/* A final state as text: memory, then each thread's registers and marks. */
static char *final_key(const uint64_t *mem, guint nmem, const uint64_t *const *regs, const uint64_t *const *marks,
                       guint nthreads)
{
    GString *g = g_string_new(NULL);
    for (guint k = 0; k < nmem; k++)
        g_string_append_printf(g, "%" G_GINT64_MODIFIER "x ", mem[k]);
    for (guint t = 0; t < nthreads; t++) {
        g_string_append(g, "|");
        for (guint k = 0; k < ISA_NREGS; k++)
            g_string_append_printf(g, " %" G_GINT64_MODIFIER "x", regs[t][k]);
        for (guint k = 0; k < 4; k++)
            g_string_append_printf(g, " m%" G_GINT64_MODIFIER "u", marks[t][k]);
    }
    return g_string_free(g, FALSE);
}

static char *explored_end(const ExploreWorld *w, const ExploreState *s, void *ctx)
{
    const IsaLayout *l = w->layout;
    guint nmem = (guint)(l->size / 8);
    uint64_t *mem = g_new(uint64_t, nmem);
    for (guint k = 0; k < nmem; k++)
        mem[k] = explore_mem_load(w, s, l->base + 8 * k, 8);
    const uint64_t *regs[8], *marks[8];
    for (guint t = 0; t < w->nthreads; t++) {
        regs[t] = s->th[t].regs;
        marks[t] = s->th[t].marks;
    }
    g_hash_table_add(ctx, final_key(mem, nmem, regs, marks, w->nthreads));
    g_free(mem);
    return NULL;
}

static char *interp_end(const Interp *in, guint nthreads)
{
    const IsaLayout *l = interp_layout(in);
    guint nmem = (guint)(l->size / 8);
    uint64_t *mem = g_new(uint64_t, nmem);
    for (guint k = 0; k < nmem; k++)
        ck_assert(interp_read(in, l->base + 8 * k, 8, &mem[k]));
    const uint64_t *regs[8], *marks[8];
    for (guint t = 0; t < nthreads; t++) {
        regs[t] = interp_thread(in, t)->regs;
        marks[t] = interp_thread(in, t)->marks;
    }
    char *key = final_key(mem, nmem, regs, marks, nthreads);
    g_free(mem);
    return key;
}

START_TEST(test_interp_and_explorer_agree)
{
    GRand *r = g_rand_new_with_seed(20261207);
    guint compared = 0, finished = 0, blocked = 0, futex_slept = 0;
    for (guint n = 0; n < NPROGRAMS; n++) {
        guint nthreads = g_rand_int_range(r, 0, 3) ? 3 : 2;
        g_autoptr(IsaProgram) p = random_program(r, nthreads);
        GHashTable *ends = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        ExploreOptions eo = { .model = &explore_model_sc, .threads = nthreads, .sb_size = 1, .max_memory = 4 << 20,
                              .end_check = explored_end, .ctx = ends, .keep_regs = ~(IsaRegMask)0 };
        ExploreResult er = { 0 };
        ck_assert(explore_run(p, &eo, &er, NULL));
        for (guint k = 0; k < 4; k++) {
            Interp *in = run_and_replay(p, nthreads, g_rand_int(r));
            InterpOutcome out = interp_outcome(in);
            for (guint t = 0; t < nthreads; t++)
                futex_slept += interp_thread(in, t)->futex_sleeps > 0;
            if (out == INTERP_FINISHED) {
                finished++;
                /* Every finished run is one of the explorer's, whatever its verdict (a search
                 * that stopped at a deadlock saw only some). */
                if (er.verdict == EXPLORE_VERIFIED) {
                    g_autofree char *key = interp_end(in, nthreads);
                    ck_assert_msg(g_hash_table_contains(ends, key), "program %u: the interpreter's end %s is "
                                  "not among the explorer's %u", n, key, g_hash_table_size(ends));
                    compared++;
                }
            } else {
                /* The explorer finds the deadlock too: no search that saw it all verifies. */
                ck_assert_int_eq(out, INTERP_DEADLOCK);
                ck_assert_int_ne(er.verdict, EXPLORE_VERIFIED);
                blocked++;
            }
            interp_free(in);
        }
        explore_result_clear(&er);
        g_hash_table_destroy(ends);
    }
    g_rand_free(r);
    /* The generator reaches every kind of run. */
    ck_assert_uint_gt(compared, NPROGRAMS / 4);
    ck_assert_uint_gt(blocked, 10);
    ck_assert_uint_gt(futex_slept, 10);
    ck_assert_uint_ge(finished, compared);
}
END_TEST

Suite *make_thread_step_suite(void)
{
    Suite *s = suite_create("thread_step");
    TCase *tc = tcase_create("differential");
    tcase_add_test(tc, test_interp_and_explorer_agree);
    suite_add_tcase(s, tc);
    return s;
}
