/* The assembler (grammar in cores/isa/asm.h, user reference in docs/isa.md): its driver, the
 * lexing, and the reading of lines.  Declarations are read in asm_decl.c, instructions in
 * asm_insn.c, conditional assembly in asm_cond.c; the listing is asm_list.c.
 *
 * Two passes over all sources: pass 1 reads the declarations (.shared, .thread, .equ, .param) so that
 * code may use a variable declared further down or in another source; pass 2 reads labels,
 * `.entry` and instructions.  Label references are fixed up at the end.  Errors are collected
 * with their positions and sorted, so the user sees every mistake of a file at once.
 * Conditional assembly (.if/.elif/.else/.endif) is followed identically in both passes, so both
 * skip the same lines; its errors are reported from pass 1 only. */
#include <string.h>
#include <ctype.h>
#include "cores/isa/asm_priv.h"
#include "cores/isa/isa_exec.h"
#include "sim/base/echo.h"
#include "sim/base/suggest.h"
#include "sim/base/whole_number.h"

G_DEFINE_QUARK(qsim-asm-error-quark, asm_error)

/* ======================================================================= errors */

void asm_diag(Asm *a, guint line, guint col, const char *fmt, ...)
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

static gboolean is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static gboolean is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

gboolean asm_is_ident(const char *s)
{
    if (!is_ident_start(*s))
        return FALSE;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return FALSE;
    return TRUE;
}

/* Trims `s[0..len)` and returns it as a Tok whose column counts from `base_col`. */
Tok asm_tok_make(const char *s, gsize len, guint base_col)
{
    gsize b = 0, e = len;
    while (b < e && isspace((unsigned char)s[b]))
        b++;
    while (e > b && isspace((unsigned char)s[e - 1]))
        e--;
    return (Tok){ g_strndup(s + b, e - b), base_col + (guint)b };
}

/* Splits on commas outside brackets. */
GArray *asm_split_operands(const char *s, guint base_col)
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
            Tok t = asm_tok_make(start, (gsize)(c - start), base_col + (guint)(start - s));
            g_array_append_val(out, t);
            if (!*c)
                break;
            start = c + 1;
        }
    }
    return out;
}

void asm_toks_free(GArray *t)
{
    for (guint i = 0; i < t->len; i++)
        g_free(g_array_index(t, Tok, i).text);
    g_array_free(t, TRUE);
}

/* ======================================================================= values */

