/* The assembler's instructions, read in pass 2: the mnemonics, their suffixes, and each operand
 * by the op table's signature (isa_op_info[op].operands). */
#include <string.h>
#include <ctype.h>
#include "cores/isa/asm_priv.h"
#include "sim/base/suggest.h"

/* A mnemonic: its op (whose operands the op table gives: isa_op_info[op].operands), whether
 * it takes a size (ld32), and for branches its condition. */
typedef struct {
    const char *name;
    IsaOp op;
    gboolean sized;
    int cond;                 /* branches: IsaCond, else -1 */
} AsmOpDef;

static const AsmOpDef asm_ops[] = {
    { "nop",   OP_NOP,   FALSE, -1 },
    { "mov",   OP_MOV,   FALSE, -1 },
    { "add",   OP_ADD,   FALSE, -1 },
    { "sub",   OP_SUB,   FALSE, -1 },
    { "and",   OP_AND,   FALSE, -1 },
    { "or",    OP_OR,    FALSE, -1 },
    { "xor",   OP_XOR,   FALSE, -1 },
    { "shl",   OP_SHL,   FALSE, -1 },
    { "shr",   OP_SHR,   FALSE, -1 },
    { "mul",   OP_MUL,   FALSE, -1 },
    { "sar",   OP_SAR,   FALSE, -1 },
    { "sext",  OP_SEXT,  FALSE, -1 },
    { "divu",  OP_DIVU,  FALSE, -1 },
    { "div",   OP_DIV,   FALSE, -1 },
    { "remu",  OP_REMU,  FALSE, -1 },
    { "rem",   OP_REM,   FALSE, -1 },
    { "seq",   OP_SEQ,   FALSE, -1 },
    { "sne",   OP_SNE,   FALSE, -1 },
    { "sltu",  OP_SLTU,  FALSE, -1 },
    { "sgeu",  OP_SGEU,  FALSE, -1 },
    { "slt",   OP_SLT,   FALSE, -1 },
    { "sge",   OP_SGE,   FALSE, -1 },
    { "la",    OP_LA,    FALSE, -1 },
    /* sized ops: longer names first so `ldx` is not read as `ld` + "x" */
    { "ldx",   OP_LDX,   TRUE,  -1 },
    { "stx",   OP_STX,   TRUE,  -1 },
    { "ld",    OP_LD,    TRUE,  -1 },
    { "st",    OP_ST,    TRUE,  -1 },
    { "cas",   OP_CAS,   TRUE,  -1 },
    { "xchg",  OP_XCHG,  TRUE,  -1 },
    { "fadd",  OP_FADD,  TRUE,  -1 },
    { "fand",  OP_FAND,  TRUE,  -1 },
    { "for",   OP_FOR,   TRUE,  -1 },
    { "fence", OP_FENCE, FALSE, -1 },
    { "pause", OP_PAUSE, FALSE, -1 },
    { "wfe",   OP_WFE,   FALSE, -1 },
    { "sevl",  OP_SEVL,  FALSE, -1 },
    { "sev",   OP_SEV,   FALSE, -1 },
    { "beq",   OP_BR,    FALSE, COND_EQ },
    { "bne",   OP_BR,    FALSE, COND_NE },
    { "bltu",  OP_BR,    FALSE, COND_LTU },
    { "bgeu",  OP_BR,    FALSE, COND_GEU },
    { "blt",   OP_BR,    FALSE, COND_LT },
    { "bge",   OP_BR,    FALSE, COND_GE },
    { "jmp",   OP_JMP,   FALSE, -1 },
    { "call",  OP_CALL,  FALSE, -1 },
    { "ret",   OP_RET,   FALSE, -1 },
    { "work",  OP_WORK,  FALSE, -1 },
    { "mark",  OP_MARK,  FALSE, -1 },
    { "halt",  OP_HALT,  FALSE, -1 },
    { "futex_wait", OP_FUTEX_WAIT, FALSE, -1 },
    { "futex_wake", OP_FUTEX_WAKE, FALSE, -1 },
};

