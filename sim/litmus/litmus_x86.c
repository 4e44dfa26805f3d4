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
    return lit_parse_int(&c, v) && c.p == c.end;
}

/* Memory inside [..] (Intel) or (..) (AT&T): a location, a register, either +/- a number. */
static gboolean parse_mem_inner(XlThread *th, LitmusArch arch, const char *s, XOp *o)
{
    g_autofree char *in = g_strdup(s);
    g_strstrip(in);
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

/* The value of a source operand; a memory source is loaded into scratch t1. */
static gboolean read_src(XlThread *th, const XOp *o, int size, IsaSrc *v)
{
    if (o->kind == XO_IMM) {
        *v = xl_imm(o->imm & size_mask(size));
        return TRUE;
    }
    if (o->kind == XO_REG) {
        int r = xl_reg(th, o->canon);
        *v = xl_r(r);
        return r >= 0;
    }
    IsaMem m;
    int t = xl_scratch(th, &th->t1);
    if (t < 0 || !mem_of(th, o, &m))
        return FALSE;
    IsaInsn *in = xl_emit(th, OP_LD);
    in->rd = (int8_t)t;
    in->size = (uint8_t)size;
    in->mem = m;
    *v = xl_r(t);
    return TRUE;
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

static const char *const known[] = {
    "mov", "add", "sub", "xor", "and", "or", "inc", "dec", "xchg", "xadd", "cmpxchg", "cmp",
    "mfence", "lfence", "sfence", "je", "jz", "jne", "jnz", "jmp", "nop",
};

static gboolean is_known(const char *m)
{
    for (guint i = 0; i < G_N_ELEMENTS(known); i++)
        if (!strcmp(m, known[i]))
            return TRUE;
    return FALSE;
}

/* Splits "lock addl" into lock, base "add" and suffix size 4 (AT&T b/w/l/q). */
static char *split_mnemonic(const char *text, const char **rest, gboolean *lock, int *suffix)
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
        if (!is_known(word)) {
            gsize n = strlen(word);
            static const char sfx[] = "bwlq";
            const char *s = n > 1 ? strchr(sfx, word[n - 1]) : NULL;
            if (s) {
                word[n - 1] = '\0';
                if (is_known(word)) {
                    *suffix = 1 << (s - sfx);
                    return g_steal_pointer(&word);
                }
                word[n - 1] = *s;
            }
        }
        return g_steal_pointer(&word);
    }
}

gboolean xl_x86_reads_flags(const char *insn)
{
    return (insn[0] == 'j' || insn[0] == 'J') && g_ascii_strncasecmp(insn, "jmp", 3);
}

static gboolean set_flags(XlThread *th, IsaSrc a, IsaSrc b, int size)
{
    int fa = xl_scratch(th, &th->fa), fb = xl_scratch(th, &th->fb);
    if (fa < 0 || fb < 0)
        return FALSE;
    xl_alu(th, OP_AND, fa, a, xl_imm(size_mask(size)));
    xl_alu(th, OP_AND, fb, b, xl_imm(size_mask(size)));
    th->flags_set = TRUE;
    return TRUE;
}

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

