/* Translating a parsed litmus test into an IsaProgram: locations become shared symbols, each in
 * its own cache line; registers map to r0..r15 per thread; a `main` dispatch on tid sends each
 * thread to its code, which sets its initial registers, runs the translated body, and halts.
 * The per-architecture instruction translators are sim/litmus/litmus_x86.c and sim/litmus/litmus_arm.c. */
#include <stdarg.h>
#include <string.h>
#include "sim/litmus/litmus_priv.h"
#include "cores/isa/isa_exec.h"

/* ---- helpers shared with the instruction translators ---- */

gboolean xl_fail(XlThread *th, guint col_off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    lit_error_at(th->error, LITMUS_ERROR_UNSUPPORTED, th->file, th->line, th->col + col_off, "%s", msg);
    return FALSE;
}

/* A litmus thread's registers: r0..r15, as before the ISA grew (r16..r63 are for translated
 * compiler output), so the checkers' per-thread state stays as small as it was. */
#define XL_NREGS 16

static int alloc_reg(XlThread *th, const char *what)
{
    if (th->nregs >= XL_NREGS) {
        lit_error_at(th->error, LITMUS_ERROR_UNSUPPORTED, th->file, th->line, th->col,
                     "P%u needs more than %d registers (%s did not fit; the ISA has r0..r%d)",
                     th->thread, XL_NREGS, what, XL_NREGS - 1);
        return -1;
    }
    return th->nregs++;
}

int xl_reg(XlThread *th, const char *canon)
{
    gpointer v = g_hash_table_lookup(th->regs, canon);
    if (v)
        return GPOINTER_TO_INT(v) - 1;
    int r = alloc_reg(th, canon);
    if (r < 0)
        return -1;
    g_hash_table_insert(th->regs, g_strdup(canon), GINT_TO_POINTER(r + 1));
    th->litreg[r] = g_strdup(canon);
    return r;
}

int xl_scratch(XlThread *th, int *slot)
{
    if (*slot < 0)
        *slot = alloc_reg(th, "a scratch register");
    return *slot;
}

int xl_loc(Xl *x, const char *name)
{
    gpointer v = g_hash_table_lookup(x->loc_index, name);
    if (v)
        return GPOINTER_TO_INT(v) - 1;
    IsaProgram *p = x->lp->prog;
    IsaSym *s = g_new0(IsaSym, 1);
    s->name = g_strdup(name);
    s->scope = SYM_SHARED;
    s->size = 8;
    s->align = 8;
    s->own_line = TRUE;   /* false sharing would add coherence traffic the test does not ask for */
    s->with = -1;
    g_ptr_array_add(p->syms, s);
    LitmusLoc *l = g_new0(LitmusLoc, 1);
    l->name = g_strdup(name);
    l->sym = (int32_t)(p->syms->len - 1);
    l->size = 8;
    l->points_to = -1;
    g_ptr_array_add(x->lp->locs, l);
    g_hash_table_insert(x->loc_index, g_strdup(name), GINT_TO_POINTER(x->lp->locs->len));
    return (int)x->lp->locs->len - 1;
}

/* The width a location's values are compared in: its declared type, else herd's default `int`
 * on X86 (a 32-bit architecture: `MOV [x],$-1` makes x -1), else 64 bits. */
static guint loc_value_bytes(const LitmusTest *t, const char *name)
{
    for (guint i = 0; i < t->init->len; i++) {
        const LitmusInit *in = t->init->pdata[i];
        if (in->thread < 0 && !strcmp(in->name, name) && in->size)
            return (guint)in->size;
    }
    return t->arch == LITMUS_X86 ? 4 : 8;
}

IsaInsn *xl_emit(XlThread *th, IsaOp op)
{
    IsaInsn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.rd = in.rt = ISA_NO_REG;
    in.a.reg = in.b.reg = ISA_NO_REG;
    in.mem.sym = -1;
    in.mem.base = ISA_NO_REG;
    in.target = -1;
    in.size = 8;
    in.line = th->line;
    in.col = th->col;
    g_array_append_val(th->body, in);
    return &g_array_index(th->body, IsaInsn, th->body->len - 1);
}

void xl_alu(XlThread *th, IsaOp op, int rd, IsaSrc a, IsaSrc b)
{
    IsaInsn *in = xl_emit(th, op);
    in->rd = (int8_t)rd;
    in->a = a;
    in->b = b;
}