/* The suffixes after a mnemonic's '.', by the kind of op that takes them: ordering for memory
 * ops, kind for fences. */
typedef enum { SFX_NONE, SFX_FENCE, SFX_LOAD, SFX_STORE, SFX_RMW } AsmSuffixKind;

static const struct {
    AsmSuffixKind kind;
    const char *suffix;
    IsaOrder order;
    IsaFence fence;
} asm_suffixes[] = {
    { SFX_FENCE, "full",   ORD_PLAIN,  FENCE_FULL },
    { SFX_FENCE, "load",   ORD_PLAIN,  FENCE_LOAD },
    { SFX_FENCE, "store",  ORD_PLAIN,  FENCE_STORE },
    { SFX_LOAD,  "acq",    ORD_ACQ,    FENCE_FULL },
    { SFX_STORE, "rel",    ORD_REL,    FENCE_FULL },
    { SFX_RMW,   "acq",    ORD_ACQ,    FENCE_FULL },
    { SFX_RMW,   "rel",    ORD_REL,    FENCE_FULL },
    { SFX_RMW,   "acqrel", ORD_ACQREL, FENCE_FULL },
};

/* What a message lists as the suffixes a kind of op takes. */
static const char *const suffix_allowed[] = {
    [SFX_FENCE] = ".full, .load or .store", [SFX_LOAD] = ".acq", [SFX_STORE] = ".rel",
    [SFX_RMW] = ".acq, .rel or .acqrel",
};

static AsmSuffixKind suffix_kind(IsaOp op)
{
    if (op == OP_FENCE)
        return SFX_FENCE;
    if (op == OP_LD || op == OP_LDX)
        return SFX_LOAD;
    if (op == OP_ST || op == OP_STX)
        return SFX_STORE;
    return isa_op_is_rmw(op) ? SFX_RMW : SFX_NONE;
}


#define WORK_MAX 1000000
#define MARK_MAX 65535

/* Finds the op for a mnemonic (without its '.' suffix): def and size (0 when unsized). */
static const AsmOpDef *lookup_op(const char *m, unsigned *size)
{
    *size = 0;
    for (guint i = 0; i < G_N_ELEMENTS(asm_ops); i++) {
        const AsmOpDef *d = &asm_ops[i];
        gsize n = strlen(d->name);
        if (strncmp(m, d->name, n))
            continue;
        const char *rest = m + n;
        if (!*rest) {
            *size = d->sized ? 8 : 0;
            return d;
        }
        if (!d->sized)
            continue;
        if (!strcmp(rest, "8")) *size = 1;
        else if (!strcmp(rest, "16")) *size = 2;
        else if (!strcmp(rest, "32")) *size = 4;
        else if (!strcmp(rest, "64")) *size = 8;
        else
            continue;
        return d;
    }
    return NULL;
}

static const char *suggest_op(const char *m)
{
    /* Locals, not statics: the assembler stays re-entrant. */
    const char *names[G_N_ELEMENTS(asm_ops) * 5];
    static const char *const sized[] = { "8", "16", "32", "64" };
    char buf[G_N_ELEMENTS(asm_ops) * 4][12];
    guint n = 0, nb = 0;
    for (guint i = 0; i < G_N_ELEMENTS(asm_ops); i++) {
        names[n++] = asm_ops[i].name;
        if (asm_ops[i].sized)
            for (guint k = 0; k < 4; k++) {
                g_snprintf(buf[nb], sizeof buf[nb], "%s%s", asm_ops[i].name, sized[k]);
                names[n++] = buf[nb++];
            }
    }
    const char *hint = suggest_closest(m, names, n);
    /* The hint may point into buf: map it back to the static op name it was built from. */
    for (guint i = 0; hint && i < G_N_ELEMENTS(asm_ops); i++)
        if (!strcmp(hint, asm_ops[i].name))
            return asm_ops[i].name;
    return hint ? g_intern_string(hint) : NULL;
}

