/* Litmus conditions: the proposition after exists / ~exists / forall / filter, its observables,
 * evaluation over a final state, and register naming shared with the translators.
 *
 *   prop   := disj [ '=>' prop ]
 *   disj   := conj { '\/' conj }
 *   conj   := unary { '/\' unary }
 *   unary  := '~' unary | 'true' | 'false' | '(' prop ')' | atom
 *   atom   := obs ('=' | '!=') value
 *   obs    := INT ':' REG | LOC | '[' LOC ']'
 *   value  := INT | ['&'] LOC                               (a location's address) */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sim/litmus/litmus_priv.h"
#include "sim/base/echo.h"

GQuark litmus_error_quark(void)
{
    return g_quark_from_static_string("qsim-litmus-error");
}

void lit_error_at(GError **error, int code, const char *file, guint line, guint col,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *full = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *msg = echo_clip_message(full);   /* tokens echoed at most ECHO_MAX_CHARS */
    g_set_error(error, LITMUS_ERROR, code, "%s:%u:%u: %s", file ? file : "<litmus>", line, col, msg);
}

LitNumber lit_parse_int(LitCursor *c, int64_t *out)
{
    const char *s = c->p;
    gboolean neg = FALSE;
    if (s < c->end && (*s == '-' || *s == '+')) {
        neg = *s == '-';
        s++;
    }
    if (s >= c->end || !g_ascii_isdigit(*s))
        return LIT_NO_NUMBER;
    gboolean hex = s + 1 < c->end && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s, *endp = digits;
    guint64 v = 0;
    gboolean big = FALSE;
    /* by hand, within the cursor's end and with overflow seen (strtoull saturates silently) */
    for (; endp < c->end && (hex ? g_ascii_isxdigit(*endp) : g_ascii_isdigit(*endp)); endp++) {
        guint d = (guint)g_ascii_xdigit_value(*endp);
        guint base = hex ? 16 : 10;
        if (v > (G_MAXUINT64 - d) / base)
            big = TRUE;
        v = v * base + d;
    }
    if (endp == digits)
        return LIT_NO_NUMBER;
    while (c->p < endp)
        lit_advance(c);
    if (big || (neg && v > (1ull << 63)))
        return LIT_TOO_BIG;
    /* two's complement without negating INT64_MIN */
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return LIT_NUMBER;
}

char *lit_expect_ident(LitCursor *c, const char *what, GError **error)
{
    char *id = lit_parse_ident(c);
    if (!id)
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected %s", what);
    return id;
}

gboolean lit_parse_value(LitCursor *c, int64_t *value, char **loc, GError **error)
{
    guint line = c->line, col = c->col;
    const char *start = c->p;
    switch (lit_parse_int(c, value)) {
    case LIT_NUMBER:
        return TRUE;
    case LIT_TOO_BIG:
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col, "%.*s: does not fit in 64 bits",
                     (int)MIN(c->p - start, 40), start);
        return FALSE;
    case LIT_NO_NUMBER:
        break;
    }
    if (c->p < c->end && *c->p == '&')
        lit_advance(c);
    *loc = lit_parse_ident(c);
    if (!*loc)
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected a value");
    return *loc != NULL;
}

static gboolean ident_char(char ch)
{
    return g_ascii_isalnum(ch) || ch == '_' || ch == '.' || ch == '$' || ch == '%';
}

char *lit_parse_ident(LitCursor *c)
{
    const char *s = c->p;
    if (s >= c->end || !(g_ascii_isalpha(*s) || *s == '_' || *s == '%' || *s == '$'))
        return NULL;
    while (c->p < c->end && ident_char(*c->p))
        lit_advance(c);
    return g_strndup(s, (gsize)(c->p - s));
}

const char *litmus_arch_name(LitmusArch a)
{
    switch (a) {
    case LITMUS_X86: return "X86";
    case LITMUS_X86_64: return "X86_64";
    case LITMUS_AARCH64: return "AArch64";
    }
    return "?";
}

/* ---- registers ---- */

