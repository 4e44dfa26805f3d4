/* x86-64 (GCC's AT&T output) to ISA text: one table row per mnemonic form (x86_rows below).
 *
 * Registers: x86's sixteen in r16..r31 in encoding order (rax r16, rcx r17, rdx r18, rbx r19,
 * rsp r20, rbp r21, rsi r22, rdi r23, r8..r15 r24..r31); the flags in r32, r33; temporaries
 * r40..r59, fresh for each instruction.  A value is read zero-extended from its width; a write
 * of 32 bits zero-extends the register, of 8 or 16 bits merges (%al, %ax, %ah).
 *
 * Flags stay data.  A flag-setting instruction records two numbers, sign-extended from its
 * width: cmp and sub their operands (FA = destination, FB = source), test, and, or, xor, add,
 * inc, dec, neg and shifts their result and 0.  A condition is then one ISA compare of FA with
 * FB: e/ne equal, l/ge/le/g signed, b/ae/be/a unsigned (sign extension keeps unsigned order
 * too).  That is exact for every condition after cmp and sub, and after the logic ops (CF = OF
 * = 0); after add, inc, dec, neg and shifts it is exact for ZF and SF only, and after imul, a
 * shift by %cl or a call nothing is kept.  Which of these holds at each instruction is worked
 * out over the code's jumps (a label gets what every path into it has), and a condition that
 * reads a flag not kept is refused, never guessed.
 *
 * Locked read-modify-writes become the ISA's atomics (cmpxchg cas, xadd and add/sub/inc/dec
 * fadd, and for, or for, xor a cas loop, xchg xchg); their flags come from the old value they
 * return.  Division checks what x86 would trap on (divisor 0, a quotient too wide, a 128-bit
 * dividend the ISA cannot hold) and faults there by a load from address 0, at the C line. */
#include <string.h>
#include <ctype.h>
#include "sim/cfront/cfront_priv.h"
#include "sim/cfront/cf_emit.h"

#define R_FA CF_FA
#define R_FB CF_FB
#define T_FIRST 40
#define T_COUNT 20

/* Which flags are kept (see above): a set of the conditions' classes. */
enum { FL_ZF = 1, FL_SF = 2, FL_ORD = 4 };
#define FL_LOGIC (FL_ZF | FL_SF | FL_ORD)
#define FL_CMP (FL_ZF | FL_ORD)
#define FL_ARITH (FL_ZF | FL_SF)
#define FL_NONE CF_FL_NONE
#define FL_UNREACHED CF_FL_UNREACHED

typedef struct {
    CfEmit e;                  /* first: the emitter's hooks get the translator's state */
} Xl;

/* ---- output (sim/cfront/cf_emit.h) ---- */

#define em(x, ...) cf_em(&(x)->e, __VA_ARGS__)
static const char *keep(Xl *x, char *s) { return cf_keep(&x->e, s); }
static const char *tmp(Xl *x) { return cf_tmp(&x->e); }
static const char *new_label(Xl *x) { return cf_new_label(&x->e); }