/* A memory operand: [sym], [sym+8], [r1], [r1+8], [sym+r2], [sym+r2-4]. */
static gboolean parse_mem(Asm *a, guint line, const Tok *t, IsaMem *m)
{
    m->sym = -1;
    m->base = ISA_NO_REG;
    m->offset = 0;
    gsize len = strlen(t->text);
    if (len < 2 || t->text[0] != '[' || t->text[len - 1] != ']') {
        asm_diag(a, line, t->col, "expected a memory operand like [sym], [r1+8] or [sym+r2], not `%s`", t->text);
        return FALSE;
    }
    const char *s = t->text + 1, *end = t->text + len - 1;
    int sign = 1;
    while (s < end) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        const char *b = s;
        while (s < end && *s != '+' && *s != '-')
            s++;
        if (s == b && s < end && b != t->text + 1) {
            asm_diag(a, line, t->col + (guint)(b - t->text), "empty term in memory operand `%s`", t->text);
            return FALSE;
        }
        Tok term = asm_tok_make(b, (gsize)(s - b), t->col + (guint)(b - t->text));
        g_autofree char *txt = term.text;
        if (*txt) {
            int r = asm_parse_reg(txt);
            int64_t v;
            gboolean ovf;
            int idx;
            if (r >= 0) {
                if (sign < 0 || m->base != ISA_NO_REG) {
                    asm_diag(a, line, term.col, "a memory operand takes one added base register");
                    return FALSE;
                }
                m->base = (int8_t)r;
            } else if (asm_parse_int(a, txt, &v, &ovf)) {
                if (ovf || !asm_fits_bytes(v * sign, 4) || v * sign > G_MAXINT32) {
                    asm_diag(a, line, term.col, "offset %s is out of range (a 32-bit signed number)", txt);
                    return FALSE;
                }
                m->offset += sign * v;
            } else if (asm_is_ident(txt) && asm_find_sym(a, txt, &idx)) {
                if (sign < 0 || m->sym >= 0) {
                    asm_diag(a, line, term.col, "a memory operand takes one added variable");
                    return FALSE;
                }
                m->sym = idx;
            } else if (asm_is_ident(txt)) {
                g_autofree char *hint = asm_var_hint(a, txt);
                asm_diag(a, line, term.col, "undefined variable `%s`%s", txt, hint);
                return FALSE;
            } else {
                asm_diag(a, line, term.col, "cannot read `%s` in a memory operand", txt);
                return FALSE;
            }
        } else if (b == t->text + 1 && s < end && *s == '-') {
            /* a leading minus: [-8+r1] */
        } else if (s >= end || b != t->text + 1) {
            asm_diag(a, line, term.col, "empty term in memory operand `%s`", t->text);
            return FALSE;
        }
        if (s < end) {
            sign = *s == '-' ? -1 : 1;
            s++;
            if (s >= end) {
                asm_diag(a, line, t->col + (guint)(s - t->text), "memory operand `%s` ends with an operator", t->text);
                return FALSE;
            }
        }
    }
    if (m->sym < 0 && m->base == ISA_NO_REG) {
        asm_diag(a, line, t->col, "memory operand `%s` names no variable and no register", t->text);
        return FALSE;
    }
    return TRUE;
}

static void init_insn(IsaInsn *in)
{
    memset(in, 0, sizeof *in);
    in->rd = in->rt = ISA_NO_REG;
    in->a.reg = in->b.reg = ISA_NO_REG;
    in->mem.sym = -1;
    in->mem.base = ISA_NO_REG;
    in->target = -1;
}

/* The op a mnemonic names: `base` is the mnemonic without its suffix; *size its access width
 * (0 when unsized).  NULL (reported) when there is none. */
