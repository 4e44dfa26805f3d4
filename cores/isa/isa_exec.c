/* The values ISA ops compute, and the memory layout of a program's symbols. */
#include <string.h>
#include "cores/isa/isa_exec.h"

uint64_t isa_alu(IsaOp op, uint64_t a, uint64_t b)
{
    switch (op) {
    case OP_MOV: return a;
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_AND: return a & b;
    case OP_OR:  return a | b;
    case OP_XOR: return a ^ b;
    case OP_SHL: return b >= 64 ? 0 : a << b;
    case OP_SHR: return b >= 64 ? 0 : a >> b;
    case OP_MUL: return a * b;
    case OP_SAR: return (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b));
    case OP_SEXT:
        if (b == 0 || b >= 64)
            return a;
        return (uint64_t)((int64_t)(a << (64 - b)) >> (64 - b));
    /* Division by 0 and the one signed overflow give arm64's SDIV/UDIV results (x86 traps:
     * the translator never lets them through unchecked). */
    case OP_DIV:
        if (b == 0)
            return 0;
        if ((int64_t)a == G_MININT64 && (int64_t)b == -1)
            return a;
        return (uint64_t)((int64_t)a / (int64_t)b);
    case OP_DIVU: return b == 0 ? 0 : a / b;
    case OP_REM:
        if (b == 0)
            return a;
        if ((int64_t)b == -1)
            return 0;
        return (uint64_t)((int64_t)a % (int64_t)b);
    case OP_REMU: return b == 0 ? a : a % b;
    case OP_SEQ: return a == b;
    case OP_SNE: return a != b;
    case OP_SLT: return (int64_t)a < (int64_t)b;
    case OP_SGE: return (int64_t)a >= (int64_t)b;
    case OP_SLTU: return a < b;
    case OP_SGEU: return a >= b;
    default: g_error("isa_alu: op %d is not an ALU op", op);
    }
}

gboolean isa_cond(IsaCond cond, uint64_t a, uint64_t b)
{
    switch (cond) {
    case COND_EQ:  return a == b;
    case COND_NE:  return a != b;
    case COND_LT:  return (int64_t)a < (int64_t)b;
    case COND_GE:  return (int64_t)a >= (int64_t)b;
    case COND_LTU: return a < b;
    case COND_GEU: return a >= b;
    }
    g_error("isa_cond: bad condition %d", cond);
}

gboolean isa_rmw(IsaOp op, uint64_t old, uint64_t a, uint64_t b, uint64_t *new_value)
{
    switch (op) {
    case OP_CAS:
        if (old != a)
            return FALSE;
        *new_value = b;
        return TRUE;
    case OP_XCHG: *new_value = a; return TRUE;
    case OP_FADD: *new_value = old + a; return TRUE;
    case OP_FOR:  *new_value = old | a; return TRUE;
    case OP_FAND: *new_value = old & a; return TRUE;
    default: g_error("isa_rmw: op %d is not an atomic", op);
    }
}

IsaFaultKind isa_next_pc(const IsaInsn *i, int32_t pc, uint64_t a, uint64_t b, int32_t *stack, guint *depth,
                         int32_t *next)
{
    *next = pc + 1;
    switch (i->op) {
    case OP_BR:
        if (isa_cond(i->cond, a, b))
            *next = i->target;
        return ISA_FAULT_NONE;
    case OP_JMP:
        *next = i->target;
        return ISA_FAULT_NONE;
    case OP_CALL:
        if (*depth >= ISA_CALL_DEPTH)
            return ISA_FAULT_CALL_DEPTH;
        stack[(*depth)++] = pc + 1;
        *next = i->target;
        return ISA_FAULT_NONE;
    case OP_RET:
        if (*depth == 0)
            return ISA_FAULT_EMPTY_RET;
        *next = stack[--*depth];
        return ISA_FAULT_NONE;
    default:
        return ISA_FAULT_NONE;
    }
}