/* x86 register families: every width of one register names the same ISA register. */
static const struct {
    const char *canon;
    const char *names[4]; /* 8, 4, 2, 1 bytes */
} x86_regs[] = {
    { "ax", { "rax", "eax", "ax", "al" } },   { "bx", { "rbx", "ebx", "bx", "bl" } },
    { "cx", { "rcx", "ecx", "cx", "cl" } },   { "dx", { "rdx", "edx", "dx", "dl" } },
    { "si", { "rsi", "esi", "si", "sil" } },  { "di", { "rdi", "edi", "di", "dil" } },
    { "bp", { "rbp", "ebp", "bp", "bpl" } },
    { "r8", { "r8", "r8d", "r8w", "r8b" } },  { "r9", { "r9", "r9d", "r9w", "r9b" } },
    { "r10", { "r10", "r10d", "r10w", "r10b" } }, { "r11", { "r11", "r11d", "r11w", "r11b" } },
    { "r12", { "r12", "r12d", "r12w", "r12b" } }, { "r13", { "r13", "r13d", "r13w", "r13b" } },
    { "r14", { "r14", "r14d", "r14w", "r14b" } }, { "r15", { "r15", "r15d", "r15w", "r15b" } },
};

const char *litmus_reg_canonical(LitmusArch arch, const char *name, int *width)
{
    int w = 0;
    const char *res = NULL;
    if (arch == LITMUS_AARCH64) {
        /* A const table, not a lazily filled buffer: callers may run on several threads. */
        static const char canon[31][4] = {
            "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10",
            "X11", "X12", "X13", "X14", "X15", "X16", "X17", "X18", "X19", "X20",
            "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
        };
        if ((name[0] == 'X' || name[0] == 'W' || name[0] == 'x' || name[0] == 'w') &&
            g_ascii_isdigit(name[1])) {
            char *endp;
            long n = strtol(name + 1, &endp, 10);
            if (*endp == '\0' && n >= 0 && n <= 30 && (name[1] != '0' || name[2] == '\0')) {
                res = canon[n];
                w = (name[0] == 'X' || name[0] == 'x') ? 8 : 4;
            }
        }
    } else {
        const char *n = name[0] == '%' ? name + 1 : name;
        for (guint i = 0; i < G_N_ELEMENTS(x86_regs) && !res; i++)
            for (int k = 0; k < 4; k++)
                if (!g_ascii_strcasecmp(n, x86_regs[i].names[k])) {
                    /* 32-bit X86 has no r8..r15 and no 64-bit registers. */
                    if (arch == LITMUS_X86 && (k == 0 || x86_regs[i].canon[0] == 'r'))
                        break;
                    res = x86_regs[i].canon;
                    w = 8 >> k;
                    break;
                }
    }
    if (width)
        *width = w;
    return res;
}

/* ---- parsing ---- */

void litmus_obs_free(LitmusObs *o)
{
    if (!o)
        return;
    g_free(o->name);
    g_free(o->display);
    g_free(o);
}

void litmus_cond_free(LitmusCond *c)
{
    if (!c)
        return;
    litmus_cond_free(c->l);
    litmus_cond_free(c->r);
    g_free(c->value_loc);
    g_free(c);
}

static LitmusCond *cond_new(LitmusCondKind k, LitmusCond *l, LitmusCond *r)
{
    LitmusCond *c = g_new0(LitmusCond, 1);
    c->kind = k;
    c->l = l;
    c->r = r;
    return c;
}

/* A condition is parsed, evaluated, printed and freed by recursion over its tree: its nesting
 * and its length are bounded (herd's conditions have a few dozen terms), so that none of them
 * can run out of stack (200k `(` did). */
#define LIT_COND_MAX_DEPTH 64
#define LIT_COND_MAX_TERMS 1000

typedef struct {
    LitCursor *c;
    LitmusArch arch;
    GPtrArray *obs;
    GError **error;
    guint depth;               /* open `(`, `~` and `=>` */
    guint terms;
} CondParser;

static gboolean cp_fail(CondParser *cp, const char *fmt, const char *arg)
{
    lit_error_at(cp->error, LITMUS_ERROR_SYNTAX, cp->c->file, cp->c->line, cp->c->col, fmt, arg);
    return FALSE;
}

