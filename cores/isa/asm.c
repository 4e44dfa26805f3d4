/* The assembler (grammar in cores/isa/asm.h, user reference in docs/isa.md).
 *
 * Two passes over all sources: pass 1 reads the declarations (.shared, .thread, .equ, .param) so that
 * code may use a variable declared further down or in another source; pass 2 reads labels,
 * `.entry` and instructions.  Label references are fixed up at the end.  Errors are collected
 * with their positions and sorted, so the user sees every mistake of a file at once.
 * Conditional assembly (.if/.elif/.else/.endif) is followed identically in both passes, so both
 * skip the same lines; its errors are reported from pass 1 only. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "sim/base/echo.h"
#include "sim/base/suggest.h"

G_DEFINE_QUARK(qsim-asm-error-quark, asm_error)

/* ======================================================================= state */

typedef struct {
    guint file, line, col;
    char *msg;
} AsmDiag;

typedef struct {
    guint insn;
    char *label;
    guint file, line, col;
} AsmFixup;

typedef struct {
    guint file, line, col;
} AsmPos;

/* One open `.if` block.  Invariant: `active` implies `parent_active`, and at most one branch
 * of a block is active (`taken` says whether one already was). */
typedef struct {
    guint line, col;          /* of the `.if` */
    gboolean parent_active;   /* lines around the block are assembled */
    gboolean taken;           /* a branch so far had a true condition (or was the `.else`) */
    gboolean active;          /* lines of the current branch are assembled */
    gboolean seen_else;
} AsmCond;

typedef struct {
    ArchTarget target;
    IsaProgram *p;
    GArray *diags;            /* AsmDiag: the first ASM_DIAGS_KEPT found */
    guint ndiags;             /* errors found in all */
    GHashTable *labels;       /* name -> AsmPos* ; pc kept in p->labels */
    GHashTable *consts;       /* name -> gint64* */
    GHashTable *sym_index;    /* name (the sym's own) -> index in p->syms + 1: lookups at once */
    GArray *fixups;           /* AsmFixup */
    GPtrArray *entry_names;   /* char* with positions in entry_pos */
    GArray *entry_pos;        /* AsmPos */
    guint file;               /* current source */
    GArray *conds;            /* AsmCond: the open `.if` blocks of the current source */
    GArray *overrides;        /* AsmOverride: the caller's `.param` values */
} Asm;

/* A `.param` value given by the caller ("NAME=VALUE"); `used` once a `.param NAME` took it. */
typedef struct {
    char *name;
    int64_t value;
    gboolean used;
} AsmOverride;

/* A source of garbage has an error a line: the message shows the first ASM_DIAGS_SHOWN (by
 * position) of the first ASM_DIAGS_KEPT found, and how many there were. */
#define ASM_DIAGS_KEPT 1000u
#define ASM_DIAGS_SHOWN 20u

static void diag(Asm *a, guint line, guint col, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void diag(Asm *a, guint line, guint col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *full = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* Tokens echoed at most ECHO_MAX_CHARS (a megabyte label is not printed back whole). */
    if (a->ndiags++ >= ASM_DIAGS_KEPT)
        return;
    AsmDiag d = { a->file, line, col, echo_clip_message(full) };
    g_array_append_val(a->diags, d);
}

/* ======================================================================= lexing */

/* A piece of a line: its text (trimmed) and 1-based column. */
typedef struct {
    char *text;
    guint col;
} Tok;

static gboolean is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static gboolean is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static gboolean is_ident(const char *s)
{
    if (!is_ident_start(*s))
        return FALSE;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return FALSE;
    return TRUE;
}

/* Trims `s[0..len)` and returns it as a Tok whose column counts from `base_col`. */
static Tok tok_make(const char *s, gsize len, guint base_col)
{
    gsize b = 0, e = len;
    while (b < e && isspace((unsigned char)s[b]))
        b++;
    while (e > b && isspace((unsigned char)s[e - 1]))
        e--;
    return (Tok){ g_strndup(s + b, e - b), base_col + (guint)b };
}

/* Splits on commas outside brackets. */
static GArray *split_operands(const char *s, guint base_col)
{
    GArray *out = g_array_new(FALSE, FALSE, sizeof(Tok));
    if (!*s)
        return out;
    int depth = 0;
    const char *start = s;
    for (const char *c = s;; c++) {
        if (*c == '[')
            depth++;
        else if (*c == ']')
            depth--;
        if (*c == '\0' || (*c == ',' && depth == 0)) {
            Tok t = tok_make(start, (gsize)(c - start), base_col + (guint)(start - s));
            g_array_append_val(out, t);
            if (!*c)
                break;
            start = c + 1;
        }
    }
    return out;
}

static void toks_free(GArray *t)
{
    for (guint i = 0; i < t->len; i++)
        g_free(g_array_index(t, Tok, i).text);
    g_array_free(t, TRUE);
}

/* ======================================================================= values */

/* An integer literal or .equ name; FALSE if neither.  *overflow when a literal is too big. */
static gboolean parse_int(Asm *a, const char *s, int64_t *v, gboolean *overflow)
{
    *overflow = FALSE;
    gboolean neg = FALSE;
    const char *p = s;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
    }
    if (is_ident(p)) {
        gint64 *c = g_hash_table_lookup(a->consts, p);
        if (!c)
            return FALSE;
        *v = neg ? -*c : *c;
        return TRUE;
    }
    if (!isdigit((unsigned char)*p))
        return FALSE;
    guint base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        base = 2;
        p += 2;
    }
    guint64 u;
    g_autoptr(GError) err = NULL;
    if (!g_ascii_string_to_unsigned(p, base, 0, G_MAXUINT64, &u, &err)) {
        if (err && err->code == G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS) {
            *overflow = TRUE;
            return TRUE;
        }
        return FALSE;
    }
    if (neg && u > (guint64)G_MAXINT64 + 1) {
        *overflow = TRUE;
        return TRUE;
    }
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return TRUE;
}

