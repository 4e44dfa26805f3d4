/* The assembler's listing: instructions decoded back to text, and a program's full listing
 * with its memory layout. */
#include "cores/isa/asm.h"

/* How the listing spells branch conditions, orderings and fence kinds. */
static const char *const cond_names[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };
static const char *const order_names[] = { "", ".acq", ".rel", ".acqrel" };
static const char *const fence_names[] = { "", ".load", ".store" };

/* The first label at `pc`: labels are in source order, so their pcs never decrease, and a
 * binary search finds it (a listing asks for every branch). */
static const char *label_at(const IsaProgram *p, int32_t pc)
{
    if (!p->labels)
        return NULL;
    guint lo = 0, hi = p->labels->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(p->labels, IsaEntry, mid).pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->labels->len && g_array_index(p->labels, IsaEntry, lo).pc == pc
               ? g_array_index(p->labels, IsaEntry, lo).name : NULL;
}

static const char *reg_name(int r)
{
    static const char *const names[ISA_NREG_SLOTS] = {
        "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13",
        "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26",
        "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39",
        "r40", "r41", "r42", "r43", "r44", "r45", "r46", "r47", "r48", "r49", "r50", "r51", "r52",
        "r53", "r54", "r55", "r56", "r57", "r58", "r59", "r60", "r61", "r62", "r63", "tid", "nthreads",
    };
    return r >= 0 && r < ISA_NREG_SLOTS ? names[r] : "?";
}

static void put_src(GString *g, const IsaSrc *s)
{
    if (s->reg != ISA_NO_REG)
        g_string_append(g, reg_name(s->reg));
    else
        g_string_append_printf(g, "%" G_GINT64_FORMAT, s->imm);
}

static void put_mem(GString *g, const IsaProgram *p, const IsaMem *m)
{
    g_string_append_c(g, '[');
    gboolean any = FALSE;
    if (m->sym >= 0) {
        g_string_append(g, ((IsaSym *)p->syms->pdata[m->sym])->name);
        any = TRUE;
    }
    if (m->base != ISA_NO_REG) {
        g_string_append_printf(g, "%s%s", any ? "+" : "", reg_name(m->base));
        any = TRUE;
    }
    if (m->offset || !any)
        g_string_append_printf(g, any ? "%+" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, m->offset);
    g_string_append_c(g, ']');
}

static void put_target(GString *g, const IsaProgram *p, int32_t pc)
{
    const char *l = label_at(p, pc);
    if (l)
        g_string_append(g, l);
    else
        g_string_append_printf(g, "@%d", pc);
}

char *asm_format_insn(const IsaProgram *p, const IsaInsn *in)
{
    GString *g = g_string_new(NULL);
    const IsaOpInfo *info = &isa_op_info[in->op];
    gboolean mem = (info->is_load || info->is_store) && !info->is_syscall;
    if (in->op == OP_BR)
        g_string_append(g, cond_names[in->cond]);
    else
        g_string_append(g, info->name);
    if (mem && in->size != 8)
        g_string_append_printf(g, "%u", in->size * 8);
    if (mem)
        g_string_append(g, order_names[in->order]);
    if (in->op == OP_FENCE)
        g_string_append(g, fence_names[in->fence]);
    /* The operands in the op table's order: the first after a space, the rest after commas. */
    const char *sig = info->operands;
    const IsaSrc *src = &in->a;
    for (guint k = 0; sig[k]; k++) {
        if (sig[k] == 'R' && in->rt == ISA_NO_REG)
            continue;
        g_string_append(g, k ? ", " : " ");
        switch (sig[k]) {
        case 'D': g_string_append(g, reg_name(in->rd)); break;
        case 'R': g_string_append(g, reg_name(in->rt)); break;
        case 'S': put_src(g, src); src = &in->b; break;
        case 'M': put_mem(g, p, &in->mem); break;
        case 'L': put_target(g, p, in->target); break;
        case 'Y': g_string_append(g, in->target >= 0 ? ((IsaSym *)p->syms->pdata[in->target])->name : "?"); break;
        case 'N': g_string_append_printf(g, "%" G_GINT64_FORMAT, in->n); break;
        }
    }
    return g_string_free(g, FALSE);
}

