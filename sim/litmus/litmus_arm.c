/* AArch64 litmus instructions -> tiny ISA.
 *
 * Register data flow is kept exact, because address, data and control dependencies are what
 * the hardware orders by: `EOR W2,W0,W0` feeding an address really computes through
 * registers.  W-register results are truncated to 32 bits (an `and` after the op).  The ISA has
 * no flags: CMP copies its operands into two scratch registers that B.cond and CSEL read.
 *
 *   LDR/STR[B|H]        ld/st (W: 4 bytes, X: 8)   [Xn], [Xn,#i], [Xn,Rm{,SXTW|UXTW|LSL #k}],
 *                                                  post-index [Xn],#i and pre-index [Xn,#i]!
 *   LDAR, LDAPR / STLR  ld.acq / st.rel            (LDAPR marked ISA_MM_ACQ_PC: RCpc)
 *   LDXR/LDAXR          ldx / ldx.acq
 *   STXR/STLXR          stx / stx.rel
 *   CAS{A,L,AL}         cas (Rs := old; store Rt if old == Rs)
 *   SWP, LDADD, LDSET, LDCLR {A,L,AL}   xchg, fadd, for, fand (LDCLR: and with ~Rs)
 *   STADD, STSET, STCLR {L}             the same, result discarded
 *   DMB/DSB SY|ISH|OSH|NSH -> fence; ..LD -> fence.load; ..ST -> fence.store; ISB -> fence
 *                       marked ISA_MM_ISB
 *   MOV ADD SUB EOR ORR AND CMP CSEL B B.EQ B.NE CBZ CBNZ NOP
 *
 * A no-return atomic (destination WZR/XZR) loses its acquire: the architecture does not order
 * later accesses after a load whose result is discarded (herd's MP+rel+SWPacq-noret); it is
 * marked ISA_MM_NORET for the axiomatic models (a NoRet read: DMB LD does not order it).
 * The ISA_MM_* marks change nothing for the interpreter or the timing model. */
#include <stdlib.h>
#include <string.h>
#include "sim/litmus/litmus_priv.h"

#define MASK32 0xffffffffLL

typedef struct {
    gboolean zr;
    gboolean w;            /* 32-bit view */
    char canon[4];         /* "X3" */
} AReg;

static gboolean parse_reg(const char *s, AReg *r)
{
    memset(r, 0, sizeof *r);
    if (!g_ascii_strcasecmp(s, "WZR") || !g_ascii_strcasecmp(s, "XZR")) {
        r->zr = TRUE;
        r->w = g_ascii_toupper(s[0]) == 'W';
        return TRUE;
    }
    int width;
    const char *c = litmus_reg_canonical(LITMUS_AARCH64, s, &width);
    if (!c)
        return FALSE;
    g_strlcpy(r->canon, c, sizeof r->canon);
    r->w = width == 4;
    return TRUE;
}

static gboolean parse_imm(const char *s, int64_t *v)
{
    if (*s != '#')
        return FALSE;
    s++;
    char *end;
    gboolean neg = *s == '-';
    if (neg)
        s++;
    if (!g_ascii_isdigit(*s))
        return FALSE;
    guint64 u = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? g_ascii_strtoull(s + 2, &end, 16)
                                                             : g_ascii_strtoull(s, &end, 10);
    if (*end)
        return FALSE;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return TRUE;
}

/* One instruction's operands, split at top-level commas. */
typedef struct {
    GPtrArray *ops;
    GArray *offs;
    guint base;            /* column offset of the operand text in the cell */
    guint at;              /* column offset of the instruction in the cell */
} Ops;

static const char *op_s(Ops *o, guint i) { return o->ops->pdata[i]; }
static guint op_off(Ops *o, guint i) { return o->base + g_array_index(o->offs, guint, i); }

static gboolean want_reg(XlThread *th, Ops *o, guint i, AReg *r)
{
    if (!parse_reg(op_s(o, i), r))
        return xl_fail(th, op_off(o, i), "expected a W or X register, got '%s'", op_s(o, i));
    return TRUE;
}