static gboolean fail(Xl *x, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(Xl *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cf_vfail(&x->e, fmt, ap);
    va_end(ap);
    return FALSE;
}

/* ---- operands ---- */

static const struct {
    const char *name;
    guint8 idx, size;
    gboolean high;
} x86_regs[] = {
    { "rax", 0, 8, 0 }, { "eax", 0, 4, 0 }, { "ax", 0, 2, 0 }, { "al", 0, 1, 0 }, { "ah", 0, 1, 1 },
    { "rcx", 1, 8, 0 }, { "ecx", 1, 4, 0 }, { "cx", 1, 2, 0 }, { "cl", 1, 1, 0 }, { "ch", 1, 1, 1 },
    { "rdx", 2, 8, 0 }, { "edx", 2, 4, 0 }, { "dx", 2, 2, 0 }, { "dl", 2, 1, 0 }, { "dh", 2, 1, 1 },
    { "rbx", 3, 8, 0 }, { "ebx", 3, 4, 0 }, { "bx", 3, 2, 0 }, { "bl", 3, 1, 0 }, { "bh", 3, 1, 1 },
    { "rsp", 4, 8, 0 }, { "esp", 4, 4, 0 }, { "sp", 4, 2, 0 }, { "spl", 4, 1, 0 },
    { "rbp", 5, 8, 0 }, { "ebp", 5, 4, 0 }, { "bp", 5, 2, 0 }, { "bpl", 5, 1, 0 },
    { "rsi", 6, 8, 0 }, { "esi", 6, 4, 0 }, { "si", 6, 2, 0 }, { "sil", 6, 1, 0 },
    { "rdi", 7, 8, 0 }, { "edi", 7, 4, 0 }, { "di", 7, 2, 0 }, { "dil", 7, 1, 0 },
    { "r8", 8, 8, 0 }, { "r8d", 8, 4, 0 }, { "r8w", 8, 2, 0 }, { "r8b", 8, 1, 0 },
    { "r9", 9, 8, 0 }, { "r9d", 9, 4, 0 }, { "r9w", 9, 2, 0 }, { "r9b", 9, 1, 0 },
    { "r10", 10, 8, 0 }, { "r10d", 10, 4, 0 }, { "r10w", 10, 2, 0 }, { "r10b", 10, 1, 0 },
    { "r11", 11, 8, 0 }, { "r11d", 11, 4, 0 }, { "r11w", 11, 2, 0 }, { "r11b", 11, 1, 0 },
    { "r12", 12, 8, 0 }, { "r12d", 12, 4, 0 }, { "r12w", 12, 2, 0 }, { "r12b", 12, 1, 0 },
    { "r13", 13, 8, 0 }, { "r13d", 13, 4, 0 }, { "r13w", 13, 2, 0 }, { "r13b", 13, 1, 0 },
    { "r14", 14, 8, 0 }, { "r14d", 14, 4, 0 }, { "r14w", 14, 2, 0 }, { "r14b", 14, 1, 0 },
    { "r15", 15, 8, 0 }, { "r15d", 15, 4, 0 }, { "r15w", 15, 2, 0 }, { "r15b", 15, 1, 0 },
};

static const char *const isa_reg[16] = {
    "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
};
enum { X_RAX = 0, X_RCX = 1, X_RDX = 2, X_RSP = 4, X_RBP = 5 };

typedef enum { OPD_REG, OPD_IMM, OPD_MEM } OpdKind;

typedef struct {
    OpdKind kind;
    int reg;                   /* REG: x86 index; MEM: base, or -1 */
    guint rsize;               /* REG: its width */
    gboolean high;             /* REG: %ah..%bh */
    gint64 imm;                /* IMM: the number; MEM: the displacement */
    char *sym;                 /* IMM, MEM: a symbol added, or NULL */
    int index;                 /* MEM: index register, or -1 */
    guint scale;
    gboolean rip, tls;
    const char *addr;          /* MEM: the ISA memory operand, once made */
} Opd;

static int find_reg(const char *name, guint *size, gboolean *high)
{
    for (guint i = 0; i < G_N_ELEMENTS(x86_regs); i++)
        if (!strcmp(x86_regs[i].name, name)) {
            *size = x86_regs[i].size;
            *high = x86_regs[i].high;
            return x86_regs[i].idx;
        }
    return -1;
}

/* An expression: numbers and at most one symbol, added ("sym+8", "-4", "x@tpoff").  FALSE when
 * it is something else. */
static gboolean parse_expr(Xl *x, const char *s, gint64 *num, char **sym, gboolean *tls)
{
    *num = 0;
    *sym = NULL;
    *tls = FALSE;
    const char *p = s;
    while (*p) {
        int sign = 1;
        while (*p == '+' || *p == '-') {
            if (*p == '-')
                sign = -sign;
            p++;
        }
        if (isdigit((unsigned char)*p)) {
            char *end;
            guint64 v = g_ascii_strtoull(p, &end, 0);
            *num += sign * (gint64)v;
            p = end;
        } else if (isalpha((unsigned char)*p) || *p == '_' || *p == '.') {
            const char *e = p;
            while (isalnum((unsigned char)*e) || *e == '_' || *e == '.' || *e == '$')
                e++;
            if (*sym || sign < 0)
                return FALSE;
            *sym = g_strndup(p, (gsize)(e - p));
            keep(x, *sym);
            p = e;
            if (g_str_has_prefix(p, "@tpoff")) {
                *tls = TRUE;
                p += 6;
            } else if (*p == '@') {
                return FALSE;   /* @GOTPCREL, @PLT, @tlsgd: code for shared objects */
            }
        } else {
            return FALSE;
        }
        if (*p && *p != '+' && *p != '-')
            return FALSE;
    }
    return TRUE;
}

static gboolean parse_opd(Xl *x, const char *t, Opd *o)
{
    memset(o, 0, sizeof *o);
    o->reg = o->index = -1;
    if (t[0] == '%' && !strchr(t, ':')) {
        o->kind = OPD_REG;
        o->reg = find_reg(t + 1, &o->rsize, &o->high);
        return o->reg >= 0 || fail(x, "register `%s` is not a general-purpose register", t);
    }
    if (t[0] == '$') {
        o->kind = OPD_IMM;
        gboolean tls;
        if (!parse_expr(x, t + 1, &o->imm, &o->sym, &tls) || tls)
            return fail(x, "immediate `%s` is not a number or a symbol's address", t);
        return TRUE;
    }
    if (t[0] == '*')
        return fail(x, "an indirect jump or call (through `%s`) is not supported", t + 1);
    o->kind = OPD_MEM;
    o->scale = 1;
    const char *p = t;
    gboolean fs = FALSE;
    if (g_str_has_prefix(p, "%fs:")) {
        fs = TRUE;
        p += 4;
    } else if (p[0] == '%') {
        return fail(x, "segment `%.3s` is not supported", p);
    }
    const char *paren = strchr(p, '(');
    g_autofree char *disp = paren ? g_strndup(p, (gsize)(paren - p)) : g_strdup(p);
    if (*disp && !parse_expr(x, disp, &o->imm, &o->sym, &o->tls))
        return fail(x, "address `%s` is not supported", t);
    if (paren) {
        const char *close = strchr(paren, ')');
        if (!close)
            return fail(x, "address `%s` is malformed", t);
        g_autofree char *inner = g_strndup(paren + 1, (gsize)(close - paren - 1));
        g_auto(GStrv) parts = g_strsplit(inner, ",", -1);
        guint n = g_strv_length(parts);
        for (guint k = 0; k < n; k++)
            g_strstrip(parts[k]);
        guint sz;
        gboolean hi;
        if (n >= 1 && *parts[0]) {
            if (!strcmp(parts[0], "%rip"))
                o->rip = TRUE;
            else if (parts[0][0] != '%' || (o->reg = find_reg(parts[0] + 1, &sz, &hi)) < 0 || sz != 8)
                return fail(x, "base register `%s` is not supported", parts[0]);
        }
        if (n >= 2 && *parts[1] && (parts[1][0] != '%' || (o->index = find_reg(parts[1] + 1, &sz, &hi)) < 0 || sz != 8))
            return fail(x, "index register `%s` is not supported", parts[1]);
        if (n >= 3)
            o->scale = (guint)g_ascii_strtoull(parts[2], NULL, 10);
        if (o->scale != 1 && o->scale != 2 && o->scale != 4 && o->scale != 8)
            return fail(x, "scale `%s` is not 1, 2, 4 or 8", n >= 3 ? parts[2] : "");
    }
    if (fs && (!o->tls || !o->sym || o->reg >= 0 || o->index >= 0))
        return fail(x, "a %%fs: access other than SYMBOL@tpoff (thread-local data, local-exec) is not supported");
    if (o->tls && !fs)
        return fail(x, "an @tpoff offset outside a %%fs: access is not supported");
    if (o->sym) {
        const GasData *d = gas_find_data(x->e.g, o->sym);
        if (!d)
            return fail(x, g_hash_table_contains(x->e.g->functions, o->sym)
                               ? "`%s` is a function: code addresses are not supported"
                               : "`%s` is not defined in this file (the translation has no libraries)", o->sym);
        if (d->tls != o->tls)
            return fail(x, d->tls ? "thread-local `%s` is reached without %%fs:" : "`%s` is not thread-local", o->sym);
    }
    return TRUE;
}

static guint64 mask_of(guint size) { return size >= 8 ? ~(guint64)0 : ((guint64)1 << (8 * size)) - 1; }

static const char *disp_text(Xl *x, gint64 d)
{
    return d == 0 ? "" : keep(x, g_strdup_printf("%+" G_GINT64_FORMAT, d));
}

static const char *isa_name(Xl *x, const char *sym) { return cf_isa_name(&x->e, sym); }

/* The ISA memory operand of o ("[c_x+8]", "[r23-4]", "[c_a+r40]"), made once. */
static const char *mem_text(Xl *x, Opd *o)
{
    if (o->addr)
        return o->addr;
    const char *reg = NULL;
    if (o->index >= 0) {
        const char *t = tmp(x);
        if (o->scale > 1)
            em(x, "shl %s, %s, %d", t, isa_reg[o->index], o->scale == 2 ? 1 : o->scale == 4 ? 2 : 3);
        else
            em(x, "mov %s, %s", t, isa_reg[o->index]);
        if (o->reg >= 0)
            em(x, "add %s, %s, %s", t, t, isa_reg[o->reg]);
        reg = t;
    } else if (o->reg >= 0) {
        reg = isa_reg[o->reg];
    }
    const char *d = disp_text(x, o->imm);
    if (o->sym && reg)
        o->addr = keep(x, g_strdup_printf("[%s+%s%s]", isa_name(x, o->sym), reg, d));
    else if (o->sym)
        o->addr = keep(x, g_strdup_printf("[%s%s]", isa_name(x, o->sym), d));
    else if (reg)
        o->addr = keep(x, g_strdup_printf("[%s%s]", reg, d));
    else
        fail(x, "an absolute address is not supported");
    return o->addr ? o->addr : "[?]";
}

/* The value of o at `size` bytes, zero-extended, as an ISA source (register or immediate). */
static const char *read_val(Xl *x, Opd *o, guint size)
{
    switch (o->kind) {
    case OPD_REG: {
        const char *r = isa_reg[o->reg];
        if (o->high) {
            const char *t = tmp(x);
            em(x, "shr %s, %s, 8", t, r);
            em(x, "and %s, %s, 255", t, t);
            return t;
        }
        if (o->rsize == 8)
            return r;
        const char *t = tmp(x);
        em(x, "and %s, %s, %" G_GUINT64_FORMAT, t, r, mask_of(o->rsize));
        return t;
    }
    case OPD_IMM:
        if (o->sym) {
            const char *t = tmp(x);
            em(x, "la %s, %s", t, isa_name(x, o->sym));
            if (o->imm)
                em(x, "add %s, %s, %" G_GINT64_FORMAT, t, t, o->imm);
            return t;
        }
        return keep(x, g_strdup_printf("%" G_GINT64_FORMAT, size >= 8 ? o->imm : (gint64)((guint64)o->imm & mask_of(size))));
    case OPD_MEM: {
        const char *m = mem_text(x, o);
        const char *t = tmp(x);
        em(x, "ld%u %s, %s", size * 8, t, m);
        return t;
    }
    }
    return "0";
}

/* The value in a temporary of its own (a register read may be overwritten before it is used). */
static const char *read_copy(Xl *x, Opd *o, guint size)
{
    const char *v = read_val(x, o, size);
    if (v[0] == 'r' && atoi(v + 1) >= T_FIRST)
        return v;
    const char *t = tmp(x);
    em(x, "mov %s, %s", t, v);
    return t;
}

static void write_val(Xl *x, Opd *o, guint size, const char *v)
{
    switch (o->kind) {
    case OPD_REG: {
        const char *r = isa_reg[o->reg];
        if (o->rsize == 8 && !o->high) {
            if (strcmp(r, v))
                em(x, "mov %s, %s", r, v);
        } else if (o->rsize == 4 && (isdigit((unsigned char)v[0]) || v[0] == '-')) {
            em(x, "mov %s, %" G_GUINT64_FORMAT, r, (guint64)g_ascii_strtoll(v, NULL, 10) & 0xffffffffu);
        } else if (o->rsize == 4) {
            em(x, "and %s, %s, 4294967295", r, v);     /* a 32-bit write zero-extends */
        } else {
            /* 8 and 16-bit writes merge into the register. */
            guint64 m = mask_of(o->rsize);
            const char *keep_t = tmp(x), *new_t = tmp(x);
            em(x, "and %s, %s, %" G_GINT64_FORMAT, keep_t, r, (gint64)~(o->high ? m << 8 : m));
            em(x, "and %s, %s, %" G_GUINT64_FORMAT, new_t, v, m);
            if (o->high)
                em(x, "shl %s, %s, 8", new_t, new_t);
            em(x, "or %s, %s, %s", r, keep_t, new_t);
        }
        return;
    }
    case OPD_MEM:
        em(x, "st%u %s, %s", size * 8, mem_text(x, o), v);
        return;
    case OPD_IMM:
        fail(x, "an immediate cannot be written");
        return;
    }
}

/* ---- flags ---- */

static void ext(Xl *x, const char *rd, const char *v, guint size)
{
    if (size >= 8)
        em(x, "mov %s, %s", rd, v);
    else
        em(x, "sext %s, %s, %u", rd, v, size * 8);
}

/* cmp and sub: FA, FB = destination, source. */
static void flags_cmp(Xl *x, const char *dst, const char *src, guint size)
{
    cf_set_flags(&x->e, dst, src, size * 8, FL_CMP);
}

/* Everything else: FA = the result, FB = 0. */
static void flags_result(Xl *x, const char *res, guint size, guint kept)
{
    cf_set_flags(&x->e, res, NULL, size * 8, kept);
}

typedef struct {
    const char *cc;
    const char *isa;           /* the ISA condition */
    gboolean swap;             /* compare FB with FA */
    guint needs;               /* the class of flags it reads */
} XCond;

static const XCond x86_conds[] = {
    { "e", "eq", 0, FL_ZF }, { "z", "eq", 0, FL_ZF }, { "ne", "ne", 0, FL_ZF }, { "nz", "ne", 0, FL_ZF },
    { "l", "lt", 0, FL_ORD }, { "nge", "lt", 0, FL_ORD }, { "ge", "ge", 0, FL_ORD }, { "nl", "ge", 0, FL_ORD },
    { "le", "ge", 1, FL_ORD }, { "ng", "ge", 1, FL_ORD }, { "g", "lt", 1, FL_ORD }, { "nle", "lt", 1, FL_ORD },
    { "b", "ltu", 0, FL_ORD }, { "c", "ltu", 0, FL_ORD }, { "nae", "ltu", 0, FL_ORD },
    { "ae", "geu", 0, FL_ORD }, { "nb", "geu", 0, FL_ORD }, { "nc", "geu", 0, FL_ORD },
    { "be", "geu", 1, FL_ORD }, { "na", "geu", 1, FL_ORD }, { "a", "ltu", 1, FL_ORD }, { "nbe", "ltu", 1, FL_ORD },
    { "s", "lt", 0, FL_SF }, { "ns", "ge", 0, FL_SF },
};

static const XCond *find_cond(const char *cc)
{
    for (guint i = 0; i < G_N_ELEMENTS(x86_conds); i++)
        if (!strcmp(x86_conds[i].cc, cc))
            return &x86_conds[i];
    return NULL;
}

static const char *inverse(const char *isa)
{
    static const char *const pairs[][2] = { { "eq", "ne" }, { "lt", "ge" }, { "ltu", "geu" } };
    for (guint i = 0; i < G_N_ELEMENTS(pairs); i++) {
        if (!strcmp(isa, pairs[i][0]))
            return pairs[i][1];
        if (!strcmp(isa, pairs[i][1]))
            return pairs[i][0];
    }
    return isa;
}

/* Whether the flags condition c reads are kept here (reported when not). */
static gboolean cond_ok(Xl *x, const XCond *c)
{
    if (!x->e.out || (x->e.fl & c->needs) == c->needs)
        return TRUE;
    return fail(x, "the condition `%s` reads flags the translation does not keep here (every condition is exact "
                   "after cmp, sub, test, and, or, xor; after add, inc, dec, neg and shifts only e, ne, s, ns; after "
                   "imul, a shift by %%cl or a call none)", c->cc);
}

static const char *cond_a(const XCond *c) { return c->swap ? R_FB : R_FA; }
static const char *cond_b(const XCond *c) { return c->swap ? R_FA : R_FB; }

/* ---- the rows ---- */

typedef struct XRow XRow;
typedef gboolean (*XFn)(Xl *x, const XRow *row, guint size, const XCond *cc, Opd *o, guint n);

typedef enum {
    SZ_SUFFIX,                 /* b, w, l, q after the name, or none (the size from a register) */
    SZ_EXACT,                  /* the name exactly */
    SZ_COND,                   /* the name, a condition code, and for cmov perhaps a size */
} XSizing;

struct XRow {
    const char *name;
    XSizing sizing;
    XFn fn;
    const char *isa;           /* the ISA op a generic row uses */
    guint8 a, b;               /* row-specific: widths (movz/movs), kinds */
};

/* The size of an unsuffixed instruction: its register operands'. */
static guint size_from_regs(const Opd *o, guint n)
{
    for (guint i = 0; i < n; i++)
        if (o[i].kind == OPD_REG)
            return o[i].rsize;
    return 0;
}

static gboolean want_ops(Xl *x, guint n, guint lo, guint hi)
{
    return (n >= lo && n <= hi) || fail(x, "%u operands (expected %u%s)", n, lo, hi > lo ? " or more" : "");
}

static gboolean x_mov(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    write_val(x, &o[1], size, read_val(x, &o[0], size));
    return TRUE;
}

/* movz / movs: a = from, b = to (bytes); the isa field "s" when it sign-extends. */
static gboolean x_movx(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)size, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    const char *v = read_val(x, &o[0], r->a);
    if (r->isa) {
        const char *t = tmp(x);
        em(x, "sext %s, %s, %u", t, v, r->a * 8);
        v = t;
    }
    write_val(x, &o[1], r->b, v);
    return TRUE;
}

