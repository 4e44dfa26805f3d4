/* AArch64 (GCC's output) to ISA text: one table row per mnemonic form (arm64_rows below; the
 * exclusive and LSE families parse their ordering and width suffixes, one row per family).
 *
 * Registers: x0..x15 in r16..r31, x16..x30 in r34..r48, sp r49; the flags r32, r33; temporaries
 * r50..r63, fresh for each instruction.  A w register is read as its low 32 bits (zero-extended
 * where the upper half would matter) and a write of one zero-extends; xzr/wzr read 0 and a write
 * to them is dropped.
 *
 * Flags stay data, as on x86 (x86_translate.c): a flag-setting instruction records two numbers,
 * sign-extended from its width (which keeps both signed and unsigned order): cmp and subs their
 * operands, cmn and adds their result and 0, tst and ands their result and 0.  A condition is one
 * ISA compare of the two.  After cmp/subs eq, ne and the signed and unsigned orders are exact (mi,
 * pl read N of the difference: not kept); after tst/ands eq, ne, mi, pl and the signed orders
 * (C = V = 0); after cmn/adds eq, ne, mi, pl.  vs/vc are always refused.  Which holds at each
 * instruction is worked out over the jumps, and a condition reading flags not kept is refused.
 *
 * Memory: [xn], [xn, #imm], pre/post-index, [xn, xm{, lsl|uxtw|sxtw #k}], adrp + :lo12:, and
 * thread-locals through mrs tpidr_el0 + :tprel_hi12:/:tprel_lo12_nc:.  Exclusives are the ISA's
 * ldx/stx (ldaxr .acq, stlxr .rel), ldar/stlr .acq/.rel loads and stores, LSE cas/swp/ldadd/
 * ldset/ldclr (and their st- aliases) cas/xchg/fadd/for/fand with their orderings (ldclr ANDs
 * the complement); LSE code for an LL/SC target is refused, as the machine would fault. */
#include <string.h>
#include <ctype.h>
#include "sim/cfront/cfront_priv.h"
#include "sim/cfront/cf_emit.h"

#define R_FA CF_FA
#define R_FB CF_FB
#define T_FIRST 50
#define T_COUNT 14
#define A_SP 31
#define A_ZR 32

enum { FL_Z = 1, FL_N = 2, FL_S = 4, FL_U = 8 };
#define FL_CMP (FL_Z | FL_S | FL_U)
#define FL_LOGIC (FL_Z | FL_N | FL_S)
#define FL_ARITH (FL_Z | FL_N)
#define FL_NONE CF_FL_NONE
#define FL_UNREACHED CF_FL_UNREACHED

typedef struct {
    char *sym;
    gint64 off;
} AdrpBase;

typedef struct {
    CfEmit e;                  /* first: the emitter's hooks get the translator's state */
    gboolean lse;              /* the target has LSE atomics */
    AdrpBase adrp[34];         /* what adrp (or a TLS high part) last put in each register */
    GHashTable *label_adrp;    /* label -> AdrpBase[33]: what holds in every jump to it */
    gboolean falls;            /* the last instruction falls through to the next */
    gboolean adrp_top;         /* code no jump seen so far reaches: its bases are not known yet */
    GPtrArray *ops;            /* char*: the operands, split on commas outside brackets */
} Al;

/* ---- output (sim/cfront/cf_emit.h) ---- */

#define em(x, ...) cf_em(&(x)->e, __VA_ARGS__)
static const char *keep(Al *x, char *s) { return cf_keep(&x->e, s); }
static const char *tmp(Al *x) { return cf_tmp(&x->e); }
static const char *new_label(Al *x) { return cf_new_label(&x->e); }

static gboolean fail(Al *x, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Al *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cf_vfail(&x->e, fmt, ap);
    va_end(ap);
    return FALSE;
}

static const char *isa_name(Al *x, const char *sym) { return cf_isa_name(&x->e, sym); }

static guint64 mask_of(guint size) { return size >= 8 ? ~(guint64)0 : ((guint64)1 << (8 * size)) - 1; }

/* ---- registers ---- */

/* The register `t` names: its index (0..30, A_SP, A_ZR) and width; -1 when it is none. */
static int reg_of(const char *t, guint *size)
{
    if (!strcmp(t, "sp") || !strcmp(t, "wsp")) {
        *size = t[0] == 'w' ? 4 : 8;
        return A_SP;
    }
    if (!strcmp(t, "xzr") || !strcmp(t, "wzr")) {
        *size = t[0] == 'w' ? 4 : 8;
        return A_ZR;
    }
    if (!strcmp(t, "fp")) {
        *size = 8;
        return 29;
    }
    if (!strcmp(t, "lr")) {
        *size = 8;
        return 30;
    }
    if ((t[0] != 'x' && t[0] != 'w') || !isdigit((unsigned char)t[1]))
        return -1;
    char *end;
    guint64 n = g_ascii_strtoull(t + 1, &end, 10);
    if (*end || n > 30)
        return -1;
    *size = t[0] == 'w' ? 4 : 8;
    return (int)n;
}

static const char *isa_reg(Al *x, int r)
{
    if (r == A_ZR)
        return "0";
    if (r == A_SP)
        return "r49";
    return keep(x, g_strdup_printf("r%d", r < 16 ? 16 + r : 34 + (r - 16)));
}

static const char *op(Al *x, guint i) { return i < x->ops->len ? x->ops->pdata[i] : ""; }

/* Operand i as a register of the instruction (FALSE, reported, when it is not one). */
static gboolean want_reg(Al *x, guint i, int *r, guint *size)
{
    if ((*r = reg_of(op(x, i), size)) >= 0)
        return TRUE;
    return fail(x, "operand %u (`%s`) is not a register the translation knows", i + 1, op(x, i));
}

/* Register r's value at `size`, zero-extended. */
static const char *rd_val(Al *x, int r, guint size)
{
    if (r == A_ZR || size >= 8)
        return isa_reg(x, r);
    const char *t = tmp(x);
    em(x, "and %s, %s, %" G_GINT64_FORMAT, t, isa_reg(x, r), (gint64)mask_of(size));
    return t;
}

/* Register r's value at `size`, sign-extended. */
static const char *rd_sval(Al *x, int r, guint size)
{
    if (r == A_ZR || size >= 8)
        return isa_reg(x, r);
    const char *t = tmp(x);
    em(x, "sext %s, %s, %u", t, isa_reg(x, r), size * 8);
    return t;
}

/* Writes v (its low `size` bytes, zero-extended) to register r. */
static void wr(Al *x, int r, guint size, const char *v)
{
    if (r == A_ZR)
        return;
    if (size >= 8) {
        if (strcmp(isa_reg(x, r), v))
            em(x, "mov %s, %s", isa_reg(x, r), v);
    } else {
        em(x, "and %s, %s, %" G_GINT64_FORMAT, isa_reg(x, r), v, (gint64)mask_of(size));
    }
}

/* ---- immediates and expressions ---- */

/* "#12", "12", "-4", "0x10": a number. */
static gboolean parse_num(const char *t, gint64 *v)
{
    if (*t == '#')
        t++;
    if (!*t)
        return FALSE;
    char *end;
    if (*t == '-')
        *v = -(gint64)g_ascii_strtoull(t + 1, &end, 0);
    else
        *v = (gint64)g_ascii_strtoull(t, &end, 0);
    return *end == '\0' && end != t;
}