/* A register operand as a source value (WZR/XZR read as 0). */
static gboolean src_of(XlThread *th, const AReg *r, IsaSrc *out)
{
    if (r->zr) {
        *out = xl_imm(0);
        return TRUE;
    }
    int n = xl_reg(th, r->canon);
    *out = xl_r(n);
    return n >= 0;
}

/* A destination register; writes to WZR/XZR go to a scratch sink. */
static int dst_of(XlThread *th, const AReg *r)
{
    return r->zr ? xl_scratch(th, &th->sink) : xl_reg(th, r->canon);
}

static void trunc_w(XlThread *th, int rd)
{
    xl_alu(th, OP_AND, rd, xl_r(rd), xl_imm(MASK32));
}

/* A register or #imm second operand. */
static gboolean operand2(XlThread *th, Ops *o, guint i, gboolean w, IsaSrc *out)
{
    int64_t v;
    if (parse_imm(op_s(o, i), &v)) {
        *out = xl_imm(w ? (v & MASK32) : v);
        return TRUE;
    }
    AReg r;
    return want_reg(th, o, i, &r) && src_of(th, &r, out);
}

/* A memory operand (and an optional post-index immediate in the next operand); may emit the
 * address computation into a scratch register; sets *wb_reg and *wb_imm for write-back forms and
 * *pre for pre-index. */
static gboolean mem_operand(XlThread *th, Ops *o, guint i, IsaMem *m, int *wb_reg, int64_t *wb_imm,
                            gboolean *pre)
{
    const char *s = op_s(o, i);
    guint off = op_off(o, i);
    *wb_reg = -1;
    *pre = FALSE;
    gsize n = strlen(s);
    gboolean bang = n && s[n - 1] == '!';
    if (bang)
        n--;
    if (n < 2 || s[0] != '[' || s[n - 1] != ']')
        return xl_fail(th, off, "expected a memory operand [Xn...], got '%s'", s);
    g_autofree char *inner = g_strndup(s + 1, n - 2);
    g_autoptr(GArray) offs = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autoptr(GPtrArray) parts = xl_split_operands(inner, offs);
    AReg base;
    if (parts->len < 1 || !parse_reg(parts->pdata[0], &base) || base.w || base.zr)
        return xl_fail(th, off + 1, "expected an X base register in '%s'", s);
    int rb = xl_reg(th, base.canon);
    if (rb < 0)
        return FALSE;
    memset(m, 0, sizeof *m);
    m->sym = -1;
    m->base = (int8_t)rb;
    int64_t imm;
    if (parts->len == 2 && parse_imm(parts->pdata[1], &imm)) {
        if (bang) {
            /* pre-index: the base moves first, then the access uses it */
            xl_alu(th, OP_ADD, rb, xl_r(rb), xl_imm(imm));
            *pre = TRUE;
        } else {
            m->offset = imm;
        }
    } else if (parts->len >= 2) {
        if (bang)
            return xl_fail(th, off, "pre-index needs an immediate offset");
        AReg idx;
        if (!parse_reg(parts->pdata[1], &idx))
            return xl_fail(th, off + 1 + g_array_index(offs, guint, 1), "expected an index register, got '%s'",
                           (char *)parts->pdata[1]);
        IsaSrc is;
        if (!src_of(th, &idx, &is))
            return FALSE;
        int shift = 0;
        gboolean sxtw = FALSE, uxtw = FALSE;
        if (parts->len >= 3) {
            char *ext = g_ascii_strup(parts->pdata[2], -1);
            g_strstrip(ext);
            char *sp = strpbrk(ext, " \t#");
            int64_t k = 0;
            if (sp) {
                char *h = strchr(sp, '#');
                if (!h || !parse_imm(h, &k)) {
                    g_free(ext);
                    return xl_fail(th, off + 1 + g_array_index(offs, guint, 2), "bad shift amount");
                }
                *sp = '\0';
            }
            shift = (int)k;
            sxtw = !strcmp(ext, "SXTW");
            uxtw = !strcmp(ext, "UXTW");
            gboolean lsl = !strcmp(ext, "LSL") || !strcmp(ext, "SXTX") || !strcmp(ext, "UXTX");
            g_free(ext);
            if (!sxtw && !uxtw && !lsl)
                return xl_fail(th, off + 1 + g_array_index(offs, guint, 2),
                               "unsupported index extension '%s' (SXTW, UXTW or LSL)", (char *)parts->pdata[2]);
        } else if (idx.w) {
            return xl_fail(th, off, "a W index register needs SXTW or UXTW");
        }
        int t = xl_scratch(th, &th->t1);
        if (t < 0)
            return FALSE;
        if (sxtw || uxtw) {
            /* Extend the low 32 bits: sign extension is (v ^ 2^31) - 2^31 without a shift. */
            xl_alu(th, OP_AND, t, is, xl_imm(MASK32));
            if (sxtw) {
                xl_alu(th, OP_XOR, t, xl_r(t), xl_imm(0x80000000LL));
                xl_alu(th, OP_SUB, t, xl_r(t), xl_imm(0x80000000LL));
            }
        } else {
            xl_alu(th, OP_MOV, t, is, xl_imm(0));
        }
        if (shift)
            xl_alu(th, OP_SHL, t, xl_r(t), xl_imm(shift));
        xl_alu(th, OP_ADD, t, xl_r(t), xl_r(rb));
        m->base = (int8_t)t;
    } else if (bang) {
        return xl_fail(th, off, "pre-index needs an immediate offset");
    }
    /* Post-index: [Xn], #imm */
    if (i + 1 < o->ops->len) {
        if (!parse_imm(op_s(o, i + 1), wb_imm))
            return xl_fail(th, op_off(o, i + 1), "expected a post-index immediate, got '%s'", op_s(o, i + 1));
        if (parts->len != 1)
            return xl_fail(th, off, "post-index needs a plain [Xn] address");
        *wb_reg = rb;
    }
    return TRUE;
}