/* One more level of nesting, opened at line:col; FALSE past the limit. */
static gboolean cp_nest(CondParser *cp, guint line, guint col)
{
    if (++cp->depth <= LIT_COND_MAX_DEPTH)
        return TRUE;
    lit_error_at(cp->error, LITMUS_ERROR_SYNTAX, cp->c->file, line, col, "a condition nested deeper than %d levels",
                 LIT_COND_MAX_DEPTH);
    return FALSE;
}

static gboolean cp_eat(CondParser *cp, const char *tok)
{
    lit_skip_space(cp->c);
    gsize n = strlen(tok);
    if ((gsize)(cp->c->end - cp->c->p) >= n && !strncmp(cp->c->p, tok, n)) {
        for (gsize i = 0; i < n; i++)
            lit_advance(cp->c);
        return TRUE;
    }
    return FALSE;
}

/* Finds or adds the observable (thread, canonical name). */
guint lit_obs_intern(GPtrArray *obs, int thread, const char *name, const char *display)
{
    for (guint i = 0; i < obs->len; i++) {
        LitmusObs *o = obs->pdata[i];
        if (o->thread == thread && !strcmp(o->name, name))
            return i;
    }
    LitmusObs *o = g_new0(LitmusObs, 1);
    o->thread = thread;
    o->name = g_strdup(name);
    o->display = g_strdup(display);
    g_ptr_array_add(obs, o);
    return obs->len - 1;
}

/* obs := INT ':' REG | LOC | '[' LOC ']'; fills *index. */
gboolean lit_parse_obs(LitCursor *c, LitmusArch arch, GPtrArray *obs, guint *index, GError **error)
{
    lit_skip_space(c);
    guint line = c->line, col = c->col;
    int64_t thread = 0;
    LitNumber num = lit_parse_int(c, &thread);
    if (num == LIT_TOO_BIG || (num == LIT_NUMBER && (thread < 0 || thread > 63))) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col, "bad thread number (0 to 63)");
        return FALSE;
    }
    if (num == LIT_NUMBER) {
        lit_skip_space(c);
        if (c->p >= c->end || *c->p != ':') {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col,
                         "expected ':' after thread number %" G_GINT64_FORMAT, thread);
            return FALSE;
        }
        lit_advance(c);
        lit_skip_space(c);
        guint rline = c->line, rcol = c->col;
        g_autofree char *reg = lit_parse_ident(c);
        const char *canon = reg ? litmus_reg_canonical(arch, reg, NULL) : NULL;
        if (!canon) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, rline, rcol,
                         "'%s' is not a %s register", reg ? reg : "", litmus_arch_name(arch));
            return FALSE;
        }
        if (thread < 0 || thread > 63) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col, "bad thread number");
            return FALSE;
        }
        g_autofree char *display = g_strdup_printf("%d:%s", (int)thread, reg[0] == '%' ? reg + 1 : reg);
        *index = lit_obs_intern(obs, (int)thread, canon, display);
        return TRUE;
    }
    gboolean bracket = FALSE;
    if (c->p < c->end && *c->p == '[') {
        bracket = TRUE;
        lit_advance(c);
        lit_skip_space(c);
    }
    g_autofree char *name = lit_expect_ident(c, "a register (P:REG) or a location", error);
    if (!name)
        return FALSE;
    if (bracket) {
        lit_skip_space(c);
        if (c->p >= c->end || *c->p != ']') {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected ']'");
            return FALSE;
        }
        lit_advance(c);
    }
    *index = lit_obs_intern(obs, -1, name, name);
    return TRUE;
}

static LitmusCond *cp_prop(CondParser *cp);