/* "sym", "sym+8", "sym-4": a symbol plus a number. */
static gboolean parse_symoff(Al *x, const char *t, char **sym, gint64 *off)
{
    const char *p = t;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$')
        p++;
    if (p == t || isdigit((unsigned char)*t))
        return FALSE;
    *sym = (char *)keep(x, g_strndup(t, (gsize)(p - t)));
    *off = 0;
    if (!*p)
        return TRUE;
    return (*p == '+' || *p == '-') && parse_num(p + (*p == '+'), off);
}

/* The low part of an address: ":lo12:sym+k" (or ":tprel_lo12_nc:sym+k") added to a register
 * that adrp (or :tprel_hi12:) gave sym's address plus `base->off`: what is left to add. */
static gboolean lo12(Al *x, const char *t, int r, gint64 *add)
{
    if (*t == '#')
        t++;
    const char *rest = g_str_has_prefix(t, ":lo12:") ? t + 6
                     : g_str_has_prefix(t, ":tprel_lo12_nc:") ? t + 15
                     : g_str_has_prefix(t, ":tprel_lo12:") ? t + 12 : NULL;
    if (!rest)
        return FALSE;
    char *sym;
    gint64 off;
    if (!parse_symoff(x, rest, &sym, &off))
        return fail(x, "`%s` is not an address the translation knows", t);
    const AdrpBase *b = r >= 0 && r < 33 ? &x->adrp[r] : NULL;
    if (!b || !b->sym || strcmp(b->sym, sym))
        return fail(x, "`%s` adds to a register that no adrp of `%s` set", t, sym);
    *add = off - b->off;
    return TRUE;
}

static void forget_adrp(Al *x, int r)
{
    if (r >= 0 && r < 33)
        g_clear_pointer(&x->adrp[r].sym, g_free);
}

/* ---- the second source: a register (shifted or extended), or an immediate ---- */

/* Operand i (and a shift or extend after it) as an ISA value at `size` bytes.  `base` is the
 * first source register (for :lo12:). */
static const char *src2(Al *x, guint i, guint size, int base)
{
    const char *t = op(x, i);
    gint64 v;
    guint rs;
    int r = reg_of(t, &rs);
    const char *mod = i + 1 < x->ops->len ? op(x, i + 1) : NULL;
    if (r < 0) {
        gint64 add;
        if (g_str_has_prefix(t, ":") || g_str_has_prefix(t, "#:")) {
            if (!lo12(x, t, base, &add)) {
                fail(x, "`%s` is not an address part the translation knows", t);
                return NULL;
            }
            return keep(x, g_strdup_printf("%" G_GINT64_FORMAT, add));
        }
        if (!parse_num(t, &v)) {
            fail(x, "operand `%s` is not a register or a number", t);
            return NULL;
        }
        if (mod) {
            gint64 sh;
            if (!g_str_has_prefix(mod, "lsl") || !parse_num(g_strstrip(g_strdup(mod + 3)) , &sh)) {
                fail(x, "`%s` after an immediate is not supported", mod);
                return NULL;
            }
            v = (gint64)((guint64)v << sh);
        }
        return keep(x, g_strdup_printf("%" G_GINT64_FORMAT, (gint64)((guint64)v & mask_of(size))));
    }
    if (!mod)
        return rd_val(x, r, MIN(rs, size));
    char kind[8] = "";
    gint64 amt = 0;
    const char *p = mod;
    guint k = 0;
    while (isalpha((unsigned char)*p) && k < 7)
        kind[k++] = *p++;
    kind[k] = 0;
    while (*p == ' ')
        p++;
    if (*p && !parse_num(p, &amt)) {
        fail(x, "`%s` is not a shift or an extension", mod);
        return NULL;
    }
    const char *res = tmp(x);
    const char *rv = isa_reg(x, r);
    if (!strcmp(kind, "lsl") || !strcmp(kind, "lsr") || !strcmp(kind, "asr")) {
        const char *in = !strcmp(kind, "asr") ? rd_sval(x, r, rs) : rd_val(x, r, rs);
        em(x, "%s %s, %s, %" G_GINT64_FORMAT, kind[0] == 'l' ? (kind[2] == 'l' ? "shl" : "shr") : "sar", res, in, amt);
        return res;
    }
    static const struct { const char *name; guint bits; gboolean sign; } exts[] = {
        { "uxtb", 8, 0 }, { "uxth", 16, 0 }, { "uxtw", 32, 0 }, { "uxtx", 64, 0 },
        { "sxtb", 8, 1 }, { "sxth", 16, 1 }, { "sxtw", 32, 1 }, { "sxtx", 64, 1 },
    };
    for (guint e = 0; e < G_N_ELEMENTS(exts); e++)
        if (!strcmp(kind, exts[e].name)) {
            if (exts[e].bits == 64)
                em(x, "mov %s, %s", res, rv);
            else if (exts[e].sign)
                em(x, "sext %s, %s, %u", res, rv, exts[e].bits);
            else
                em(x, "and %s, %s, %" G_GINT64_FORMAT, res, rv, (gint64)mask_of(exts[e].bits / 8));
            if (amt)
                em(x, "shl %s, %s, %" G_GINT64_FORMAT, res, res, amt);
            return res;
        }
    fail(x, "`%s` is not a shift or an extension the translation knows", mod);
    return NULL;
}

/* ---- memory ---- */

/* The ISA memory operand of operand i ("[xn, #k]", "[xn, #k]!", "[xn], #k" with operand i+1,
 * "[xn, xm, lsl #k]"), with its write-back done before (pre-index) or owed after (*post). */
static const char *mem(Al *x, guint i, const char **post_base, gint64 *post)
{
    *post = 0;
    *post_base = NULL;
    const char *t = op(x, i);
    gsize len = strlen(t);
    gboolean pre = len && t[len - 1] == '!';
    if (t[0] != '[' || t[len - (pre ? 2 : 1)] != ']') {
        fail(x, "operand `%s` is not a memory operand the translation knows", t);
        return NULL;
    }
    g_autofree char *in = g_strndup(t + 1, len - (pre ? 3 : 2));
    g_auto(GStrv) parts = g_strsplit(in, ",", 3);
    for (guint k = 0; parts[k]; k++)
        g_strstrip(parts[k]);
    guint bs;
    int b = reg_of(parts[0], &bs);
    if (b < 0 || b == A_ZR || bs != 8) {
        fail(x, "`%s`: the base is not a 64-bit register", t);
        return NULL;
    }
    const char *base = isa_reg(x, b);
    gint64 off = 0;
    if (parts[1]) {
        guint is;
        int ir = reg_of(parts[1], &is);
        if (ir >= 0) {
            /* [xn, xm{, lsl|uxtw|sxtw #k}]: the address in a temporary */
            GPtrArray *saved = x->ops;
            g_autoptr(GPtrArray) two = g_ptr_array_new();
            g_ptr_array_add(two, parts[1]);
            if (parts[2])
                g_ptr_array_add(two, parts[2]);
            x->ops = two;
            const char *iv = src2(x, 0, 8, -1);
            x->ops = saved;
            if (!iv)
                return NULL;
            const char *a = tmp(x);
            em(x, "add %s, %s, %s", a, base, iv);
            return keep(x, g_strdup_printf("[%s]", a));
        }
        if (!lo12(x, parts[1], b, &off) && (x->e.failed || !parse_num(parts[1], &off))) {
            fail(x, "`%s` is not an offset the translation knows", parts[1]);
            return NULL;
        }
        if (x->e.failed)
            return NULL;
    }
    if (i + 1 < x->ops->len) {          /* post-index: [xn], #k */
        if (parts[1] || pre || !parse_num(op(x, i + 1), post)) {
            fail(x, "`%s` is not a memory operand the translation knows", op(x, i + 1));
            return NULL;
        }
        *post_base = base;
    }
    if (pre) {
        em(x, "add %s, %s, %" G_GINT64_FORMAT, base, base, off);
        forget_adrp(x, b);
        off = 0;
    }
    if (!off)
        return keep(x, g_strdup_printf("[%s]", base));
    return keep(x, g_strdup_printf("[%s%+" G_GINT64_FORMAT "]", base, off));
}