static void writeback(XlThread *th, int wb_reg, int64_t wb_imm)
{
    if (wb_reg >= 0)
        xl_alu(th, OP_ADD, wb_reg, xl_r(wb_reg), xl_imm(wb_imm));
}

static gboolean nops(XlThread *th, Ops *o, guint lo, guint hi, const char *mn)
{
    if (o->ops->len < lo || o->ops->len > hi)
        return xl_fail(th, 0, "%s takes %u operand%s, got %u", mn, lo, lo == 1 ? "" : "s", o->ops->len);
    return TRUE;
}

/* Splits an atomic's mnemonic: base + {A, L, AL} + {B, H}. */
static gboolean atomic_suffix(const char *mn, const char *base, IsaOrder *order, int *size_override)
{
    gsize n = strlen(base);
    if (strncmp(mn, base, n))
        return FALSE;
    const char *s = mn + n;
    *size_override = 0;
    gsize len = strlen(s);
    if (len && (s[len - 1] == 'B' || s[len - 1] == 'H')) {
        *size_override = s[len - 1] == 'B' ? 1 : 2;
        len--;
    }
    if (len == 0)
        *order = ORD_PLAIN;
    else if (len == 1 && s[0] == 'A')
        *order = ORD_ACQ;
    else if (len == 1 && s[0] == 'L')
        *order = ORD_REL;
    else if (len == 2 && s[0] == 'A' && s[1] == 'L')
        *order = ORD_ACQREL;
    else
        return FALSE;
    return TRUE;
}

static IsaOrder drop_acquire(IsaOrder o)
{
    return o == ORD_ACQREL ? ORD_REL : o == ORD_ACQ ? ORD_PLAIN : o;
}

/* ---- loads, stores and atomics: families of mnemonics with order and size suffixes ---- */

