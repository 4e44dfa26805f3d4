/* X86 (Intel syntax: `MOV [x],$1`, `MOV EAX,[y]`) and X86_64 (AT&T: `movl $1,(x)`,
 * `movq (y),%rax`) litmus instructions -> tiny ISA.  AT&T operands are reversed on entry so
 * that both dialects are handled as "dst, src".
 *
 *   MOV (reg/imm/mem, every size)    mov / ld / st; a 32-bit register write zero-extends, 8/16-bit
 *                                    writes merge into the register as the hardware does
 *   MFENCE LFENCE SFENCE             fence, fence.load, fence.store
 *   XCHG reg,mem                     xchg (always locked on x86)
 *   LOCK ADD/SUB/INC/DEC/OR/AND      fadd/for/fand into a scratch register
 *   LOCK XADD                        fadd;  LOCK CMPXCHG: cas with the implicit EAX/RAX
 *   ADD SUB XOR AND OR INC DEC       register ALU; with a memory destination and no LOCK, a
 *                                    non-atomic load, op, store (as on the hardware)
 *   CMP, JE/JZ, JNE/JNZ, JMP, NOP    CMP copies its operands into two scratch "flag" registers
 *
 * x86 atomics are full barriers whatever the config: they carry .acqrel so that the ISA op
 * means the same on any machine. */
#include <string.h>
#include "sim/litmus/litmus_priv.h"

#define MASK32 0xffffffffLL

typedef enum { XO_REG, XO_IMM, XO_MEM, XO_LABEL } XOpKind;

typedef struct {
    XOpKind kind;
    const char *canon;     /* XO_REG: family ("ax") */
    int width;             /* XO_REG: bytes */
    int64_t imm;
    char *loc;             /* XO_MEM: location, or NULL */
    const char *base;      /* XO_MEM: base register family, or NULL */
    int64_t disp;
    char *text;
    guint off;
} XOp;

static void xop_clear(XOp *o)
{
    g_free(o->loc);
    g_free(o->text);
}

static gboolean parse_int_str(const char *s, int64_t *v)
{
    LitCursor c = { s, s + strlen(s), NULL, 1, 1 };
    return lit_parse_int(&c, v) == LIT_NUMBER && c.p == c.end;
}

/* Memory inside [..] (Intel) or (..) (AT&T): a location, a register, either +/- a number. */
static gboolean parse_mem_inner(XlThread *th, LitmusArch arch, const char *s, XOp *o)
{
    g_autofree char *in = g_strdup(s);
    g_strstrip(in);
    if (!*in)
        return FALSE;   /* `[]`: nothing inside (and no first character to look past for a sign) */
    char *sign = strpbrk(in + 1, "+-");
    if (sign) {
        g_autofree char *num = g_strstrip(g_strdup(sign));
        if (num[0] == '+')
            num[0] = ' ';
        g_strstrip(num);
        if (!parse_int_str(num, &o->disp))
            return FALSE;
        *sign = '\0';
        g_strstrip(in);
    }
    const char *r = litmus_reg_canonical(arch, in, &o->width);
    o->kind = XO_MEM;
    if (r) {
        if (arch == LITMUS_X86_64 && in[0] != '%')
            return FALSE;
        o->base = r;
        return TRUE;
    }
    if (!(g_ascii_isalpha(in[0]) || in[0] == '_'))
        return FALSE;
    for (const char *p = in; *p; p++)
        if (!(g_ascii_isalnum(*p) || *p == '_'))
            return FALSE;
    o->loc = g_strdup(in);
    (void)th;
    return TRUE;
}

