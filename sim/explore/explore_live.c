/* Register liveness (see explore_live.h). */
#include "sim/explore/explore_live.h"

static IsaRegMask reg_bit(int r) { return isa_reg_bit(r); }

/* The registers op `i` reads. */
static IsaRegMask uses(const IsaInsn *i)
{
    IsaRegMask u = 0;
    const char *sig = isa_op_info[i->op].operands;
    gboolean first_src = TRUE;
    for (const char *k = sig; *k; k++) {
        if (*k == 'S') {
            u |= reg_bit((first_src ? &i->a : &i->b)->reg);
            first_src = FALSE;
        } else if (*k == 'M') {
            u |= reg_bit(i->mem.base);
        } else if (*k == 'R') {
            u |= reg_bit(i->rt);
        }
    }
    return u;
}

/* The registers op `i` writes (always, whatever it does). */
static IsaRegMask defs(const IsaInsn *i)
{
    return strchr(isa_op_info[i->op].operands, 'D') ? reg_bit(i->rd) : 0;
}

static IsaRegMask live_out(const IsaProgram *p, const IsaRegMask *live, guint pc, IsaRegMask returns)
{
    const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
    guint n = p->insns->len;
    IsaRegMask out = 0;
    if (isa_op_falls_through(i->op) && pc + 1 < n)
        out |= live[pc + 1];
    if (isa_op_has_label(i->op) && i->target >= 0 && (guint)i->target < n)
        out |= live[i->target];
    if (i->op == OP_RET)
        out |= returns;
    return out;
}

IsaRegMask *explore_live_regs(const IsaProgram *p)
{
    guint n = p->insns->len;
    IsaRegMask *live = g_new0(IsaRegMask, n + 1);
    gboolean changed = TRUE;
    while (changed) {
        changed = FALSE;
        /* What a `ret` may return to: the op after every call. */
        IsaRegMask returns = 0;
        for (guint pc = 0; pc + 1 < n; pc++)
            if (g_array_index(p->insns, IsaInsn, pc).op == OP_CALL)
                returns |= live[pc + 1];
        for (guint k = n; k-- > 0;) {
            const IsaInsn *i = &g_array_index(p->insns, IsaInsn, k);
            IsaRegMask in = uses(i) | (live_out(p, live, k, returns) & ~defs(i));
            if (in != live[k]) {
                live[k] = in;
                changed = TRUE;
            }
        }
    }
    return live;
}

guint explore_regs_used(const IsaProgram *p)
{
    int top = -1;
    for (guint pc = 0; pc < p->insns->len; pc++) {
        const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
        int regs[] = { i->rd, i->rt, i->a.reg, i->b.reg, i->mem.base };
        for (guint k = 0; k < G_N_ELEMENTS(regs); k++)
            if (regs[k] < ISA_NREGS && regs[k] > top)
                top = regs[k];
    }
    return (guint)(top + 1);
}