/* An integer literal or .equ name; FALSE if neither.  *overflow when a literal is too big. */
gboolean asm_parse_int(Asm *a, const char *s, int64_t *v, gboolean *overflow)
{
    *overflow = FALSE;
    gboolean neg = FALSE;
    const char *p = s;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
    }
    if (asm_is_ident(p)) {
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
gboolean asm_fits_bytes(int64_t v, unsigned size)
{
    if (size >= 8)
        return TRUE;
    int64_t lo = -((int64_t)1 << (8 * size - 1));
    int64_t hi = ((int64_t)1 << (8 * size)) - 1;
    return v >= lo && v <= hi;
}

int asm_parse_reg(const char *s)
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

/* ======================================================================= lines */

static const char known_directives_text[] = ".shared, .thread, .equ, .param, .entry, .loc, .if, .elif, .else or .endif";

static gboolean is_known_directive(const char *w)
{
    return !strcmp(w, ".shared") || !strcmp(w, ".thread") || !strcmp(w, ".equ") || !strcmp(w, ".param") ||
           !strcmp(w, ".entry") || !strcmp(w, ".loc") ||
           asm_is_cond_directive(w);
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
    if (asm_is_cond_directive(first.text)) {
        if (first_label && pass == 1)
            asm_diag(a, lineno, (guint)(first_label - line) + 1, "a label cannot share a line with `%s`", first.text);
        asm_do_cond(a, pass, lineno, &first, rest, rest_col);
        goto out;
    }
    if (!asm_cond_active(a)) {
        /* Skipped, but a misspelt `.else` here would silently drop code on this target. */
        if (pass == 1 && first.text[0] == '.' && !is_known_directive(first.text))
            asm_diag(a, lineno, first.col, "unknown directive `%s` (expected %s)", first.text, known_directives_text);
        goto out;
    }
    for (char *l, *from = line; pass == 2 && (l = scan_label(from, &e, &next)); from = next) {
        guint col = (guint)(l - line) + 1;
        g_autofree char *name = g_strndup(l, (gsize)(e - l));
        AsmPos *prev = g_hash_table_lookup(a->labels, name);
        if (prev) {
            asm_diag(a, lineno, col, "duplicate label `%s` (first defined at %s:%u:%u)", name,
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
            asm_parse_decl(a, lineno, &first, rest, rest_col);
        else if (!strcmp(first.text, ".equ"))
            asm_parse_equ(a, lineno, &first, rest, rest_col);
        else if (!strcmp(first.text, ".param"))
            asm_parse_param(a, lineno, &first, rest, rest_col);
        else if (strcmp(first.text, ".entry") && strcmp(first.text, ".loc"))
            asm_diag(a, lineno, first.col, "unknown directive `%s` (expected %s)", first.text, known_directives_text);
    } else if (pass == 2 && directive) {
        if (!strcmp(first.text, ".loc")) {
            asm_parse_loc(a, lineno, &first, rest, rest_col);
        } else if (!strcmp(first.text, ".entry")) {
            if (!asm_is_ident(rest)) {
                asm_diag(a, lineno, first.col, ".entry takes one label name");
            } else {
                g_ptr_array_add(a->entry_names, g_strdup(rest));
                AsmPos pos = { a->file, lineno, rest_col };
                g_array_append_val(a->entry_pos, pos);
            }
        }
    } else if (pass == 2) {
        asm_parse_insn(a, lineno, &first, rest, rest_col);
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
        /* A whole number as every option reads one (sim/base/whole_number.h): no sign, no
         * leading zero; -1 was taken and ran as 2^64 - 1 where a lock compares unsigned. */
        guint64 v = 0;
        if (!eq || !asm_is_ident(name) || !whole_number_parse("", eq + 1, 0, G_MAXINT64, &v, NULL)) {
            g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM,
                        "lock parameter `%s`: expected NAME=VALUE with a whole number (decimal, 0 or more), e.g. "
                        "spin_count=1000", params[i]);
            overrides_free(out);
            return NULL;
        }
        for (guint k = 0; k < out->len; k++)
            if (!strcmp(g_array_index(out, AsmOverride, k).name, name)) {
                g_set_error(error, ASM_ERROR, ASM_ERROR_PARAM, "lock parameter `%s` given twice", name);
                overrides_free(out);
                return NULL;
            }
        AsmOverride o = { g_steal_pointer(&name), (gint64)v, FALSE };
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
    a->sources = sources;
    a->target = target;
    a->loc_file = -1;
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
            a->loc_file = -1;
            g_auto(GStrv) lines = g_strsplit(sources[i].text ? sources[i].text : "", "\n", -1);
            guint before = a->p->syms->len;
            for (guint k = 0; lines[k]; k++)
                do_line(a, pass, k + 1, lines[k]);
            asm_cond_end_of_source(a, pass);
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
            asm_diag(a, sym->line, sym->col,
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
                asm_diag(a, f->line, f->col, "undefined label `%s`; did you mean `%s`?", f->label, hint);
            else
                asm_diag(a, f->line, f->col, "undefined label `%s`", f->label);
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
            asm_diag(a, pos->line, pos->col, "duplicate entry point `%s`", name);
            continue;
        }
        int pc = GPOINTER_TO_INT(g_hash_table_lookup(label_pc, name)) - 1;
        if (pc < 0) {
            asm_diag(a, pos->line, pos->col, "entry point `%s` has no label", name);
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
    AsmSource s = { name, text, FALSE };
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
