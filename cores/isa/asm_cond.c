/* The assembler's conditional assembly: `.if KEY=VALUE` / `.elif` / `.else` / `.endif` against
 * the target the caller names. */
#include <string.h>
#include "cores/isa/asm_priv.h"
#include "sim/base/suggest.h"

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

gboolean asm_is_cond_directive(const char *w)
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
            asm_diag(a, line, *rest ? rest_col : dir->col,
                 "`%s` takes one condition KEY=VALUE: arch=x86, arch=arm64, atomics=locked, atomics=llsc or "
                 "atomics=lse", dir->text);
        return FALSE;
    }
    Tok key = asm_tok_make(rest, (gsize)(eq - rest), rest_col);
    Tok val = asm_tok_make(eq + 1, strlen(eq + 1), rest_col + (guint)(eq + 1 - rest));
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
            asm_diag(a, line, key.col, "unknown condition `%s`%s%s%s (a condition tests arch or atomics)", key.text,
                 hint ? "; did you mean `" : "", hint ? hint : "", hint ? "`?" : "");
    } else if (*extra) {
        const char *more = extra + strspn(extra, " \t");
        if (report)
            asm_diag(a, line, val.col + (guint)(more - val.text), "`%s` takes one condition; `%s` follows it",
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
                asm_diag(a, line, val.col, "unknown %s `%s`%s%s%s (%s is %s)", k->key, val.text,
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
gboolean asm_cond_active(const Asm *a)
{
    return !a->conds->len || g_array_index(a->conds, AsmCond, a->conds->len - 1).active;
}

/* `.if`, `.elif`, `.else`, `.endif`. */
void asm_do_cond(Asm *a, guint pass, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    gboolean report = pass == 1;
    gboolean is_if = !strcmp(dir->text, ".if"), is_elif = !strcmp(dir->text, ".elif");
    if (!is_if && !is_elif && *rest && report)
        asm_diag(a, line, rest_col, "`%s` takes no condition (conditions go on `.if` and `.elif`)", dir->text);
    if (is_if) {
        gboolean v;
        eval_cond(a, line, dir, rest, rest_col, report, &v);
        gboolean outer = asm_cond_active(a);
        AsmCond c = { line, dir->col, outer, v, outer && v, FALSE };
        g_array_append_val(a->conds, c);
        return;
    }
    if (!a->conds->len) {
        if (report)
            asm_diag(a, line, dir->col, "`%s` without an open `.if`", dir->text);
        return;
    }
    AsmCond *top = &g_array_index(a->conds, AsmCond, a->conds->len - 1);
    if (!strcmp(dir->text, ".endif")) {
        g_array_set_size(a->conds, a->conds->len - 1);
        return;
    }
    if (top->seen_else) {
        if (report)
            asm_diag(a, line, dir->col, "`%s` after the `.else` of the `.if` at line %u", dir->text, top->line);
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
void asm_cond_end_of_source(Asm *a, guint pass)
{
    for (guint i = 0; pass == 1 && i < a->conds->len; i++) {
        const AsmCond *c = &g_array_index(a->conds, AsmCond, i);
        asm_diag(a, c->line, c->col, "`.if` without `.endif` (a block closes in the file that opens it)");
    }
    g_array_set_size(a->conds, 0);
}