/* cltq, cwtl, cbtw (a = from: sign-extend the accumulator in place) and cltd, cqto, cwtd
 * (b = 1: the sign into rdx). */
static gboolean x_conv(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)size, (void)c, (void)o;
    if (!want_ops(x, n, 0, 0))
        return FALSE;
    Opd acc = { .kind = OPD_REG, .reg = X_RAX, .rsize = r->a, .index = -1 };
    const char *t = tmp(x);
    ext(x, t, read_val(x, &acc, r->a), r->a);
    if (r->b) {
        em(x, "sar %s, %s, 63", t, t);
        Opd rdx = { .kind = OPD_REG, .reg = X_RDX, .rsize = r->a, .index = -1 };
        write_val(x, &rdx, r->a, t);
    } else {
        acc.rsize = r->a * 2;
        write_val(x, &acc, r->a * 2, t);
    }
    return TRUE;
}

/* The value of an address: sym + base + index * scale + disp. */
static const char *addr_value(Xl *x, Opd *o)
{
    const char *t = tmp(x);
    if (o->sym)
        em(x, "la %s, %s", t, isa_name(x, o->sym));
    else
        em(x, "mov %s, %" G_GINT64_FORMAT, t, o->sym ? 0 : o->imm);
    if (o->sym && o->imm)
        em(x, "add %s, %s, %" G_GINT64_FORMAT, t, t, o->imm);
    if (o->reg >= 0)
        em(x, "add %s, %s, %s", t, t, isa_reg[o->reg]);
    if (o->index >= 0) {
        const char *s = tmp(x);
        em(x, "shl %s, %s, %d", s, isa_reg[o->index], o->scale == 1 ? 0 : o->scale == 2 ? 1 : o->scale == 4 ? 2 : 3);
        em(x, "add %s, %s, %s", t, t, s);
    }
    return t;
}