static void post_index(Al *x, const char *base, gint64 post)
{
    if (base)
        em(x, "add %s, %s, %" G_GINT64_FORMAT, base, base, post);
}

/* ---- conditions ---- */

typedef struct {
    const char *cc, *inv;
    const char *isa;
    gboolean swap;
    guint needs;
} ACond;

static const ACond a64_conds[] = {
    { "eq", "ne", "eq", 0, FL_Z }, { "ne", "eq", "ne", 0, FL_Z },
    { "hs", "lo", "geu", 0, FL_U }, { "cs", "cc", "geu", 0, FL_U },
    { "lo", "hs", "ltu", 0, FL_U }, { "cc", "cs", "ltu", 0, FL_U },
    { "hi", "ls", "ltu", 1, FL_U }, { "ls", "hi", "geu", 1, FL_U },
    { "ge", "lt", "ge", 0, FL_S }, { "lt", "ge", "lt", 0, FL_S },
    { "gt", "le", "lt", 1, FL_S }, { "le", "gt", "ge", 1, FL_S },
    { "mi", "pl", "lt", 0, FL_N }, { "pl", "mi", "ge", 0, FL_N },
};

static const ACond *find_cond(const char *cc)
{
    for (guint i = 0; i < G_N_ELEMENTS(a64_conds); i++)
        if (!strcmp(a64_conds[i].cc, cc))
            return &a64_conds[i];
    return NULL;
}

static const ACond *cond_operand(Al *x, const char *cc, gboolean invert)
{
    const ACond *c = find_cond(cc);
    if (!c) {
        fail(x, "the condition `%s` is not supported (vs, vc, al, nv are not)", cc);
        return NULL;
    }
    if (invert)
        c = find_cond(c->inv);
    if (x->e.out && (x->e.fl & c->needs) != c->needs) {
        fail(x, "the condition `%s` reads flags the translation does not keep here (after cmp and subs every "
                "condition but mi, pl; after tst and ands eq, ne, mi, pl and the signed ones; after cmn and adds "
                "eq, ne, mi, pl; after a call none)", cc);
        return NULL;
    }
    return c;
}

static const char *cond_a(const ACond *c) { return c->swap ? R_FB : R_FA; }
static const char *cond_b(const ACond *c) { return c->swap ? R_FA : R_FB; }

/* cmp/subs: FA, FB = the operands; the others: FA = the result, FB = 0 (w forms sign-extended
 * from 32 bits). */
static void flags_cmp(Al *x, const char *a, const char *b, guint size)
{
    cf_set_flags(&x->e, a, b, size >= 8 ? 64 : 32, FL_CMP);
}

static void flags_result(Al *x, const char *res, guint size, guint kept)
{
    cf_set_flags(&x->e, res, NULL, size >= 8 ? 64 : 32, kept);
}

/* ---- the rows ---- */

typedef struct ARow ARow;
typedef gboolean (*AFn)(Al *x, const ARow *row, const char *suffix);

struct ARow {
    const char *name;
    AFn fn;
    const char *isa;           /* the ISA op a generic row uses */
    gint8 a, b;                /* row-specific */
};

static gboolean want_ops(Al *x, guint lo, guint hi)
{
    if (x->ops->len >= lo && x->ops->len <= hi)
        return TRUE;
    return fail(x, "expected %u to %u operands, found %u", lo, hi, x->ops->len);
}

/* mov/movz/movn/movk. */
static gboolean a_mov(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, s;
    guint ds, ss;
    if (!want_ops(x, 2, 3) || !want_reg(x, 0, &d, &ds))
        return FALSE;
    gint64 v, sh = 0;
    if (r->a == 0 && (s = reg_of(op(x, 1), &ss)) >= 0 && x->ops->len == 2) {
        const char *t = tmp(x);
        em(x, "mov %s, %s", t, rd_val(x, s, ds));
        forget_adrp(x, d);
        if (s < 33 && x->adrp[s].sym && d < 33 && ds == 8) {
            x->adrp[d].sym = g_strdup(x->adrp[s].sym);
            x->adrp[d].off = x->adrp[s].off;
        }
        wr(x, d, ds, t);
        return TRUE;
    }
    forget_adrp(x, d);
    if (!parse_num(op(x, 1), &v))
        return fail(x, "`%s` is not a number", op(x, 1));
    if (x->ops->len == 3) {
        const char *m = op(x, 2);
        if (!g_str_has_prefix(m, "lsl") || !parse_num(g_strstrip((char *)keep(x, g_strdup(m + 3))), &sh))
            return fail(x, "`%s` is not a shift", m);
    }
    guint64 imm = (guint64)v << sh;
    if (r->a == 2)                      /* movn */
        imm = ~imm;
    if (r->a == 3) {                    /* movk: replace 16 bits */
        const char *t = tmp(x);
        em(x, "and %s, %s, %" G_GINT64_FORMAT, t, isa_reg(x, d), (gint64)~((guint64)0xffff << sh));
        em(x, "or %s, %s, %" G_GINT64_FORMAT, t, t, (gint64)imm);
        wr(x, d, ds, t);
        return TRUE;
    }
    if (d != A_ZR)
        em(x, "mov %s, %" G_GINT64_FORMAT, isa_reg(x, d), (gint64)(imm & mask_of(ds)));
    return TRUE;
}

/* add/sub/and/orr/eor/bic/orn/eon and their flag-setting forms; cmp/cmn/tst (a: 1 when there
 * is no destination); neg/mvn (b: 1 when the first source is zr). */
static gboolean a_alu(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d = A_ZR, n = A_ZR;
    guint ds = 8, ns = 8;
    guint first = 0;
    if (!r->a) {
        if (!want_reg(x, 0, &d, &ds))
            return FALSE;
        first = 1;
    }
    if (!r->b) {
        if (!want_reg(x, first, &n, &ns))
            return FALSE;
        first++;
    } else {
        ns = ds;
    }
    guint size = r->a ? ns : ds;
    if (x->ops->len < first + 1)
        return fail(x, "too few operands");
    const char *a = isa_reg(x, n);
    const char *b = src2(x, first, size, n);
    if (!b)
        return FALSE;
    const char *isa = r->isa;
    if (!strcmp(isa, "bic") || !strcmp(isa, "orn") || !strcmp(isa, "eon")) {
        const char *nb = tmp(x);
        em(x, "xor %s, %s, -1", nb, b);
        b = nb;
        isa = isa[0] == 'b' ? "and" : isa[0] == 'o' ? "or" : "xor";
    }
    gboolean setf = !strcmp(r->name, "cmp") || !strcmp(r->name, "cmn") || !strcmp(r->name, "tst") ||
                    g_str_has_suffix(r->name, "s");
    const char *res = tmp(x);
    if (setf && !strcmp(isa, "sub")) {
        const char *av = size < 8 ? rd_val(x, n, size) : a;
        flags_cmp(x, av, b, size);
        if (!r->a)                      /* cmp keeps only the flags */
            em(x, "sub %s, %s, %s", res, av, b);
    } else {
        em(x, "%s %s, %s, %s", isa, res, a, b);
        if (setf)
            flags_result(x, res, size, !strcmp(isa, "add") ? FL_ARITH : FL_LOGIC);
    }
    forget_adrp(x, d);
    if (!r->a)
        wr(x, d, ds, res);
    return TRUE;
}