static gboolean parse_xop(XlThread *th, LitmusArch arch, const char *s, guint off, gboolean jump, XOp *o)
{
    memset(o, 0, sizeof *o);
    o->text = g_strdup(s);
    o->off = off;
    gsize n = strlen(s);
    if (jump) {
        o->kind = XO_LABEL;
        return TRUE;
    }
    if (s[0] == '$') {
        o->kind = XO_IMM;
        if (parse_int_str(s + 1, &o->imm))
            return TRUE;
        return xl_fail(th, off, "bad immediate '%s'", s);
    }
    if (arch == LITMUS_X86 && (s[0] == '[') && n >= 2 && s[n - 1] == ']') {
        g_autofree char *in = g_strndup(s + 1, n - 2);
        if (parse_mem_inner(th, arch, in, o))
            return TRUE;
        return xl_fail(th, off, "unsupported memory operand '%s' ([x], [REG], [REG+n])", s);
    }
    if (arch == LITMUS_X86_64) {
        const char *lp = strchr(s, '(');
        if (lp && n >= 2 && s[n - 1] == ')') {
            g_autofree char *in = g_strndup(lp + 1, (gsize)(s + n - 1 - lp - 1));
            if (parse_mem_inner(th, arch, in, o)) {
                if (lp > s) {
                    g_autofree char *d = g_strndup(s, (gsize)(lp - s));
                    int64_t disp;
                    if (!parse_int_str(d, &disp))
                        return xl_fail(th, off, "unsupported memory operand '%s'", s);
                    o->disp += disp;
                }
                return TRUE;
            }
            return xl_fail(th, off, "unsupported memory operand '%s' ((x), (%%reg), n(%%reg))", s);
        }
    }
    const char *r = litmus_reg_canonical(arch, s, &o->width);
    if (r && (arch == LITMUS_X86 || s[0] == '%')) {
        o->kind = XO_REG;
        o->canon = r;
        return TRUE;
    }
    if (arch == LITMUS_X86 && parse_int_str(s, &o->imm)) {
        o->kind = XO_IMM;
        return TRUE;
    }
    return xl_fail(th, off, "unsupported operand '%s'", s);
}

static int64_t size_mask(int size)
{
    return size >= 8 ? -1 : (int64_t)((1ULL << (8 * size)) - 1);
}

/* Operand size: the mnemonic's suffix, else a register operand's width, else 4 (herd's int). */
static int op_size(int suffix, const XOp *ops, guint n)
{
    if (suffix)
        return suffix;
    for (guint i = 0; i < n; i++)
        if (ops[i].kind == XO_REG)
            return ops[i].width;
    return 4;
}

static gboolean mem_of(XlThread *th, const XOp *o, IsaMem *m)
{
    memset(m, 0, sizeof *m);
    m->sym = -1;
    m->base = ISA_NO_REG;
    m->offset = o->disp;
    if (o->loc) {
        int l = xl_loc(th->x, o->loc);
        m->sym = ((LitmusLoc *)th->x->lp->locs->pdata[l])->sym;
    } else {
        int r = xl_reg(th, o->base);
        if (r < 0)
            return FALSE;
        m->base = (int8_t)r;
    }
    return TRUE;
}

/* rd := the `size` bytes at memory operand o (zero-extended). */
static gboolean load(XlThread *th, int rd, const XOp *o, int size)
{
    IsaMem m;
    if (rd < 0 || !mem_of(th, o, &m))
        return FALSE;
    IsaInsn *in = xl_emit(th, OP_LD);
    in->rd = (int8_t)rd;
    in->size = (uint8_t)size;
    in->mem = m;
    return TRUE;
}

static gboolean store(XlThread *th, const XOp *dst, int size, IsaSrc v)
{
    IsaMem m;
    if (!mem_of(th, dst, &m))
        return FALSE;
    IsaInsn *in = xl_emit(th, OP_ST);
    in->size = (uint8_t)size;
    in->mem = m;
    in->a = v;
    return TRUE;
}

/* The value of a source operand; a memory source is loaded into scratch t1. */
static gboolean read_src(XlThread *th, const XOp *o, int size, IsaSrc *v)
{
    if (o->kind == XO_IMM) {
        /* x86 immediates are at most 32 bits, sign-extended to a 64-bit operand; a narrower
         * operand takes its width signed or unsigned.  Anything else would be silently cut. */
        int bits = size >= 8 ? 32 : 8 * size;
        int64_t lo = -((int64_t)1 << (bits - 1)), hi = size >= 8 ? ((int64_t)1 << 31) - 1 : ((int64_t)1 << bits) - 1;
        if (o->imm < lo || o->imm > hi)
            return xl_fail(th, o->off, "immediate %s does not fit in %d bits", o->text ? o->text : "", bits);
        *v = xl_imm(o->imm & size_mask(size));
        return TRUE;
    }
    if (o->kind == XO_REG) {
        int r = xl_reg(th, o->canon);
        *v = xl_r(r);
        return r >= 0;
    }
    int t = xl_scratch(th, &th->t1);
    *v = xl_r(t);
    return load(th, t, o, size);
}