static gboolean x86_insn(XlThread *th, const char *mn, gboolean lock, int suffix, XOp *ops, guint n,
                         guint col_off)
{
    LitmusArch arch = th->x->t->arch;
    int size = op_size(suffix, ops, n);
    if (size == 8 && arch == LITMUS_X86)
        return xl_fail(th, col_off, "64-bit operands do not exist in X86 (use X86_64)");
#define NOPS(k) do { if (n != (k)) return xl_fail(th, col_off, "%s takes %d operand%s, got %u", mn, (k), (k) == 1 ? "" : "s", n); } while (0)
    gboolean alu = !strcmp(mn, "add") || !strcmp(mn, "sub") || !strcmp(mn, "xor") || !strcmp(mn, "and") ||
                   !strcmp(mn, "or") || !strcmp(mn, "inc") || !strcmp(mn, "dec");
    if (lock && !(alu || !strcmp(mn, "xadd") || !strcmp(mn, "cmpxchg") || !strcmp(mn, "xchg")))
        return xl_fail(th, col_off, "LOCK cannot prefix %s", mn);
    if (!strcmp(mn, "mfence") || !strcmp(mn, "lfence") || !strcmp(mn, "sfence")) {
        NOPS(0);
        xl_emit(th, OP_FENCE)->fence = mn[0] == 'm' ? FENCE_FULL : mn[0] == 'l' ? FENCE_LOAD : FENCE_STORE;
        return TRUE;
    }
    if (!strcmp(mn, "nop")) {
        NOPS(0);
        xl_emit(th, OP_NOP);
        return TRUE;
    }
    if (!strcmp(mn, "jmp") || mn[0] == 'j') {
        NOPS(1);
        if (!strcmp(mn, "jmp")) {
            xl_emit(th, OP_JMP);
        } else {
            if (!th->flags_set)
                return xl_fail(th, col_off, "%s with no CMP before it", mn);
            IsaInsn *in = xl_emit(th, OP_BR);
            in->cond = (!strcmp(mn, "je") || !strcmp(mn, "jz")) ? COND_EQ : COND_NE;
            in->a = xl_r(th->fa);
            in->b = xl_r(th->fb);
        }
        xl_target(th, ops[0].text, ops[0].off);
        return TRUE;
    }
    if (!strcmp(mn, "mov")) {
        NOPS(2);
        XOp *d = &ops[0], *s = &ops[1];
        if (d->kind == XO_MEM && s->kind == XO_MEM)
            return xl_fail(th, col_off, "MOV cannot move memory to memory");
        if (d->kind == XO_IMM)
            return xl_fail(th, d->off, "MOV cannot write an immediate");
        if (d->kind == XO_MEM) {
            IsaSrc v;
            return read_src(th, s, size, &v) && store(th, d, size, v);
        }
        if (s->kind == XO_MEM && size >= 4) {
            /* Straight into the register: ld zero-extends, as a 32-bit write does. */
            int rd = xl_reg(th, d->canon);
            IsaMem m;
            if (rd < 0 || !mem_of(th, s, &m))
                return FALSE;
            IsaInsn *in = xl_emit(th, OP_LD);
            in->rd = (int8_t)rd;
            in->size = (uint8_t)size;
            in->mem = m;
            return TRUE;
        }
        IsaSrc v;
        return read_src(th, s, size, &v) && write_reg(th, d, size, v);
    }
    if (!strcmp(mn, "cmp")) {
        NOPS(2);
        IsaSrc a, b;
        if (ops[0].kind == XO_MEM && ops[1].kind == XO_MEM)
            return xl_fail(th, col_off, "CMP cannot compare memory with memory");
        if (!read_src(th, &ops[0], size, &a))
            return FALSE;
        if (ops[0].kind == XO_MEM) {
            /* t1 holds the loaded value; move it out of the way of the second operand. */
            return read_src(th, &ops[1], size, &b) && set_flags(th, a, b, size);
        }
        return read_src(th, &ops[1], size, &b) && set_flags(th, a, b, size);
    }
    if (!strcmp(mn, "xchg")) {
        NOPS(2);
        XOp *m = ops[0].kind == XO_MEM ? &ops[0] : &ops[1];
        XOp *r = ops[0].kind == XO_MEM ? &ops[1] : &ops[0];
        if (r->kind != XO_REG)
            return xl_fail(th, col_off, "XCHG needs a register");
        if (m->kind == XO_REG) {
            /* register swap through a scratch */
            int t = xl_scratch(th, &th->t2);
            int ra = xl_reg(th, m->canon), rb = xl_reg(th, r->canon);
            if (t < 0 || ra < 0 || rb < 0)
                return FALSE;
            xl_alu(th, OP_MOV, t, xl_r(ra), xl_imm(0));
            return write_reg(th, m, size, xl_r(rb)) && write_reg(th, r, size, xl_r(t));
        }
        if (size < 4)
            return xl_fail(th, col_off, "8- and 16-bit XCHG is not supported");
        int rd = xl_reg(th, r->canon);
        return rd >= 0 && emit_atomic(th, OP_XCHG, rd, m, size, xl_r(rd), xl_imm(0));
    }
    if (!strcmp(mn, "xadd") || !strcmp(mn, "cmpxchg")) {
        NOPS(2);
        if (!lock)
            return xl_fail(th, col_off, "%s without LOCK is not atomic; not supported", mn);
        if (ops[0].kind != XO_MEM || ops[1].kind != XO_REG)
            return xl_fail(th, col_off, "LOCK %s needs a memory destination and a register", mn);
        if (size < 4)
            return xl_fail(th, col_off, "8- and 16-bit LOCK %s is not supported", mn);
        int rs = xl_reg(th, ops[1].canon);
        if (rs < 0)
            return FALSE;
        if (!strcmp(mn, "xadd"))
            return emit_atomic(th, OP_FADD, rs, &ops[0], size, xl_r(rs), xl_imm(0));
        /* cmpxchg: if [m] == EAX then [m] := src; EAX := old either way. ZF: old == EAX. */
        int ax = xl_reg(th, "ax");
        if (ax < 0)
            return FALSE;
        int fa = -1, fb = -1;
        if (th->uses_flags) {
            fa = xl_scratch(th, &th->fa);
            fb = xl_scratch(th, &th->fb);
            if (fa < 0 || fb < 0)
                return FALSE;
            xl_alu(th, OP_AND, fb, xl_r(ax), xl_imm(size_mask(size)));
        }
        if (!emit_atomic(th, OP_CAS, ax, &ops[0], size, xl_r(ax), xl_r(rs)))
            return FALSE;
        if (th->uses_flags) {
            xl_alu(th, OP_MOV, fa, xl_r(ax), xl_imm(0));
            th->flags_set = TRUE;
        }
        return TRUE;
    }
    if (alu) {
        gboolean unary = !strcmp(mn, "inc") || !strcmp(mn, "dec");
        NOPS(unary ? 1 : 2);
        XOp *d = &ops[0];
        IsaSrc v;
        if (unary)
            v = xl_imm(mn[0] == 'i' ? 1 : -1);
        else if (!read_src(th, &ops[1], size, &v))
            return FALSE;
        IsaOp op = !strcmp(mn, "sub") ? OP_SUB : !strcmp(mn, "xor") ? OP_XOR : !strcmp(mn, "and") ? OP_AND
                 : !strcmp(mn, "or") ? OP_OR : OP_ADD;
        if (d->kind == XO_IMM)
            return xl_fail(th, d->off, "%s cannot write an immediate", mn);
        if (d->kind == XO_MEM && !unary && ops[1].kind == XO_MEM)
            return xl_fail(th, col_off, "%s cannot combine two memory operands", mn);
        if (lock) {
            if (d->kind != XO_MEM)
                return xl_fail(th, col_off, "LOCK %s needs a memory destination", mn);
            if (op == OP_XOR)
                return xl_fail(th, col_off, "LOCK XOR has no ISA atomic (fadd, for, fand)");
            int sink = xl_scratch(th, &th->sink);
            if (sink < 0)
                return FALSE;
            if (op == OP_SUB) {
                if (v.reg == ISA_NO_REG) {
                    v.imm = -v.imm;
                } else {
                    int t = xl_scratch(th, &th->t2);
                    if (t < 0)
                        return FALSE;
                    xl_alu(th, OP_SUB, t, xl_imm(0), v);
                    v = xl_r(t);
                }
            }
            IsaOp aop = op == OP_OR ? OP_FOR : op == OP_AND ? OP_FAND : OP_FADD;
            return emit_atomic(th, aop, sink, d, size, v, xl_imm(0));
        }
        if (d->kind == XO_MEM) {
            /* Not atomic without LOCK: a load, the op, a store, as the hardware does it. */
            int t = xl_scratch(th, &th->t2);
            IsaMem m;
            if (t < 0 || !mem_of(th, d, &m))
                return FALSE;
            IsaInsn *in = xl_emit(th, OP_LD);
            in->rd = (int8_t)t;
            in->size = (uint8_t)size;
            in->mem = m;
            xl_alu(th, op, t, xl_r(t), v);
            return store(th, d, size, xl_r(t));
        }
        int rd = xl_reg(th, d->canon);
        if (rd < 0)
            return FALSE;
        if (size >= 4) {
            xl_alu(th, op, rd, xl_r(rd), v);
            if (size == 4)
                xl_alu(th, OP_AND, rd, xl_r(rd), xl_imm(MASK32));
            return TRUE;
        }
        int t = xl_scratch(th, &th->t2);
        if (t < 0)
            return FALSE;
        xl_alu(th, op, t, xl_r(rd), v);
        return write_reg(th, d, size, xl_r(t));
    }
#undef NOPS
    return xl_fail(th, col_off, "unsupported %s instruction '%s'", litmus_arch_name(arch), mn);
}