/* mul/madd/msub/mneg, udiv/sdiv. */
static gboolean a_muldiv(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, n, m, acc = A_ZR;
    guint ds, ns, ms, as = 8;
    guint want = r->a ? 4 : 3;
    if (!want_ops(x, want, want) || !want_reg(x, 0, &d, &ds) || !want_reg(x, 1, &n, &ns) ||
        !want_reg(x, 2, &m, &ms) || (r->a && !want_reg(x, 3, &acc, &as)))
        return FALSE;
    const char *res = tmp(x);
    if (!strcmp(r->isa, "div") || !strcmp(r->isa, "divu")) {
        gboolean sign = r->isa[3] != 'u';
        const char *a = sign ? rd_sval(x, n, ds) : rd_val(x, n, ds);
        const char *b = sign ? rd_sval(x, m, ds) : rd_val(x, m, ds);
        em(x, "%s %s, %s, %s", r->isa, res, a, b);
    } else {
        em(x, "mul %s, %s, %s", res, isa_reg(x, n), isa_reg(x, m));
        if (!strcmp(r->name, "madd"))
            em(x, "add %s, %s, %s", res, isa_reg(x, acc), res);
        else if (!strcmp(r->name, "msub") || !strcmp(r->name, "mneg"))
            em(x, "sub %s, %s, %s", res, isa_reg(x, acc), res);
    }
    forget_adrp(x, d);
    wr(x, d, ds, res);
    return TRUE;
}

/* lsl/lsr/asr by an immediate or a register. */
static gboolean a_shift(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, n, m;
    guint ds, ns, ms;
    gint64 amt;
    if (!want_ops(x, 3, 3) || !want_reg(x, 0, &d, &ds) || !want_reg(x, 1, &n, &ns))
        return FALSE;
    const char *in = !strcmp(r->isa, "sar") ? rd_sval(x, n, ds) : rd_val(x, n, ds);
    const char *cnt;
    if ((m = reg_of(op(x, 2), &ms)) >= 0) {
        const char *c = tmp(x);
        em(x, "and %s, %s, %u", c, isa_reg(x, m), ds * 8 - 1);
        cnt = c;
    } else if (parse_num(op(x, 2), &amt)) {
        cnt = keep(x, g_strdup_printf("%" G_GINT64_FORMAT, amt & (ds * 8 - 1)));
    } else {
        return fail(x, "`%s` is not a shift amount", op(x, 2));
    }
    const char *res = tmp(x);
    em(x, "%s %s, %s, %s", r->isa, res, in, cnt);
    forget_adrp(x, d);
    wr(x, d, ds, res);
    return TRUE;
}

/* ubfx/sbfx (a 0), ubfiz/sbfiz (a 1); b: 1 signed. */
static gboolean a_bitfield(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, n;
    guint ds, ns;
    gint64 lsb, width;
    if (!want_ops(x, 4, 4) || !want_reg(x, 0, &d, &ds) || !want_reg(x, 1, &n, &ns))
        return FALSE;
    if (!parse_num(op(x, 2), &lsb) || !parse_num(op(x, 3), &width) || lsb < 0 || width < 1 || lsb + width > 64)
        return fail(x, "the bit field is not numbers the translation knows");
    const char *res = tmp(x);
    const char *src = isa_reg(x, n);
    if (!r->a) {
        em(x, "shl %s, %s, %" G_GINT64_FORMAT, res, src, 64 - lsb - width);
        em(x, "%s %s, %s, %" G_GINT64_FORMAT, r->b ? "sar" : "shr", res, res, 64 - width);
    } else {
        if (r->b)
            em(x, "sext %s, %s, %" G_GINT64_FORMAT, res, src, width);
        else
            em(x, "and %s, %s, %" G_GINT64_FORMAT, res, src, (gint64)(width >= 64 ? ~(guint64)0 : ((guint64)1 << width) - 1));
        em(x, "shl %s, %s, %" G_GINT64_FORMAT, res, res, lsb);
    }
    forget_adrp(x, d);
    wr(x, d, ds, res);
    return TRUE;
}

/* uxtb/uxth/uxtw, sxtb/sxth/sxtw: a bits, b signed. */
static gboolean a_extend(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, n;
    guint ds, ns;
    if (!want_ops(x, 2, 2) || !want_reg(x, 0, &d, &ds) || !want_reg(x, 1, &n, &ns))
        return FALSE;
    const char *res = tmp(x);
    if (r->b)
        em(x, "sext %s, %s, %d", res, isa_reg(x, n), r->a);
    else
        em(x, "and %s, %s, %" G_GINT64_FORMAT, res, isa_reg(x, n), (gint64)mask_of((guint)r->a / 8));
    forget_adrp(x, d);
    wr(x, d, ds, res);
    return TRUE;
}

/* csel/csinc/csinv/csneg (a: 0 sel, 1 inc, 2 inv, 3 neg) and the aliases cset, csetm, cinc,
 * cinv, cneg (b: 1; the condition inverted, both sources the one register or zr). */
static gboolean a_csel(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int d, n = A_ZR, m = A_ZR;
    guint ds, ns, ms;
    const char *cc;
    if (!want_reg(x, 0, &d, &ds))
        return FALSE;
    if (r->b) {
        gboolean has_src = !strcmp(r->name, "cinc") || !strcmp(r->name, "cinv") || !strcmp(r->name, "cneg");
        if (!want_ops(x, has_src ? 3 : 2, has_src ? 3 : 2) || (has_src && !want_reg(x, 1, &n, &ns)))
            return FALSE;
        m = n;
        cc = op(x, has_src ? 2 : 1);
    } else {
        if (!want_ops(x, 4, 4) || !want_reg(x, 1, &n, &ns) || !want_reg(x, 2, &m, &ms))
            return FALSE;
        cc = op(x, 3);
    }
    const ACond *c = cond_operand(x, cc, r->b);
    if (!c)
        return FALSE;
    const char *res = tmp(x), *skip = new_label(x);
    em(x, "mov %s, %s", res, isa_reg(x, n));
    em(x, "b%s %s, %s, %s", c->isa, cond_a(c), cond_b(c), skip);
    switch (r->a) {
    case 0: em(x, "mov %s, %s", res, isa_reg(x, m)); break;
    case 1: em(x, "add %s, %s, 1", res, isa_reg(x, m)); break;
    case 2: em(x, "xor %s, %s, -1", res, isa_reg(x, m)); break;
    default: em(x, "sub %s, 0, %s", res, isa_reg(x, m)); break;
    }
    cf_label(&x->e, skip);
    forget_adrp(x, d);
    wr(x, d, ds, res);
    return TRUE;
}

static gboolean is_code_label(Al *x, const char *name) { return cf_is_code_label(&x->e, name); }

static gboolean same_base(const AdrpBase *a, const AdrpBase *b)
{
    return a->sym && b->sym && !strcmp(a->sym, b->sym) && a->off == b->off;
}

static void adrp_state_free(gpointer p)
{
    AdrpBase *a = p;
    for (int i = 0; i < 33; i++)
        g_free(a[i].sym);
    g_free(a);
}

