/* The bytes each thread may still read (see explore_reads.h). */
#include "sim/explore/explore_reads.h"
#include "cores/isa/isa_exec.h"

/* What the forward pass knows of a register: nothing yet, a variable's address (this thread's
 * copy) plus an offset, or anything. */
typedef enum { VAL_NONE, VAL_ADDR, VAL_ANY } ValKind;
typedef struct {
    ValKind kind;
    int32_t sym;
    int64_t off;
} Val;

static const Val any = { VAL_ANY, -1, 0 };

static gboolean join(Val *into, Val v)
{
    Val was = *into;
    if (into->kind == VAL_NONE)
        *into = v;
    else if (v.kind != VAL_NONE && (v.kind != into->kind || v.sym != into->sym || v.off != into->off))
        *into = any;
    return was.kind != into->kind || was.sym != into->sym || was.off != into->off;
}

static Val reg_val(const Val *regs, int8_t r) { return r >= 0 && r < ISA_NREGS ? regs[r] : any; }

static Val offset(Val v, int64_t by)
{
    if (v.kind == VAL_ADDR)
        v.off += by;
    return v;
}

/* rd's value after op i. */
static Val result(const IsaInsn *i, const Val *regs)
{
    switch (i->op) {
    case OP_LA:
        return i->rt == ISA_NO_REG || i->rt == ISA_REG_TID ? (Val){ VAL_ADDR, i->target, 0 } : any;
    case OP_MOV:
        return i->a.reg == ISA_NO_REG ? any : reg_val(regs, i->a.reg);
    case OP_ADD:
        if (i->b.reg == ISA_NO_REG)
            return i->a.reg == ISA_NO_REG ? any : offset(reg_val(regs, i->a.reg), i->b.imm);
        return i->a.reg == ISA_NO_REG ? offset(reg_val(regs, i->b.reg), i->a.imm) : any;
    case OP_SUB:
        return i->a.reg != ISA_NO_REG && i->b.reg == ISA_NO_REG ? offset(reg_val(regs, i->a.reg), -i->b.imm) : any;
    default:
        return any;
    }
}

/* A load, or an op acting on memory in one atomic step (stx among them: its outcome hangs on
 * the line it names). */
static gboolean reads_memory(IsaOp op)
{
    return isa_op_info[op].is_load || isa_op_is_atomic_step(op);
}

/* The pcs control may go to after pc; at most `cap`.  `ret`: the op after every call, or
 * (within = TRUE, for the pass that stops at the function's end) none; `call` then goes on to
 * the op after it too, where control comes back. */
static guint successors(const IsaProgram *p, guint pc, gboolean within, guint *out, guint cap)
{
    const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
    guint n = p->insns->len, k = 0;
    if (i->op == OP_RET) {
        for (guint c = 0; c + 1 < n && !within; c++)
            if (g_array_index(p->insns, IsaInsn, c).op == OP_CALL && k < cap)
                out[k++] = c + 1;
        return k;
    }
    gboolean falls = isa_op_falls_through(i->op) || (i->op == OP_CALL && within);
    if (falls && pc + 1 < n)
        out[k++] = pc + 1;
    if (isa_op_has_label(i->op) && i->target >= 0 && (guint)i->target < n)
        out[k++] = (guint)i->target;
    return k;
}

/* The forward pass: each pc's register values on entry, from every thread's start at any
 * entry point (registers unknown there). */