static gboolean x_lea(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    if (o[0].kind != OPD_MEM || o[0].tls)
        return fail(x, "lea of something other than an address");
    write_val(x, &o[1], size, addr_value(x, &o[0]));
    return TRUE;
}

/* A locked read-modify-write of memory: isa names the ISA op (fadd, for, fand; "sub"; "xor"). */
static gboolean locked_binop(Xl *x, const XRow *r, guint size, Opd *src, Opd *dst)
{
    const char *s = read_copy(x, src, size);
    const char *m = mem_text(x, dst);
    const char *old = tmp(x), *res = tmp(x);
    if (!strcmp(r->isa, "add")) {
        em(x, "fadd%u %s, %s, %s", size * 8, old, m, s);
        em(x, "add %s, %s, %s", res, old, s);
        flags_result(x, res, size, FL_ARITH);
    } else if (!strcmp(r->isa, "sub")) {
        const char *neg = tmp(x);
        em(x, "sub %s, 0, %s", neg, s);
        em(x, "fadd%u %s, %s, %s", size * 8, old, m, neg);
        flags_cmp(x, old, s, size);
    } else if (!strcmp(r->isa, "and") || !strcmp(r->isa, "or")) {
        em(x, "%s%u %s, %s, %s", !strcmp(r->isa, "and") ? "fand" : "for", size * 8, old, m, s);
        em(x, "%s %s, %s, %s", r->isa, res, old, s);
        flags_result(x, res, size, FL_LOGIC);
    } else if (!strcmp(r->isa, "xor")) {
        /* No atomic xor in the ISA: a compare-and-swap loop, as x86 itself would need one. */
        const char *again = new_label(x), *seen = tmp(x);
        cf_label(&x->e, again);
        em(x, "ld%u %s, %s", size * 8, old, m);
        em(x, "xor %s, %s, %s", res, old, s);
        em(x, "cas%u %s, %s, %s, %s", size * 8, seen, m, old, res);
        em(x, "bne %s, %s, %s", seen, old, again);
        flags_result(x, res, size, FL_LOGIC);
    } else {
        return fail(x, "`lock` is not supported on this instruction");
    }
    return TRUE;
}