char *asm_format_pos(const IsaProgram *p, const IsaInsn *in)
{
    return g_strdup_printf("%s:%u:%u", isa_insn_file(p, in), in->line, in->col);
}

char *asm_listing(const IsaProgram *p, ArchTarget target, guint nthreads)
{
    GString *g = g_string_new(NULL);
    g_autofree char *for_what = arch_target_describe(target);
    g_string_append_printf(g, "# %s, assembled for %s: %u instructions, %u variables\n", p->filename,
                           for_what, p->insns->len, p->syms->len);
    g_string_append(g, "# entry points:");
    for (guint i = 0; i < p->entries->len; i++)
        g_string_append_printf(g, " %s=@%d", g_array_index(p->entries, IsaEntry, i).name,
                               g_array_index(p->entries, IsaEntry, i).pc);
    g_string_append(g, "\n");
    for (guint i = 0; p->params && i < p->params->len; i++) {
        const IsaParam *prm = &g_array_index(p->params, IsaParam, i);
        g_string_append_printf(g, "# param %s = %" G_GINT64_FORMAT "%s\n", prm->name, prm->value,
                               prm->value == prm->def ? " (default)" : "");
    }
    g_string_append(g, "\n");
    guint next_label = 0;   /* labels come in pc order: a cursor walks them */
    for (guint pc = 0; pc < p->insns->len; pc++) {
        for (; p->labels && next_label < p->labels->len &&
               g_array_index(p->labels, IsaEntry, next_label).pc <= (int32_t)pc; next_label++)
            if (g_array_index(p->labels, IsaEntry, next_label).pc == (int32_t)pc)
                g_string_append_printf(g, "%s:\n", g_array_index(p->labels, IsaEntry, next_label).name);
        const IsaInsn *in = &g_array_index(p->insns, IsaInsn, pc);
        g_autofree char *pos = asm_format_pos(p, in);
        g_autofree char *txt = asm_format_insn(p, in);
        g_string_append_printf(g, "%5u  %-24s %s", pc, pos, txt);
        if (isa_op_info[in->op].is_branch && in->target >= 0)
            g_string_append_printf(g, "    # -> @%d", in->target);
        g_string_append_c(g, '\n');
    }
    guint line = asm_line_size(target);
    IsaLayout *l = isa_layout_new(p, nthreads, line, 0x10000);
    g_string_append_printf(g, "\n# memory layout for %u threads (%u-byte lines, base 0x%" G_GINT64_MODIFIER "x, %"
                           G_GUINT64_FORMAT " bytes)\n", nthreads, line, l->base, l->size);
    for (guint s = 0; s < p->syms->len; s++) {
        const IsaSym *sym = p->syms->pdata[s];
        guint copies = sym->scope == SYM_SHARED ? 1 : nthreads;
        for (guint t = 0; t < copies; t++) {
            uint64_t at = isa_sym_addr(l, s, t);
            g_string_append_printf(g, "0x%06" G_GINT64_MODIFIER "x  line %-3" G_GUINT64_FORMAT " %-20s %4u bytes, align %u",
                                   at, (at - l->base) / ASM_LINE_SIZE, sym->name, sym->size, sym->align);
            if (sym->scope == SYM_PER_THREAD)
                g_string_append_printf(g, ", thread %u", t);
            if (sym->own_line)
                g_string_append(g, ", own line");
            if (sym->with >= 0)
                g_string_append_printf(g, ", with %s", ((IsaSym *)p->syms->pdata[sym->with])->name);
            if (sym->init)
                g_string_append_printf(g, ", init %" G_GINT64_FORMAT, sym->init);
            g_string_append_c(g, '\n');
        }
    }
    isa_layout_free(l);
    return g_string_free(g, FALSE);
}