/* Does v fit in `size` bytes, read either as signed or unsigned? */
static gboolean fits_bytes(int64_t v, unsigned size)
{
    if (size >= 8)
        return TRUE;
    int64_t lo = -((int64_t)1 << (8 * size - 1));
    int64_t hi = ((int64_t)1 << (8 * size)) - 1;
    return v >= lo && v <= hi;
}

static int parse_reg(const char *s)
{
    if (!strcmp(s, "tid"))
        return ISA_REG_TID;
    if (!strcmp(s, "nthreads"))
        return ISA_REG_NTHREADS;
    if (s[0] != 'r' || !isdigit((unsigned char)s[1]))
        return -1;
    char *end;
    long n = strtol(s + 1, &end, 10);
    if (*end || n < 0 || n >= ISA_NREGS || (s[1] == '0' && s[2]))
        return -1;
    return (int)n;
}

/* ======================================================================= pass 1: declarations */

static IsaSym *find_sym(Asm *a, const char *name, int *index)
{
    int i = GPOINTER_TO_INT(g_hash_table_lookup(a->sym_index, name)) - 1;
    if (index)
        *index = i;
    return i >= 0 ? a->p->syms->pdata[i] : NULL;
}

static void sym_free(gpointer s)
{
    IsaSym *sym = s;
    g_free(sym->name);
    g_free(sym);
}

static guint natural_align(uint32_t size)
{
    guint al = 1;
    while (al < 8 && al * 2 <= size)
        al *= 2;
    return al;
}

static void parse_decl(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    gboolean shared = !strcmp(dir->text, ".shared");
    g_auto(GStrv) w = g_strsplit_set(rest, " \t", -1);
    /* Columns of each word: find them in `rest` as we go. */
    GPtrArray *words = g_ptr_array_new();
    GArray *cols = g_array_new(FALSE, FALSE, sizeof(guint));
    const char *scan = rest;
    for (guint i = 0; w[i]; i++) {
        if (!*w[i])
            continue;
        const char *at = strstr(scan, w[i]);
        guint c = rest_col + (guint)(at - rest);
        scan = at + strlen(w[i]);
        g_ptr_array_add(words, w[i]);
        g_array_append_val(cols, c);
    }
#define WORD(i) ((const char *)words->pdata[i])
#define WCOL(i) g_array_index(cols, guint, i)
    if (words->len < 2) {
        diag(a, line, dir->col, "%s needs a name and a size: `%s NAME SIZE [align N] [own_line]%s [init V]`",
             dir->text, dir->text, shared ? " [with SYM]" : "");
        goto out;
    }
    if (!is_ident(WORD(0))) {
        diag(a, line, WCOL(0), "`%s` is not a valid variable name", WORD(0));
        goto out;
    }
    if (find_sym(a, WORD(0), NULL)) {
        IsaSym *o = find_sym(a, WORD(0), NULL);
        diag(a, line, WCOL(0), "duplicate variable `%s` (first declared at line %u)", WORD(0), o->line);
        goto out;
    }
    int64_t size;
    gboolean ovf;
    if (!parse_int(a, WORD(1), &size, &ovf) || ovf || size < 1 || size > 4096) {
        diag(a, line, WCOL(1), "variable size `%s` must be a number of bytes from 1 to 4096", WORD(1));
        goto out;
    }
    IsaSym *sym = g_new0(IsaSym, 1);
    sym->name = g_strdup(WORD(0));
    sym->scope = shared ? SYM_SHARED : SYM_PER_THREAD;
    sym->size = (uint32_t)size;
    sym->align = natural_align(sym->size);
    sym->with = -1;
    sym->line = line;
    sym->col = WCOL(0);
    gboolean bad = FALSE;
    for (guint i = 2; i < words->len; i++) {
        const char *k = WORD(i);
        gboolean has_arg = !strcmp(k, "align") || !strcmp(k, "with") || !strcmp(k, "init");
        if (has_arg && i + 1 >= words->len) {
            diag(a, line, WCOL(i), "`%s` needs a value", k);
            bad = TRUE;
            break;
        }
        int64_t v;
        if (!strcmp(k, "own_line")) {
            sym->own_line = TRUE;
        } else if (!strcmp(k, "align")) {
            i++;
            if (!parse_int(a, WORD(i), &v, &ovf) || ovf || v < 1 || v > 4096 || (v & (v - 1))) {
                diag(a, line, WCOL(i), "alignment `%s` must be a power of two from 1 to 4096", WORD(i));
                bad = TRUE;
            } else if ((guint)v < natural_align(sym->size)) {
                diag(a, line, WCOL(i), "unaligned declaration: `%s` (%u bytes) needs at least %u-byte alignment, not %" G_GINT64_FORMAT,
                     sym->name, sym->size, natural_align(sym->size), v);
                bad = TRUE;
            } else {
                sym->align = (uint32_t)v;
            }
        } else if (!strcmp(k, "init")) {
            i++;
            if (!parse_int(a, WORD(i), &v, &ovf)) {
                diag(a, line, WCOL(i), "initial value `%s` is not a number", WORD(i));
                bad = TRUE;
            } else if (ovf || !fits_bytes(v, MIN(sym->size, 8u))) {
                diag(a, line, WCOL(i), "initial value %s is out of range for %u bytes", WORD(i), MIN(sym->size, 8u));
                bad = TRUE;
            } else {
                sym->init = v;
            }
        } else if (!strcmp(k, "with")) {
            i++;
            int idx;
            IsaSym *partner = find_sym(a, WORD(i), &idx);
            if (!shared) {
                diag(a, line, WCOL(i - 1), "`with` places shared variables; per-thread `%s` cannot use it", sym->name);
                bad = TRUE;
            } else if (!partner) {
                diag(a, line, WCOL(i), "`with %s`: no variable `%s` declared before this line", WORD(i), WORD(i));
                bad = TRUE;
            } else if (partner->scope != SYM_SHARED) {
                diag(a, line, WCOL(i), "`with %s`: `%s` is per-thread; only shared variables can share a line", WORD(i), WORD(i));
                bad = TRUE;
            } else {
                sym->with = idx;
            }
        } else {
            diag(a, line, WCOL(i), "unknown declaration option `%s` (expected align, own_line, with or init)", k);
            bad = TRUE;
        }
    }
    if (!bad && sym->with >= 0 && sym->own_line) {
        diag(a, line, sym->col, "`%s` cannot both own a line and share `%s`'s line", sym->name,
             ((IsaSym *)a->p->syms->pdata[sym->with])->name);
        bad = TRUE;
    }
    if (bad) {
        sym_free(sym);
    } else {
        g_ptr_array_add(a->p->syms, sym);
        g_hash_table_insert(a->sym_index, sym->name, GUINT_TO_POINTER(a->p->syms->len));
    }
out:
    g_ptr_array_free(words, TRUE);
    g_array_free(cols, TRUE);
#undef WORD
#undef WCOL
}