/* Writes `v` to a register of `size` bytes: whole for 8, zero-extended for 4, merged for 1/2. */
static gboolean write_reg(XlThread *th, const XOp *dst, int size, IsaSrc v)
{
    int rd = xl_reg(th, dst->canon);
    if (rd < 0)
        return FALSE;
    if (size == 8) {
        if (v.reg != rd)
            xl_alu(th, OP_MOV, rd, v, xl_imm(0));
    } else if (size == 4) {
        xl_alu(th, OP_AND, rd, v, xl_imm(MASK32));
    } else {
        int t = xl_scratch(th, &th->t3);
        if (t < 0)
            return FALSE;
        xl_alu(th, OP_AND, t, v, xl_imm(size_mask(size)));
        xl_alu(th, OP_AND, rd, xl_r(rd), xl_imm(~size_mask(size)));
        xl_alu(th, OP_OR, rd, xl_r(rd), xl_r(t));
    }
    return TRUE;
}

/* An x86 atomic: LOCK'd, so a full barrier (.acqrel) whatever the machine. */
static gboolean emit_atomic(XlThread *th, IsaOp op, int rd, const XOp *mem, int size, IsaSrc a, IsaSrc b)
{
    IsaMem m;
    if (!mem_of(th, mem, &m))
        return FALSE;
    IsaInsn *in = xl_emit(th, op);
    in->rd = (int8_t)rd;
    in->size = (uint8_t)size;
    in->order = ORD_ACQREL;
    in->mem = m;
    in->a = a;
    in->b = b;
    return TRUE;
}

/* ---- the instructions ---- */

typedef struct X86Row X86Row;

/* One instruction, its operands parsed (AT&T already turned into "dst, src") and counted. */
typedef struct {
    const X86Row *row;
    gboolean lock;
    int size;              /* operand size in bytes */
    XOp *ops;
    guint n;
    guint col;             /* where the instruction starts in its cell */
} X86Insn;

typedef enum {
    LOCK_NO,               /* LOCK cannot prefix it */
    LOCK_MAY,              /* with LOCK and a memory destination: an atomic */
    LOCK_MUST,             /* only the LOCK'd form is supported */
} X86Lock;

/* A row of the mnemonic table: `operands` has a letter an operand (O: register, immediate or
 * memory; L: a label); `arg` is what the row passes to its translation. */
struct X86Row {
    const char *mn;
    const char *operands;
    X86Lock lock;
    gboolean (*xlate)(XlThread *th, const X86Insn *in);
    union {
        IsaCond cond;
        IsaFence fence;
        struct { IsaOp op; int64_t unary; } alu;   /* unary: the implicit source of inc/dec */
    } arg;
};

static gboolean x86_nop(XlThread *th, const X86Insn *in G_GNUC_UNUSED)
{
    xl_emit(th, OP_NOP);
    return TRUE;
}

static gboolean x86_fence(XlThread *th, const X86Insn *in)
{
    xl_emit(th, OP_FENCE)->fence = in->row->arg.fence;
    return TRUE;
}

static gboolean x86_jmp(XlThread *th, const X86Insn *in)
{
    xl_emit(th, OP_JMP);
    xl_target(th, in->ops[0].text, in->ops[0].off);
    return TRUE;
}

/* The ISA has no flags: the branch compares the registers the last CMP filled. */
static gboolean x86_jcc(XlThread *th, const X86Insn *in)
{
    if (!th->flags_set)
        return xl_fail(th, in->col, "%s with no CMP before it", in->row->mn);
    IsaInsn *br = xl_emit(th, OP_BR);
    br->cond = in->row->arg.cond;
    br->a = xl_r(th->fa);
    br->b = xl_r(th->fb);
    xl_target(th, in->ops[0].text, in->ops[0].off);
    return TRUE;
}

static gboolean x86_mov(XlThread *th, const X86Insn *in)
{
    const XOp *d = &in->ops[0], *s = &in->ops[1];
    if (d->kind == XO_MEM && s->kind == XO_MEM)
        return xl_fail(th, in->col, "MOV cannot move memory to memory");
    if (d->kind == XO_IMM)
        return xl_fail(th, d->off, "MOV cannot write an immediate");
    IsaSrc v;
    if (d->kind == XO_MEM)
        return read_src(th, s, in->size, &v) && store(th, d, in->size, v);
    if (s->kind == XO_MEM && in->size >= 4)
        return load(th, xl_reg(th, d->canon), s, in->size);  /* ld zero-extends, as a 32-bit write does */
    return read_src(th, s, in->size, &v) && write_reg(th, d, in->size, v);
}

