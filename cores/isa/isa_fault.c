/* Run-time faults (see isa_fault.h). */
#include "cores/isa/isa_fault.h"
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"

IsaFaultKind isa_access_check(const IsaLayout *l, uint64_t addr, unsigned size)
{
    /* Written so that no sum can wrap: the access is inside when its offset from the base
     * leaves room for all of it. */
    if (addr < l->base || l->size < size || addr - l->base > l->size - size)
        return ISA_FAULT_OUTSIDE;
    if (size && addr % size)
        return ISA_FAULT_UNALIGNED;
    return ISA_FAULT_NONE;
}

char *isa_layout_symbolize(const IsaProgram *p, const IsaLayout *l, uint64_t addr)
{
    if (!p)
        return NULL;
    for (guint s = 0; s < l->nsyms && s < p->syms->len; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        guint copies = sym->scope == SYM_SHARED ? 1 : l->nthreads;
        for (guint t = 0; t < copies; t++) {
            uint64_t at = isa_sym_addr(l, s, t);
            if (addr < at || addr - at >= MAX(sym->size, 1u))
                continue;
            GString *g = g_string_new(sym->name);
            if (sym->scope == SYM_PER_THREAD)
                g_string_append_printf(g, "[thread %u]", t);
            if (addr > at)
                g_string_append_printf(g, "+%" G_GUINT64_FORMAT, addr - at);
            return g_string_free(g, FALSE);
        }
    }
    return NULL;
}

char *isa_fault_describe(const IsaProgram *p, const IsaLayout *l, IsaFaultKind kind, uint64_t addr,
                         unsigned size)
{
    switch (kind) {
    case ISA_FAULT_NO_THREAD:
        return g_strdup_printf("la: thread %" G_GUINT64_FORMAT " does not exist (%u thread%s)", addr, l->nthreads,
                               l->nthreads == 1 ? "" : "s");
    case ISA_FAULT_CALL_DEPTH:
        return g_strdup_printf("call stack overflow (more than %d nested calls)", ISA_CALL_DEPTH);
    case ISA_FAULT_EMPTY_RET:
        return g_strdup("ret with an empty call stack");
    case ISA_FAULT_OFF_PROGRAM:
        return g_strdup_printf("pc %" G_GINT64_FORMAT " is outside the program (ran off the end? a missing `ret` or `halt`)",
                               (gint64)addr);
    default:
        break;
    }
    g_autofree char *sym = isa_layout_symbolize(p, l, addr);
    /* A small address is a field of a NULL pointer, by far the likeliest cause. */
    g_autofree char *where = sym ? g_strdup_printf(" (%s)", sym)
                             : addr == 0 ? g_strdup(" (NULL)")
                             : addr < 4096 ? g_strdup_printf(" (NULL+%" G_GUINT64_FORMAT ")", addr)
                             : g_strdup("");
    const char *what = kind == ISA_FAULT_UNALIGNED ? "is not" : "is outside the program's memory";
    if (kind == ISA_FAULT_UNALIGNED)
        return g_strdup_printf("%u-byte access at 0x%" G_GINT64_MODIFIER "x%s %s %u-byte aligned", size, addr, where,
                               what, size);
    return g_strdup_printf("%u-byte access at 0x%" G_GINT64_MODIFIER "x%s %s", size, addr, where, what);
}

char *isa_fault_report(const IsaProgram *p, const IsaLayout *l, guint tid, int32_t pc, IsaFaultKind kind,
                       uint64_t addr, unsigned size)
{
    g_autofree char *what = isa_fault_describe(p, l, kind, addr, size);
    if (pc < 0 || (guint)pc >= p->insns->len)
        return g_strdup_printf("thread %u faulted at pc %d: %s", tid, pc, what);
    const IsaInsn *in = &g_array_index(p->insns, IsaInsn, pc);
    g_autofree char *pos = asm_format_pos(p, in);
    g_autofree char *txt = asm_format_insn(p, in);
    return g_strdup_printf("thread %u faulted at %s `%s`: %s", tid, pos, txt, what);
}