static void parse_equ(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    g_auto(GStrv) w = g_strsplit_set(rest, " \t,", -1);
    const char *name = NULL, *val = NULL;
    for (guint i = 0; w[i]; i++) {
        if (!*w[i])
            continue;
        if (!name)
            name = w[i];
        else if (!val)
            val = w[i];
        else {
            diag(a, line, dir->col, ".equ takes a name and a value");
            return;
        }
    }
    if (!name || !val || !is_ident(name)) {
        diag(a, line, dir->col, ".equ takes a name and a value: `.equ LOCKED 1`");
        return;
    }
    if (parse_reg(name) >= 0) {
        diag(a, line, rest_col, "`%s` is a register name", name);
        return;
    }
    int64_t v;
    gboolean ovf;
    if (!parse_int(a, val, &v, &ovf) || ovf) {
        diag(a, line, rest_col + (guint)(strstr(rest, val) - rest), "`%s` is not a 64-bit number", val);
        return;
    }
    if (g_hash_table_contains(a->consts, name)) {
        diag(a, line, rest_col, "duplicate constant `%s`", name);
        return;
    }
    gint64 *box = g_new(gint64, 1);
    *box = v;
    g_hash_table_insert(a->consts, g_strdup(name), box);
}

/* `.param NAME DEFAULT`: a constant like `.equ`, whose value the caller may override; each one
 * is recorded in the program with the value it took. */
static void parse_param(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    g_auto(GStrv) w = g_strsplit_set(rest, " \t,", -1);
    const char *name = NULL, *val = NULL;
    guint words = 0;
    for (guint i = 0; w[i]; i++) {
        if (!*w[i])
            continue;
        words++;
        if (!name)
            name = w[i];
        else if (!val)
            val = w[i];
    }
    if (words != 2 || !is_ident(name)) {
        diag(a, line, dir->col, ".param takes a name and a default value: `.param spin_count 100`");
        return;
    }
    if (parse_reg(name) >= 0) {
        diag(a, line, rest_col, "`%s` is a register name", name);
        return;
    }
    int64_t def;
    gboolean ovf;
    if (!parse_int(a, val, &def, &ovf) || ovf) {
        diag(a, line, rest_col + (guint)(strstr(rest, val) - rest), "`%s` is not a 64-bit number", val);
        return;
    }
    if (g_hash_table_contains(a->consts, name)) {
        diag(a, line, rest_col, "duplicate constant `%s`", name);
        return;
    }
    IsaParam prm = { g_strdup(name), def, def };
    for (guint i = 0; a->overrides && i < a->overrides->len; i++) {
        AsmOverride *o = &g_array_index(a->overrides, AsmOverride, i);
        if (!strcmp(o->name, name)) {
            prm.value = o->value;
            o->used = TRUE;
        }
    }
    gint64 *box = g_new(gint64, 1);
    *box = prm.value;
    g_hash_table_insert(a->consts, g_strdup(name), box);
    g_array_append_val(a->p->params, prm);
}

/* ======================================================================= ops */

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

static const char *const cond_names[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };
static const char *const order_names[] = { "", ".acq", ".rel", ".acqrel" };
static const char *const fence_names[] = { "", ".load", ".store" };

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
        diag(a, line, t->col, "expected a memory operand like [sym], [r1+8] or [sym+r2], not `%s`", t->text);
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
            diag(a, line, t->col + (guint)(b - t->text), "empty term in memory operand `%s`", t->text);
            return FALSE;
        }
        Tok term = tok_make(b, (gsize)(s - b), t->col + (guint)(b - t->text));
        g_autofree char *txt = term.text;
        if (*txt) {
            int r = parse_reg(txt);
            int64_t v;
            gboolean ovf;
            int idx;
            if (r >= 0) {
                if (sign < 0 || m->base != ISA_NO_REG) {
                    diag(a, line, term.col, "a memory operand takes one added base register");
                    return FALSE;
                }
                m->base = (int8_t)r;
            } else if (parse_int(a, txt, &v, &ovf)) {
                if (ovf || !fits_bytes(v * sign, 4) || v * sign > G_MAXINT32) {
                    diag(a, line, term.col, "offset %s is out of range (a 32-bit signed number)", txt);
                    return FALSE;
                }
                m->offset += sign * v;
            } else if (is_ident(txt) && find_sym(a, txt, &idx)) {
                if (sign < 0 || m->sym >= 0) {
                    diag(a, line, term.col, "a memory operand takes one added variable");
                    return FALSE;
                }
                m->sym = idx;
            } else if (is_ident(txt)) {
                diag(a, line, term.col, "undefined variable `%s`", txt);
                return FALSE;
            } else {
                diag(a, line, term.col, "cannot read `%s` in a memory operand", txt);
                return FALSE;
            }
        } else if (b == t->text + 1 && s < end && *s == '-') {
            /* a leading minus: [-8+r1] */
        } else if (s >= end || b != t->text + 1) {
            diag(a, line, term.col, "empty term in memory operand `%s`", t->text);
            return FALSE;
        }
        if (s < end) {
            sign = *s == '-' ? -1 : 1;
            s++;
            if (s >= end) {
                diag(a, line, t->col + (guint)(s - t->text), "memory operand `%s` ends with an operator", t->text);
                return FALSE;
            }
        }
    }
    if (m->sym < 0 && m->base == ISA_NO_REG) {
        diag(a, line, t->col, "memory operand `%s` names no variable and no register", t->text);
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
            diag(a, line, mn->col, "unknown op `%s`; did you mean `%s`?", mn->text, hint);
        else
            diag(a, line, mn->col, "unknown op `%s` (docs/isa.md lists the ops)", mn->text);
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
        diag(a, line, col, "`%s` takes %s, not `.%s`", d->name, suffix_allowed[kind], suffix);
    else
        diag(a, line, col, "`%s` takes no suffix", d->name);
    return FALSE;
}