/* add, sub, and, or, xor, imul (2 or 3 operands). */
static gboolean x_binop(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    gboolean mul3 = !strcmp(r->isa, "mul") && n == 3;
    if (!want_ops(x, n, 2, !strcmp(r->isa, "mul") ? 3 : 2))
        return FALSE;
    if (x->e.st->lock) {
        if (o[1].kind != OPD_MEM || n != 2)
            return fail(x, "`lock` needs a memory destination");
        return locked_binop(x, r, size, &o[0], &o[1]);
    }
    Opd *dst = &o[n - 1];
    const char *d = read_val(x, mul3 ? &o[1] : dst, size);
    const char *s = read_val(x, &o[0], size);
    const char *res = tmp(x);
    em(x, "%s %s, %s, %s", r->isa, res, d, s);
    if (!strcmp(r->isa, "sub"))
        flags_cmp(x, d, s, size);
    else if (!strcmp(r->isa, "add"))
        flags_result(x, res, size, FL_ARITH);
    else if (!strcmp(r->isa, "mul"))
        x->e.fl = FL_NONE;
    else
        flags_result(x, res, size, FL_LOGIC);
    write_val(x, dst, size, res);
    return TRUE;
}

/* adc and sbb: the carry is the `b` condition (FA <u FB), kept exact after cmp, sub, test and
 * the logic ops; GCC's `sbb %r, %r` turns a comparison into 0 or -1.  Their own flags are not
 * kept. */
static gboolean x_carry(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    if (!want_ops(x, n, 2, 2) || x->e.st->lock)
        return !x->e.st->lock || fail(x, "`lock` is not supported on this instruction");
    static const XCond carry = { "b", "ltu", 0, FL_ORD };
    if (!cond_ok(x, &carry))
        return FALSE;
    const char *cf = tmp(x);
    em(x, "sltu %s, %s, %s", cf, R_FA, R_FB);
    const char *d = read_val(x, &o[1], size), *s = read_val(x, &o[0], size);
    const char *res = tmp(x);
    em(x, "%s %s, %s, %s", r->isa, res, d, s);
    em(x, "%s %s, %s, %s", r->isa, res, res, cf);
    x->e.fl = FL_NONE;
    write_val(x, &o[1], size, res);
    return TRUE;
}

static gboolean x_cmp(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    const char *s = read_val(x, &o[0], size);
    const char *d = read_val(x, &o[1], size);
    if (!strcmp(r->isa, "cmp")) {
        flags_cmp(x, d, s, size);
    } else {
        const char *t = tmp(x);
        em(x, "and %s, %s, %s", t, d, s);
        flags_result(x, t, size, FL_LOGIC);
    }
    return TRUE;
}

/* inc, dec, neg, not. */
static gboolean x_unop(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    if (!want_ops(x, n, 1, 1))
        return FALSE;
    if (x->e.st->lock) {
        if (o[0].kind != OPD_MEM || (strcmp(r->isa, "inc") && strcmp(r->isa, "dec")))
            return fail(x, "`lock` is not supported on this instruction");
        Opd one = { .kind = OPD_IMM, .imm = !strcmp(r->isa, "inc") ? 1 : -1, .reg = -1, .index = -1 };
        const char *m = mem_text(x, &o[0]);
        const char *v = tmp(x), *old = tmp(x), *res = tmp(x);
        em(x, "mov %s, %" G_GINT64_FORMAT, v, one.imm);
        em(x, "fadd%u %s, %s, %s", size * 8, old, m, v);
        em(x, "add %s, %s, %s", res, old, v);
        flags_result(x, res, size, FL_ARITH);
        return TRUE;
    }
    const char *d = read_val(x, &o[0], size);
    const char *res = tmp(x);
    if (!strcmp(r->isa, "inc"))
        em(x, "add %s, %s, 1", res, d);
    else if (!strcmp(r->isa, "dec"))
        em(x, "sub %s, %s, 1", res, d);
    else if (!strcmp(r->isa, "neg"))
        em(x, "sub %s, 0, %s", res, d);
    else
        em(x, "xor %s, %s, -1", res, d);
    if (strcmp(r->isa, "not"))
        flags_result(x, res, size, FL_ARITH);   /* not leaves the flags alone */
    write_val(x, &o[0], size, res);
    return TRUE;
}

/* shl/sal, shr, sar: by an immediate, by %cl, or (one operand) by 1. */
static gboolean x_shift(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    if (!want_ops(x, n, 1, 2))
        return FALSE;
    Opd *dst = &o[n - 1];
    guint64 cmask = size == 8 ? 63 : 31;
    const char *d = read_val(x, dst, size);
    if (!strcmp(r->isa, "sar")) {
        const char *t = tmp(x);
        ext(x, t, d, size);
        d = t;
    }
    const char *res = tmp(x);
    if (n == 1 || o[0].kind == OPD_IMM) {
        guint64 count = (n == 1 ? 1 : (guint64)o[0].imm) & cmask;
        if (count == 0)
            return TRUE;        /* nothing changes, not even the flags */
        em(x, "%s %s, %s, %" G_GUINT64_FORMAT, r->isa, res, d, count);
        flags_result(x, res, size, FL_ARITH);
    } else {
        if (o[0].kind != OPD_REG || o[0].reg != X_RCX || o[0].rsize != 1)
            return fail(x, "a shift count other than an immediate or %%cl");
        const char *cnt = tmp(x);
        em(x, "and %s, %s, %" G_GUINT64_FORMAT, cnt, isa_reg[X_RCX], cmask);
        em(x, "%s %s, %s, %s", r->isa, res, d, cnt);
        x->e.fl = FL_NONE;        /* a count of 0 leaves them: not kept */
    }
    write_val(x, dst, size, res);
    return TRUE;
}