gboolean xl_set_flags(XlThread *th, IsaSrc a, IsaSrc b, int size)
{
    int fa = xl_scratch(th, &th->fa), fb = xl_scratch(th, &th->fb);
    if (fa < 0 || fb < 0)
        return FALSE;
    if (size >= 8) {
        xl_alu(th, OP_MOV, fa, a, xl_imm(0));
        xl_alu(th, OP_MOV, fb, b, xl_imm(0));
    } else {
        int64_t mask = (int64_t)((1ULL << (8 * size)) - 1);
        xl_alu(th, OP_AND, fa, a, xl_imm(mask));
        xl_alu(th, OP_AND, fb, b, xl_imm(mask));
    }
    th->flags_set = TRUE;
    return TRUE;
}

void xl_target(XlThread *th, const char *label, guint col_off)
{
    XlFixup f = { th->body->len - 1, g_strdup(label), th->line, th->col + col_off };
    g_array_append_val(th->fixups, f);
}

GPtrArray *xl_split_operands(const char *s, GArray *offsets)
{
    GPtrArray *ops = g_ptr_array_new_with_free_func(g_free);
    int depth = 0;
    const char *start = s;
    for (const char *p = s;; p++) {
        if (*p == '[' || *p == '(')
            depth++;
        else if (*p == ']' || *p == ')')
            depth--;
        if ((*p == ',' && depth <= 0) || !*p) {
            const char *a = start, *b = p;
            while (a < b && g_ascii_isspace(*a))
                a++;
            while (b > a && g_ascii_isspace(b[-1]))
                b--;
            if (b > a || *p) {
                g_ptr_array_add(ops, g_strndup(a, (gsize)(b - a)));
                guint off = (guint)(a - s);
                g_array_append_val(offsets, off);
            }
            if (!*p)
                break;
            start = p + 1;
        }
    }
    return ops;
}

/* ---- the program ---- */

static void loc_free(LitmusLoc *l)
{
    g_free(l->name);
    g_free(l);
}

void litmus_program_free(LitmusProgram *p)
{
    if (!p)
        return;
    isa_program_free(p->prog);
    if (p->locs)
        g_ptr_array_free(p->locs, TRUE);
    g_free(p->obs_reg);
    g_free(p->obs_loc);
    g_free(p->obs_bytes);
    g_free(p);
}

static void add_entry(IsaProgram *p, const char *name, int32_t pc)
{
    IsaEntry e = { g_strdup(name), pc };
    g_array_append_val(p->entries, e);
}

static void cond_locs(Xl *x, const LitmusCond *c)
{
    if (!c)
        return;
    if (c->kind == LC_ATOM && c->value_loc)
        xl_loc(x, c->value_loc);
    cond_locs(x, c->l);
    cond_locs(x, c->r);
}

static void thread_clear(XlThread *th)
{
    g_array_free(th->body, TRUE);
    g_hash_table_destroy(th->regs);
    g_hash_table_destroy(th->labels);
    for (guint i = 0; i < th->fixups->len; i++)
        g_free(g_array_index(th->fixups, XlFixup, i).label);
    g_array_free(th->fixups, TRUE);
    for (int i = 0; i < ISA_NREGS; i++)
        g_free(th->litreg[i]);
}

/* A cell: `label:`, `label: insn`, or `insn`.  Returns the label (or NULL) and where the
 * instruction starts. */
static char *cell_label(const char *text, const char **insn)
{
    const char *p = text;
    if (g_ascii_isalpha(*p) || *p == '_' || *p == '.') {
        while (g_ascii_isalnum(*p) || *p == '_' || *p == '.')
            p++;
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == ':') {
            q++;
            while (g_ascii_isspace(*q))
                q++;
            *insn = q;
            return g_strndup(text, (gsize)(p - text));
        }
    }
    *insn = text;
    return NULL;
}