/* Operand `i` of `mn`, a register: the destination (D) or la's thread register (R). */
static gboolean parse_reg_operand(Asm *a, guint line, const Tok *mn, guint i, const Tok *t, char kind, IsaInsn *in)
{
    int r = parse_reg(t->text);
    if (r < 0) {
        diag(a, line, t->col, "operand %u of `%s` must be a register, not `%s`", i + 1, mn->text, t->text);
        return FALSE;
    }
    if (kind == 'D' && r >= ISA_NREGS) {
        diag(a, line, t->col, "`%s` is read-only: `%s` cannot write it", t->text, mn->text);
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
    int r = parse_reg(t->text);
    int64_t v;
    gboolean ovf;
    if (r >= 0) {
        src->reg = (int8_t)r;
        return TRUE;
    }
    if (parse_int(a, t->text, &v, &ovf)) {
        gboolean ok = TRUE;
        unsigned fit = isa_op_info[in->op].is_load || isa_op_info[in->op].is_store ? in->size : 8;
        if (ovf || !fits_bytes(v, fit)) {
            diag(a, line, t->col, "immediate %s is out of range for a %u-bit operand", t->text, fit * 8);
            ok = FALSE;
        } else if ((in->op == OP_SHL || in->op == OP_SHR) && second && (v < 0 || v > 63)) {
            diag(a, line, t->col, "shift amount %s is out of range (0..63)", t->text);
            ok = FALSE;
        }
        src->imm = v;
        return ok;
    }
    if (t->text[0] == '[')
        diag(a, line, t->col, "operand %u of `%s` must be a register or an immediate, not memory", i + 1, mn->text);
    else if (is_ident(t->text) && t->text[0] == 'r' && isdigit((unsigned char)t->text[1]))
        diag(a, line, t->col, "no register `%s` (registers are r0..r%d, tid, nthreads)", t->text, ISA_NREGS - 1);
    else
        diag(a, line, t->col, "operand %u of `%s` must be a register or an immediate, not `%s`", i + 1, mn->text, t->text);
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
        diag(a, line, t->col, "%u-byte access at %s%+" G_GINT64_FORMAT " runs outside `%s` (%u bytes)",
             size, s->name, in->mem.offset, s->name, s->size);
        return FALSE;
    }
    if (in->mem.offset % (int64_t)size != 0 || s->align < size) {
        diag(a, line, t->col, "%u-bit access at %s%+" G_GINT64_FORMAT " crosses its natural alignment (%u bytes)",
             size * 8, s->name, in->mem.offset, size);
        return FALSE;
    }
    return TRUE;
}

/* A label: its pc is fixed up once every source is read. */
static gboolean parse_label_operand(Asm *a, guint line, const Tok *t)
{
    if (!is_ident(t->text)) {
        diag(a, line, t->col, "expected a label, not `%s`", t->text);
        return FALSE;
    }
    AsmFixup f = { a->p->insns->len, g_strdup(t->text), a->file, line, t->col };
    g_array_append_val(a->fixups, f);
    return TRUE;
}

static gboolean parse_var_operand(Asm *a, guint line, const Tok *t, IsaInsn *in)
{
    int idx;
    if (!is_ident(t->text)) {
        diag(a, line, t->col, "expected a variable name, not `%s`", t->text);
        return FALSE;
    }
    if (!find_sym(a, t->text, &idx)) {
        diag(a, line, t->col, "undefined variable `%s`", t->text);
        return FALSE;
    }
    in->target = idx;
    return TRUE;
}