static const AsmOpDef *parse_mnemonic(Asm *a, guint line, const Tok *mn, const char *base, unsigned *size)
{
    const AsmOpDef *d = lookup_op(base, size);
    if (!d) {
        /* A guess compares with every op: only for errors a message can show (of the first found). */
        const char *hint = a->ndiags < ASM_DIAGS_KEPT / 10 ? suggest_op(base) : NULL;
        if (hint)
            asm_diag(a, line, mn->col, "unknown op `%s`; did you mean `%s`?", mn->text, hint);
        else
            asm_diag(a, line, mn->col, "unknown op `%s` (docs/isa.md lists the ops)", mn->text);
        return NULL;
    }
    /* A futex is a 32-bit word, whatever the platform. */
    if (isa_op_info[d->op].is_syscall)
        *size = 4;
    return d;
}

/* The suffix after the mnemonic's '.' (at `col`), into in's order or fence. */
static gboolean parse_suffix(Asm *a, guint line, guint col, const AsmOpDef *d, const char *suffix, IsaInsn *in)
{
    AsmSuffixKind kind = suffix_kind(d->op);
    for (guint i = 0; i < G_N_ELEMENTS(asm_suffixes); i++)
        if (asm_suffixes[i].kind == kind && kind != SFX_NONE && !strcmp(asm_suffixes[i].suffix, suffix)) {
            if (kind == SFX_FENCE)
                in->fence = asm_suffixes[i].fence;
            else
                in->order = asm_suffixes[i].order;
            return TRUE;
        }
    if (kind != SFX_NONE)
        asm_diag(a, line, col, "`%s` takes %s, not `.%s`", d->name, suffix_allowed[kind], suffix);
    else
        asm_diag(a, line, col, "`%s` takes no suffix", d->name);
    return FALSE;
}

/* Operand `i` of `mn`, a register: the destination (D) or la's thread register (R). */
static gboolean parse_reg_operand(Asm *a, guint line, const Tok *mn, guint i, const Tok *t, char kind, IsaInsn *in)
{
    int r = asm_parse_reg(t->text);
    if (r < 0) {
        asm_diag(a, line, t->col, "operand %u of `%s` must be a register, not `%s`", i + 1, mn->text, t->text);
        return FALSE;
    }
    if (kind == 'D' && r >= ISA_NREGS) {
        asm_diag(a, line, t->col, "`%s` is read-only: `%s` cannot write it", t->text, mn->text);
        return FALSE;
    }
    /* Every register an op writes is its destination operand (the op table's D), so this one
     * check keeps lock code off the harness's registers whatever the op. */
    if (kind == 'D' && r >= ISA_HARNESS_REG_FIRST && r < ISA_HARNESS_REG_END && a->sources[a->file].lock) {
        asm_diag(a, line, t->col, "`%s` writes %s: r%d..r%d belong to the harness (its loop counter), so lock "
                 "code must not write them (use r0..r%d)", mn->text, t->text, ISA_HARNESS_REG_FIRST, ISA_HARNESS_REG_END - 1,
                 ISA_HARNESS_REG_FIRST - 1);
        return FALSE;
    }
    if (kind == 'D')
        in->rd = (int8_t)r;
    else
        in->rt = (int8_t)r;
    return TRUE;
}