static gboolean translate_thread(XlThread *th, GError **error)
{
    const LitmusTest *t = th->x->t;
    GPtrArray *cells = t->code->pdata[th->thread];
    for (guint i = 0; i < cells->len; i++) {
        const LitmusCell *c = cells->pdata[i];
        const char *insn;
        g_autofree char *label = cell_label(c->text, &insn);
        if (!*insn)
            continue;
        if (t->arch == LITMUS_AARCH64 ? xl_arm_reads_flags(insn) : xl_x86_reads_flags(insn))
            th->uses_flags = TRUE;
    }
    for (guint i = 0; i < cells->len; i++) {
        const LitmusCell *c = cells->pdata[i];
        th->line = c->line;
        th->col = c->col;
        const char *insn;
        g_autofree char *label = cell_label(c->text, &insn);
        if (label) {
            if (g_hash_table_contains(th->labels, label))
                return xl_fail(th, 0, "label '%s' defined twice in P%u", label, th->thread);
            g_hash_table_insert(th->labels, g_strdup(label), GINT_TO_POINTER(th->body->len + 1));
        }
        if (!*insn)
            continue;
        guint off = (guint)(insn - c->text);
        gboolean ok = t->arch == LITMUS_AARCH64 ? xl_arm_insn(th, insn, off) : xl_x86_insn(th, insn, off);
        if (!ok)
            return FALSE;
    }
    /* Resolve branches; a label at the very end names the final halt. */
    for (guint i = 0; i < th->fixups->len; i++) {
        XlFixup *f = &g_array_index(th->fixups, XlFixup, i);
        gpointer v = g_hash_table_lookup(th->labels, f->label);
        if (!v) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, th->file, f->line, f->col,
                         "no label '%s' in P%u", f->label, th->thread);
            return FALSE;
        }
        g_array_index(th->body, IsaInsn, f->insn).target = GPOINTER_TO_INT(v) - 1;
    }
    return TRUE;
}

static IsaInsn plain(IsaOp op, int rd)
{
    IsaInsn in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.rd = (int8_t)rd;
    in.rt = ISA_NO_REG;
    in.a.reg = in.b.reg = ISA_NO_REG;
    in.mem.sym = -1;
    in.mem.base = ISA_NO_REG;
    in.target = -1;
    in.size = 8;
    return in;
}

/* Locations in the order the test names them: initial state, observables, values. */
static void declare_locations(Xl *x)
{
    const LitmusTest *t = x->t;
    LitmusProgram *lp = x->lp;
    for (guint i = 0; i < t->init->len; i++) {
        const LitmusInit *in = t->init->pdata[i];
        if (in->thread >= 0)
            continue;
        int l = xl_loc(x, in->name);
        LitmusLoc *loc = lp->locs->pdata[l];
        IsaSym *sym = lp->prog->syms->pdata[loc->sym];
        if (in->size)
            loc->size = (guint)in->size;
        if (in->value_loc)
            loc->points_to = xl_loc(x, in->value_loc);
        else
            sym->init = in->value;
    }
    for (guint i = 0; i < t->init->len; i++) {
        const LitmusInit *in = t->init->pdata[i];
        if (in->thread >= 0 && in->value_loc)
            xl_loc(x, in->value_loc);
    }
    for (guint i = 0; i < t->obs->len; i++) {
        const LitmusObs *o = t->obs->pdata[i];
        if (o->thread < 0)
            xl_loc(x, o->name);
    }
    cond_locs(x, t->cond);
    cond_locs(x, t->filter);
}

/* Dispatch: `beq tid, k, Pk` for each thread, then halt for any extra thread. */
static void emit_dispatch(IsaProgram *prog, guint nthreads)
{
    add_entry(prog, "main", 0);
    for (guint k = 0; k < nthreads; k++) {
        IsaInsn in = plain(OP_BR, ISA_NO_REG);
        in.cond = COND_EQ;
        in.a = xl_r(ISA_REG_TID);
        in.b = xl_imm(k);
        g_array_append_val(prog->insns, in);
    }
    IsaInsn halt = plain(OP_HALT, ISA_NO_REG);
    g_array_append_val(prog->insns, halt);
}

/* Thread k's entry `Pk`, pointed to by its dispatch branch: its initial registers, every other
 * litmus register zeroed (whatever the harness leaves there). */