static gboolean parse_count_operand(Asm *a, guint line, const Tok *mn, const Tok *t, IsaInsn *in)
{
    int64_t max = in->op == OP_WORK ? WORK_MAX : MARK_MAX, v;
    gboolean ovf;
    if (!parse_int(a, t->text, &v, &ovf)) {
        diag(a, line, t->col, "`%s` takes a number, not `%s`", mn->text, t->text);
        return FALSE;
    }
    if (ovf || v < 0 || v > max) {
        diag(a, line, t->col, "%s count %s is out of range (0..%" G_GINT64_FORMAT ")", mn->text, t->text, max);
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
        diag(a, line, mn->col, "`%s` takes %u or %u operands, not %u", mn->text, need - 1, need, n);
    else
        diag(a, line, mn->col, "`%s` takes %u operand%s, not %u", mn->text, need, need == 1 ? "" : "s", n);
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
            diag(a, line, t->col, "operand %u of `%s` is empty", i + 1, mn->text);
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

static void parse_insn(Asm *a, guint line, const Tok *mn, const char *rest, guint rest_col)
{
    IsaInsn in;
    init_insn(&in);
    in.line = line;
    in.col = mn->col;
    in.file = (uint16_t)a->file;
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
        diag(a, line, mn->col, "`%s` is not available on %s (%s only; put it under `.if arch=%s`)", mn->text,
             arch_name(a->target.arch), arch_name(arch_other(a->target.arch)), arch_name(arch_other(a->target.arch)));
        return;
    }
    GArray *ops = split_operands(rest, rest_col);
    if (check_operand_count(a, line, mn, in.op, ops->len)) {
        parse_operands(a, line, mn, ops, &in);
        /* Appended even when an operand is wrong, so pcs (and label fixups already recorded)
         * stay stable; the program is discarded anyway once any error was reported. */
        g_array_append_val(a->p->insns, in);
    }
    toks_free(ops);
}

/* ======================================================================= conditional assembly */

/* What `.if KEY=VALUE` may test: true when the target's KEY is VALUE.  The values are the
 * spellings of sim/base/arch.h, so options, configs and sources name them alike. */
typedef struct {
    const char *key;
    guint nvalues;
    const char *(*value_name)(guint i);    /* the i-th value KEY may take */
    guint (*of)(ArchTarget t);             /* the target's value, as an index */
} AsmCondKey;

static const char *cond_arch_name(guint i) { return arch_name((Arch)i); }
static guint cond_arch_of(ArchTarget t) { return (guint)t.arch; }
static const char *cond_atomics_name(guint i) { return arch_atomics_name((ArchAtomics)i); }
static guint cond_atomics_of(ArchTarget t) { return (guint)t.atomics; }

static const AsmCondKey asm_cond_keys[] = {
    { "arch", ARCH__N, cond_arch_name, cond_arch_of },
    { "atomics", ARCH_ATOMICS__N, cond_atomics_name, cond_atomics_of },
};

static const char *const cond_directives[] = { ".if", ".elif", ".else", ".endif" };

static gboolean is_cond_directive(const char *w)
{
    for (guint i = 0; i < G_N_ELEMENTS(cond_directives); i++)
        if (!strcmp(w, cond_directives[i]))
            return TRUE;
    return FALSE;
}

/* "x86 or arm64": the values of a key, for messages. */
static char *cond_values_text(const AsmCondKey *k)
{
    GString *g = g_string_new(NULL);
    for (guint i = 0; i < k->nvalues; i++)
        g_string_append_printf(g, "%s%s", i == 0 ? "" : i + 1 == k->nvalues ? " or " : ", ", k->value_name(i));
    return g_string_free(g, FALSE);
}

/* Reads the condition of `.if`/`.elif` (`rest`, starting at column rest_col) into *value;
 * FALSE (with a diagnostic when `report`) when it is not one. */
static gboolean eval_cond(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col, gboolean report,
                          gboolean *value)
{
    *value = FALSE;
    const char *eq = strchr(rest, '=');
    if (!*rest || !eq || eq == rest || !eq[1]) {
        if (report)
            diag(a, line, *rest ? rest_col : dir->col,
                 "`%s` takes one condition KEY=VALUE: arch=x86, arch=arm64, atomics=locked, atomics=llsc or "
                 "atomics=lse", dir->text);
        return FALSE;
    }
    Tok key = tok_make(rest, (gsize)(eq - rest), rest_col);
    Tok val = tok_make(eq + 1, strlen(eq + 1), rest_col + (guint)(eq + 1 - rest));
    gboolean ok = FALSE;
    const char *extra = val.text + strcspn(val.text, " \t");
    const AsmCondKey *k = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(asm_cond_keys); i++)
        if (!strcmp(key.text, asm_cond_keys[i].key))
            k = &asm_cond_keys[i];
    if (!k) {
        const char *keys[G_N_ELEMENTS(asm_cond_keys)];
        for (guint i = 0; i < G_N_ELEMENTS(asm_cond_keys); i++)
            keys[i] = asm_cond_keys[i].key;
        const char *hint = suggest_closest(key.text, keys, G_N_ELEMENTS(keys));
        if (report)
            diag(a, line, key.col, "unknown condition `%s`%s%s%s (a condition tests arch or atomics)", key.text,
                 hint ? "; did you mean `" : "", hint ? hint : "", hint ? "`?" : "");
    } else if (*extra) {
        const char *more = extra + strspn(extra, " \t");
        if (report)
            diag(a, line, val.col + (guint)(more - val.text), "`%s` takes one condition; `%s` follows it",
                 dir->text, more);
    } else {
        const char *names[8];
        g_assert(k->nvalues <= G_N_ELEMENTS(names));
        int found = -1;
        for (guint i = 0; i < k->nvalues; i++) {
            names[i] = k->value_name(i);
            if (!strcmp(val.text, names[i]))
                found = (int)i;
        }
        if (found < 0) {
            if (report) {
                g_autofree char *values = cond_values_text(k);
                const char *hint = suggest_closest(val.text, names, k->nvalues);
                diag(a, line, val.col, "unknown %s `%s`%s%s%s (%s is %s)", k->key, val.text,
                     hint ? "; did you mean `" : "", hint ? hint : "", hint ? "`?" : "", k->key, values);
            }
        } else {
            *value = (guint)found == k->of(a->target);
            ok = TRUE;
        }
    }
    g_free(key.text);
    g_free(val.text);
    return ok;
}

/* Whether the current line is assembled: every open block's current branch is taken. */
static gboolean cond_active(const Asm *a)
{
    return !a->conds->len || g_array_index(a->conds, AsmCond, a->conds->len - 1).active;
}

/* `.if`, `.elif`, `.else`, `.endif`. */
static void do_cond(Asm *a, guint pass, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    gboolean report = pass == 1;
    gboolean is_if = !strcmp(dir->text, ".if"), is_elif = !strcmp(dir->text, ".elif");
    if (!is_if && !is_elif && *rest && report)
        diag(a, line, rest_col, "`%s` takes no condition (conditions go on `.if` and `.elif`)", dir->text);
    if (is_if) {
        gboolean v;
        eval_cond(a, line, dir, rest, rest_col, report, &v);
        gboolean outer = cond_active(a);
        AsmCond c = { line, dir->col, outer, v, outer && v, FALSE };
        g_array_append_val(a->conds, c);
        return;
    }
    if (!a->conds->len) {
        if (report)
            diag(a, line, dir->col, "`%s` without an open `.if`", dir->text);
        return;
    }
    AsmCond *top = &g_array_index(a->conds, AsmCond, a->conds->len - 1);
    if (!strcmp(dir->text, ".endif")) {
        g_array_set_size(a->conds, a->conds->len - 1);
        return;
    }
    if (top->seen_else) {
        if (report)
            diag(a, line, dir->col, "`%s` after the `.else` of the `.if` at line %u", dir->text, top->line);
        return;
    }
    gboolean v = TRUE;
    if (is_elif)
        eval_cond(a, line, dir, rest, rest_col, report, &v);
    else
        top->seen_else = TRUE;
    top->active = top->parent_active && !top->taken && v;
    top->taken |= v;
}