/* An LSE atomic family: base + {A, L, AL} + {B, H}. */
typedef struct {
    const char *base;
    IsaOp op;
    gboolean store_only;   /* ST*: no result register, and no acquire form */
    gboolean clear;        /* LDCLR/STCLR: and with ~Rs */
} ArmAtomic;

static const ArmAtomic arm_atomics[] = {
    { "CAS", OP_CAS, FALSE, FALSE },    { "SWP", OP_XCHG, FALSE, FALSE },
    { "LDADD", OP_FADD, FALSE, FALSE }, { "LDSET", OP_FOR, FALSE, FALSE },
    { "LDCLR", OP_FAND, FALSE, TRUE },  { "STADD", OP_FADD, TRUE, FALSE },
    { "STSET", OP_FOR, TRUE, FALSE },   { "STCLR", OP_FAND, TRUE, TRUE },
};

/* The family of an atomic mnemonic with its order and size (0: the register's), or NULL. */
static const ArmAtomic *atomic_family(const char *mn, IsaOrder *order, int *bsize)
{
    for (guint f = 0; f < G_N_ELEMENTS(arm_atomics); f++) {
        const ArmAtomic *fam = &arm_atomics[f];
        if (!atomic_suffix(mn, fam->base, order, bsize))
            continue;
        if (fam->store_only && (*order == ORD_ACQ || *order == ORD_ACQREL))
            continue;      /* STADDA does not exist */
        return fam;
    }
    return NULL;
}

/* CAS Rs, Rt, [Xn]: Rs := old; if old == Rs then [Xn] := Rt.
 * OP Rs, Rt, [Xn]: Rt := old; [Xn] := old OP Rs.  ST<OP> Rs, [Xn]: the same, Rt = ZR. */
static gboolean arm_atomic(XlThread *th, const ArmAtomic *fam, const char *mn, IsaOrder order, int bsize, Ops *o)
{
    guint nreg = fam->store_only ? 1 : 2;
    if (!nops(th, o, nreg + 1, nreg + 1, mn))
        return FALSE;
    AReg rs, rt;
    if (!want_reg(th, o, 0, &rs))
        return FALSE;
    if (!fam->store_only && !want_reg(th, o, 1, &rt))
        return FALSE;
    if (fam->store_only)
        rt = (AReg){ .zr = TRUE, .w = rs.w };
    IsaMem m;
    int wb;
    int64_t wbi;
    gboolean pre;
    if (!mem_operand(th, o, nreg, &m, &wb, &wbi, &pre))
        return FALSE;
    if (wb >= 0 || pre || m.offset)
        return xl_fail(th, op_off(o, nreg), "%s takes a plain [Xn] address", mn);
    int size = bsize ? bsize : rs.w ? 4 : 8;
    IsaSrc vs, vt;
    if (!src_of(th, &rs, &vs))
        return FALSE;
    if (fam->op == OP_CAS) {
        if (!src_of(th, &rt, &vt))
            return FALSE;
        int rd = dst_of(th, &rs);
        if (rd < 0)
            return FALSE;
        IsaInsn *in = xl_emit(th, OP_CAS);
        in->size = (uint8_t)size;
        in->order = rs.zr ? drop_acquire(order) : order;
        in->mm = rs.zr ? ISA_MM_NORET : 0;
        in->rd = (int8_t)rd;
        in->mem = m;
        in->a = vs;
        in->b = vt;
        return TRUE;
    }
    if (fam->clear) {
        int t = xl_scratch(th, &th->t2);
        if (t < 0)
            return FALSE;
        xl_alu(th, OP_XOR, t, vs, xl_imm(-1));
        vs = xl_r(t);
    }
    int rd = dst_of(th, &rt);
    if (rd < 0)
        return FALSE;
    IsaInsn *in = xl_emit(th, fam->op);
    in->size = (uint8_t)size;
    in->order = rt.zr ? drop_acquire(order) : order;
    in->mm = rt.zr ? ISA_MM_NORET : 0;
    in->rd = (int8_t)rd;
    in->mem = m;
    in->a = vs;
    return TRUE;
}