/* Operand `i` of `mn`, a source: a register or an immediate that fits the op. */
static gboolean parse_src_operand(Asm *a, guint line, const Tok *mn, guint i, const Tok *t, IsaSrc *src,
                                  gboolean second, const IsaInsn *in)
{
    int r = asm_parse_reg(t->text);
    int64_t v;
    gboolean ovf;
    if (r >= 0) {
        src->reg = (int8_t)r;
        return TRUE;
    }
    if (asm_parse_int(a, t->text, &v, &ovf)) {
        gboolean ok = TRUE;
        unsigned fit = isa_op_info[in->op].is_load || isa_op_info[in->op].is_store ? in->size : 8;
        if (ovf || !asm_fits_bytes(v, fit)) {
            asm_diag(a, line, t->col, "immediate %s is out of range for a %u-bit operand", t->text, fit * 8);
            ok = FALSE;
        } else if ((in->op == OP_SHL || in->op == OP_SHR || in->op == OP_SAR) && second && (v < 0 || v > 63)) {
            asm_diag(a, line, t->col, "shift amount %s is out of range (0..63)", t->text);
            ok = FALSE;
        } else if (in->op == OP_SEXT && second && (v < 1 || v > 64)) {
            asm_diag(a, line, t->col, "sign-extension width %s is out of range (1..64 bits)", t->text);
            ok = FALSE;
        }
        src->imm = v;
        return ok;
    }
    if (t->text[0] == '[')
        asm_diag(a, line, t->col, "operand %u of `%s` must be a register or an immediate, not memory", i + 1, mn->text);
    else if (asm_is_ident(t->text) && t->text[0] == 'r' && isdigit((unsigned char)t->text[1]))
        asm_diag(a, line, t->col, "no register `%s` (registers are r0..r%d, tid, nthreads)", t->text, ISA_NREGS - 1);
    else
        asm_diag(a, line, t->col, "operand %u of `%s` must be a register or an immediate, not `%s`", i + 1, mn->text, t->text);
    return FALSE;
}

/* A memory operand, which at a constant place in a variable must lie inside it, aligned. */
static gboolean parse_mem_operand(Asm *a, guint line, const Tok *t, IsaInsn *in)
{
    unsigned size = in->size;
    if (!parse_mem(a, line, t, &in->mem))
        return FALSE;
    if (in->mem.sym < 0)
        return TRUE;
    const IsaSym *s = a->p->syms->pdata[in->mem.sym];
    if (in->mem.base == ISA_NO_REG && (in->mem.offset < 0 || (uint64_t)in->mem.offset + size > s->size)) {
        asm_diag(a, line, t->col, "%u-byte access at %s%+" G_GINT64_FORMAT " runs outside `%s` (%u bytes)",
             size, s->name, in->mem.offset, s->name, s->size);
        return FALSE;
    }
    if (in->mem.offset % (int64_t)size != 0 || s->align < size) {
        asm_diag(a, line, t->col, "%u-bit access at %s%+" G_GINT64_FORMAT " crosses its natural alignment (%u bytes)",
             size * 8, s->name, in->mem.offset, size);
        return FALSE;
    }
    return TRUE;
}

/* A label: its pc is fixed up once every source is read. */
static gboolean parse_label_operand(Asm *a, guint line, const Tok *t)
{
    if (!asm_is_ident(t->text)) {
        asm_diag(a, line, t->col, "expected a label, not `%s`", t->text);
        return FALSE;
    }
    AsmFixup f = { a->p->insns->len, g_strdup(t->text), a->file, line, t->col };
    g_array_append_val(a->fixups, f);
    return TRUE;
}

static gboolean parse_var_operand(Asm *a, guint line, const Tok *t, IsaInsn *in)
{
    int idx;
    if (!asm_is_ident(t->text)) {
        asm_diag(a, line, t->col, "expected a variable name, not `%s`", t->text);
        return FALSE;
    }
    if (!asm_find_sym(a, t->text, &idx)) {
        g_autofree char *hint = asm_var_hint(a, t->text);
        asm_diag(a, line, t->col, "undefined variable `%s`%s", t->text, hint);
        return FALSE;
    }
    in->target = idx;
    return TRUE;
}

static gboolean parse_count_operand(Asm *a, guint line, const Tok *mn, const Tok *t, IsaInsn *in)
{
    int64_t max = in->op == OP_WORK ? WORK_MAX : MARK_MAX, v;
    gboolean ovf;
    if (!asm_parse_int(a, t->text, &v, &ovf)) {
        asm_diag(a, line, t->col, "`%s` takes a number, not `%s`", mn->text, t->text);
        return FALSE;
    }
    if (ovf || v < 0 || v > max) {
        asm_diag(a, line, t->col, "%s count %s is out of range (0..%" G_GINT64_FORMAT ")", mn->text, t->text, max);
        return FALSE;
    }
    in->n = v;
    return TRUE;
}