static gboolean x86_cmp(XlThread *th, const X86Insn *in)
{
    if (in->ops[0].kind == XO_MEM && in->ops[1].kind == XO_MEM)
        return xl_fail(th, in->col, "CMP cannot compare memory with memory");
    IsaSrc a, b;   /* at most one is memory, so scratch t1 holds at most one */
    return read_src(th, &in->ops[0], in->size, &a) && read_src(th, &in->ops[1], in->size, &b) &&
           xl_set_flags(th, a, b, in->size);
}

/* XCHG with memory is always locked on x86; between registers it is a swap. */
static gboolean x86_xchg(XlThread *th, const X86Insn *in)
{
    const XOp *m = in->ops[0].kind == XO_MEM ? &in->ops[0] : &in->ops[1];
    const XOp *r = in->ops[0].kind == XO_MEM ? &in->ops[1] : &in->ops[0];
    if (r->kind != XO_REG || (m->kind != XO_REG && m->kind != XO_MEM))
        return xl_fail(th, in->col, "XCHG needs a register or memory operand and a register");
    if (m->kind == XO_REG) {
        int t = xl_scratch(th, &th->t2);
        int ra = xl_reg(th, m->canon), rb = xl_reg(th, r->canon);
        if (t < 0 || ra < 0 || rb < 0)
            return FALSE;
        xl_alu(th, OP_MOV, t, xl_r(ra), xl_imm(0));
        return write_reg(th, m, in->size, xl_r(rb)) && write_reg(th, r, in->size, xl_r(t));
    }
    if (in->size < 4)
        return xl_fail(th, in->col, "8- and 16-bit XCHG is not supported");
    int rd = xl_reg(th, r->canon);
    return rd >= 0 && emit_atomic(th, OP_XCHG, rd, m, in->size, xl_r(rd), xl_imm(0));
}

/* LOCK XADD / LOCK CMPXCHG [m], reg: *rs := the ISA register of the source. */
static gboolean locked_source(XlThread *th, const X86Insn *in, int *rs)
{
    if (in->ops[0].kind != XO_MEM || in->ops[1].kind != XO_REG)
        return xl_fail(th, in->col, "LOCK %s needs a memory destination and a register", in->row->mn);
    if (in->size < 4)
        return xl_fail(th, in->col, "8- and 16-bit LOCK %s is not supported", in->row->mn);
    *rs = xl_reg(th, in->ops[1].canon);
    return *rs >= 0;
}

static gboolean x86_xadd(XlThread *th, const X86Insn *in)
{
    int rs = -1;
    return locked_source(th, in, &rs) && emit_atomic(th, OP_FADD, rs, &in->ops[0], in->size, xl_r(rs), xl_imm(0));
}

/* if [m] == EAX then [m] := src; EAX := old either way.  ZF (old == EAX) only when some branch
 * reads it. */
static gboolean x86_cmpxchg(XlThread *th, const X86Insn *in)
{
    int rs = -1, ax;
    if (!locked_source(th, in, &rs) || (ax = xl_reg(th, "ax")) < 0)
        return FALSE;
    int fa = -1, fb = -1;
    if (th->uses_flags) {
        fa = xl_scratch(th, &th->fa);
        fb = xl_scratch(th, &th->fb);
        if (fa < 0 || fb < 0)
            return FALSE;
        xl_alu(th, OP_AND, fb, xl_r(ax), xl_imm(size_mask(in->size)));
    }
    if (!emit_atomic(th, OP_CAS, ax, &in->ops[0], in->size, xl_r(ax), xl_r(rs)))
        return FALSE;
    if (th->uses_flags) {
        xl_alu(th, OP_MOV, fa, xl_r(ax), xl_imm(0));
        th->flags_set = TRUE;
    }
    return TRUE;
}

/* LOCK op [m], v: an ISA atomic whose result nobody reads (SUB adds the negation). */
static gboolean locked_alu(XlThread *th, const X86Insn *in, IsaOp op, IsaSrc v)
{
    const XOp *d = &in->ops[0];
    if (d->kind != XO_MEM)
        return xl_fail(th, in->col, "LOCK %s needs a memory destination", in->row->mn);
    if (op == OP_XOR)
        return xl_fail(th, in->col, "LOCK XOR has no ISA atomic (fadd, for, fand)");
    int sink = xl_scratch(th, &th->sink);
    if (sink < 0)
        return FALSE;
    if (op == OP_SUB) {
        if (v.reg == ISA_NO_REG) {
            v.imm = (int64_t)(0 - (uint64_t)v.imm); /* no overflow for the most negative value */
        } else {
            int t = xl_scratch(th, &th->t2);
            if (t < 0)
                return FALSE;
            xl_alu(th, OP_SUB, t, xl_imm(0), v);
            v = xl_r(t);
        }
    }
    IsaOp aop = op == OP_OR ? OP_FOR : op == OP_AND ? OP_FAND : OP_FADD;
    return emit_atomic(th, aop, sink, d, in->size, v, xl_imm(0));
}