/* Loads and stores: base mnemonic (+ B or H), ISA op, order, whether it is a store. */
typedef struct {
    const char *mn;
    IsaOp op;
    IsaOrder order;
    gboolean store;
    uint8_t mm;            /* ISA_MM_* */
} ArmLdSt;

static const ArmLdSt arm_ldsts[] = {
    { "LDR", OP_LD, ORD_PLAIN, FALSE, 0 },   { "LDAR", OP_LD, ORD_ACQ, FALSE, 0 },
    { "LDAPR", OP_LD, ORD_ACQ, FALSE, ISA_MM_ACQ_PC },
    { "LDXR", OP_LDX, ORD_PLAIN, FALSE, 0 }, { "LDAXR", OP_LDX, ORD_ACQ, FALSE, 0 },
    { "STR", OP_ST, ORD_PLAIN, TRUE, 0 },    { "STLR", OP_ST, ORD_REL, TRUE, 0 },
    { "STXR", OP_STX, ORD_PLAIN, TRUE, 0 },  { "STLXR", OP_STX, ORD_REL, TRUE, 0 },
};

/* The load or store a mnemonic names, with its size suffix (0: the register's), or NULL. */
static const ArmLdSt *ldst_of(const char *mn, int *bsize)
{
    for (guint k = 0; k < G_N_ELEMENTS(arm_ldsts); k++) {
        gsize n = strlen(arm_ldsts[k].mn);
        if (strncmp(mn, arm_ldsts[k].mn, n))
            continue;
        if (!mn[n])
            *bsize = 0;
        else if ((mn[n] == 'B' || mn[n] == 'H') && !mn[n + 1])
            *bsize = mn[n] == 'B' ? 1 : 2;
        else
            continue;
        return &arm_ldsts[k];
    }
    return NULL;
}

static gboolean arm_ldst(XlThread *th, const ArmLdSt *ls, const char *mn, int bsize, Ops *o)
{
    gboolean excl = ls->op == OP_STX;
    guint first = excl ? 1 : 0;
    if (o->ops->len < first + 2 || o->ops->len > first + 3)
        return xl_fail(th, 0, "%s: wrong number of operands", mn);
    AReg status = { 0 }, rt;
    if (excl && !want_reg(th, o, 0, &status))
        return FALSE;
    if (!want_reg(th, o, first, &rt))
        return FALSE;
    IsaMem m;
    int wb;
    int64_t wbi;
    gboolean pre;
    if (!mem_operand(th, o, first + 1, &m, &wb, &wbi, &pre))
        return FALSE;
    /* Only LDR/STR have offset and write-back forms. */
    gboolean plain_only = ls->order != ORD_PLAIN || ls->op == OP_LDX || excl;
    if (plain_only && (wb >= 0 || pre || m.offset))
        return xl_fail(th, op_off(o, first + 1), "%s takes a plain [Xn] address", mn);
    int size = bsize ? bsize : rt.w ? 4 : 8;
    if (ls->store) {
        IsaSrc v;
        if (!src_of(th, &rt, &v))
            return FALSE;
        IsaInsn *in = xl_emit(th, ls->op);
        in->size = (uint8_t)size;
        in->order = ls->order;
        in->mem = m;
        in->a = v;
        if (excl) {
            int rs = dst_of(th, &status);
            if (rs < 0)
                return FALSE;
            g_array_index(th->body, IsaInsn, th->body->len - 1).rd = (int8_t)rs;
        }
    } else {
        int rd = dst_of(th, &rt);
        if (rd < 0)
            return FALSE;
        IsaInsn *in = xl_emit(th, ls->op);
        in->size = (uint8_t)size;
        in->order = ls->order;
        in->mm = ls->mm;
        in->mem = m;
        in->rd = (int8_t)rd;
    }
    writeback(th, wb, wbi);
    return TRUE;
}

/* ---- the rest: one row a mnemonic ---- */

