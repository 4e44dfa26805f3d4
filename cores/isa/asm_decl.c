/* The assembler's declarations, read in pass 1: variables (.shared, .thread), constants (.equ)
 * and tunables (.param). */
#include <string.h>
#include "cores/isa/asm_priv.h"
#include "sim/base/suggest.h"

IsaSym *asm_find_sym(Asm *a, const char *name, int *index)
{
    int i = GPOINTER_TO_INT(g_hash_table_lookup(a->sym_index, name)) - 1;
    if (index)
        *index = i;
    return i >= 0 ? a->p->syms->pdata[i] : NULL;
}

char *asm_var_hint(Asm *a, const char *name)
{
    guint n = a->p->syms->len;
    const char **names = g_new(const char *, n + 1);
    for (guint k = 0; k < n; k++)
        names[k] = ((IsaSym *)a->p->syms->pdata[k])->name;
    const char *close = suggest_closest(name, names, n);
    char *hint = close ? g_strdup_printf("; did you mean `%s`?", close) : g_strdup("");
    g_free(names);
    return hint;
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

/* The declaration option at words[*i] (`align N`, `own_line`, `with SYM`, `init V`) into sym;
 * *i moves past its value.  FALSE (reported) when it is wrong. */
static gboolean parse_decl_option(Asm *a, guint line, GPtrArray *words, GArray *cols, guint *i, IsaSym *sym,
                                  gboolean shared)
{
#define WORD(i) ((const char *)words->pdata[i])
#define WCOL(i) g_array_index(cols, guint, i)
    const char *k = WORD(*i);
    gboolean has_arg = !strcmp(k, "align") || !strcmp(k, "with") || !strcmp(k, "init");
    if (has_arg && *i + 1 >= words->len) {
        asm_diag(a, line, WCOL(*i), "`%s` needs a value", k);
        return FALSE;
    }
    gboolean ok = TRUE, ovf;
    int64_t v;
    if (!strcmp(k, "own_line")) {
        sym->own_line = TRUE;
        return TRUE;
    }
    if (!has_arg) {
        asm_diag(a, line, WCOL(*i), "unknown declaration option `%s` (expected align, own_line, with or init)", k);
        return FALSE;
    }
    guint at = ++*i;
    if (!strcmp(k, "align")) {
        if (!asm_parse_int(a, WORD(at), &v, &ovf) || ovf || v < 1 || v > 4096 || (v & (v - 1))) {
            asm_diag(a, line, WCOL(at), "alignment `%s` must be a power of two from 1 to 4096", WORD(at));
            ok = FALSE;
        } else if ((guint)v < natural_align(sym->size)) {
            asm_diag(a, line, WCOL(at), "unaligned declaration: `%s` (%u bytes) needs at least %u-byte alignment, not %" G_GINT64_FORMAT,
                     sym->name, sym->size, natural_align(sym->size), v);
            ok = FALSE;
        } else {
            sym->align = (uint32_t)v;
        }
    } else if (!strcmp(k, "init")) {
        if (!asm_parse_int(a, WORD(at), &v, &ovf)) {
            asm_diag(a, line, WCOL(at), "initial value `%s` is not a number", WORD(at));
            ok = FALSE;
        } else if (ovf || !asm_fits_bytes(v, MIN(sym->size, 8u))) {
            asm_diag(a, line, WCOL(at), "initial value %s is out of range for %u bytes", WORD(at), MIN(sym->size, 8u));
            ok = FALSE;
        } else {
            sym->init = v;
        }
    } else {
        int idx;
        IsaSym *partner = asm_find_sym(a, WORD(at), &idx);
        if (!shared) {
            asm_diag(a, line, WCOL(at - 1), "`with` places shared variables; per-thread `%s` cannot use it", sym->name);
            ok = FALSE;
        } else if (!partner) {
            g_autofree char *hint = asm_var_hint(a, WORD(at));
            asm_diag(a, line, WCOL(at), "`with %s`: no variable `%s` declared before this line%s", WORD(at), WORD(at), hint);
            ok = FALSE;
        } else if (partner->scope != SYM_SHARED) {
            asm_diag(a, line, WCOL(at), "`with %s`: `%s` is per-thread; only shared variables can share a line", WORD(at), WORD(at));
            ok = FALSE;
        } else {
            sym->with = idx;
        }
    }
    return ok;
#undef WORD
#undef WCOL
}

void asm_parse_decl(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
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
        asm_diag(a, line, dir->col, "%s needs a name and a size: `%s NAME SIZE [align N] [own_line]%s [init V]`",
             dir->text, dir->text, shared ? " [with SYM]" : "");
        goto out;
    }
    if (!asm_is_ident(WORD(0))) {
        asm_diag(a, line, WCOL(0), "`%s` is not a valid variable name", WORD(0));
        goto out;
    }
    if (asm_find_sym(a, WORD(0), NULL)) {
        IsaSym *o = asm_find_sym(a, WORD(0), NULL);
        asm_diag(a, line, WCOL(0), "duplicate variable `%s` (first declared at line %u)", WORD(0), o->line);
        goto out;
    }
    int64_t size;
    gboolean ovf;
    if (!asm_parse_int(a, WORD(1), &size, &ovf) || ovf || size < 1 || size > 4096) {
        asm_diag(a, line, WCOL(1), "variable size `%s` must be a number of bytes from 1 to 4096", WORD(1));
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
    for (guint i = 2; i < words->len; i++)
        bad |= !parse_decl_option(a, line, words, cols, &i, sym, shared);
    if (!bad && sym->with >= 0 && sym->own_line) {
        asm_diag(a, line, sym->col, "`%s` cannot both own a line and share `%s`'s line", sym->name,
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

/* What `.equ` and `.param` both check: NAME is no register, VALUE a 64-bit number (into *v),
 * NAME not yet a constant.  FALSE (reported) when one fails. */
static gboolean check_const(Asm *a, guint line, const char *rest, guint rest_col, const char *name, const char *val,
                            int64_t *v)
{
    gboolean ovf;
    if (asm_parse_reg(name) >= 0) {
        asm_diag(a, line, rest_col, "`%s` is a register name", name);
        return FALSE;
    }
    if (!asm_parse_int(a, val, v, &ovf) || ovf) {
        asm_diag(a, line, rest_col + (guint)(strstr(rest, val) - rest), "`%s` is not a 64-bit number", val);
        return FALSE;
    }
    if (g_hash_table_contains(a->consts, name)) {
        asm_diag(a, line, rest_col, "duplicate constant `%s`", name);
        return FALSE;
    }
    return TRUE;
}

static void define_const(Asm *a, const char *name, int64_t v)
{
    gint64 *box = g_new(gint64, 1);
    *box = v;
    g_hash_table_insert(a->consts, g_strdup(name), box);
}

void asm_parse_equ(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
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
            asm_diag(a, line, dir->col, ".equ takes a name and a value");
            return;
        }
    }
    if (!name || !val || !asm_is_ident(name)) {
        asm_diag(a, line, dir->col, ".equ takes a name and a value: `.equ LOCKED 1`");
        return;
    }
    int64_t v;
    if (check_const(a, line, rest, rest_col, name, val, &v))
        define_const(a, name, v);
}

/* `.param NAME DEFAULT`: a constant like `.equ`, whose value the caller may override; each one
 * is recorded in the program with the value it took. */
void asm_parse_param(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
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
    if (words != 2 || !asm_is_ident(name)) {
        asm_diag(a, line, dir->col, ".param takes a name and a default value: `.param spin_count 100`");
        return;
    }
    int64_t def;
    if (!check_const(a, line, rest, rest_col, name, val, &def))
        return;
    IsaParam prm = { g_strdup(name), def, def };
    for (guint i = 0; a->overrides && i < a->overrides->len; i++) {
        AsmOverride *o = &g_array_index(a->overrides, AsmOverride, i);
        if (!strcmp(o->name, name)) {
            prm.value = o->value;
            o->used = TRUE;
        }
    }
    define_const(a, name, prm.value);
    g_array_append_val(a->p->params, prm);
}

/* `.loc FILE LINE [COL]`: FILE a name without spaces or a "quoted" one; added to the program's
 * files once.  `.loc -` gives the ops that follow their own position again. */
void asm_parse_loc(Asm *a, guint line, const Tok *dir, const char *rest, guint rest_col)
{
    (void)rest_col;
    if (!strcmp(rest, "-")) {
        a->loc_file = -1;
        return;
    }
    g_autofree char *name = NULL;
    const char *p = rest;
    if (*p == '"') {
        const char *end = strchr(p + 1, '"');
        if (end) {
            name = g_strndup(p + 1, (gsize)(end - p - 1));
            p = end + 1;
        }
    } else {
        const char *end = p;
        while (*end && !g_ascii_isspace(*end))
            end++;
        if (end > p)
            name = g_strndup(p, (gsize)(end - p));
        p = end;
    }
    g_auto(GStrv) nums = g_strsplit_set(p, " \t", -1);
    guint64 v[2] = { 0, 0 };
    guint n = 0;
    gboolean ok = name && *name;
    for (guint k = 0; ok && nums[k]; k++) {
        if (!*nums[k])
            continue;
        if (n >= 2 || !g_ascii_string_to_unsigned(nums[k], 10, 0, G_MAXUINT32, &v[n], NULL))
            ok = FALSE;
        n++;
    }
    if (!ok || n < 1) {
        asm_diag(a, line, dir->col, ".loc takes FILE LINE [COL], or `-`");
        return;
    }
    /* The sources' own names come first in the list; a `.loc` file is one of its own. */
    guint idx = a->p->files->len;
    for (guint k = 0; k < a->p->files->len; k++)
        if (!strcmp(a->p->files->pdata[k], name)) {
            idx = k;
            break;
        }
    if (idx == a->p->files->len)
        g_ptr_array_add(a->p->files, g_strdup(name));
    a->loc_file = (int)idx;
    a->loc_line = (guint)v[0];
    a->loc_col = (guint)v[1];
}