/* The adrp bases at a jump to `label`, met with those of the other jumps to it: a register
 * keeps its base where every jump agrees (the compiler hoists an adrp above a branch and uses
 * its :lo12: on both sides). */
static void note_jump_adrp(Al *x, const char *label)
{
    if (x->adrp_top)
        return;                 /* a jump from code not reached yet says nothing yet */
    AdrpBase *had = g_hash_table_lookup(x->label_adrp, label);
    if (!had) {
        AdrpBase *a = g_new0(AdrpBase, 33);
        for (int i = 0; i < 33; i++)
            if (x->adrp[i].sym)
                a[i] = (AdrpBase){ g_strdup(x->adrp[i].sym), x->adrp[i].off };
        g_hash_table_replace(x->label_adrp, g_strdup(label), a);
        x->e.changed = TRUE;
        return;
    }
    for (int i = 0; i < 33; i++)
        if (had[i].sym && !same_base(&had[i], &x->adrp[i])) {
            g_clear_pointer(&had[i].sym, g_free);
            x->e.changed = TRUE;
        }
}

/* At a label: the bases that hold on the way in, from its jumps and (when `fall`) the code
 * before it. */
static void enter_label_adrp(Al *x, const char *label, gboolean fall)
{
    const AdrpBase *in = g_hash_table_lookup(x->label_adrp, label);
    fall = fall && !x->adrp_top;
    x->adrp_top = !in && !fall;
    for (int i = 0; i < 33; i++) {
        if (!in) {
            if (!fall)
                forget_adrp(x, i);
        } else if (!fall) {
            forget_adrp(x, i);
            if (in[i].sym)
                x->adrp[i] = (AdrpBase){ g_strdup(in[i].sym), in[i].off };
        } else if (!same_base(&x->adrp[i], &in[i])) {
            forget_adrp(x, i);
        }
    }
}

static void note_jump(Al *x, const char *label) { cf_note_jump(&x->e, label); }

static gboolean want_label(Al *x, guint i)
{
    if (is_code_label(x, op(x, i)))
        return TRUE;
    return fail(x, "`%s` is not defined in this file (a jump out of it: the translation has no libraries)",
                op(x, i));
}

/* b, and b.cond / bcond (sfx: the condition). */
static gboolean a_b(Al *x, const ARow *r, const char *sfx)
{
    (void)r;
    if (!want_ops(x, 1, 1) || !want_label(x, 0))
        return FALSE;
    const char *target = op(x, 0);
    if (!*sfx) {
        note_jump(x, target);
        em(x, "jmp %s", isa_name(x, target));
        x->e.fl = FL_UNREACHED;
        return TRUE;
    }
    const ACond *c = cond_operand(x, sfx, FALSE);
    if (!c)
        return FALSE;
    note_jump(x, target);
    em(x, "b%s %s, %s, %s", c->isa, cond_a(c), cond_b(c), isa_name(x, target));
    return TRUE;
}

/* cbz/cbnz (a 0), tbz/tbnz (a 1); b: 1 for the "nz" forms. */
static gboolean a_cb(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int n;
    guint ns;
    if (!want_ops(x, r->a ? 3 : 2, r->a ? 3 : 2) || !want_reg(x, 0, &n, &ns) || !want_label(x, r->a ? 2 : 1))
        return FALSE;
    const char *v;
    if (r->a) {
        gint64 bit;
        if (!parse_num(op(x, 1), &bit) || bit < 0 || bit > 63)
            return fail(x, "`%s` is not a bit number", op(x, 1));
        const char *t = tmp(x);
        em(x, "shr %s, %s, %" G_GINT64_FORMAT, t, isa_reg(x, n), bit);
        em(x, "and %s, %s, 1", t, t);
        v = t;
    } else {
        v = rd_val(x, n, ns);
    }
    const char *target = op(x, r->a ? 2 : 1);
    note_jump(x, target);
    em(x, "%s %s, 0, %s", r->b ? "bne" : "beq", v, isa_name(x, target));
    return TRUE;
}

static gboolean a_bl(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    if (!want_ops(x, 1, 1))
        return FALSE;
    const char *target = op(x, 0);
    if (!g_hash_table_contains(x->e.g->functions, target) || !is_code_label(x, target))
        return fail(x, "`%s` is not defined in this file (the translation has no libraries: a call out of the "
                       "file, a libc function or an outline atomic (compile with -mno-outline-atomics), is not "
                       "supported)", target);
    em(x, "call %s", isa_name(x, target));
    x->e.fl = FL_NONE;
    for (int i = 0; i < 33; i++)
        forget_adrp(x, i);
    return TRUE;
}

static gboolean a_ret(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    if (x->ops->len && strcmp(op(x, 0), "x30"))
        return fail(x, "`ret` to a register other than x30 is not supported");
    em(x, "ret");
    x->e.fl = FL_UNREACHED;
    return TRUE;
}

/* adrp xd, sym: the ISA address of sym (plus its offset); :lo12: then adds what is left. */
static gboolean a_adrp(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    int d;
    guint ds;
    char *sym;
    gint64 off;
    if (!want_ops(x, 2, 2) || !want_reg(x, 0, &d, &ds))
        return FALSE;
    if (!parse_symoff(x, op(x, 1), &sym, &off))
        return fail(x, "`%s` is not an address the translation knows", op(x, 1));
    if (!gas_find_data(x->e.g, sym))
        return fail(x, "`%s` is not data of this file (a function's address as data is not supported)", sym);
    em(x, "la %s, %s", isa_reg(x, d), isa_name(x, sym));
    if (off)
        em(x, "add %s, %s, %" G_GINT64_FORMAT, isa_reg(x, d), isa_reg(x, d), off);
    forget_adrp(x, d);
    x->adrp[d].sym = g_strdup(sym);
    x->adrp[d].off = off;
    return TRUE;
}

/* mrs xd, tpidr_el0: the thread pointer, only ever added to (add ..., :tprel_hi12:sym). */
static gboolean a_mrs(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    int d;
    guint ds;
    if (!want_ops(x, 2, 2) || !want_reg(x, 0, &d, &ds))
        return FALSE;
    if (strcmp(op(x, 1), "tpidr_el0"))
        return fail(x, "only tpidr_el0 (the thread pointer) is supported");
    forget_adrp(x, d);
    if (d == A_ZR)
        return TRUE;
    x->adrp[d].sym = g_strdup("\001tp");
    em(x, "mov %s, 0", isa_reg(x, d));
    return TRUE;
}

/* add xd, xtp, #:tprel_hi12:sym, lsl #12: the thread's copy of sym. */
static gboolean tls_high(Al *x)
{
    int d, n;
    guint ds, ns;
    if (!want_reg(x, 0, &d, &ds) || !want_reg(x, 1, &n, &ns))
        return FALSE;
    if (n >= 33 || !x->adrp[n].sym || strcmp(x->adrp[n].sym, "\001tp"))
        return fail(x, "a thread-local's address is only supported from mrs tpidr_el0");
    const char *t = op(x, 2);
    char *sym;
    gint64 off;
    if (*t == '#')
        t++;
    if (!parse_symoff(x, t + strlen(":tprel_hi12:"), &sym, &off) || !gas_find_data(x->e.g, sym))
        return fail(x, "`%s` is not a thread-local of this file", op(x, 2));
    em(x, "la %s, %s", isa_reg(x, d), isa_name(x, sym));
    forget_adrp(x, d);
    x->adrp[d].sym = g_strdup(sym);
    x->adrp[d].off = 0;
    return TRUE;
}