static gboolean emit_prologue(XlThread *th, IsaProgram *prog)
{
    const LitmusTest *t = th->x->t;
    guint k = th->thread;
    gboolean inited[ISA_NREGS] = { FALSE };
    guint start = prog->insns->len;
    g_autofree char *entry = g_strdup_printf("P%u", k);
    add_entry(prog, entry, (int32_t)start);
    ((IsaInsn *)prog->insns->data)[k].target = (int32_t)start;
    for (guint i = 0; i < t->init->len; i++) {
        const LitmusInit *in = t->init->pdata[i];
        if (in->thread != (int)k)
            continue;
        th->line = in->line;
        th->col = in->col;
        int r = xl_reg(th, in->name);
        if (r < 0)
            return FALSE;
        IsaInsn pi;
        if (in->value_loc) {
            /* The address of a location, as herd's `0:X1=x`. */
            pi = plain(OP_LA, r);
            pi.target = ((LitmusLoc *)th->x->lp->locs->pdata[xl_loc(th->x, in->value_loc)])->sym;
        } else {
            pi = plain(OP_MOV, r);
            pi.a = xl_imm(in->value);
        }
        pi.line = in->line;
        pi.col = in->col;
        g_array_append_val(prog->insns, pi);
        inited[r] = TRUE;
    }
    for (int r = 0; r < ISA_NREGS; r++)
        if (th->litreg[r] && !inited[r]) {
            IsaInsn pi = plain(OP_MOV, r);
            pi.a = xl_imm(0);
            g_array_append_val(prog->insns, pi);
        }
    return TRUE;
}

/* Thread k: its body translated, its observed registers named, then prologue, body and halt
 * appended to the program. */
static gboolean translate_one(Xl *x, guint k, GError **error)
{
    const LitmusTest *t = x->t;
    LitmusProgram *lp = x->lp;
    IsaProgram *prog = lp->prog;
    XlThread th;
    memset(&th, 0, sizeof th);
    th.x = x;
    th.thread = k;
    th.body = g_array_new(FALSE, FALSE, sizeof(IsaInsn));
    th.regs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    th.labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    th.fixups = g_array_new(FALSE, FALSE, sizeof(XlFixup));
    th.fa = th.fb = th.t1 = th.t2 = th.t3 = th.sink = -1;
    th.file = t->filename;
    th.line = t->cond_line;
    th.col = t->cond_col;
    th.error = error;
    gboolean ok = translate_thread(&th, error);
    /* Registers the condition or the initial state name, though the code may not. */
    for (guint i = 0; ok && i < t->obs->len; i++) {
        const LitmusObs *o = t->obs->pdata[i];
        if (o->thread == (int)k) {
            th.line = t->cond_line;
            th.col = t->cond_col;
            ok = (lp->obs_reg[i] = xl_reg(&th, o->name)) >= 0;
        }
    }
    ok = ok && emit_prologue(&th, prog);
    guint base = prog->insns->len;
    for (guint i = 0; ok && i < th.body->len; i++) {
        IsaInsn in = g_array_index(th.body, IsaInsn, i);
        if (isa_op_has_label(in.op))
            in.target += (int32_t)base;
        g_array_append_val(prog->insns, in);
    }
    IsaInsn h = plain(OP_HALT, ISA_NO_REG);
    h.line = th.line;
    g_array_append_val(prog->insns, h);
    thread_clear(&th);
    return ok;
}

/* What each observable is: a location and its value width, or a register's width. */
static void record_observables(Xl *x)
{
    const LitmusTest *t = x->t;
    LitmusProgram *lp = x->lp;
    for (guint i = 0; i < t->obs->len; i++) {
        const LitmusObs *o = t->obs->pdata[i];
        if (o->thread < 0) {
            lp->obs_loc[i] = xl_loc(x, o->name);
            lp->obs_bytes[i] = (guint8)loc_value_bytes(t, o->name);
        } else {
            /* the width of the register as the test names it: "0:EAX" is 32 bits */
            const char *colon = strchr(o->display, ':');
            int width = 8;
            if (colon && litmus_reg_canonical(t->arch, colon + 1, &width) && width > 0)
                lp->obs_bytes[i] = (guint8)width;
        }
    }
}