static gboolean is_code_label(Xl *x, const char *name) { return cf_is_code_label(&x->e, name); }
static void note_jump(Xl *x, const char *label) { cf_note_jump(&x->e, label); }

static gboolean x_jmp(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o;
    const char *target = g_ptr_array_index(x->e.st->ops, 0);
    if (n != 1 || target[0] == '*')
        return fail(x, "an indirect jump is not supported");
    if (!is_code_label(x, target))
        return fail(x, "`%s` is not defined in this file (a tail call out of it: the translation has no libraries)", target);
    note_jump(x, target);
    em(x, "jmp %s", isa_name(x, target));
    x->e.fl = FL_UNREACHED;
    return TRUE;
}

static gboolean x_jcc(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)o;
    const char *target = g_ptr_array_index(x->e.st->ops, 0);
    if (n != 1 || !is_code_label(x, target))
        return fail(x, "jump target `%s` is not a label of this file", n ? target : "");
    if (!cond_ok(x, c))
        return FALSE;
    note_jump(x, target);
    em(x, "b%s %s, %s, %s", c->isa, cond_a(c), cond_b(c), isa_name(x, target));
    return TRUE;
}

static gboolean x_call(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o;
    const char *target = g_ptr_array_index(x->e.st->ops, 0);
    if (n != 1 || target[0] == '*')
        return fail(x, "an indirect call is not supported");
    if (!g_hash_table_contains(x->e.g->functions, target) || !is_code_label(x, target))
        return fail(x, "`%s` is not defined in this file (the translation has no libraries: a call out of the "
                       "file, a libc function or an outline atomic, is not supported)", target);
    /* CALL pushes the return address: the stack moves as compiled, the ISA keeps the address. */
    em(x, "sub r20, r20, 8");
    em(x, "call %s", isa_name(x, target));
    em(x, "add r20, r20, 8");
    x->e.fl = FL_NONE;
    return TRUE;
}

static gboolean x_ret(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o;
    if (n)
        return fail(x, "`ret` with an operand is not supported");
    em(x, "ret");
    x->e.fl = FL_UNREACHED;
    return TRUE;
}

static gboolean x_push(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 1, 1))
        return FALSE;
    if (size != 8)
        return fail(x, "only 64-bit pushes are supported");
    const char *v = read_val(x, &o[0], 8);
    em(x, "sub r20, r20, 8");
    em(x, "st64 [r20], %s", v);
    return TRUE;
}

static gboolean x_pop(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 1, 1))
        return FALSE;
    if (size != 8)
        return fail(x, "only 64-bit pops are supported");
    const char *t = tmp(x);
    em(x, "ld64 %s, [r20]", t);
    em(x, "add r20, r20, 8");
    write_val(x, &o[0], 8, t);
    return TRUE;
}

static gboolean x_leave(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o;
    if (!want_ops(x, n, 0, 0))
        return FALSE;
    em(x, "mov r20, r21");
    em(x, "ld64 r21, [r20]");
    em(x, "add r20, r20, 8");
    return TRUE;
}

static gboolean x_setcc(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size;
    if (!want_ops(x, n, 1, 1) || !cond_ok(x, c))
        return FALSE;
    const char *t = tmp(x);
    em(x, "s%s %s, %s, %s", c->isa, t, cond_a(c), cond_b(c));
    write_val(x, &o[0], 1, t);
    return TRUE;
}

static gboolean x_cmov(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r;
    if (!want_ops(x, n, 2, 2) || !cond_ok(x, c))
        return FALSE;
    /* The destination is written either way (a 32-bit cmov zero-extends even when false). */
    const char *t = read_copy(x, &o[1], size);
    const char *skip = new_label(x);
    em(x, "b%s %s, %s, %s", inverse(c->isa), cond_a(c), cond_b(c), skip);
    em(x, "mov %s, %s", t, read_val(x, &o[0], size));
    cf_label(&x->e, skip);
    write_val(x, &o[1], size, t);
    return TRUE;
}

static gboolean x_xchg(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    if (o[0].kind == OPD_MEM || o[1].kind == OPD_MEM) {
        /* With memory, xchg is locked whether it says so or not. */
        Opd *reg = o[0].kind == OPD_MEM ? &o[1] : &o[0], *mem = o[0].kind == OPD_MEM ? &o[0] : &o[1];
        const char *v = read_val(x, reg, size);
        const char *old = tmp(x);
        em(x, "xchg%u %s, %s, %s", size * 8, old, mem_text(x, mem), v);
        write_val(x, reg, size, old);
        return TRUE;
    }
    const char *a = read_copy(x, &o[0], size), *b = read_copy(x, &o[1], size);
    write_val(x, &o[0], size, b);
    write_val(x, &o[1], size, a);
    return TRUE;
}

static gboolean x_cmpxchg(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    if (o[1].kind != OPD_MEM || o[0].kind != OPD_REG)
        return fail(x, "cmpxchg between registers is not supported");
    if (!x->e.st->lock)
        return fail(x, "cmpxchg without `lock` is not atomic (and not supported)");
    Opd acc = { .kind = OPD_REG, .reg = X_RAX, .rsize = size, .index = -1 };
    const char *expect = read_val(x, &acc, size);
    const char *nv = read_val(x, &o[0], size);
    const char *old = tmp(x);
    em(x, "cas%u %s, %s, %s, %s", size * 8, old, mem_text(x, &o[1]), expect, nv);
    flags_cmp(x, expect, old, size);
    /* The accumulator takes the old value only when the compare failed. */
    const char *done = new_label(x);
    em(x, "beq %s, %s, %s", old, expect, done);
    write_val(x, &acc, size, old);
    cf_label(&x->e, done);
    return TRUE;
}

static gboolean x_xadd(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)c;
    if (!want_ops(x, n, 2, 2))
        return FALSE;
    if (o[1].kind != OPD_MEM || o[0].kind != OPD_REG)
        return fail(x, "xadd between registers is not supported");
    if (!x->e.st->lock)
        return fail(x, "xadd without `lock` is not atomic (and not supported)");
    const char *v = read_copy(x, &o[0], size);
    const char *old = tmp(x), *res = tmp(x);
    em(x, "fadd%u %s, %s, %s", size * 8, old, mem_text(x, &o[1]), v);
    em(x, "add %s, %s, %s", res, old, v);
    flags_result(x, res, size, FL_ARITH);
    write_val(x, &o[0], size, old);
    return TRUE;
}