/* ldr/str and their widths: a bytes (0: the register's), b: 1 sign-extending, 2 store. */
static gboolean a_ldst(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int t;
    guint ts;
    if (!want_ops(x, 2, 3) || !want_reg(x, 0, &t, &ts))
        return FALSE;
    guint size = r->a ? (guint)r->a : ts;
    const char *pb;
    gint64 post;
    const char *m = mem(x, 1, &pb, &post);
    if (!m)
        return FALSE;
    const char *ord = !strcmp(r->isa, "acq") ? ".acq" : !strcmp(r->isa, "rel") ? ".rel" : "";
    if (r->b == 2) {
        em(x, "st%u%s %s, %s", size * 8, ord, m, isa_reg(x, t));
    } else {
        const char *v = tmp(x);
        em(x, "ld%u%s %s, %s", size * 8, ord, v, m);
        if (r->b == 1)
            em(x, "sext %s, %s, %u", v, v, size * 8);
        forget_adrp(x, t);
        wr(x, t, ts, v);
    }
    post_index(x, pb, post);
    return TRUE;
}

/* ldp/stp (a: 1 store; b: 1 ldpsw). */
static gboolean a_ldstp(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    int t1, t2;
    guint s1, s2;
    if (!want_ops(x, 3, 4) || !want_reg(x, 0, &t1, &s1) || !want_reg(x, 1, &t2, &s2))
        return FALSE;
    guint size = r->b ? 4 : s1;
    GPtrArray *saved = x->ops;
    g_autoptr(GPtrArray) rest = g_ptr_array_new();
    for (guint i = 2; i < saved->len; i++)
        g_ptr_array_add(rest, saved->pdata[i]);
    x->ops = rest;
    const char *pb;
    gint64 post;
    const char *m = mem(x, 0, &pb, &post);
    x->ops = saved;
    if (!m)
        return FALSE;
    /* The second slot: the base register and offset with size added. */
    const char *base = m + 1;
    const char *plus = strpbrk(base, "+-]");
    g_autofree char *breg = g_strndup(base, (gsize)(plus - base));
    gint64 off = *plus == ']' ? 0 : g_ascii_strtoll(plus, NULL, 10);
    const char *m2 = keep(x, g_strdup_printf("[%s%+" G_GINT64_FORMAT "]", breg, off + (gint64)size));
    if (r->a) {
        em(x, "st%u %s, %s", size * 8, m, isa_reg(x, t1));
        em(x, "st%u %s, %s", size * 8, m2, isa_reg(x, t2));
    } else {
        const char *v1 = tmp(x), *v2 = tmp(x);
        em(x, "ld%u %s, %s", size * 8, v1, m);
        em(x, "ld%u %s, %s", size * 8, v2, m2);
        if (r->b) {
            em(x, "sext %s, %s, 32", v1, v1);
            em(x, "sext %s, %s, 32", v2, v2);
        }
        forget_adrp(x, t1);
        forget_adrp(x, t2);
        wr(x, t1, s1, v1);
        wr(x, t2, s2, v2);
    }
    post_index(x, pb, post);
    return TRUE;
}

/* The width of an atomic from its suffix ("b", "h", or none: the register's). */
static guint width_suffix(const char *sfx, guint reg_size)
{
    return !strcmp(sfx, "b") ? 1 : !strcmp(sfx, "h") ? 2 : reg_size;
}

/* ldxr/ldaxr (a 0), stxr/stlxr (a 1); b 1: the ordered form.  A b or h last: the width. */
static gboolean a_excl(Al *x, const ARow *r, const char *sfx)
{
    int s, t;
    guint ss, ts;
    guint ti = r->a ? 1 : 0;
    if (!want_ops(x, 2 + r->a, 2 + r->a) || (r->a && !want_reg(x, 0, &s, &ss)) || !want_reg(x, ti, &t, &ts))
        return FALSE;
    (void)sfx;
    const char *mn = x->e.st->mnemonic;
    guint size = width_suffix(mn + strlen(mn) - 1, ts);       /* ldxrb, stlxrh: the width last */
    const char *pb;
    gint64 post;
    const char *m = mem(x, ti + 1, &pb, &post);
    if (!m || pb)
        return m ? fail(x, "an exclusive with write-back does not exist") : FALSE;
    const char *v = tmp(x);
    if (r->a) {
        em(x, "stx%u%s %s, %s, %s", size * 8, r->b ? ".rel" : "", v, m, rd_val(x, t, size));
        forget_adrp(x, s);
        wr(x, s, 4, v);
    } else {
        em(x, "ldx%u%s %s, %s", size * 8, r->b ? ".acq" : "", v, m);
        forget_adrp(x, t);
        wr(x, t, ts, v);
    }
    return TRUE;
}

/* The ordering of an LSE suffix ("", "a", "l", "al"), NULL when it is none; the rest, the width
 * suffix, in *width. */
static const char *lse_order(const char *sfx, const char **width)
{
    static const struct { const char *s, *isa; } ords[] = { { "al", ".acqrel" }, { "a", ".acq" }, { "l", ".rel" },
                                                         { "", "" } };
    for (guint i = 0; i < G_N_ELEMENTS(ords); i++)
        if (g_str_has_prefix(sfx, ords[i].s)) {
            const char *w = sfx + strlen(ords[i].s);
            if (!*w || !strcmp(w, "b") || !strcmp(w, "h")) {
                *width = w;
                return ords[i].isa;
            }
        }
    return NULL;
}

static gboolean lse_allowed(Al *x)
{
    if (x->lse)
        return TRUE;
    return fail(x, "an LSE (ARMv8.1) atomic on a machine whose atomics are LL/SC (ARMv8.0), where it would fault; "
                   "run it on an LSE config (or --atomics lse)");
}

/* cas (a 0), swp (1), ldadd (2), ldset (3), ldclr (4), and the st- forms (b 1: no result). */
static gboolean a_lse(Al *x, const ARow *r, const char *sfx)
{
    const char *w;
    const char *ord = lse_order(sfx, &w);
    if (!ord)
        return fail(x, "`%s` is not an LSE form the translation knows", x->e.st->mnemonic);
    if (!lse_allowed(x))
        return FALSE;
    int s, t = A_ZR;
    guint ss, ts = 8;
    guint nregs = r->b ? 1 : 2;
    if (!want_ops(x, nregs + 1, nregs + 1) || !want_reg(x, 0, &s, &ss) || (!r->b && !want_reg(x, 1, &t, &ts)))
        return FALSE;
    guint size = width_suffix(w, ss);
    const char *pb;
    gint64 post;
    const char *m = mem(x, nregs, &pb, &post);
    if (!m || pb)
        return m ? fail(x, "an atomic with write-back does not exist") : FALSE;
    const char *old = tmp(x);
    const char *sv = rd_val(x, s, size);
    if (r->a == 0) {
        em(x, "cas%u%s %s, %s, %s, %s", size * 8, ord, old, m, sv, rd_val(x, t, size));
        forget_adrp(x, s);
        wr(x, s, ss, old);               /* cas writes the old value to the comparand */
        return TRUE;
    }
    static const char *const ops[] = { NULL, "xchg", "fadd", "for", "fand" };
    if (r->a == 4) {
        const char *nv = tmp(x);
        em(x, "xor %s, %s, -1", nv, sv);
        sv = nv;
    }
    em(x, "%s%u%s %s, %s, %s", ops[r->a], size * 8, ord, old, m, sv);
    forget_adrp(x, t);
    wr(x, t, ts, old);
    return TRUE;
}