/* At the end of a source: blocks still open are errors (a block never spans two sources). */
static void cond_end_of_source(Asm *a, guint pass)
{
    for (guint i = 0; pass == 1 && i < a->conds->len; i++) {
        const AsmCond *c = &g_array_index(a->conds, AsmCond, i);
        diag(a, c->line, c->col, "`.if` without `.endif` (a block closes in the file that opens it)");
    }
    g_array_set_size(a->conds, 0);
}

/* ======================================================================= lines */

static const char known_directives_text[] = ".shared, .thread, .equ, .param, .entry, .if, .elif, .else or .endif";

static gboolean is_known_directive(const char *w)
{
    return !strcmp(w, ".shared") || !strcmp(w, ".thread") || !strcmp(w, ".equ") || !strcmp(w, ".param") ||
           !strcmp(w, ".entry") ||
           is_cond_directive(w);
}

/* If `s` (after blanks) starts with a label `NAME:`, returns where NAME starts and sets *end to
 * the end of NAME and *next to just after the ':'; else NULL. */
static char *scan_label(char *s, char **end, char **next)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s;
    while (is_ident_char(*e) && *e != '.')
        e++;
    char *after = e;
    while (isspace((unsigned char)*after))
        after++;
    if (e == s || *after != ':' || !is_ident_start(*s))
        return NULL;
    *end = e;
    *next = after + 1;
    return s;
}

/* Splits one line: labels, then the statement's first word and the rest.  Conditional
 * directives are read first: they decide whether anything else on this line is. */
static void do_line(Asm *a, guint pass, guint lineno, char *line)
{
    /* Strip the comment. */
    for (char *c = line; *c; c++)
        if (*c == '#' || *c == ';') {
            *c = '\0';
            break;
        }
    char *s = line, *e, *next, *first_label = NULL;
    for (char *l; (l = scan_label(s, &e, &next)); s = next)
        first_label = first_label ? first_label : l;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s && !first_label)
        return;
    char *w = s;
    while (*w && !isspace((unsigned char)*w))
        w++;
    Tok first = { g_strndup(s, (gsize)(w - s)), (guint)(s - line) + 1 };
    while (isspace((unsigned char)*w))
        w++;
    char *rest = g_strdup(w);
    g_strchomp(rest);
    guint rest_col = (guint)(w - line) + 1;
    if (is_cond_directive(first.text)) {
        if (first_label && pass == 1)
            diag(a, lineno, (guint)(first_label - line) + 1, "a label cannot share a line with `%s`", first.text);
        do_cond(a, pass, lineno, &first, rest, rest_col);
        goto out;
    }
    if (!cond_active(a)) {
        /* Skipped, but a misspelt `.else` here would silently drop code on this target. */
        if (pass == 1 && first.text[0] == '.' && !is_known_directive(first.text))
            diag(a, lineno, first.col, "unknown directive `%s` (expected %s)", first.text, known_directives_text);
        goto out;
    }
    for (char *l, *from = line; pass == 2 && (l = scan_label(from, &e, &next)); from = next) {
        guint col = (guint)(l - line) + 1;
        g_autofree char *name = g_strndup(l, (gsize)(e - l));
        AsmPos *prev = g_hash_table_lookup(a->labels, name);
        if (prev) {
            diag(a, lineno, col, "duplicate label `%s` (first defined at %s:%u:%u)", name,
                 (const char *)a->p->files->pdata[prev->file], prev->line, prev->col);
        } else {
            AsmPos *pos = g_new(AsmPos, 1);
            *pos = (AsmPos){ a->file, lineno, col };
            g_hash_table_insert(a->labels, g_strdup(name), pos);
            IsaEntry l = { g_strdup(name), (int32_t)a->p->insns->len };
            g_array_append_val(a->p->labels, l);
        }
    }
    if (!*first.text)
        goto out;
    gboolean directive = first.text[0] == '.';
    if (pass == 1 && directive) {
        if (!strcmp(first.text, ".shared") || !strcmp(first.text, ".thread"))
            parse_decl(a, lineno, &first, rest, rest_col);
        else if (!strcmp(first.text, ".equ"))
            parse_equ(a, lineno, &first, rest, rest_col);
        else if (!strcmp(first.text, ".param"))
            parse_param(a, lineno, &first, rest, rest_col);
        else if (strcmp(first.text, ".entry"))
            diag(a, lineno, first.col, "unknown directive `%s` (expected %s)", first.text, known_directives_text);
    } else if (pass == 2 && directive) {
        if (!strcmp(first.text, ".entry")) {
            if (!is_ident(rest)) {
                diag(a, lineno, first.col, ".entry takes one label name");
            } else {
                g_ptr_array_add(a->entry_names, g_strdup(rest));
                AsmPos pos = { a->file, lineno, rest_col };
                g_array_append_val(a->entry_pos, pos);
            }
        }
    } else if (pass == 2) {
        parse_insn(a, lineno, &first, rest, rest_col);
    }
out:
    g_free(first.text);
    g_free(rest);
}


void asm_program_free(IsaProgram *p) { isa_program_free(p); }

static gint diag_cmp(gconstpointer x, gconstpointer y)
{
    const AsmDiag *a = x, *b = y;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->col < b->col ? -1 : a->col > b->col;
}