static LitmusCond *cp_atom(CondParser *cp)
{
    LitCursor *c = cp->c;
    lit_skip_space(c);
    if (c->p >= c->end) {
        cp_fail(cp, "expected a condition%s", "");
        return NULL;
    }
    guint line = c->line, col = c->col;
    if (cp_eat(cp, "(")) {
        if (!cp_nest(cp, line, col))
            return NULL;
        LitmusCond *in = cp_prop(cp);
        cp->depth--;
        if (!in)
            return NULL;
        if (!cp_eat(cp, ")")) {
            litmus_cond_free(in);
            cp_fail(cp, "expected ')'%s", "");
            return NULL;
        }
        return in;
    }
    if (++cp->terms > LIT_COND_MAX_TERMS) {
        cp_fail(cp, "a condition of more than %s terms", G_STRINGIFY(LIT_COND_MAX_TERMS));
        return NULL;
    }
    /* true / false, but not a location named "trueish". */
    for (int b = 0; b < 2; b++) {
        const char *kw = b ? "false" : "true";
        gsize n = strlen(kw);
        if ((gsize)(c->end - c->p) >= n && !strncmp(c->p, kw, n) &&
            (c->p + n == c->end || !ident_char(c->p[n]))) {
            for (gsize i = 0; i < n; i++)
                lit_advance(c);
            return cond_new(b ? LC_FALSE : LC_TRUE, NULL, NULL);
        }
    }
    guint index;
    if (!lit_parse_obs(c, cp->arch, cp->obs, &index, cp->error))
        return NULL;
    LitmusCond *a = cond_new(LC_ATOM, NULL, NULL);
    a->obs = index;
    if (cp_eat(cp, "!="))
        a->neq = TRUE;
    else if (!cp_eat(cp, "=")) {
        litmus_cond_free(a);
        cp_fail(cp, "expected '=' after %s", ((LitmusObs *)cp->obs->pdata[index])->display);
        return NULL;
    }
    lit_skip_space(c);
    if (!lit_parse_value(c, &a->value, &a->value_loc, cp->error)) {
        litmus_cond_free(a);
        return NULL;
    }
    return a;
}

static LitmusCond *cp_unary(CondParser *cp)
{
    lit_skip_space(cp->c);
    guint line = cp->c->line, col = cp->c->col;
    if (cp_eat(cp, "~")) {
        if (!cp_nest(cp, line, col))
            return NULL;
        LitmusCond *in = cp_unary(cp);
        cp->depth--;
        return in ? cond_new(LC_NOT, in, NULL) : NULL;
    }
    return cp_atom(cp);
}

/* l KIND r, with r parsed by `operand`; l is freed when r fails. */
static LitmusCond *cp_join(CondParser *cp, LitmusCond *l, LitmusCondKind kind, LitmusCond *(*operand)(CondParser *))
{
    LitmusCond *r = operand(cp);
    if (!r) {
        litmus_cond_free(l);
        return NULL;
    }
    return cond_new(kind, l, r);
}

/* operand { op operand }, grouped to the left. */
static LitmusCond *cp_left_assoc(CondParser *cp, const char *op, LitmusCondKind kind,
                                 LitmusCond *(*operand)(CondParser *))
{
    LitmusCond *l = operand(cp);
    while (l && cp_eat(cp, op))
        l = cp_join(cp, l, kind, operand);
    return l;
}

static LitmusCond *cp_conj(CondParser *cp)
{
    return cp_left_assoc(cp, "/\\", LC_AND, cp_unary);
}

static LitmusCond *cp_disj(CondParser *cp)
{
    return cp_left_assoc(cp, "\\/", LC_OR, cp_conj);
}

/* disj [ '=>' prop ]: implication groups to the right. */
static LitmusCond *cp_prop(CondParser *cp)
{
    LitmusCond *l = cp_disj(cp);
    if (l)
        lit_skip_space(cp->c);
    guint line = cp->c->line, col = cp->c->col;
    if (l && cp_eat(cp, "=>")) {
        if (!cp_nest(cp, line, col)) {
            litmus_cond_free(l);
            return NULL;
        }
        l = cp_join(cp, l, LC_IMPLIES, cp_prop);
        cp->depth--;
    }
    return l;
}

/* Parses one proposition at the cursor; the caller checks what follows. */
LitmusCond *lit_cond_parse_cursor(LitCursor *c, LitmusArch arch, GPtrArray *obs, GError **error)
{
    CondParser cp = { c, arch, obs, error, 0, 0 };
    return cp_prop(&cp);
}