typedef struct ArmRow ArmRow;
struct ArmRow {
    const char *mn;
    gboolean (*xlate)(XlThread *th, const ArmRow *row, Ops *o);
    union {
        IsaOp op;          /* ALU rows */
        IsaCond cond;      /* conditional branches */
    } arg;
};

static gboolean arm_nop(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 0, 0, row->mn))
        return FALSE;
    xl_emit(th, OP_NOP);
    return TRUE;
}

/* MOV Rd, Rm|#imm; a W destination keeps only the low 32 bits of a register source. */
static gboolean arm_mov(XlThread *th, const ArmRow *row, Ops *o)
{
    AReg d;
    IsaSrc v;
    if (!nops(th, o, 2, 2, row->mn) || !want_reg(th, o, 0, &d) || !operand2(th, o, 1, d.w, &v))
        return FALSE;
    int rd = dst_of(th, &d);
    if (rd < 0)
        return FALSE;
    if (d.w && v.reg != ISA_NO_REG)
        xl_alu(th, OP_AND, rd, v, xl_imm(MASK32));
    else
        xl_alu(th, OP_MOV, rd, v, xl_imm(0));
    return TRUE;
}

/* ADD SUB EOR ORR AND Rd, Rn, Rm|#imm */
static gboolean arm_alu(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 3, 3, row->mn))
        return FALSE;
    AReg d, n;
    if (!want_reg(th, o, 0, &d) || !want_reg(th, o, 1, &n))
        return FALSE;
    IsaSrc vn, vm;
    if (!src_of(th, &n, &vn) || !operand2(th, o, 2, d.w, &vm))
        return FALSE;
    int rd = dst_of(th, &d);
    if (rd < 0)
        return FALSE;
    xl_alu(th, row->arg.op, rd, vn, vm);
    if (d.w)
        trunc_w(th, rd);
    return TRUE;
}

/* CMP a, b sets the flag registers (32-bit compares see only the low halves). */
static gboolean arm_cmp(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 2, 2, row->mn))
        return FALSE;
    AReg a;
    if (!want_reg(th, o, 0, &a))
        return FALSE;
    IsaSrc va, vb;
    return src_of(th, &a, &va) && operand2(th, o, 1, a.w, &vb) && xl_set_flags(th, va, vb, a.w ? 4 : 8);
}

static gboolean parse_cc(const char *s, IsaCond *c)
{
    if (!g_ascii_strcasecmp(s, "EQ"))
        *c = COND_EQ;
    else if (!g_ascii_strcasecmp(s, "NE"))
        *c = COND_NE;
    else
        return FALSE;
    return TRUE;
}

/* CSEL d, n, m, cc without a branch, so that d depends on the compared values through data:
 *   t1 = fa ^ fb;  t2 = 0 - t1;  t1 = (t1 | t2) >> 63      (1 iff fa != fb)
 *   t2 = t1 - 1   (all ones iff equal);  t1 = 0 - t1   (all ones iff not equal)
 *   EQ: d = (n & t2) | (m & t1);  NE: d = (m & t2) | (n & t1) */