static void overrides_free(GArray *o)
{
    for (guint i = 0; o && i < o->len; i++)
        g_free(g_array_index(o, AsmOverride, i).name);
    if (o)
        g_array_free(o, TRUE);
}

/* The caller's "NAME=VALUE" list; NULL with the error on a bad one. */
static GArray *read_overrides(const char *const *params, GError **error)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(AsmOverride));
    for (guint i = 0; params && params[i]; i++) {
        const char *eq = strchr(params[i], '=');
        g_autofree char *name = eq ? g_strndup(params[i], (gsize)(eq - params[i])) : g_strdup(params[i]);
        gint64 v = 0;
        if (!eq || !is_ident(name) || !g_ascii_string_to_signed(eq + 1, 10, G_MININT64, G_MAXINT64, &v, NULL)) {
            g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM,
                        "lock parameter `%s`: expected NAME=VALUE with a whole number, e.g. spin_count=1000", params[i]);
            overrides_free(out);
            return NULL;
        }
        for (guint k = 0; k < out->len; k++)
            if (!strcmp(g_array_index(out, AsmOverride, k).name, name)) {
                g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM, "lock parameter `%s` given twice", name);
                overrides_free(out);
                return NULL;
            }
        AsmOverride o = { g_steal_pointer(&name), v, FALSE };
        g_array_append_val(out, o);
    }
    return out;
}

/* Every override must have met its `.param`: a misspelt name would otherwise change nothing. */
static gboolean check_overrides_used(Asm *a, GError **error)
{
    for (guint i = 0; i < a->overrides->len; i++) {
        const AsmOverride *o = &g_array_index(a->overrides, AsmOverride, i);
        if (o->used)
            continue;
        GPtrArray *names = g_ptr_array_new();
        GString *list = g_string_new(NULL);
        for (guint k = 0; k < a->p->params->len; k++) {
            const char *pn = g_array_index(a->p->params, IsaParam, k).name;
            g_ptr_array_add(names, (gpointer)pn);
            g_string_append_printf(list, "%s%s", k ? ", " : "", pn);
        }
        const char *hint = suggest_closest(o->name, (const char *const *)names->pdata, names->len);
        if (hint)
            g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM, "lock parameter `%s`: %s declares no `.param %s`; did you "
                        "mean `%s`? (its parameters: %s)", o->name, a->p->filename, o->name, hint, list->str);
        else
            g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM, "lock parameter `%s`: %s declares no `.param %s` (%s%s)",
                        o->name, a->p->filename, o->name, list->len ? "its parameters: " : "it has no parameters",
                        list->str);
        g_ptr_array_free(names, TRUE);
        g_string_free(list, TRUE);
        return FALSE;
    }
    return TRUE;
}

IsaProgram *asm_assemble_sources(const AsmSource *sources, guint n, ArchTarget target, GError **error)
{
    return asm_assemble_with_params(sources, n, target, NULL, error);
}

static void asm_init(Asm *a, const AsmSource *sources, guint n, ArchTarget target, GArray *overrides)
{
    memset(a, 0, sizeof *a);
    a->overrides = overrides;
    a->target = target;
    a->conds = g_array_new(FALSE, FALSE, sizeof(AsmCond));
    a->p = isa_program_new(n ? sources[0].name : "<empty>");
    a->diags = g_array_new(FALSE, FALSE, sizeof(AsmDiag));
    a->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    a->consts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    a->sym_index = g_hash_table_new(g_str_hash, g_str_equal);
    a->fixups = g_array_new(FALSE, FALSE, sizeof(AsmFixup));
    a->entry_names = g_ptr_array_new_with_free_func(g_free);
    a->entry_pos = g_array_new(FALSE, FALSE, sizeof(AsmPos));
    for (guint i = 0; i < n; i++)
        g_ptr_array_add(a->p->files, g_strdup(sources[i].name));
}

/* Frees the assembler's state (not the program). */
static void asm_clear(Asm *a)
{
    overrides_free(a->overrides);
    for (guint i = 0; i < a->diags->len; i++)
        g_free(g_array_index(a->diags, AsmDiag, i).msg);
    g_array_free(a->diags, TRUE);
    g_hash_table_destroy(a->labels);
    g_hash_table_destroy(a->consts);
    g_hash_table_destroy(a->sym_index);
    g_array_free(a->fixups, TRUE);
    g_ptr_array_free(a->entry_names, TRUE);
    g_array_free(a->entry_pos, TRUE);
    g_array_free(a->conds, TRUE);
}

/* Both passes over every source.  Returns the source each symbol was declared in (guint per
 * symbol): a later check reports in the declaring source. */
static GArray *read_sources(Asm *a, const AsmSource *sources, guint n)
{
    GArray *sym_file = g_array_new(FALSE, TRUE, sizeof(guint));
    for (guint pass = 1; pass <= 2; pass++) {
        for (guint i = 0; i < n; i++) {
            a->file = i;
            g_auto(GStrv) lines = g_strsplit(sources[i].text ? sources[i].text : "", "\n", -1);
            guint before = a->p->syms->len;
            for (guint k = 0; lines[k]; k++)
                do_line(a, pass, k + 1, lines[k]);
            cond_end_of_source(a, pass);
            for (guint s = before; pass == 1 && s < a->p->syms->len; s++)
                g_array_append_val(sym_file, i);
        }
    }
    return sym_file;
}

/* `with` placement, reported in the declaring source.  Against the target's line: the layout
 * places by the config's line size, and a group that overflows a 16-byte line would overlap
 * the next symbol (false races). */