/* dmb/dsb: the fence of its domain's kind. */
static gboolean a_dmb(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    if (!want_ops(x, 1, 1))
        return FALSE;
    const char *k = op(x, 0);
    if (!strcmp(k, "ish") || !strcmp(k, "sy") || !strcmp(k, "osh") || !strcmp(k, "nsh"))
        em(x, "fence");
    else if (!strcmp(k, "ishld") || !strcmp(k, "ld") || !strcmp(k, "oshld") || !strcmp(k, "nshld"))
        em(x, "fence.load");
    else if (!strcmp(k, "ishst") || !strcmp(k, "st") || !strcmp(k, "oshst") || !strcmp(k, "nshst"))
        em(x, "fence.store");
    else
        return fail(x, "the barrier `%s` is not one the translation knows", k);
    return TRUE;
}

/* brk/udf (GCC's __builtin_trap, and what a store to a null pointer becomes): the translation
 * faults there, by a load from address 0, at the C line. */
static gboolean a_trap(Al *x, const ARow *r, const char *sfx)
{
    (void)r, (void)sfx;
    const char *z = tmp(x);
    em(x, "mov %s, 0", z);
    em(x, "ld8 %s, [%s]", z, z);
    x->e.fl = FL_UNREACHED;
    return TRUE;
}

static gboolean a_plain(Al *x, const ARow *r, const char *sfx)
{
    (void)sfx;
    if (strcmp(r->name, "prfm") && strcmp(r->name, "nop") && !want_ops(x, 0, 0))
        return FALSE;
    em(x, "%s", r->isa);
    return TRUE;
}

/* The table: one row per mnemonic form (the exclusive and LSE families: per family, their width
 * and ordering suffixes read by the row).  Exact names first; prefix rows (a: -1) after. */
static const ARow arm64_rows[] = {
    { "mov", a_mov, NULL, 0, 0 }, { "movz", a_mov, NULL, 1, 0 }, { "movn", a_mov, NULL, 2, 0 },
    { "movk", a_mov, NULL, 3, 0 },
    { "add", a_alu, "add", 0, 0 }, { "adds", a_alu, "add", 0, 0 }, { "sub", a_alu, "sub", 0, 0 },
    { "subs", a_alu, "sub", 0, 0 }, { "cmp", a_alu, "sub", 1, 0 }, { "cmn", a_alu, "add", 1, 0 },
    { "neg", a_alu, "sub", 0, 1 }, { "negs", a_alu, "sub", 0, 1 },
    { "and", a_alu, "and", 0, 0 }, { "ands", a_alu, "and", 0, 0 }, { "tst", a_alu, "and", 1, 0 },
    { "orr", a_alu, "or", 0, 0 }, { "eor", a_alu, "xor", 0, 0 }, { "bic", a_alu, "bic", 0, 0 },
    { "bics", a_alu, "bic", 0, 0 }, { "orn", a_alu, "orn", 0, 0 }, { "eon", a_alu, "eon", 0, 0 },
    { "mvn", a_alu, "orn", 0, 1 },
    { "mul", a_muldiv, "mul", 0, 0 }, { "madd", a_muldiv, "mul", 1, 0 }, { "msub", a_muldiv, "mul", 1, 0 },
    { "mneg", a_muldiv, "mul", 0, 0 }, { "udiv", a_muldiv, "divu", 0, 0 }, { "sdiv", a_muldiv, "div", 0, 0 },
    { "lsl", a_shift, "shl", 0, 0 }, { "lsr", a_shift, "shr", 0, 0 }, { "asr", a_shift, "sar", 0, 0 },
    { "ubfx", a_bitfield, NULL, 0, 0 }, { "sbfx", a_bitfield, NULL, 0, 1 },
    { "ubfiz", a_bitfield, NULL, 1, 0 }, { "sbfiz", a_bitfield, NULL, 1, 1 },
    { "uxtb", a_extend, NULL, 8, 0 }, { "uxth", a_extend, NULL, 16, 0 }, { "uxtw", a_extend, NULL, 32, 0 },
    { "sxtb", a_extend, NULL, 8, 1 }, { "sxth", a_extend, NULL, 16, 1 }, { "sxtw", a_extend, NULL, 32, 1 },
    { "csel", a_csel, NULL, 0, 0 }, { "csinc", a_csel, NULL, 1, 0 }, { "csinv", a_csel, NULL, 2, 0 },
    { "csneg", a_csel, NULL, 3, 0 }, { "cset", a_csel, NULL, 1, 1 }, { "csetm", a_csel, NULL, 2, 1 },
    { "cinc", a_csel, NULL, 1, 1 }, { "cinv", a_csel, NULL, 2, 1 }, { "cneg", a_csel, NULL, 3, 1 },
    { "b", a_b, NULL, 0, 0 }, { "bl", a_bl, NULL, 0, 0 }, { "ret", a_ret, NULL, 0, 0 },
    { "cbz", a_cb, NULL, 0, 0 }, { "cbnz", a_cb, NULL, 0, 1 }, { "tbz", a_cb, NULL, 1, 0 },
    { "tbnz", a_cb, NULL, 1, 1 },
    { "adrp", a_adrp, NULL, 0, 0 }, { "mrs", a_mrs, NULL, 0, 0 },
    { "ldr", a_ldst, "", 0, 0 }, { "ldrb", a_ldst, "", 1, 0 }, { "ldrh", a_ldst, "", 2, 0 },
    { "ldrsb", a_ldst, "", 1, 1 }, { "ldrsh", a_ldst, "", 2, 1 }, { "ldrsw", a_ldst, "", 4, 1 },
    { "ldur", a_ldst, "", 0, 0 }, { "ldurb", a_ldst, "", 1, 0 }, { "ldurh", a_ldst, "", 2, 0 },
    { "ldursb", a_ldst, "", 1, 1 }, { "ldursh", a_ldst, "", 2, 1 }, { "ldursw", a_ldst, "", 4, 1 },
    { "str", a_ldst, "", 0, 2 }, { "strb", a_ldst, "", 1, 2 }, { "strh", a_ldst, "", 2, 2 },
    { "stur", a_ldst, "", 0, 2 }, { "sturb", a_ldst, "", 1, 2 }, { "sturh", a_ldst, "", 2, 2 },
    { "ldar", a_ldst, "acq", 0, 0 }, { "ldarb", a_ldst, "acq", 1, 0 }, { "ldarh", a_ldst, "acq", 2, 0 },
    { "ldapr", a_ldst, "acq", 0, 0 }, { "ldaprb", a_ldst, "acq", 1, 0 }, { "ldaprh", a_ldst, "acq", 2, 0 },
    { "stlr", a_ldst, "rel", 0, 2 }, { "stlrb", a_ldst, "rel", 1, 2 }, { "stlrh", a_ldst, "rel", 2, 2 },
    { "ldp", a_ldstp, NULL, 0, 0 }, { "stp", a_ldstp, NULL, 1, 0 }, { "ldpsw", a_ldstp, NULL, 0, 1 },
    { "ldxr", a_excl, NULL, 0, 0 }, { "ldxrb", a_excl, NULL, 0, 0 }, { "ldxrh", a_excl, NULL, 0, 0 },
    { "ldaxr", a_excl, NULL, 0, 1 }, { "ldaxrb", a_excl, NULL, 0, 1 }, { "ldaxrh", a_excl, NULL, 0, 1 },
    { "stxr", a_excl, NULL, 1, 0 }, { "stxrb", a_excl, NULL, 1, 0 }, { "stxrh", a_excl, NULL, 1, 0 },
    { "stlxr", a_excl, NULL, 1, 1 }, { "stlxrb", a_excl, NULL, 1, 1 }, { "stlxrh", a_excl, NULL, 1, 1 },
    { "dmb", a_dmb, NULL, 0, 0 }, { "dsb", a_dmb, NULL, 0, 0 },
    { "yield", a_plain, "pause", 0, 0 }, { "wfe", a_plain, "wfe", 0, 0 }, { "sev", a_plain, "sev", 0, 0 },
    { "sevl", a_plain, "sevl", 0, 0 }, { "nop", a_plain, "nop", 0, 0 }, { "prfm", a_plain, "nop", 0, 0 },
    { "brk", a_trap, NULL, 0, 0 }, { "udf", a_trap, NULL, 0, 0 },
    /* LSE families: cas{,a,l,al}{,b,h}, ... (the suffix is read by the row) */
    { "cas", a_lse, NULL, 0, 0 }, { "swp", a_lse, NULL, 1, 0 }, { "ldadd", a_lse, NULL, 2, 0 },
    { "ldset", a_lse, NULL, 3, 0 }, { "ldclr", a_lse, NULL, 4, 0 }, { "stadd", a_lse, NULL, 2, 1 },
    { "stset", a_lse, NULL, 3, 1 }, { "stclr", a_lse, NULL, 4, 1 },
};