/* A fault where x86 raises #DE: a load from address 0. */
static void trap_if(Xl *x, const char *cond, const char *a, const char *b)
{
    const char *ok = new_label(x), *z = tmp(x);
    em(x, "b%s %s, %s, %s", inverse(cond), a, b, ok);
    em(x, "mov %s, 0", z);
    em(x, "ld8 %s, [%s]", z, z);
    cf_label(&x->e, ok);
}

/* div and idiv of rdx:rax (32 and 64 bits): isa "divu" or "div". */
static gboolean x_div(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)c;
    if (!want_ops(x, n, 1, 1))
        return FALSE;
    if (size != 4 && size != 8)
        return fail(x, "only 32 and 64-bit division is supported");
    gboolean sgn = !strcmp(r->isa, "div");
    Opd rax = { .kind = OPD_REG, .reg = X_RAX, .rsize = size, .index = -1 };
    Opd rdx = { .kind = OPD_REG, .reg = X_RDX, .rsize = size, .index = -1 };
    const char *dv = read_copy(x, &o[0], size);
    const char *dividend = tmp(x);
    if (size == 4) {
        /* edx:eax fits a 64-bit register: the division is exact, the quotient checked below. */
        const char *hi = tmp(x);
        em(x, "and %s, %s, 4294967295", dividend, isa_reg[X_RAX]);
        em(x, "shl %s, %s, 32", hi, isa_reg[X_RDX]);
        em(x, "or %s, %s, %s", dividend, dividend, hi);
        if (sgn)
            em(x, "sext %s, %s, 32", dv, dv);
    } else {
        /* rdx:rax does not: only the dividends rax alone stands for (rdx its zero or sign). */
        const char *hi = tmp(x);
        if (sgn)
            em(x, "sar %s, %s, 63", hi, isa_reg[X_RAX]);
        else
            em(x, "mov %s, 0", hi);
        trap_if(x, "ne", isa_reg[X_RDX], hi);
        em(x, "mov %s, %s", dividend, isa_reg[X_RAX]);
    }
    trap_if(x, "eq", dv, "0");
    const char *q = tmp(x), *rem = tmp(x);
    em(x, "%s %s, %s, %s", r->isa, q, dividend, dv);
    em(x, "%s %s, %s, %s", sgn ? "rem" : "remu", rem, dividend, dv);
    if (size == 4) {
        const char *chk = tmp(x);
        if (sgn)
            em(x, "sext %s, %s, 32", chk, q);
        else
            em(x, "and %s, %s, 4294967295", chk, q);
        trap_if(x, "ne", chk, q);
    } else if (sgn) {
        /* -2^63 / -1: the one quotient too wide. */
        const char *wide = tmp(x);
        em(x, "seq %s, %s, -1", wide, dv);
        const char *m = tmp(x);
        em(x, "seq %s, %s, -9223372036854775808", m, dividend);
        em(x, "and %s, %s, %s", wide, wide, m);
        trap_if(x, "ne", wide, "0");
    }
    write_val(x, &rax, size, q);
    write_val(x, &rdx, size, rem);
    x->e.fl = FL_NONE;
    return TRUE;
}

static gboolean x_nop(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o, (void)n;
    em(x, x->e.st->rep ? "pause" : "nop");     /* `rep; nop` is PAUSE's encoding */
    return TRUE;
}

static gboolean x_plain(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)size, (void)c, (void)o;
    if (!want_ops(x, n, 0, 0))
        return FALSE;
    em(x, "%s", r->isa);
    return TRUE;
}

/* ud2 (GCC's __builtin_trap, and what a store to a null pointer becomes): x86 raises #UD; the
 * translation faults there, by a load from address 0, at the C line. */
static gboolean x_trap(Xl *x, const XRow *r, guint size, const XCond *c, Opd *o, guint n)
{
    (void)r, (void)size, (void)c, (void)o;
    if (!want_ops(x, n, 0, 0))
        return FALSE;
    const char *z = tmp(x);
    em(x, "mov %s, 0", z);
    em(x, "ld8 %s, [%s]", z, z);
    x->e.fl = FL_UNREACHED;
    return TRUE;
}