static void check_with_placement(Asm *a, const GArray *sym_file)
{
    guint line = asm_line_size(a->target);
    IsaLayout *l = isa_layout_new(a->p, 1, line, 0);
    for (guint s = 0; s < a->p->syms->len; s++) {
        const IsaSym *sym = a->p->syms->pdata[s];
        if (sym->with < 0)
            continue;
        const IsaSym *partner = a->p->syms->pdata[sym->with];
        uint64_t at = isa_sym_addr(l, s, 0);
        uint64_t pl = isa_sym_addr(l, (guint)sym->with, 0) / line;
        if (at / line != pl || (at + sym->size - 1) / line != pl) {
            a->file = g_array_index(sym_file, guint, s);
            diag(a, sym->line, sym->col,
                 "`%s` (%u bytes) does not fit in `%s`'s %u-byte line (it would start at offset %" G_GUINT64_FORMAT ")",
                 sym->name, sym->size, partner->name, line, at - pl * line);
        }
    }
    isa_layout_free(l);
}

/* Label name -> pc + 1, the first label of each name (a source may have tens of thousands). */
static GHashTable *label_table(const Asm *a)
{
    GHashTable *label_pc = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint k = 0; k < a->p->labels->len; k++) {
        const IsaEntry *l = &g_array_index(a->p->labels, IsaEntry, k);
        if (!g_hash_table_contains(label_pc, l->name))
            g_hash_table_insert(label_pc, l->name, GINT_TO_POINTER(l->pc + 1));
    }
    return label_pc;
}

static void fix_labels(Asm *a, GHashTable *label_pc)
{
    guint suggested = 0;
    for (guint i = 0; i < a->fixups->len; i++) {
        AsmFixup *f = &g_array_index(a->fixups, AsmFixup, i);
        int pc = GPOINTER_TO_INT(g_hash_table_lookup(label_pc, f->label)) - 1;
        if (pc < 0) {
            a->file = f->file;
            /* A guess costs a comparison with every label: only for the errors a message can show. */
            const char *hint = NULL;
            if (suggested++ < ASM_DIAGS_SHOWN && a->ndiags < ASM_DIAGS_KEPT / 10) {
                const char **names = g_new(const char *, a->p->labels->len + 1);
                for (guint k = 0; k < a->p->labels->len; k++)
                    names[k] = g_array_index(a->p->labels, IsaEntry, k).name;
                hint = suggest_closest(f->label, names, a->p->labels->len);
                g_free(names);
            }
            if (hint)
                diag(a, f->line, f->col, "undefined label `%s`; did you mean `%s`?", f->label, hint);
            else
                diag(a, f->line, f->col, "undefined label `%s`", f->label);
        } else {
            g_array_index(a->p->insns, IsaInsn, f->insn).target = pc;
        }
        g_free(f->label);
    }
}

static void resolve_entries(Asm *a, GHashTable *label_pc)
{
    GHashTable *entry_seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < a->entry_names->len; i++) {
        const char *name = a->entry_names->pdata[i];
        AsmPos *pos = &g_array_index(a->entry_pos, AsmPos, i);
        a->file = pos->file;
        if (g_hash_table_contains(entry_seen, name)) {
            diag(a, pos->line, pos->col, "duplicate entry point `%s`", name);
            continue;
        }
        int pc = GPOINTER_TO_INT(g_hash_table_lookup(label_pc, name)) - 1;
        if (pc < 0) {
            diag(a, pos->line, pos->col, "entry point `%s` has no label", name);
            continue;
        }
        IsaEntry e = { g_strdup(name), pc };
        g_array_append_val(a->p->entries, e);
        g_hash_table_add(entry_seen, (gpointer)name);
    }
    g_hash_table_destroy(entry_seen);
}

/* The errors found, first by position, as one message; FALSE when there were any. */
static gboolean report_diags(Asm *a, GError **error)
{
    if (!a->diags->len)
        return TRUE;
    g_array_sort(a->diags, diag_cmp);
    GString *msg = g_string_new(NULL);
    guint shown = MIN(a->diags->len, ASM_DIAGS_SHOWN);
    for (guint i = 0; i < shown; i++) {
        AsmDiag *d = &g_array_index(a->diags, AsmDiag, i);
        g_string_append_printf(msg, "%s%s:%u:%u: %s", i ? "\n" : "",
                               (const char *)a->p->files->pdata[d->file], d->line, d->col, d->msg);
    }
    if (a->ndiags > shown)
        g_string_append_printf(msg, "\n... and %u more errors", a->ndiags - shown);
    g_set_error_literal(error, ASM_ERROR, ASM_ERROR_INVALID, msg->str);
    g_string_free(msg, TRUE);
    return FALSE;
}

IsaProgram *asm_assemble_with_params(const AsmSource *sources, guint n, ArchTarget target,
                                     const char *const *params, GError **error)
{
    g_assert(arch_atomics_on(target.arch, target.atomics));
    GArray *overrides = read_overrides(params, error);
    if (!overrides)
        return NULL;
    Asm a;
    asm_init(&a, sources, n, target, overrides);
    GArray *sym_file = read_sources(&a, sources, n);
    check_with_placement(&a, sym_file);
    g_array_free(sym_file, TRUE);
    GHashTable *label_pc = label_table(&a);
    fix_labels(&a, label_pc);
    resolve_entries(&a, label_pc);
    g_hash_table_destroy(label_pc);

    IsaProgram *result = a.p;
    if (!report_diags(&a, error) || !check_overrides_used(&a, error)) {
        asm_program_free(a.p);
        result = NULL;
    }
    asm_clear(&a);
    return result;
}

IsaProgram *asm_assemble(const char *name, const char *text, ArchTarget target, GError **error)
{
    AsmSource s = { name, text };
    return asm_assemble_sources(&s, 1, target, error);
}

ArchTarget asm_target_for_config(const QsimConfig *cfg)
{
    ArchTarget t = arch_target(cfg->arch);
    t.line_size = (guint)cfg->line_size;
    if (cfg->arch == ARCH_ARM64)
        t.atomics = cfg->core.atomics == ATOMICS_LLSC ? ARCH_ATOMICS_LLSC : ARCH_ATOMICS_LSE;
    return t;
}

/* ======================================================================= listing */

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
        "r14", "r15", "tid", "nthreads",
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