/* The row of mnemonic m and its suffix (b.cond's condition, an LSE form's ordering and width). */
static const ARow *find_row(const char *m, const char **sfx)
{
    *sfx = "";
    for (guint i = 0; i < G_N_ELEMENTS(arm64_rows); i++)
        if (!strcmp(arm64_rows[i].name, m))
            return &arm64_rows[i];
    for (guint i = 0; i < G_N_ELEMENTS(arm64_rows); i++)
        if (arm64_rows[i].fn == a_lse && g_str_has_prefix(m, arm64_rows[i].name)) {
            const char *w;
            if (lse_order(m + strlen(arm64_rows[i].name), &w)) {
                *sfx = m + strlen(arm64_rows[i].name);
                return &arm64_rows[i];
            }
        }
    return NULL;
}

/* The operands, split on commas outside brackets (the reader splits outside parentheses only). */
static void split_ops(Al *x, const GasStmt *s)
{
    g_ptr_array_set_size(x->ops, 0);
    GString *all = g_string_new(NULL);
    for (guint i = 0; i < s->ops->len; i++)
        g_string_append_printf(all, "%s%s", i ? "," : "", (const char *)s->ops->pdata[i]);
    int depth = 0;
    const char *start = all->str;
    for (const char *p = all->str;; p++) {
        if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if (*p == '\0' || (*p == ',' && depth == 0)) {
            char *o = g_strstrip(g_strndup(start, (gsize)(p - start)));
            if (*o)
                g_ptr_array_add(x->ops, (char *)keep(x, o));
            else
                g_free(o);
            if (!*p)
                break;
            start = p + 1;
        }
    }
    g_string_free(all, TRUE);
}

static gboolean translate_insn(Al *x, const GasStmt *s)
{
    const char *sfx;
    const char *m = s->mnemonic;
    const ARow *row = find_row(m, &sfx);
    if (!row && m[0] == 'b' && find_cond(m + (m[1] == '.' ? 2 : 1))) {
        static const ARow bcond = { "b.cond", a_b, NULL, 0, 0 };
        row = &bcond;
        sfx = m + (m[1] == '.' ? 2 : 1);
    }
    if (!row)
        return fail(x, "`%s` is not an instruction the translation knows", m);
    split_ops(x, s);
    if (row->fn == a_alu && !strcmp(row->name, "add") && x->ops->len >= 3 &&
        (g_str_has_prefix(op(x, 2), ":tprel_hi12:") || g_str_has_prefix(op(x, 2), "#:tprel_hi12:")))
        return tls_high(x);
    return row->fn(x, row, sfx);
}

/* The emitter's hooks: the adrp bases flow as the flags do. */
static gboolean insn(CfEmit *e, const GasStmt *s)
{
    Al *x = (Al *)e;
    if (s->lock || s->rep)
        return fail(x, "an x86 prefix in AArch64 code");
    return translate_insn(x, s);
}

static void forget_all_adrp(Al *x)
{
    for (int i = 0; i < 33; i++)
        forget_adrp(x, i);
}

static void pass_start(CfEmit *e)
{
    Al *x = (Al *)e;
    x->falls = TRUE;
    x->adrp_top = FALSE;
    forget_all_adrp(x);
}

static void function_start(CfEmit *e)
{
    Al *x = (Al *)e;
    x->adrp_top = FALSE;
    forget_all_adrp(x);
}

/* Labels no jump names (.LVL, .LBB: debug positions) change nothing. */
static void jump_target(CfEmit *e, const char *label)
{
    Al *x = (Al *)e;
    enter_label_adrp(x, label, x->falls);
    x->falls = TRUE;
}

static void after_insn(CfEmit *e)
{
    Al *x = (Al *)e;
    x->falls = x->e.fl != FL_UNREACHED;
}

static void jump_adrp(CfEmit *e, const char *label) { note_jump_adrp((Al *)e, label); }

static const CfArch a64_arch = {
    .name = "AArch64", .t_first = T_FIRST, .t_count = T_COUNT, .insn = insn, .pass_start = pass_start,
    .function_start = function_start, .jump_target = jump_target, .after_insn = after_insn, .note_jump = jump_adrp,
};

static gboolean arm64_translate(const GasProgram *g, const char *s_name, gboolean lse, GString *out, GError **error)
{
    Al x = { .lse = lse, .label_adrp = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, adrp_state_free),
             .ops = g_ptr_array_new() };
    gboolean ok = cf_translate(&x.e, &a64_arch, g, s_name, out, error);
    forget_all_adrp(&x);
    g_hash_table_destroy(x.label_adrp);
    g_ptr_array_free(x.ops, TRUE);
    return ok;
}

static gboolean translate_llsc(const GasProgram *g, const char *s_name, GString *out, GError **error)
{
    return arm64_translate(g, s_name, FALSE, out, error);
}

static gboolean translate_lse(const GasProgram *g, const char *s_name, GString *out, GError **error)
{
    return arm64_translate(g, s_name, TRUE, out, error);
}

/* x86's pause builtin as YIELD, so that a lock written with it (as the examples are) builds for
 * both; no section anchors, so that every global is reached by its own adrp. */
#define ARM64_COMMON "-fno-section-anchors", "-D__builtin_ia32_pause()=__asm__ __volatile__(\"yield\" ::: \"memory\")"
static const char *const llsc_flags[] = { "-march=armv8-a", "-mno-outline-atomics", ARM64_COMMON, NULL };
static const char *const lse_flags[] = { "-march=armv8.1-a", ARM64_COMMON, NULL };

const CfTarget cfront_arm64_llsc = {
    .name = "AArch64, LL/SC",
    .comment = "//",
    .cc_env = "CC_ARM64", .cc_default = "aarch64-linux-gnu-gcc",
    .flags = llsc_flags,
    .sp = 49, .arg0 = 16, .arg1 = 17,
    .call_push = 0,
    .translate = translate_llsc,
};

const CfTarget cfront_arm64_lse = {
    .name = "AArch64, LSE",
    .comment = "//",
    .cc_env = "CC_ARM64", .cc_default = "aarch64-linux-gnu-gcc",
    .flags = lse_flags,
    .sp = 49, .arg0 = 16, .arg1 = 17,
    .call_push = 0,
    .translate = translate_lse,
};