static gboolean arm_csel(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 4, 4, row->mn))
        return FALSE;
    AReg d, n, m;
    IsaCond cc;
    if (!want_reg(th, o, 0, &d) || !want_reg(th, o, 1, &n) || !want_reg(th, o, 2, &m))
        return FALSE;
    if (!parse_cc(op_s(o, 3), &cc))
        return xl_fail(th, op_off(o, 3), "unsupported condition '%s' (EQ or NE)", op_s(o, 3));
    if (!th->flags_set)
        return xl_fail(th, 0, "CSEL with no CMP before it");
    IsaSrc vn, vm;
    if (!src_of(th, &n, &vn) || !src_of(th, &m, &vm))
        return FALSE;
    int t1 = xl_scratch(th, &th->t1), t2 = xl_scratch(th, &th->t2), rd = dst_of(th, &d);
    if (t1 < 0 || t2 < 0 || rd < 0)
        return FALSE;
    xl_alu(th, OP_XOR, t1, xl_r(th->fa), xl_r(th->fb));
    xl_alu(th, OP_SUB, t2, xl_imm(0), xl_r(t1));
    xl_alu(th, OP_OR, t1, xl_r(t1), xl_r(t2));
    xl_alu(th, OP_SHR, t1, xl_r(t1), xl_imm(63));
    xl_alu(th, OP_SUB, t2, xl_r(t1), xl_imm(1));
    xl_alu(th, OP_SUB, t1, xl_imm(0), xl_r(t1));
    IsaSrc when_eq = cc == COND_EQ ? vn : vm, when_ne = cc == COND_EQ ? vm : vn;
    /* the two masking ANDs are the selection: marked, so that the axiomatic models pass on
     * the dependencies of the operand selected only (herd's CSEL) */
    xl_alu(th, OP_AND, t2, when_eq, xl_r(t2));
    g_array_index(th->body, IsaInsn, th->body->len - 1).mm = ISA_MM_SELECT;
    xl_alu(th, OP_AND, t1, when_ne, xl_r(t1));
    g_array_index(th->body, IsaInsn, th->body->len - 1).mm = ISA_MM_SELECT;
    xl_alu(th, OP_OR, rd, xl_r(t2), xl_r(t1));
    if (d.w)
        trunc_w(th, rd);
    return TRUE;
}

/* DMB/DSB option: what it orders; the shareability domain does not matter on one machine. */
static gboolean arm_barrier(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 1, 1, row->mn))
        return FALSE;
    g_autofree char *opt = g_ascii_strup(op_s(o, 0), -1);
    static const struct { const char *name; IsaFence f; } opts[] = {
        { "SY", FENCE_FULL },     { "ISH", FENCE_FULL },     { "OSH", FENCE_FULL },
        { "NSH", FENCE_FULL },    { "LD", FENCE_LOAD },      { "ISHLD", FENCE_LOAD },
        { "OSHLD", FENCE_LOAD },  { "NSHLD", FENCE_LOAD },   { "ST", FENCE_STORE },
        { "ISHST", FENCE_STORE }, { "OSHST", FENCE_STORE },  { "NSHST", FENCE_STORE },
    };
    for (guint i = 0; i < G_N_ELEMENTS(opts); i++)
        if (!strcmp(opt, opts[i].name)) {
            xl_emit(th, OP_FENCE)->fence = opts[i].f;
            return TRUE;
        }
    return xl_fail(th, op_off(o, 0), "unsupported barrier option '%s'", op_s(o, 0));
}

/* No fetch model to flush: a full fence is the conservative stand-in (its option, if any, is
 * not read); the mark tells the axiomatic models it is an ISB. */
static gboolean arm_isb(XlThread *th, const ArmRow *row G_GNUC_UNUSED, Ops *o G_GNUC_UNUSED)
{
    IsaInsn *in = xl_emit(th, OP_FENCE);
    in->fence = FENCE_FULL;
    in->mm = ISA_MM_ISB;
    return TRUE;
}

static gboolean arm_b(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 1, 1, row->mn))
        return FALSE;
    xl_emit(th, OP_JMP);
    xl_target(th, op_s(o, 0), op_off(o, 0));
    return TRUE;
}

/* B.EQ / B.NE compare the flag registers the last CMP filled. */
static gboolean arm_bcond(XlThread *th, const ArmRow *row, Ops *o)
{
    if (!nops(th, o, 1, 1, row->mn))
        return FALSE;
    if (!th->flags_set)
        return xl_fail(th, o->at, "%s with no CMP before it", row->mn);
    IsaInsn *in = xl_emit(th, OP_BR);
    in->cond = row->arg.cond;
    in->a = xl_r(th->fa);
    in->b = xl_r(th->fb);
    xl_target(th, op_s(o, 0), op_off(o, 0));
    return TRUE;
}

