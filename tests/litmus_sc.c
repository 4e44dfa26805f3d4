/* The SC interleaving executor for the litmus tests (see litmus_sc.h). */
#include <string.h>
#include "cores/isa_exec.h"
#include "tests/litmus_sc.h"

#define SC_BASE 0x10000
#define SC_MAX_STEPS 200000

typedef struct {
    uint8_t *bytes;
    uint64_t base, size;
    gboolean bad;
} ScMem;

static gboolean in_range(ScMem *m, uint64_t a, unsigned size)
{
    if (a < m->base || a + size > m->base + m->size) {
        m->bad = TRUE;
        return FALSE;
    }
    return TRUE;
}

static void mem_poke(void *ctx, uint64_t a, unsigned size, uint64_t v)
{
    ScMem *m = ctx;
    if (!in_range(m, a, size))
        return;
    for (unsigned i = 0; i < size; i++)
        m->bytes[a - m->base + i] = (uint8_t)(v >> (8 * i));   /* little-endian */
}

static uint64_t mem_peek(ScMem *m, uint64_t a, unsigned size)
{
    if (!in_range(m, a, size))
        return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)m->bytes[a - m->base + i] << (8 * i);
    return v;
}

static gboolean sc_run(void *ctx, const LitmusProgram *p, guint64 seed, const LitmusPerturb *perturb,
                       LitmusFinal *out, GError **error)
{
    const IsaProgram *prog = p->prog;
    guint n = p->nthreads;
    IsaLayout *lay = isa_layout_new(prog, n, 64, SC_BASE);
    ScMem m = { g_malloc0(lay->size), lay->base, lay->size, FALSE };
    isa_layout_init_memory(lay, prog, mem_poke, &m);
    for (guint l = 0; l < p->locs->len; l++) {
        const LitmusLoc *loc = p->locs->pdata[l];
        if (loc->points_to >= 0) {
            const LitmusLoc *to = p->locs->pdata[loc->points_to];
            mem_poke(&m, isa_sym_addr(lay, (guint)loc->sym, 0), 8, isa_sym_addr(lay, (guint)to->sym, 0));
        }
    }
    guint32 s2[2] = { (guint32)seed, (guint32)(seed >> 32) };
    GRand *rng = g_rand_new_with_seed_array(s2, 2);
    uint64_t *regs = g_new0(uint64_t, (gsize)n * ISA_NREG_SLOTS);
    int32_t *pc = g_new0(int32_t, n);
    gboolean *halted = g_new0(gboolean, n);
    guint64 *wake = g_new0(guint64, n);
    /* Exclusive monitors: ldx arms one on a line; another thread's write to it disarms it. */
    uint64_t *mon = g_new0(uint64_t, n);
    gboolean *armed = g_new0(gboolean, n);
    int entry = isa_program_find_entry(prog, "main");
    for (guint t = 0; t < n; t++) {
        regs[t * ISA_NREG_SLOTS + ISA_REG_TID] = t;
        regs[t * ISA_NREG_SLOTS + ISA_REG_NTHREADS] = n;
        pc[t] = entry;
        /* Start skew, scaled to steps: a late thread finds the others' stores done. */
        wake[t] = perturb ? perturb->start_skew[t] / 20 : 0;
    }
    gboolean ok = TRUE;
    guint live = n;
    guint *ready = g_new0(guint, n);
    for (guint64 step = 0; live && ok; step++) {
        if (step > SC_MAX_STEPS) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "no halt after %d steps", SC_MAX_STEPS);
            ok = FALSE;
            break;
        }
        guint nready = 0;
        for (guint t = 0; t < n; t++)
            if (!halted[t] && wake[t] <= step)
                ready[nready++] = t;
        if (!nready)
            continue;
        guint t = ready[g_rand_int_range(rng, 0, (gint32)nready)];
        uint64_t *r = regs + (gsize)t * ISA_NREG_SLOTS;
        if (pc[t] < 0 || (guint)pc[t] >= prog->insns->len) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "thread %u ran off the program", t);
            ok = FALSE;
            break;
        }
        const IsaInsn *in = &g_array_index(prog->insns, IsaInsn, pc[t]);
        int32_t next = pc[t] + 1;
        uint64_t a = isa_src(&in->a, r), b = isa_src(&in->b, r), v = 0;
        gboolean write = FALSE;
        switch (in->op) {
        case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_SHL:
        case OP_SHR: case OP_MUL:
            v = isa_alu(in->op, a, b);
            write = TRUE;
            break;
        case OP_LA:
            v = isa_sym_addr(lay, (guint)in->target, in->rt == ISA_NO_REG ? t : (guint)r[in->rt]);
            write = TRUE;
            break;
        case OP_LD: case OP_LDX: {
            uint64_t addr = isa_address(&in->mem, lay, t, r);
            v = mem_peek(&m, addr, in->size);
            if (in->op == OP_LDX) {
                mon[t] = addr / 64;
                armed[t] = TRUE;
            }
            write = TRUE;
            break;
        }
        case OP_ST: case OP_STX: {
            uint64_t addr = isa_address(&in->mem, lay, t, r);
            gboolean store = in->op == OP_ST || (armed[t] && mon[t] == addr / 64);
            if (store) {
                mem_poke(&m, addr, in->size, isa_truncate(a, in->size));
                for (guint u = 0; u < n; u++)
                    if (u != t && mon[u] == addr / 64)
                        armed[u] = FALSE;
            }
            if (in->op == OP_STX) {
                armed[t] = FALSE;
                v = store ? 0 : 1;
                write = TRUE;
            }
            break;
        }
        case OP_CAS: case OP_XCHG: case OP_FADD: case OP_FOR: case OP_FAND: {
            uint64_t addr = isa_address(&in->mem, lay, t, r), old = mem_peek(&m, addr, in->size), nv;
            if (isa_rmw(in->op, old, a, b, &nv)) {
                mem_poke(&m, addr, in->size, isa_truncate(nv, in->size));
                for (guint u = 0; u < n; u++)
                    if (u != t && mon[u] == addr / 64)
                        armed[u] = FALSE;
            }
            v = old;
            write = TRUE;
            break;
        }
        case OP_BR:
            if (isa_cond(in->cond, a, b))
                next = in->target;
            break;
        case OP_JMP:
            next = in->target;
            break;
        case OP_HALT:
            halted[t] = TRUE;
            live--;
            next = pc[t];
            break;
        case OP_CALL: case OP_RET:
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "call/ret are not used by litmus programs");
            ok = FALSE;
            break;
        default:   /* nop, fences (SC needs none), pause, wfe, sev, sevl, work, mark */
            break;
        }
        if (write && in->rd >= 0 && in->rd < ISA_NREGS)
            r[in->rd] = v;
        pc[t] = next;
        if (m.bad) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_EXEC, "thread %u: address out of the program's memory at pc %d",
                        t, pc[t]);
            ok = FALSE;
        }
    }
    if (ok) {
        memcpy(out->regs, regs, sizeof(uint64_t) * n * ISA_NREG_SLOTS);
        for (guint l = 0; l < p->locs->len; l++) {
            const LitmusLoc *loc = p->locs->pdata[l];
            out->addr[l] = isa_sym_addr(lay, (guint)loc->sym, 0);
            out->mem[l] = mem_peek(&m, out->addr[l], loc->size);
        }
    }
    g_free(ready);
    g_free(mon);
    g_free(armed);
    g_free(wake);
    g_free(halted);
    g_free(pc);
    g_free(regs);
    g_rand_free(rng);
    g_free(m.bytes);
    isa_layout_free(lay);
    return ok;
}

LitmusExecutor *litmus_sc_executor_new(void)
{
    LitmusExecutor *e = g_new0(LitmusExecutor, 1);
    e->name = "sc-test";
    e->run = sc_run;
    return e;
}