static Val *register_values(const IsaProgram *p, int32_t entry, guint *succ, guint cap)
{
    guint n = p->insns->len;
    Val *in = g_new0(Val, (gsize)n * ISA_NREGS);
    for (guint r = 0; entry >= 0 && (guint)entry < n && r < ISA_NREGS; r++)
        in[(gsize)entry * ISA_NREGS + r] = any;
    for (guint e = 0; p->entries && e < p->entries->len; e++) {
        int32_t pc = g_array_index(p->entries, IsaEntry, e).pc;
        for (guint r = 0; pc >= 0 && (guint)pc < n && r < ISA_NREGS; r++)
            in[(gsize)pc * ISA_NREGS + r] = any;
    }
    for (gboolean changed = TRUE; changed;) {
        changed = FALSE;
        for (guint pc = 0; pc < n; pc++) {
            const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
            Val out[ISA_NREGS];
            memcpy(out, in + (gsize)pc * ISA_NREGS, sizeof out);
            gboolean reached = FALSE;
            for (guint r = 0; r < ISA_NREGS; r++)
                reached |= out[r].kind != VAL_NONE;
            if (!reached)
                continue;
            if (strchr(isa_op_info[i->op].operands, 'D') && i->rd >= 0 && i->rd < ISA_NREGS)
                out[i->rd] = result(i, in + (gsize)pc * ISA_NREGS);
            guint ns = successors(p, pc, FALSE, succ, cap);
            for (guint k = 0; k < ns; k++)
                for (guint r = 0; r < ISA_NREGS; r++)
                    changed |= join(&in[(gsize)succ[k] * ISA_NREGS + r], out[r]);
        }
    }
    return in;
}

static void set_range(uint64_t *bits, guint words, int64_t from, int64_t len, uint64_t size)
{
    if (from < 0 || len <= 0 || (uint64_t)(from + len) > size) {
        for (guint k = 0; k < words; k++)
            bits[k] = ~(uint64_t)0;
        return;
    }
    for (int64_t b = from; b < from + len; b++)
        bits[b / 64] |= (uint64_t)1 << (b % 64);
}

/* The bytes op pc reads for thread t, added to bits (every byte when its address is unknown). */
static void op_reads(const IsaProgram *p, const IsaLayout *l, const Val *in, guint pc, guint t, uint64_t *bits,
                     guint words)
{
    const IsaInsn *i = &g_array_index(p->insns, IsaInsn, pc);
    if (!reads_memory(i->op))
        return;
    Val a = any;
    if (i->mem.sym >= 0 && i->mem.base == ISA_NO_REG)
        a = (Val){ VAL_ADDR, i->mem.sym, i->mem.offset };
    else if (i->mem.sym < 0 && i->mem.base != ISA_NO_REG)
        a = offset(reg_val(in + (gsize)pc * ISA_NREGS, i->mem.base), i->mem.offset);
    int64_t len = MAX(i->size, 8);
    if (a.kind != VAL_ADDR || a.sym < 0 || (guint)a.sym >= l->nsyms)
        set_range(bits, words, -1, 0, l->size);
    else
        set_range(bits, words, (int64_t)(isa_sym_addr(l, (guint)a.sym, t) - l->base) + a.off, len, l->size);
}

ExploreReads *explore_reads_new(const IsaProgram *p, const IsaLayout *l, int32_t entry)
{
    guint n = p->insns->len, cap = n + 2;
    guint *succ = g_new(guint, cap);
    Val *in = register_values(p, entry, succ, cap);
    ExploreReads *r = g_new0(ExploreReads, 1);
    r->npcs = n;
    r->words = (guint)((l->size + 63) / 64);
    r->bits = g_new0(uint64_t, (gsize)l->nthreads * n * r->words + 1);
    for (guint t = 0; t < l->nthreads; t++) {
        uint64_t *mine = r->bits + (gsize)t * n * r->words;
        for (guint pc = 0; pc < n; pc++)
            op_reads(p, l, in, pc, t, mine + (gsize)pc * r->words, r->words);
        for (gboolean changed = TRUE; changed;) {
            changed = FALSE;
            for (guint pc = n; pc-- > 0;) {
                uint64_t *at = mine + (gsize)pc * r->words;
                guint ns = successors(p, pc, TRUE, succ, cap);
                for (guint k = 0; k < ns; k++)
                    for (guint j = 0; j < r->words; j++) {
                        uint64_t more = mine[(gsize)succ[k] * r->words + j] & ~at[j];
                        at[j] |= more;
                        changed |= more != 0;
                    }
            }
        }
    }
    g_free(in);
    g_free(succ);
    return r;
}

void explore_reads_free(ExploreReads *r)
{
    if (!r)
        return;
    g_free(r->bits);
    g_free(r);
}