/* CBZ / CBNZ Rt, label: a W register compares its low half. */
static gboolean arm_cbz(XlThread *th, const ArmRow *row, Ops *o)
{
    AReg r;
    IsaSrc v;
    if (!nops(th, o, 2, 2, row->mn) || !want_reg(th, o, 0, &r) || !src_of(th, &r, &v))
        return FALSE;
    if (r.w && !r.zr) {
        int t = xl_scratch(th, &th->t1);
        if (t < 0)
            return FALSE;
        xl_alu(th, OP_AND, t, v, xl_imm(MASK32));
        v = xl_r(t);
    }
    IsaInsn *in = xl_emit(th, OP_BR);
    in->cond = row->arg.cond;
    in->a = v;
    in->b = xl_imm(0);
    xl_target(th, op_s(o, 1), op_off(o, 1));
    return TRUE;
}

static const ArmRow arm_rows[] = {
    /* mnemonic  translation  argument */
    { "NOP",     arm_nop,     { 0 } },
    { "MOV",     arm_mov,     { 0 } },
    { "ADD",     arm_alu,     { .op = OP_ADD } },
    { "SUB",     arm_alu,     { .op = OP_SUB } },
    { "EOR",     arm_alu,     { .op = OP_XOR } },
    { "ORR",     arm_alu,     { .op = OP_OR } },
    { "AND",     arm_alu,     { .op = OP_AND } },
    { "CMP",     arm_cmp,     { 0 } },
    { "CSEL",    arm_csel,    { 0 } },
    { "DMB",     arm_barrier, { 0 } },
    { "DSB",     arm_barrier, { 0 } },
    { "ISB",     arm_isb,     { 0 } },
    { "B",       arm_b,       { 0 } },
    { "B.EQ",    arm_bcond,   { .cond = COND_EQ } },
    { "B.NE",    arm_bcond,   { .cond = COND_NE } },
    { "CBZ",     arm_cbz,     { .cond = COND_EQ } },
    { "CBNZ",    arm_cbz,     { .cond = COND_NE } },
};

gboolean xl_arm_reads_flags(const char *insn)
{
    return !g_ascii_strncasecmp(insn, "B.", 2) || !g_ascii_strncasecmp(insn, "CSEL", 4);
}

/* The mnemonic's row, else its load/store or atomic family. */
static gboolean arm_insn(XlThread *th, const char *mn, Ops *o)
{
    for (guint i = 0; i < G_N_ELEMENTS(arm_rows); i++)
        if (!strcmp(mn, arm_rows[i].mn))
            return arm_rows[i].xlate(th, &arm_rows[i], o);
    if (!strncmp(mn, "B.", 2))
        return xl_fail(th, o->at, "unsupported condition '%s' (B.EQ or B.NE)", mn);
    int bsize;
    IsaOrder order;
    const ArmLdSt *ls = ldst_of(mn, &bsize);
    if (ls)
        return arm_ldst(th, ls, mn, bsize, o);
    const ArmAtomic *fam = atomic_family(mn, &order, &bsize);
    if (fam)
        return arm_atomic(th, fam, mn, order, bsize, o);
    return xl_fail(th, o->at, "unsupported AArch64 instruction '%s'", mn);
}

gboolean xl_arm_insn(XlThread *th, const char *text, guint col_off)
{
    const char *p = text;
    while (*p && !g_ascii_isspace(*p))
        p++;
    g_autofree char *mn = g_ascii_strup(text, (gssize)(p - text));
    while (*p && g_ascii_isspace(*p))
        p++;
    Ops o = { NULL, g_array_new(FALSE, FALSE, sizeof(guint)), col_off + (guint)(p - text), col_off };
    o.ops = *p ? xl_split_operands(p, o.offs) : g_ptr_array_new_with_free_func(g_free);
    guint save_col = th->col;
    gboolean ok = arm_insn(th, mn, &o);
    th->col = save_col;
    g_ptr_array_free(o.ops, TRUE);
    g_array_free(o.offs, TRUE);
    return ok;
}