gboolean xl_x86_insn(XlThread *th, const char *text, guint col_off)
{
    LitmusArch arch = th->x->t->arch;
    const char *rest;
    gboolean lock;
    int suffix;
    g_autofree char *mn = split_mnemonic(text, &rest, &lock, &suffix);
    if (!is_known(mn))
        return xl_fail(th, col_off, "unsupported %s instruction '%s'", litmus_arch_name(arch), mn);
    guint base = col_off + (guint)(rest - text);
    g_autoptr(GArray) offs = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autoptr(GPtrArray) strs = *rest ? xl_split_operands(rest, offs) : g_ptr_array_new_with_free_func(g_free);
    if (strs->len > 3)
        return xl_fail(th, base, "too many operands");
    XOp ops[3];
    memset(ops, 0, sizeof ops);
    gboolean jump = mn[0] == 'j';
    gboolean ok = TRUE;
    guint n = 0;
    for (; n < strs->len && ok; n++)
        ok = parse_xop(th, arch, strs->pdata[n], base + g_array_index(offs, guint, n), jump, &ops[n]);
    if (ok && arch == LITMUS_X86_64 && n == 2) {
        /* AT&T: src, dst -> dst, src */
        XOp tmp = ops[0];
        ops[0] = ops[1];
        ops[1] = tmp;
    }
    if (ok)
        ok = x86_insn(th, mn, lock, suffix, ops, n, col_off);
    for (guint i = 0; i < 3; i++)
        xop_clear(&ops[i]);
    return ok;
}