LitmusProgram *litmus_translate(const LitmusTest *t, GError **error)
{
    g_autoptr(LitmusProgram) lp = g_new0(LitmusProgram, 1);
    lp->nthreads = t->nthreads;
    lp->locs = g_ptr_array_new_with_free_func((GDestroyNotify)loc_free);
    lp->prog = isa_program_new(t->filename);
    Xl x = { t, lp, g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
    declare_locations(&x);
    lp->nobs = t->obs->len;
    lp->obs_reg = g_new(int, lp->nobs + 1);
    lp->obs_loc = g_new(int, lp->nobs + 1);
    lp->obs_bytes = g_new(guint8, lp->nobs + 1);
    for (guint i = 0; i < lp->nobs; i++) {
        lp->obs_reg[i] = lp->obs_loc[i] = -1;
        lp->obs_bytes[i] = 8;
    }
    emit_dispatch(lp->prog, t->nthreads);
    gboolean ok = TRUE;
    for (guint k = 0; k < t->nthreads && ok; k++)
        ok = translate_one(&x, k, error);
    if (ok)
        record_observables(&x);
    g_hash_table_destroy(x.loc_index);
    return ok ? g_steal_pointer(&lp) : NULL;
}

/* ---- a readable dump ---- */

static void src_text(GString *s, IsaSrc a)
{
    if (a.reg == ISA_REG_TID)
        g_string_append(s, "tid");
    else if (a.reg == ISA_REG_NTHREADS)
        g_string_append(s, "nthreads");
    else if (a.reg != ISA_NO_REG)
        g_string_append_printf(s, "r%d", a.reg);
    else
        g_string_append_printf(s, "%" G_GINT64_FORMAT, a.imm);
}

static void mem_text(GString *s, const IsaProgram *p, IsaMem m)
{
    g_string_append_c(s, '[');
    gboolean any = FALSE;
    if (m.sym >= 0) {
        g_string_append(s, ((IsaSym *)p->syms->pdata[m.sym])->name);
        any = TRUE;
    }
    if (m.base != ISA_NO_REG) {
        g_string_append_printf(s, "%sr%d", any ? "+" : "", m.base);
        any = TRUE;
    }
    if (m.offset || !any)
        g_string_append_printf(s, "%s%" G_GINT64_FORMAT, any ? "+" : "", m.offset);
    g_string_append_c(s, ']');
}

/* The operands in the op table's order (isa_op_info[op].operands), the first after a space. */
static void operands_text(GString *s, const IsaProgram *p, const IsaInsn *in)
{
    const char *sig = isa_op_info[in->op].operands;
    IsaSrc src = in->a;
    for (guint k = 0; sig[k]; k++) {
        if (sig[k] == 'R' && in->rt == ISA_NO_REG)
            continue;
        g_string_append(s, k ? ", " : " ");
        switch (sig[k]) {
        case 'D': g_string_append_printf(s, "r%d", in->rd); break;
        case 'R': g_string_append_printf(s, "r%d", in->rt); break;
        case 'S': src_text(s, src); src = in->b; break;
        case 'M': mem_text(s, p, in->mem); break;
        case 'L': g_string_append_printf(s, "@%d", in->target); break;
        case 'Y': g_string_append(s, ((IsaSym *)p->syms->pdata[in->target])->name); break;
        case 'N': g_string_append_printf(s, "%" G_GINT64_FORMAT, in->n); break;
        }
    }
}

char *litmus_program_dump(const LitmusProgram *lp)
{
    static const char *const orders[] = { "", ".acq", ".rel", ".acqrel" };
    static const char *const fences[] = { "", ".load", ".store" };
    static const char *const conds[] = { "eq", "ne", "lt", "ge", "ltu", "geu" };
    const IsaProgram *p = lp->prog;
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < p->syms->len; i++) {
        const IsaSym *sym = p->syms->pdata[i];
        g_string_append_printf(s, ".shared %s, %u, own_line, init %" G_GINT64_FORMAT "\n", sym->name,
                               sym->size, sym->init);
    }
    for (guint i = 0; i < p->insns->len; i++) {
        for (guint e = 0; e < p->entries->len; e++)
            if (g_array_index(p->entries, IsaEntry, e).pc == (int32_t)i)
                g_string_append_printf(s, "%s:\n", g_array_index(p->entries, IsaEntry, e).name);
        const IsaInsn *in = &g_array_index(p->insns, IsaInsn, i);
        const IsaOpInfo *info = &isa_op_info[in->op];
        g_string_append_printf(s, "%4u  ", i);
        if (in->op == OP_BR)
            g_string_append_printf(s, "b%s", conds[in->cond]);
        else if (in->op == OP_FENCE)
            g_string_append_printf(s, "fence%s", fences[in->fence]);
        else if ((info->is_load || info->is_store) && !info->is_syscall)
            g_string_append_printf(s, "%s%u%s", info->name, in->size * 8, orders[in->order]);
        else
            g_string_append(s, info->name);
        operands_text(s, p, in);
        if (in->line)
            g_string_append_printf(s, "    ; line %u", in->line);
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}