uint64_t isa_address(const IsaMem *m, const IsaLayout *lay, guint tid, const uint64_t *regs)
{
    uint64_t a = (uint64_t)m->offset;
    if (m->sym >= 0)
        a += isa_sym_addr(lay, (guint)m->sym, tid);
    if (m->base != ISA_NO_REG)
        a += regs[m->base];
    return a;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

IsaLayout *isa_layout_new(const IsaProgram *p, guint nthreads, uint32_t line_size, uint64_t base)
{
    IsaLayout *l = g_new0(IsaLayout, 1);
    l->base = base;
    l->line_size = line_size;
    l->nthreads = nthreads;
    l->nsyms = p->syms->len;
    l->addr = g_new0(uint64_t, (gsize)l->nsyms * nthreads + 1);
    uint64_t cur = base;
    /* next_free[s]: where a symbol declared `with` s goes in s's line. */
    g_autofree uint64_t *next_free = g_new0(uint64_t, l->nsyms + 1);
    /* root_of[s]: the end of s's `with` chain.  The assembler declares a partner before its
     * symbol, so one pass finds every root (following each chain anew was quadratic in its
     * length); a program built otherwise has its chain followed. */
    g_autofree guint *root_of = g_new0(guint, l->nsyms + 1);
    for (guint s = 0; s < l->nsyms; s++) {
        int32_t w = ((const IsaSym *)p->syms->pdata[s])->with;
        if (w < 0) {
            root_of[s] = s;
        } else if ((guint)w < s) {
            root_of[s] = root_of[w];
        } else {
            guint r = (guint)w;
            for (guint steps = 0; ((const IsaSym *)p->syms->pdata[r])->with >= 0 && steps < l->nsyms; steps++)
                r = (guint)((const IsaSym *)p->syms->pdata[r])->with;
            root_of[s] = r;
        }
    }
    /* Shared symbols first, in declaration order. */
    for (guint s = 0; s < l->nsyms; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        if (sym->scope != SYM_SHARED)
            continue;
        uint64_t align = MAX(sym->align, 1u), at;
        if (sym->with >= 0) {
            /* In the partner's line (the assembler checked that it fits).  Chains (`c with b`,
             * `b with a`) share the root's line, so follow them to the root; and when the root
             * does not own its line, symbols declared after it may already sit there, so start
             * past them too (`cur`), else the two would overlap. */
            guint root = root_of[s];
            const IsaSym *rs = p->syms->pdata[root];
            uint64_t from = rs->own_line ? next_free[root] : MAX(next_free[root], cur);
            at = align_up(from, align);
            next_free[root] = at + sym->size;
            if (!rs->own_line)
                cur = MAX(cur, at + sym->size);
        } else {
            if (sym->own_line)
                cur = align_up(cur, line_size);
            at = align_up(cur, align);
            cur = at + sym->size;
            if (sym->own_line)
                cur = align_up(cur, line_size);
        }
        next_free[s] = at + sym->size;
        for (guint t = 0; t < nthreads; t++)
            l->addr[s * nthreads + t] = at;
    }
    /* Per-thread symbols: thread t's copies together, each thread's block in its own lines. */
    for (guint t = 0; t < nthreads; t++) {
        cur = align_up(cur, line_size);
        for (guint s = 0; s < l->nsyms; s++) {
            const IsaSym *sym = p->syms->pdata[s];
            if (sym->scope != SYM_PER_THREAD)
                continue;
            if (sym->own_line)
                cur = align_up(cur, line_size);
            cur = align_up(cur, MAX(sym->align, 1u));
            l->addr[s * nthreads + t] = cur;
            cur += sym->size;
            if (sym->own_line)
                cur = align_up(cur, line_size);
        }
    }
    l->size = align_up(cur, line_size) - base;
    return l;
}

void isa_layout_free(IsaLayout *l)
{
    if (!l)
        return;
    g_free(l->addr);
    g_free(l);
}

void isa_layout_init_memory(const IsaLayout *l, const IsaProgram *p,
                            void (*poke)(void *ctx, uint64_t addr, unsigned size, uint64_t value),
                            void *ctx)
{
    for (guint s = 0; s < l->nsyms; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        guint copies = sym->scope == SYM_SHARED ? 1 : l->nthreads;
        for (guint t = 0; t < copies; t++) {
            uint64_t a = isa_sym_addr(l, s, t);
            for (uint32_t off = 0; off < sym->size;) {
                unsigned n = (a + off) % 8 == 0 && sym->size - off >= 8 ? 8 : 1;
                poke(ctx, a + off, n, 0);
                off += n;
            }
            unsigned first = MIN(sym->size, 8u);
            while (first & (first - 1))
                first &= first - 1; /* the largest power of two that fits */
            if (sym->init && first)
                poke(ctx, a, first, (uint64_t)sym->init);
        }
    }
}

int isa_program_find_sym(const IsaProgram *p, const char *name)
{
    for (guint i = 0; i < p->syms->len; i++)
        if (!strcmp(((IsaSym *)p->syms->pdata[i])->name, name))
            return (int)i;
    return -1;
}

int isa_program_find_entry(const IsaProgram *p, const char *name)
{
    for (guint i = 0; i < p->entries->len; i++)
        if (!strcmp(g_array_index(p->entries, IsaEntry, i).name, name))
            return g_array_index(p->entries, IsaEntry, i).pc;
    return -1;
}

const char *isa_insn_file(const IsaProgram *p, const IsaInsn *in)
{
    return p->files && in->file < p->files->len ? p->files->pdata[in->file] : p->filename;
}

char *isa_insn_pos(const IsaProgram *p, const IsaInsn *in)
{
    const char *file = isa_insn_file(p, in);
    return g_strdup_printf("%s:%u", file ? file : "?", in->line);
}

static void sym_free(gpointer s)
{
    IsaSym *sym = s;
    g_free(sym->name);
    g_free(sym);
}

static void entry_clear(gpointer e) { g_free(((IsaEntry *)e)->name); }
static void param_clear(gpointer e) { g_free(((IsaParam *)e)->name); }

IsaProgram *isa_program_new(const char *filename)
{
    IsaProgram *p = g_new0(IsaProgram, 1);
    p->filename = g_strdup(filename);
    p->insns = g_array_new(FALSE, TRUE, sizeof(IsaInsn));
    p->syms = g_ptr_array_new_with_free_func(sym_free);
    p->entries = g_array_new(FALSE, TRUE, sizeof(IsaEntry));
    g_array_set_clear_func(p->entries, entry_clear);
    p->labels = g_array_new(FALSE, TRUE, sizeof(IsaEntry));
    g_array_set_clear_func(p->labels, entry_clear);
    p->files = g_ptr_array_new_with_free_func(g_free);
    p->params = g_array_new(FALSE, TRUE, sizeof(IsaParam));
    g_array_set_clear_func(p->params, param_clear);
    return p;
}

void isa_program_free(IsaProgram *p)
{
    if (!p)
        return;
    g_free(p->filename);
    if (p->insns)
        g_array_free(p->insns, TRUE);
    if (p->syms)
        g_ptr_array_free(p->syms, TRUE);
    if (p->entries)
        g_array_free(p->entries, TRUE);
    if (p->labels)
        g_array_free(p->labels, TRUE);
    if (p->files)
        g_ptr_array_free(p->files, TRUE);
    if (p->params)
        g_array_free(p->params, TRUE);
    g_free(p);
}