/* ADD SUB XOR AND OR INC DEC: locked, into memory (not atomic without LOCK: a load, the op, a
 * store, as the hardware does it), or into a register of any width. */
static gboolean x86_alu(XlThread *th, const X86Insn *in)
{
    IsaOp op = in->row->arg.alu.op;
    gboolean unary = in->n == 1;
    const XOp *d = &in->ops[0];
    IsaSrc v;
    if (unary)
        v = xl_imm(in->row->arg.alu.unary);
    else if (!read_src(th, &in->ops[1], in->size, &v))
        return FALSE;
    if (d->kind == XO_IMM)
        return xl_fail(th, d->off, "%s cannot write an immediate", in->row->mn);
    if (d->kind == XO_MEM && !unary && in->ops[1].kind == XO_MEM)
        return xl_fail(th, in->col, "%s cannot combine two memory operands", in->row->mn);
    if (in->lock)
        return locked_alu(th, in, op, v);
    if (d->kind == XO_MEM) {
        int t = xl_scratch(th, &th->t2);
        if (!load(th, t, d, in->size))
            return FALSE;
        xl_alu(th, op, t, xl_r(t), v);
        return store(th, d, in->size, xl_r(t));
    }
    int rd = xl_reg(th, d->canon);
    if (rd < 0)
        return FALSE;
    if (in->size >= 4) {
        xl_alu(th, op, rd, xl_r(rd), v);
        if (in->size == 4)
            xl_alu(th, OP_AND, rd, xl_r(rd), xl_imm(MASK32));
        return TRUE;
    }
    int t = xl_scratch(th, &th->t2);
    if (t < 0)
        return FALSE;
    xl_alu(th, op, t, xl_r(rd), v);
    return write_reg(th, d, in->size, xl_r(t));
}

static const X86Row x86_rows[] = {
    /* mnemonic  operands LOCK       translation  argument */
    { "mov",     "OO",    LOCK_NO,   x86_mov,     { 0 } },
    { "add",     "OO",    LOCK_MAY,  x86_alu,     { .alu = { OP_ADD, 0 } } },
    { "sub",     "OO",    LOCK_MAY,  x86_alu,     { .alu = { OP_SUB, 0 } } },
    { "xor",     "OO",    LOCK_MAY,  x86_alu,     { .alu = { OP_XOR, 0 } } },
    { "and",     "OO",    LOCK_MAY,  x86_alu,     { .alu = { OP_AND, 0 } } },
    { "or",      "OO",    LOCK_MAY,  x86_alu,     { .alu = { OP_OR, 0 } } },
    { "inc",     "O",     LOCK_MAY,  x86_alu,     { .alu = { OP_ADD, 1 } } },
    { "dec",     "O",     LOCK_MAY,  x86_alu,     { .alu = { OP_ADD, -1 } } },
    { "xchg",    "OO",    LOCK_MAY,  x86_xchg,    { 0 } },
    { "xadd",    "OO",    LOCK_MUST, x86_xadd,    { 0 } },
    { "cmpxchg", "OO",    LOCK_MUST, x86_cmpxchg, { 0 } },
    { "cmp",     "OO",    LOCK_NO,   x86_cmp,     { 0 } },
    { "mfence",  "",      LOCK_NO,   x86_fence,   { .fence = FENCE_FULL } },
    { "lfence",  "",      LOCK_NO,   x86_fence,   { .fence = FENCE_LOAD } },
    { "sfence",  "",      LOCK_NO,   x86_fence,   { .fence = FENCE_STORE } },
    { "je",      "L",     LOCK_NO,   x86_jcc,     { .cond = COND_EQ } },
    { "jz",      "L",     LOCK_NO,   x86_jcc,     { .cond = COND_EQ } },
    { "jne",     "L",     LOCK_NO,   x86_jcc,     { .cond = COND_NE } },
    { "jnz",     "L",     LOCK_NO,   x86_jcc,     { .cond = COND_NE } },
    { "jmp",     "L",     LOCK_NO,   x86_jmp,     { 0 } },
    { "nop",     "",      LOCK_NO,   x86_nop,     { 0 } },
};

