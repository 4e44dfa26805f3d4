/* The ops of one translated instruction made fewer before they are written (see cf_peephole.h).
 *
 * A translator writes each instruction as the ops that are plainly right: its result into a
 * temporary, then moved or masked into the register; every 32-bit operand masked to 32 bits
 * before it is used.  Most of those ops do nothing: a 32-bit load is already zero-extended, a
 * store of 32 bits never reads the upper half.  Left in, each takes a slot in the timing
 * model's pipeline and a step of the simulator, so a translated lock would time and cost more
 * than the same instructions written by hand (docs/c-locks.md, "What it costs").  The rules
 * below remove only ops whose removal no later op can see: a temporary is dead once its
 * instruction ends (the translators take fresh ones per instruction), and an instruction with
 * a label inside (a loop or a skip) is left as it is. */
#include <stdlib.h>
#include <string.h>
#include "sim/cfront/cf_peephole.h"

#define MAX_OPDS 4

/* One op of ISA text, split: "fadd32.acq r50, [r16], r51" is base "fadd", width 32, operands
 * "r50", "[r16]", "r51". */
typedef struct {
    char *text;                /* as written (owned by the caller's array) */
    char base[16];
    guint width;               /* the mnemonic's size; 64 when it has none */
    char *opd[MAX_OPDS];       /* owned */
    guint nopd;
    gboolean label;
} Op;

/* Ops whose first operand is the register they write. */
static const char *const writes_first[] = {
    "mov", "add", "sub", "and", "or", "xor", "shl", "shr", "sar", "sext", "mul", "div", "divu", "rem", "remu",
    "seq", "sne", "slt", "sge", "sltu", "sgeu", "la", "ld", "ldx", "stx", "cas", "xchg", "fadd", "for", "fand",
};
/* Ops that write no register. */
static const char *const writes_none[] = {
    "nop", "st", "fence", "pause", "wfe", "sev", "sevl", "beq", "bne", "blt", "bge", "bltu", "bgeu", "jmp",
};
/* Read-modify-writes and loads: their result is the old value, zero-extended from the width. */
static const char *const zext_result[] = { "ld", "ldx", "cas", "xchg", "fadd", "for", "fand" };