/* Whether `mn` has as many operands as its op takes (reported when not). */
static gboolean check_operand_count(Asm *a, guint line, const Tok *mn, IsaOp op, guint n)
{
    const char *sig = isa_op_info[op].operands;
    guint need = (guint)strlen(sig), optional = strchr(sig, 'R') ? 1 : 0;
    if (n >= need - optional && n <= need)
        return TRUE;
    if (optional)
        asm_diag(a, line, mn->col, "`%s` takes %u or %u operands, not %u", mn->text, need - 1, need, n);
    else
        asm_diag(a, line, mn->col, "`%s` takes %u operand%s, not %u", mn->text, need, need == 1 ? "" : "s", n);
    return FALSE;
}

/* The operands, read by the op's signature (isa_op_info[op].operands); stops at the first
 * wrong one (reported). */
static void parse_operands(Asm *a, guint line, const Tok *mn, GArray *ops, IsaInsn *in)
{
    const char *sig = isa_op_info[in->op].operands;
    guint nsrc = 0;
    for (guint i = 0; i < ops->len; i++) {
        const Tok *t = &g_array_index(ops, Tok, i);
        if (!*t->text) {
            asm_diag(a, line, t->col, "operand %u of `%s` is empty", i + 1, mn->text);
            return;
        }
        gboolean ok = FALSE;
        switch (sig[i]) {
        case 'D': case 'R': ok = parse_reg_operand(a, line, mn, i, t, sig[i], in); break;
        case 'S':
            ok = parse_src_operand(a, line, mn, i, t, nsrc == 0 ? &in->a : &in->b, nsrc == 1, in);
            nsrc++;
            break;
        case 'M': ok = parse_mem_operand(a, line, t, in); break;
        case 'L': ok = parse_label_operand(a, line, t); break;
        case 'Y': ok = parse_var_operand(a, line, t, in); break;
        case 'N': ok = parse_count_operand(a, line, mn, t, in); break;
        }
        if (!ok)
            return;
    }
}

void asm_parse_insn(Asm *a, guint line, const Tok *mn, const char *rest, guint rest_col)
{
    IsaInsn in;
    init_insn(&in);
    in.line = line;
    in.col = mn->col;
    in.file = (uint16_t)a->file;
    if (a->loc_file >= 0) {
        in.file = (uint16_t)a->loc_file;
        in.line = a->loc_line;
        in.col = a->loc_col;
    }
    g_autofree char *base = g_strdup(mn->text);
    char *dot = strchr(base, '.');
    const char *suffix = NULL;
    if (dot) {
        *dot = '\0';
        suffix = dot + 1;
    }
    unsigned size;
    const AsmOpDef *d = parse_mnemonic(a, line, mn, base, &size);
    if (!d)
        return;
    in.op = d->op;
    in.size = (uint8_t)size;
    if (d->cond >= 0)
        in.cond = (IsaCond)d->cond;
    if (suffix && !parse_suffix(a, line, mn->col + (guint)(suffix - base) - 1, d, suffix, &in))
        return;
    if (!isa_op_on_arch(d->op, a->target.arch)) {
        asm_diag(a, line, mn->col, "`%s` is not available on %s (%s only; put it under `.if arch=%s`)", mn->text,
             arch_name(a->target.arch), arch_name(arch_other(a->target.arch)), arch_name(arch_other(a->target.arch)));
        return;
    }
    GArray *ops = asm_split_operands(rest, rest_col);
    if (check_operand_count(a, line, mn, in.op, ops->len)) {
        parse_operands(a, line, mn, ops, &in);
        /* Appended even when an operand is wrong, so pcs (and label fixups already recorded)
         * stay stable; the program is discarded anyway once any error was reported. */
        g_array_append_val(a->p->insns, in);
    }
    asm_toks_free(ops);
}