static const X86Row *x86_row(const char *mn)
{
    for (guint i = 0; i < G_N_ELEMENTS(x86_rows); i++)
        if (!strcmp(mn, x86_rows[i].mn))
            return &x86_rows[i];
    return NULL;
}

/* Splits "lock addl" into lock, the row of "add" and suffix size 4 (AT&T b/w/l/q); NULL when
 * the mnemonic is not in the table (*mn is then the word as written, lower case). */
static const X86Row *split_mnemonic(const char *text, const char **rest, gboolean *lock, int *suffix, char **mn)
{
    const char *p = text;
    *lock = FALSE;
    *suffix = 0;
    for (;;) {
        const char *w = p;
        while (*p && !g_ascii_isspace(*p))
            p++;
        g_autofree char *word = g_ascii_strdown(w, (gssize)(p - w));
        while (*p && g_ascii_isspace(*p))
            p++;
        if (!strcmp(word, "lock") && !*lock) {
            *lock = TRUE;
            continue;
        }
        *rest = p;
        const X86Row *row = x86_row(word);
        gsize n = strlen(word);
        static const char sfx[] = "bwlq";
        const char *s = n > 1 ? strchr(sfx, word[n - 1]) : NULL;
        if (!row && s) {
            word[n - 1] = '\0';
            row = x86_row(word);
            if (row)
                *suffix = 1 << (s - sfx);
            else
                word[n - 1] = *s;
        }
        *mn = g_steal_pointer(&word);
        return row;
    }
}

gboolean xl_x86_reads_flags(const char *insn)
{
    const char *rest;
    gboolean lock;
    int suffix;
    g_autofree char *mn = NULL;
    const X86Row *row = split_mnemonic(insn, &rest, &lock, &suffix, &mn);
    return row && row->xlate == x86_jcc;
}

/* What every row shares: the operand size, LOCK, the operand count. */
static gboolean x86_check(XlThread *th, const X86Insn *in)
{
    const char *mn = in->row->mn;
    if (in->size == 8 && th->x->t->arch == LITMUS_X86)
        return xl_fail(th, in->col, "64-bit operands do not exist in X86 (use X86_64)");
    if (in->lock && in->row->lock == LOCK_NO)
        return xl_fail(th, in->col, "LOCK cannot prefix %s", mn);
    if (!in->lock && in->row->lock == LOCK_MUST)
        return xl_fail(th, in->col, "%s without LOCK is not atomic; not supported", mn);
    guint want = (guint)strlen(in->row->operands);
    if (in->n != want)
        return xl_fail(th, in->col, "%s takes %u operand%s, got %u", mn, want, want == 1 ? "" : "s", in->n);
    return TRUE;
}

gboolean xl_x86_insn(XlThread *th, const char *text, guint col_off)
{
    LitmusArch arch = th->x->t->arch;
    const char *rest;
    X86Insn in = { .col = col_off };
    int suffix;
    g_autofree char *mn = NULL;
    in.row = split_mnemonic(text, &rest, &in.lock, &suffix, &mn);
    if (!in.row)
        return xl_fail(th, col_off, "unsupported %s instruction '%s'", litmus_arch_name(arch), mn);
    guint base = col_off + (guint)(rest - text);
    g_autoptr(GArray) offs = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autoptr(GPtrArray) strs = *rest ? xl_split_operands(rest, offs) : g_ptr_array_new_with_free_func(g_free);
    if (strs->len > 3)
        return xl_fail(th, base, "too many operands");
    XOp ops[3];
    memset(ops, 0, sizeof ops);
    gboolean label = in.row->operands[0] == 'L';
    gboolean ok = TRUE;
    guint n = 0;
    for (; n < strs->len && ok; n++)
        ok = parse_xop(th, arch, strs->pdata[n], base + g_array_index(offs, guint, n), label, &ops[n]);
    if (ok && arch == LITMUS_X86_64 && n == 2) {
        /* AT&T: src, dst -> dst, src */
        XOp tmp = ops[0];
        ops[0] = ops[1];
        ops[1] = tmp;
    }
    in.ops = ops;
    in.n = n;
    in.size = op_size(suffix, ops, n);
    ok = ok && x86_check(th, &in) && in.row->xlate(th, &in);
    for (guint i = 0; i < 3; i++)
        xop_clear(&ops[i]);
    return ok;
}