static gboolean in_list(const char *s, const char *const *list, guint n)
{
    for (guint i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return TRUE;
    return FALSE;
}
#define IN(s, list) in_list((s), (list), G_N_ELEMENTS(list))

static void op_parse(Op *o, char *text)
{
    memset(o, 0, sizeof *o);
    o->text = text;
    gsize len = strlen(text);
    if (len && text[len - 1] == ':') {
        o->label = TRUE;
        return;
    }
    const char *p = text;
    guint b = 0;
    while (g_ascii_isalpha(*p) || *p == '_') {
        if (b + 1 < sizeof o->base)
            o->base[b++] = *p;
        p++;
    }
    o->width = g_ascii_isdigit(*p) ? (guint)atoi(p) : 64;
    /* "b" and a condition: the conditional branches are "beq" ... as written */
    p = strchr(p, ' ');
    if (!p)
        return;
    gchar **parts = g_strsplit(p + 1, ", ", MAX_OPDS + 1);
    for (guint i = 0; parts[i]; i++) {
        if (i == MAX_OPDS) {         /* more than any op has: leave the op alone */
            o->base[0] = '\0';
            break;
        }
        o->opd[o->nopd++] = g_strdup(parts[i]);
    }
    g_strfreev(parts);
}

static void op_clear(Op *o)
{
    for (guint i = 0; i < o->nopd; i++)
        g_free(o->opd[i]);
    o->nopd = 0;
}

static char *op_text(const Op *o)
{
    GString *g = g_string_new(NULL);
    const char *sp = strchr(o->text, ' ');
    g_string_append_len(g, o->text, sp ? sp - o->text : (gssize)strlen(o->text));
    for (guint i = 0; i < o->nopd; i++)
        g_string_append_printf(g, "%s%s", i ? ", " : " ", o->opd[i]);
    return g_string_free(g, FALSE);
}

/* Whether register `r` ("r40") occurs in `s` as a whole token ("[c_x+r40-4]" yes, "r401" no). */
static gboolean mentions(const char *s, const char *r)
{
    gsize n = strlen(r);
    for (const char *p = strstr(s, r); p; p = strstr(p + 1, r))
        if ((p == s || !g_ascii_isalnum(p[-1])) && !g_ascii_isalnum(p[n]) && p[n] != '_')
            return TRUE;
    return FALSE;
}

static gboolean op_mentions(const Op *o, const char *r)
{
    for (guint i = 0; i < o->nopd; i++)
        if (mentions(o->opd[i], r))
            return TRUE;
    return FALSE;
}

static gboolean is_temp(const char *s, guint t_first, guint t_count)
{
    if (s[0] != 'r' || !g_ascii_isdigit(s[1]))
        return FALSE;
    char *end;
    guint64 n = g_ascii_strtoull(s + 1, &end, 10);
    return !*end && n >= t_first && n < t_first + t_count;
}

static gboolean is_reg(const char *s)
{
    return s[0] == 'r' && g_ascii_isdigit(s[1]);
}

/* Whether op `o` may write register `r` (an op this file does not know: it may). */
static gboolean op_writes(const Op *o, const char *r)
{
    if (IN(o->base, writes_first))
        return o->nopd > 0 && !strcmp(o->opd[0], r);
    return !IN(o->base, writes_none);
}

/* The bits of the mask `s` when it is 2^k - 1 for k in 8, 16, 32; else 0. */
static guint mask_bits(const char *s)
{
    if (!strcmp(s, "255"))
        return 8;
    if (!strcmp(s, "65535"))
        return 16;
    if (!strcmp(s, "4294967295"))
        return 32;
    return 0;
}

/* How many low bits of its result `o` can set (64: any). */
static guint result_bits(const Op *o)
{
    if (!strcmp(o->base, "stx"))
        return 1;
    if (IN(o->base, zext_result))
        return o->width;
    if (!strcmp(o->base, "and") && o->nopd == 3 && mask_bits(o->opd[2]))
        return mask_bits(o->opd[2]);
    return 64;
}

/* Whether operand `k` of `o` is read only for its low `bits` bits. */
static gboolean reads_low(const Op *o, guint k, guint bits)
{
    if (!strcmp(o->base, "sext"))
        return k == 1 && o->nopd == 3 && (guint)atoi(o->opd[2]) <= bits && g_ascii_isdigit(o->opd[2][0]);
    if (!strcmp(o->base, "and"))
        return k == 1 && o->nopd == 3 && mask_bits(o->opd[2]) && mask_bits(o->opd[2]) <= bits;
    if (o->width > bits)
        return FALSE;
    if (!strcmp(o->base, "st"))
        return k == 1;
    if (IN(o->base, ((const char *const[]){ "xchg", "fadd", "for", "fand", "stx" })))
        return k == 2;
    if (!strcmp(o->base, "cas"))
        return k == 3;         /* the new value; the expected one is compared whole */
    return FALSE;
}

/* The number of register `s` ("r17"), or -1. */
static int reg_num(const char *s)
{
    if (!is_reg(s))
        return -1;
    char *end;
    guint64 n = g_ascii_strtoull(s + 1, &end, 10);
    return *end || n >= 64 ? -1 : (int)n;
}

static gboolean known_narrow(const char *s, guint64 zext32)
{
    int r = reg_num(s);
    return r >= 0 && (zext32 >> r & 1);
}

/* `and D, R, 2^N-1` (N >= 32) of a register R an earlier instruction left zero-extended from 32
 * bits: a move. */
static gboolean narrow_mask_to_move(Op *o, guint64 zext32, GPtrArray *pool)
{
    if (strcmp(o->base, "and") || o->nopd != 3 || mask_bits(o->opd[2]) < 32 || !known_narrow(o->opd[1], zext32))
        return FALSE;
    memcpy(o->base, "mov", 4);
    g_free(o->opd[2]);
    o->nopd = 2;
    o->text = g_strdup_printf("mov %s, %s", o->opd[0], o->opd[1]);
    g_ptr_array_add(pool, o->text);
    return TRUE;
}

/* `mov t, X` (X a register) whose later uses are whole operands, X and t unchanged until the
 * last: the uses read X, and the move goes. */
static gboolean propagate_copy(Op *ops, guint n, guint i, guint t_first, guint t_count)
{
    Op *m = &ops[i];
    if (strcmp(m->base, "mov") || m->nopd != 2 || !is_temp(m->opd[0], t_first, t_count) || !is_reg(m->opd[1]) ||
        !strcmp(m->opd[0], m->opd[1]))
        return FALSE;
    const char *t = m->opd[0], *x = m->opd[1];
    guint last = 0;
    for (guint k = i + 1; k < n; k++) {
        const Op *o = &ops[k];
        for (guint j = 0; j < o->nopd; j++)
            if (mentions(o->opd[j], t)) {
                if (strcmp(o->opd[j], t) || (j == 0 && IN(o->base, writes_first)))
                    return FALSE;
                last = k;
            }
    }
    if (!last)
        return FALSE;
    for (guint k = i + 1; k < last; k++)
        if (op_writes(&ops[k], x) || op_writes(&ops[k], t))
            return FALSE;
    for (guint k = i + 1; k <= last; k++)
        for (guint j = 0; j < ops[k].nopd; j++)
            if (!strcmp(ops[k].opd[j], t)) {
                g_free(ops[k].opd[j]);
                ops[k].opd[j] = g_strdup(x);
            }
    return TRUE;
}

/* The registers zero-extended from 32 bits after `o`, from those before. */
static guint64 narrow_after(const Op *o, guint64 zext32)
{
    if (o->label)
        return 0;
    if (!IN(o->base, writes_first))
        return IN(o->base, writes_none) ? zext32 : 0;
    int r = o->nopd ? reg_num(o->opd[0]) : -1;
    if (r < 0)
        return 0;
    gboolean narrow = result_bits(o) <= 32;
    if (!strcmp(o->base, "mov") && o->nopd == 2)
        narrow = known_narrow(o->opd[1], zext32) ||
                 (g_ascii_isdigit(o->opd[1][0]) && g_ascii_strtoull(o->opd[1], NULL, 10) <= G_MAXUINT32);
    return narrow ? zext32 | (guint64)1 << r : zext32 & ~((guint64)1 << r);
}

/* `OP t, ...; mov R, t` with t a temporary read by nothing later: `OP R, ...`. */
static gboolean fold_move(Op *ops, guint n, guint i, guint t_first, guint t_count)
{
    Op *d = &ops[i], *m = &ops[i + 1];
    if (!IN(d->base, writes_first) || d->nopd == 0 || !is_temp(d->opd[0], t_first, t_count))
        return FALSE;
    if (strcmp(m->base, "mov") || m->nopd != 2 || strcmp(m->opd[1], d->opd[0]) || !is_reg(m->opd[0]) ||
        !strcmp(m->opd[0], d->opd[0]))
        return FALSE;
    for (guint k = i + 2; k < n; k++)
        if (op_mentions(&ops[k], d->opd[0]))
            return FALSE;
    g_free(d->opd[0]);
    d->opd[0] = g_strdup(m->opd[0]);
    return TRUE;
}

/* `OP t, ...` whose result fits in N bits, then `and R, t, 2^K-1` with K >= N: the and is a
 * move (and fold_move may then take it). */
static gboolean mask_to_move(Op *ops, guint i)
{
    Op *d = &ops[i], *m = &ops[i + 1];
    if (!IN(d->base, writes_first) || d->nopd == 0 || strcmp(m->base, "and") || m->nopd != 3 ||
        strcmp(m->opd[1], d->opd[0]) || !mask_bits(m->opd[2]) || mask_bits(m->opd[2]) < result_bits(d))
        return FALSE;
    memcpy(m->base, "mov", 4);
    g_free(m->opd[2]);
    m->nopd = 2;
    char *t = g_strdup_printf("mov %s, %s", m->opd[0], m->opd[1]);
    m->text = t;               /* kept in the pool below */
    return TRUE;
}

/* `and t, X, 2^N-1` whose every later use reads only the low N bits, X unchanged until then:
 * the uses read X, and the and goes. */
static gboolean drop_mask(Op *ops, guint n, guint i, guint t_first, guint t_count)
{
    Op *a = &ops[i];
    if (strcmp(a->base, "and") || a->nopd != 3 || !is_temp(a->opd[0], t_first, t_count) ||
        !mask_bits(a->opd[2]) || !is_reg(a->opd[1]) || !strcmp(a->opd[0], a->opd[1]))
        return FALSE;
    const char *t = a->opd[0], *x = a->opd[1];
    guint bits = mask_bits(a->opd[2]);
    guint uses = 0;
    for (guint k = i + 1; k < n; k++) {
        const Op *o = &ops[k];
        for (guint j = 0; j < o->nopd; j++) {
            if (!mentions(o->opd[j], t))
                continue;
            if (strcmp(o->opd[j], t) || (j == 0 && IN(o->base, writes_first)) || !reads_low(o, j, bits))
                return FALSE;
            uses++;
        }
        if (op_writes(o, t))
            return FALSE;
        /* X must hold what it held at the and until the last use; past that it may change. */
        if (op_writes(o, x)) {
            for (guint l = k + 1; l < n; l++)
                if (op_mentions(&ops[l], t))
                    return FALSE;
            if (op_mentions(o, t))
                return FALSE;
            break;
        }
    }
    if (!uses)
        return FALSE;
    for (guint k = i + 1; k < n; k++)
        for (guint j = 0; j < ops[k].nopd; j++)
            if (!strcmp(ops[k].opd[j], t)) {
                g_free(ops[k].opd[j]);
                ops[k].opd[j] = g_strdup(x);
            }
    return TRUE;
}

void cf_peephole(GPtrArray *lines, guint t_first, guint t_count, guint64 *zext32)
{
    guint n = lines->len;
    g_autoptr(GPtrArray) pool = g_ptr_array_new_with_free_func(g_free);
    Op *ops = g_new0(Op, n);
    gboolean labelled = FALSE;
    for (guint i = 0; i < n; i++) {
        op_parse(&ops[i], lines->pdata[i]);
        labelled |= ops[i].label;
    }
    if (!labelled) {
        guint64 narrow = *zext32;          /* what the ops before each have left zero-extended */
        for (guint i = 0; i < n; i++) {
            narrow_mask_to_move(&ops[i], narrow, pool);
            narrow = narrow_after(&ops[i], narrow);
        }
        gboolean changed = TRUE;
        while (changed) {
            changed = FALSE;
            for (guint i = 0; i < n && !changed; i++) {
                if (i + 1 < n && mask_to_move(ops, i)) {
                    g_ptr_array_add(pool, ops[i + 1].text);
                    changed = TRUE;
                }
                if (i + 1 < n && fold_move(ops, n, i, t_first, t_count)) {
                    op_clear(&ops[i + 1]);
                    memmove(&ops[i + 1], &ops[i + 2], (n - i - 2) * sizeof *ops);
                    n--;
                    changed = TRUE;
                } else if (drop_mask(ops, n, i, t_first, t_count) || propagate_copy(ops, n, i, t_first, t_count)) {
                    op_clear(&ops[i]);
                    memmove(&ops[i], &ops[i + 1], (n - i - 1) * sizeof *ops);
                    n--;
                    changed = TRUE;
                }
            }
        }
    }
    for (guint i = 0; i < n; i++)
        *zext32 = narrow_after(&ops[i], *zext32);
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < n; i++) {
        g_ptr_array_add(out, ops[i].label ? g_strdup(ops[i].text) : op_text(&ops[i]));
        op_clear(&ops[i]);
    }
    g_free(ops);
    /* hand the new lines back in place of the old */
    g_ptr_array_set_size(lines, 0);
    for (guint i = 0; i < out->len; i++)
        g_ptr_array_add(lines, g_strdup(out->pdata[i]));
    g_ptr_array_free(out, TRUE);
}