LitmusCond *litmus_cond_parse(const char *text, LitmusArch arch, GPtrArray *obs,
                              const char *filename, guint line, guint col, GError **error)
{
    LitCursor c = { text, text + strlen(text), filename, line, col };
    LitmusCond *r = lit_cond_parse_cursor(&c, arch, obs, error);
    if (!r)
        return NULL;
    lit_skip_space(&c);
    if (c.p < c.end && *c.p == ';') /* herd tolerates a final ';' */
        lit_advance(&c);
    lit_skip_space(&c);
    if (c.p < c.end) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, filename, c.line, c.col,
                     "unexpected '%c' after the condition", *c.p);
        litmus_cond_free(r);
        return NULL;
    }
    return r;
}

/* ---- evaluation and printing ---- */

gboolean litmus_cond_eval(const LitmusCond *c, const uint64_t *obs_value, const guint8 *obs_bytes,
                          uint64_t (*loc_addr)(void *ctx, const char *loc), void *ctx)
{
    switch (c->kind) {
    case LC_TRUE: return TRUE;
    case LC_FALSE: return FALSE;
    case LC_NOT: return !litmus_cond_eval(c->l, obs_value, obs_bytes, loc_addr, ctx);
    case LC_AND:
        return litmus_cond_eval(c->l, obs_value, obs_bytes, loc_addr, ctx) &&
               litmus_cond_eval(c->r, obs_value, obs_bytes, loc_addr, ctx);
    case LC_OR:
        return litmus_cond_eval(c->l, obs_value, obs_bytes, loc_addr, ctx) ||
               litmus_cond_eval(c->r, obs_value, obs_bytes, loc_addr, ctx);
    case LC_IMPLIES:
        return !litmus_cond_eval(c->l, obs_value, obs_bytes, loc_addr, ctx) ||
               litmus_cond_eval(c->r, obs_value, obs_bytes, loc_addr, ctx);
    case LC_ATOM: {
        uint64_t want = c->value_loc ? loc_addr(ctx, c->value_loc) : (uint64_t)c->value;
        /* in the observable's width: x=-1 on a 32-bit x means 0xffffffff */
        guint bytes = obs_bytes ? obs_bytes[c->obs] : 8;
        uint64_t mask = bytes >= 8 ? G_MAXUINT64 : (((uint64_t)1 << (8 * bytes)) - 1);
        gboolean eq = (obs_value[c->obs] & mask) == (want & mask);
        return c->neq ? !eq : eq;
    }
    }
    g_assert_not_reached();
}

static int prec(LitmusCondKind k)
{
    switch (k) {
    case LC_IMPLIES: return 1;
    case LC_OR: return 2;
    case LC_AND: return 3;
    default: return 4;
    }
}

static void cond_print(GString *s, const LitmusCond *c, const GPtrArray *obs, int outer)
{
    gboolean paren = prec(c->kind) < outer;
    if (paren)
        g_string_append_c(s, '(');
    switch (c->kind) {
    case LC_TRUE: g_string_append(s, "true"); break;
    case LC_FALSE: g_string_append(s, "false"); break;
    case LC_NOT:
        g_string_append_c(s, '~');
        cond_print(s, c->l, obs, 4);
        break;
    case LC_AND:
    case LC_OR:
    case LC_IMPLIES: {
        const char *op = c->kind == LC_AND ? " /\\ " : c->kind == LC_OR ? " \\/ " : " => ";
        /* Left-associative: the left side may be the same operator unparenthesised (=> is
         * right-associative, so the other way round). */
        int p = prec(c->kind);
        cond_print(s, c->l, obs, c->kind == LC_IMPLIES ? p + 1 : p);
        g_string_append(s, op);
        cond_print(s, c->r, obs, c->kind == LC_IMPLIES ? p : p + 1);
        break;
    }
    case LC_ATOM: {
        const LitmusObs *o = obs->pdata[c->obs];
        g_string_append_printf(s, "%s%s", o->display, c->neq ? "!=" : "=");
        if (c->value_loc)
            g_string_append(s, c->value_loc);
        else
            g_string_append_printf(s, "%" G_GINT64_FORMAT, c->value);
        break;
    }
    }
    if (paren)
        g_string_append_c(s, ')');
}

char *litmus_cond_to_string(const LitmusCond *c, const GPtrArray *obs)
{
    GString *s = g_string_new(NULL);
    cond_print(s, c, obs, 0);
    return g_string_free(s, FALSE);
}