/* The table: one row per mnemonic form.  Longer names first where one is a prefix of another. */
static const XRow x86_rows[] = {
    { "movzbl", SZ_EXACT, x_movx, NULL, 1, 4 }, { "movzbw", SZ_EXACT, x_movx, NULL, 1, 2 },
    { "movzbq", SZ_EXACT, x_movx, NULL, 1, 8 }, { "movzwl", SZ_EXACT, x_movx, NULL, 2, 4 },
    { "movzwq", SZ_EXACT, x_movx, NULL, 2, 8 },
    { "movsbl", SZ_EXACT, x_movx, "s", 1, 4 }, { "movsbw", SZ_EXACT, x_movx, "s", 1, 2 },
    { "movsbq", SZ_EXACT, x_movx, "s", 1, 8 }, { "movswl", SZ_EXACT, x_movx, "s", 2, 4 },
    { "movswq", SZ_EXACT, x_movx, "s", 2, 8 }, { "movslq", SZ_EXACT, x_movx, "s", 4, 8 },
    { "movabs", SZ_SUFFIX, x_mov, NULL, 0, 0 },
    { "mov", SZ_SUFFIX, x_mov, NULL, 0, 0 },
    { "cltq", SZ_EXACT, x_conv, NULL, 4, 0 }, { "cwtl", SZ_EXACT, x_conv, NULL, 2, 0 },
    { "cbtw", SZ_EXACT, x_conv, NULL, 1, 0 }, { "cltd", SZ_EXACT, x_conv, NULL, 4, 1 },
    { "cqto", SZ_EXACT, x_conv, NULL, 8, 1 }, { "cwtd", SZ_EXACT, x_conv, NULL, 2, 1 },
    { "lea", SZ_SUFFIX, x_lea, NULL, 0, 0 },
    { "add", SZ_SUFFIX, x_binop, "add", 0, 0 }, { "sub", SZ_SUFFIX, x_binop, "sub", 0, 0 },
    { "and", SZ_SUFFIX, x_binop, "and", 0, 0 }, { "or", SZ_SUFFIX, x_binop, "or", 0, 0 },
    { "xor", SZ_SUFFIX, x_binop, "xor", 0, 0 }, { "imul", SZ_SUFFIX, x_binop, "mul", 0, 0 },
    { "adc", SZ_SUFFIX, x_carry, "add", 0, 0 }, { "sbb", SZ_SUFFIX, x_carry, "sub", 0, 0 },
    { "cmpxchg", SZ_SUFFIX, x_cmpxchg, NULL, 0, 0 },
    { "cmp", SZ_SUFFIX, x_cmp, "cmp", 0, 0 }, { "test", SZ_SUFFIX, x_cmp, "test", 0, 0 },
    { "inc", SZ_SUFFIX, x_unop, "inc", 0, 0 }, { "dec", SZ_SUFFIX, x_unop, "dec", 0, 0 },
    { "neg", SZ_SUFFIX, x_unop, "neg", 0, 0 }, { "not", SZ_SUFFIX, x_unop, "not", 0, 0 },
    { "shl", SZ_SUFFIX, x_shift, "shl", 0, 0 }, { "sal", SZ_SUFFIX, x_shift, "shl", 0, 0 },
    { "shr", SZ_SUFFIX, x_shift, "shr", 0, 0 }, { "sar", SZ_SUFFIX, x_shift, "sar", 0, 0 },
    { "idiv", SZ_SUFFIX, x_div, "div", 0, 0 }, { "div", SZ_SUFFIX, x_div, "divu", 0, 0 },
    { "xchg", SZ_SUFFIX, x_xchg, NULL, 0, 0 }, { "xadd", SZ_SUFFIX, x_xadd, NULL, 0, 0 },
    { "push", SZ_SUFFIX, x_push, NULL, 0, 0 }, { "pop", SZ_SUFFIX, x_pop, NULL, 0, 0 },
    { "leave", SZ_SUFFIX, x_leave, NULL, 0, 0 },
    { "jmp", SZ_SUFFIX, x_jmp, NULL, 0, 0 }, { "call", SZ_SUFFIX, x_call, NULL, 0, 0 },
    { "ret", SZ_SUFFIX, x_ret, NULL, 0, 0 },
    { "set", SZ_COND, x_setcc, NULL, 0, 0 }, { "cmov", SZ_COND, x_cmov, NULL, 0, 0 },
    { "j", SZ_COND, x_jcc, NULL, 0, 0 },
    { "nop", SZ_SUFFIX, x_nop, NULL, 0, 0 },
    { "pause", SZ_EXACT, x_plain, "pause", 0, 0 }, { "mfence", SZ_EXACT, x_plain, "fence", 0, 0 },
    { "lfence", SZ_EXACT, x_plain, "fence.load", 0, 0 }, { "sfence", SZ_EXACT, x_plain, "fence.store", 0, 0 },
    { "endbr64", SZ_EXACT, x_plain, "nop", 0, 0 }, { "ud2", SZ_EXACT, x_trap, NULL, 0, 0 },
};

static guint suffix_size(char c)
{
    return c == 'b' ? 1 : c == 'w' ? 2 : c == 'l' ? 4 : c == 'q' ? 8 : 0;
}

/* The row for mnemonic m: its size (0: none given) and condition. */
static const XRow *find_row(const char *m, guint *size, const XCond **cc)
{
    *size = 0;
    *cc = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(x86_rows); i++) {
        const XRow *r = &x86_rows[i];
        gsize n = strlen(r->name);
        if (strncmp(m, r->name, n))
            continue;
        const char *rest = m + n;
        switch (r->sizing) {
        case SZ_EXACT:
            if (!*rest)
                return r;
            break;
        case SZ_SUFFIX:
            if (!*rest)
                return r;
            if (!rest[1] && suffix_size(rest[0])) {
                *size = suffix_size(rest[0]);
                return r;
            }
            break;
        case SZ_COND:
            if ((*cc = find_cond(rest)))
                return r;
            if (!strcmp(r->name, "cmov") && *rest && suffix_size(rest[strlen(rest) - 1])) {
                g_autofree char *c = g_strndup(rest, strlen(rest) - 1);
                if ((*cc = find_cond(c))) {
                    *size = suffix_size(rest[strlen(rest) - 1]);
                    return r;
                }
            }
            break;
        }
    }
    return NULL;
}

static gboolean translate_insn(Xl *x, const GasStmt *s)
{
    guint size;
    const XCond *cc;
    const XRow *row = find_row(s->mnemonic, &size, &cc);
    if (!row)
        return fail(x, "`%s` is not an instruction the translation knows", s->mnemonic);
    /* Branches name labels; nop's operands (padding) mean nothing. */
    gboolean is_branch = row->fn == x_jmp || row->fn == x_jcc || row->fn == x_call || row->fn == x_nop;
    guint n = s->ops->len;
    if (n > 3)
        return fail(x, "too many operands");
    Opd o[3];
    for (guint i = 0; i < n && !is_branch; i++)
        if (!parse_opd(x, s->ops->pdata[i], &o[i]))
            return FALSE;
    if (!size && !is_branch && row->fn != x_nop)
        size = size_from_regs(o, n);
    if (!size && (row->fn == x_push || row->fn == x_pop))
        size = 8;
    if (!size && row->sizing == SZ_SUFFIX && row->fn != x_nop && row->fn != x_jmp && row->fn != x_call &&
        row->fn != x_ret && row->fn != x_leave && n)
        return fail(x, "the operand size is not given (no suffix, no register)");
    if (s->lock && row->fn != x_binop && row->fn != x_unop && row->fn != x_cmpxchg && row->fn != x_xadd &&
        row->fn != x_xchg)
        return fail(x, "`lock` is not supported on `%s`", s->mnemonic);
    if (s->rep && row->fn != x_nop && row->fn != x_ret)
        return fail(x, "`rep` is only supported before `nop` (PAUSE)");
    return row->fn(x, row, size, cc, o, n);
}

static gboolean insn(CfEmit *e, const GasStmt *s) { return translate_insn((Xl *)e, s); }

static const CfArch x86_arch = { .name = "x86-64", .t_first = T_FIRST, .t_count = T_COUNT, .insn = insn };

static gboolean x86_translate(const GasProgram *g, const char *s_name, GString *out, GError **error)
{
    Xl x = { { 0 } };
    return cf_translate(&x.e, &x86_arch, g, s_name, out, error);
}

static const char *const x86_flags[] = { "-m64", NULL };

const CfTarget cfront_x86 = {
    .name = "x86-64",
    .comment = "#",
    .cc_env = "CC", .cc_default = "gcc",
    .flags = x86_flags,
    .sp = 20, .arg0 = 23, .arg1 = 22,
    .call_push = 8,
    .translate = x86_translate,
};
