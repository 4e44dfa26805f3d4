/* The `.litmus` file format, as herdtools7 writes it:
 *
 *   ARCH NAME                          X86 | X86_64 | AArch64
 *   ["doc string"]  [Key=Value lines]  (Cycle=, Prefetch=, Hash=, ...: kept out of the model)
 *   { init; init; ... }                `[type] x[=v]`, `[type] P:REG[=v]`, v an integer, a
 *                                      location (its address) or &location; empty entries ok
 *    P0 | P1 | ... ;                   the thread columns, then one row per line, each ';'-ended
 *    cell | cell | ... ;               a cell is an instruction, `label:`, or both, or empty
 *   [locations [obs; ...]] [filter PROP] (exists | ~exists | forall) PROP [;]
 *
 * `(* comments *)` nest and may appear anywhere. */
#include <string.h>
#include "sim/litmus/litmus_priv.h"

static void cell_free(LitmusCell *c)
{
    g_free(c->text);
    g_free(c);
}

static void init_free(LitmusInit *i)
{
    g_free(i->name);
    g_free(i->value_loc);
    g_free(i);
}

void litmus_test_free(LitmusTest *t)
{
    if (!t)
        return;
    g_free(t->filename);
    g_free(t->name);
    g_free(t->doc);
    if (t->init)
        g_ptr_array_free(t->init, TRUE);
    if (t->code)
        g_ptr_array_free(t->code, TRUE);
    if (t->obs)
        g_ptr_array_free(t->obs, TRUE);
    if (t->locations)
        g_array_free(t->locations, TRUE);
    litmus_cond_free(t->filter);
    litmus_cond_free(t->cond);
    g_free(t);
}

/* Blanks out (* comments *), keeping newlines so that positions stay true. */
static gboolean strip_comments(char *s, const char *file, GError **error)
{
    guint line = 1, col = 1, open_line = 0, open_col = 0;
    int depth = 0;
    for (char *p = s; *p; p++) {
        if (p[0] == '(' && p[1] == '*') {
            if (depth++ == 0) {
                open_line = line;
                open_col = col;
            }
            p[0] = p[1] = ' ';
            p++;
            col += 2;
            continue;
        }
        if (depth && p[0] == '*' && p[1] == ')') {
            depth--;
            p[0] = p[1] = ' ';
            p++;
            col += 2;
            continue;
        }
        if (*p == '\n') {
            line++;
            col = 1;
            continue;
        }
        if (depth)
            *p = ' ';
        col++;
    }
    if (depth) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, file, open_line, open_col, "unterminated comment");
        return FALSE;
    }
    return TRUE;
}

typedef struct {
    char *text;            /* the line (no newline), comments blanked */
    const char *start;     /* where it starts in the buffer */
    guint no;              /* 1-based */
} Line;

static gboolean blank(const char *s)
{
    for (; *s; s++)
        if (!g_ascii_isspace(*s))
            return FALSE;
    return TRUE;
}

static guint first_col(const char *s)
{
    guint c = 1;
    while (*s && g_ascii_isspace(*s)) {
        s++;
        c++;
    }
    return c;
}

static int type_size(const char *t)
{
    static const struct { const char *name; int size; } types[] = {
        { "char", 1 }, { "int8_t", 1 }, { "uint8_t", 1 },
        { "short", 2 }, { "int16_t", 2 }, { "uint16_t", 2 },
        { "int", 4 }, { "int32_t", 4 }, { "uint32_t", 4 }, { "unsigned", 4 }, { "signed", 4 },
        { "long", 8 }, { "int64_t", 8 }, { "uint64_t", 8 }, { "intptr_t", 8 },
        { "uintptr_t", 8 }, { "atomic_int", 4 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(types); i++)
        if (!strcmp(t, types[i].name))
            return types[i].size;
    return g_str_has_suffix(t, "_t") ? 8 : -1;
}

/* The register of a `P:REG` initial entry, the cursor after the ':'. */
static gboolean parse_init_reg(const LitmusTest *t, LitCursor *c, LitmusInit *in, int64_t thread, GError **error)
{
    lit_skip_space(c);
    guint rl = c->line, rc = c->col;
    g_autofree char *reg = lit_parse_ident(c);
    const char *canon = reg ? litmus_reg_canonical(t->arch, reg, NULL) : NULL;
    if (!canon) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, rl, rc, "'%s' is not a %s register", reg ? reg : "",
                     litmus_arch_name(t->arch));
        return FALSE;
    }
    in->thread = (int)thread;
    in->name = g_strdup(canon);
    return TRUE;
}

/* One initial-state entry, the cursor at its first character; stops before ';' or '}'. */
static gboolean parse_init_entry(LitmusTest *t, LitCursor *c, GError **error)
{
    guint line = c->line, col = c->col;
    LitmusInit *in = g_new0(LitmusInit, 1);
    in->thread = -1;
    in->line = line;
    in->col = col;
    int64_t thread;
    if (lit_parse_int(c, &thread)) {
        lit_skip_space(c);
        if (c->p >= c->end || *c->p != ':') {
            init_free(in);
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected ':' after a thread number");
            return FALSE;
        }
        lit_advance(c);
        if (!parse_init_reg(t, c, in, thread, error)) {
            init_free(in);
            return FALSE;
        }
    } else {
        /* [type words] ['*'] name */
        for (;;) {
            guint il = c->line, ic = c->col;
            char *word = lit_parse_ident(c);
            if (!word) {
                init_free(in);
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, il, ic,
                             "expected a location or P:REG in the initial state");
                return FALSE;
            }
            lit_skip_space(c);
            gboolean star = FALSE;
            while (c->p < c->end && *c->p == '*') {
                star = TRUE;
                lit_advance(c);
                lit_skip_space(c);
            }
            gboolean more = c->p < c->end && (g_ascii_isalpha(*c->p) || *c->p == '_' || g_ascii_isdigit(*c->p));
            if (more || star) {
                int sz = type_size(word);
                if (sz < 0 && !star) {
                    lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, il, ic, "unknown type '%s'", word);
                    g_free(word);
                    init_free(in);
                    return FALSE;
                }
                in->size = star ? 8 : MAX(in->size, sz);
                g_free(word);
                if (g_ascii_isdigit(*c->p)) {
                    /* `int 0:X1=...` : a typed register */
                    int64_t th;
                    lit_parse_int(c, &th);
                    lit_skip_space(c);
                    if (c->p < c->end && *c->p == ':')
                        lit_advance(c);
                    if (!parse_init_reg(t, c, in, th, error)) {
                        init_free(in);
                        return FALSE;
                    }
                    break;
                }
                continue;
            }
            in->name = word;
            break;
        }
    }
    lit_skip_space(c);
    if (c->p < c->end && *c->p == '=') {
        lit_advance(c);
        lit_skip_space(c);
        if (!lit_parse_int(c, &in->value)) {
            if (c->p < c->end && *c->p == '&')
                lit_advance(c);
            guint vl = c->line, vc = c->col;
            in->value_loc = lit_parse_ident(c);
            if (!in->value_loc) {
                init_free(in);
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, vl, vc, "expected a value");
                return FALSE;
            }
        }
    }
    lit_skip_space(c);
    if (c->p < c->end && *c->p != ';') {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col,
                     "expected ';' between initial-state entries, got '%c'", *c->p);
        init_free(in);
        return FALSE;
    }
    g_ptr_array_add(t->init, in);
    return TRUE;
}

static gboolean starts_word(const char *s, const char *w)
{
    gsize n = strlen(w);
    return !strncmp(s, w, n) && !(g_ascii_isalnum(s[n]) || s[n] == '_');
}

static gboolean final_keyword(const char *s)
{
    while (*s && g_ascii_isspace(*s))
        s++;
    if (*s == '~') {
        s++;
        while (*s && g_ascii_isspace(*s))
            s++;
        return starts_word(s, "exists");
    }
    return starts_word(s, "exists") || starts_word(s, "forall") || starts_word(s, "locations") ||
           starts_word(s, "filter");
}

/* The part after the code: locations, filter, then the quantified condition. */
static gboolean parse_final(LitmusTest *t, LitCursor *c, GError **error)
{
    for (;;) {
        lit_skip_space(c);
        guint line = c->line, col = c->col;
        if (c->p >= c->end) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col,
                         "expected a final condition (exists, ~exists or forall)");
            return FALSE;
        }
        if (starts_word(c->p, "locations")) {
            for (int i = 0; i < 9; i++)
                lit_advance(c);
            lit_skip_space(c);
            if (c->p >= c->end || *c->p != '[') {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected '[' after locations");
                return FALSE;
            }
            lit_advance(c);
            for (;;) {
                lit_skip_space(c);
                if (c->p < c->end && *c->p == ']') {
                    lit_advance(c);
                    break;
                }
                guint idx;
                if (!lit_parse_obs(c, t->arch, t->obs, &idx, error))
                    return FALSE;
                g_array_append_val(t->locations, idx);
                lit_skip_space(c);
                if (c->p < c->end && *c->p == ';')
                    lit_advance(c);
            }
            continue;
        }
        if (starts_word(c->p, "filter")) {
            for (int i = 0; i < 6; i++)
                lit_advance(c);
            if (t->filter) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col, "a second filter");
                return FALSE;
            }
            t->filter = lit_cond_parse_cursor(c, t->arch, t->obs, error);
            if (!t->filter)
                return FALSE;
            continue;
        }
        gsize skip = 0;
        if (starts_word(c->p, "exists")) {
            t->quant = LQ_EXISTS;
            skip = 6;
        } else if (starts_word(c->p, "forall")) {
            t->quant = LQ_FORALL;
            skip = 6;
        } else if (*c->p == '~') {
            lit_advance(c);
            lit_skip_space(c);
            if (!starts_word(c->p, "exists")) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected 'exists' after '~'");
                return FALSE;
            }
            t->quant = LQ_NOT_EXISTS;
            skip = 6;
        } else {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, line, col,
                         "expected locations, filter, exists, ~exists or forall");
            return FALSE;
        }
        for (gsize i = 0; i < skip; i++)
            lit_advance(c);
        lit_skip_space(c);
        t->cond_line = c->line;
        t->cond_col = c->col;
        t->cond = lit_cond_parse_cursor(c, t->arch, t->obs, error);
        if (!t->cond)
            return FALSE;
        lit_skip_space(c);
        if (c->p < c->end && *c->p == ';')
            lit_advance(c);
        lit_skip_space(c);
        if (c->p < c->end) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col,
                         "unexpected text after the condition");
            return FALSE;
        }
        return TRUE;
    }
}

LitmusTest *litmus_parse_string(const char *text, const char *filename, GError **error)
{
    g_autoptr(LitmusTest) t = g_new0(LitmusTest, 1);
    t->filename = g_strdup(filename);
    t->init = g_ptr_array_new_with_free_func((GDestroyNotify)init_free);
    t->code = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    t->obs = g_ptr_array_new_with_free_func((GDestroyNotify)litmus_obs_free);
    t->locations = g_array_new(FALSE, FALSE, sizeof(guint));
    const char *file = filename;

    g_autofree char *buf = g_strdup(text);
    if (!strip_comments(buf, file, error))
        return NULL;
    /* Split into lines, remembering where each starts in buf. */
    g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(Line));
    g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
    {
        const char *p = buf;
        guint no = 1;
        while (*p) {
            const char *nl = strchr(p, '\n');
            gsize n = nl ? (gsize)(nl - p) : strlen(p);
            Line l = { g_strndup(p, n), p, no++ };
            if (n && l.text[n - 1] == '\r')
                l.text[n - 1] = ' ';
            g_ptr_array_add(owned, l.text);
            g_array_append_val(lines, l);
            p += n + (nl ? 1 : 0);
        }
    }
    guint i = 0;
#define LINE(k) (&g_array_index(lines, Line, (k)))
    while (i < lines->len && blank(LINE(i)->text))
        i++;
    if (i == lines->len) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, file, 1, 1, "empty file: expected 'ARCH NAME'");
        return NULL;
    }
    /* ---- ARCH NAME ---- */
    {
        Line *l = LINE(i);
        g_autofree char *head = g_strstrip(g_strdup(l->text));
        g_auto(GStrv) words = g_strsplit_set(head, " \t", 2);
        guint col = first_col(l->text);
        const char *arch = words[0];
        if (!g_ascii_strcasecmp(arch, "X86"))
            t->arch = LITMUS_X86;
        else if (!g_ascii_strcasecmp(arch, "X86_64"))
            t->arch = LITMUS_X86_64;
        else if (!g_ascii_strcasecmp(arch, "AArch64"))
            t->arch = LITMUS_AARCH64;
        else {
            lit_error_at(error, LITMUS_ERROR_UNSUPPORTED, file, l->no, col,
                         "unsupported architecture '%s' (X86, X86_64 or AArch64)", arch);
            return NULL;
        }
        const char *name = words[1] ? g_strstrip(words[1]) : "";
        if (!*name) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, col + (guint)strlen(arch),
                         "expected the test's name after the architecture");
            return NULL;
        }
        t->name = g_str_has_suffix(name, ".litmus") ? g_strndup(name, strlen(name) - 7) : g_strdup(name);
        i++;
    }
    /* ---- doc string and metadata up to '{' ---- */
    for (; i < lines->len; i++) {
        Line *l = LINE(i);
        if (blank(l->text))
            continue;
        const char *s = l->text + first_col(l->text) - 1;
        if (*s == '{')
            break;
        if (*s == '"') {
            const char *q = strchr(s + 1, '"');
            if (!t->doc)
                t->doc = q ? g_strndup(s + 1, (gsize)(q - s - 1)) : g_strdup(s + 1);
            continue;
        }
        const char *eq = strchr(s, '=');
        gboolean key = eq && eq > s;
        for (const char *k = s; key && k < eq; k++)
            if (!(g_ascii_isalnum(*k) || *k == '_' || *k == '-' || *k == '.'))
                key = FALSE;
        if (!key) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, first_col(l->text),
                         "expected the initial state '{' (or a Key=Value line)");
            return NULL;
        }
    }
    if (i == lines->len) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, file, LINE(lines->len - 1)->no, 1,
                     "missing the initial state '{ ... }'");
        return NULL;
    }
    /* ---- { init } : parsed with a cursor over the buffer ---- */
    LitCursor c;
    {
        Line *l = LINE(i);
        guint col = first_col(l->text);
        c.p = l->start + col;  /* just after '{' */
        c.end = buf + strlen(buf);
        c.file = file;
        c.line = l->no;
        c.col = col + 1;
        for (;;) {
            lit_skip_space(&c);
            if (c.p >= c.end) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, col, "unterminated initial state '{'");
                return NULL;
            }
            if (*c.p == '}') {
                lit_advance(&c);
                break;
            }
            if (*c.p == ';') {
                lit_advance(&c);
                continue;
            }
            if (!parse_init_entry(t, &c, error))
                return NULL;
        }
        /* Continue line by line after the '}'. */
        guint end_line = c.line;
        const char *rest = c.p;
        while (*rest && *rest != '\n') {
            if (!g_ascii_isspace(*rest)) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, file, c.line, c.col,
                             "expected a new line after the initial state");
                return NULL;
            }
            rest++;
        }
        while (i < lines->len && LINE(i)->no <= end_line)
            i++;
    }
    /* ---- the thread header  P0 | P1 ... ; ---- */
    while (i < lines->len && blank(LINE(i)->text))
        i++;
    if (i == lines->len || final_keyword(LINE(i)->text)) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, file, i < lines->len ? LINE(i)->no : LINE(lines->len - 1)->no, 1,
                     "expected the thread header 'P0 | P1 ... ;'");
        return NULL;
    }
    {
        Line *l = LINE(i);
        char *semi = strrchr(l->text, ';');
        if (!semi || !blank(semi + 1)) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, (guint)strlen(l->text) + 1,
                         "expected ';' at the end of the thread header");
            return NULL;
        }
        *semi = '\0';
        g_auto(GStrv) cells = g_strsplit(l->text, "|", -1);
        guint col = 1;
        for (guint k = 0; cells[k]; k++) {
            guint at = col + first_col(cells[k]) - 1;
            g_autofree char *w = g_strstrip(g_strdup(cells[k]));
            g_autofree char *want = g_strdup_printf("P%u", k);
            if (strcmp(w, want)) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, at,
                             "expected '%s' in the thread header, got '%s'", want, w);
                return NULL;
            }
            col += (guint)strlen(cells[k]) + 1;
            g_ptr_array_add(t->code, g_ptr_array_new_with_free_func((GDestroyNotify)cell_free));
        }
        t->nthreads = t->code->len;
        i++;
    }
    /* ---- code rows ---- */
    for (; i < lines->len; i++) {
        Line *l = LINE(i);
        if (blank(l->text))
            continue;
        if (final_keyword(l->text))
            break;
        char *semi = strrchr(l->text, ';');
        if (!semi || !blank(semi + 1)) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, (guint)strlen(l->text) + 1,
                         "expected ';' at the end of the code row");
            return NULL;
        }
        *semi = '\0';
        g_auto(GStrv) cells = g_strsplit(l->text, "|", -1);
        guint col = 1;
        for (guint k = 0; cells[k]; k++) {
            if (k >= t->nthreads) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, file, l->no, col + first_col(cells[k]) - 1,
                             "more columns than threads (%u)", t->nthreads);
                return NULL;
            }
            if (!blank(cells[k])) {
                LitmusCell *cell = g_new0(LitmusCell, 1);
                cell->text = g_strstrip(g_strdup(cells[k]));
                cell->line = l->no;
                cell->col = col + first_col(cells[k]) - 1;
                g_ptr_array_add(t->code->pdata[k], cell);
            }
            col += (guint)strlen(cells[k]) + 1;
        }
    }
    if (i == lines->len) {
        lit_error_at(error, LITMUS_ERROR_SYNTAX, file, LINE(lines->len - 1)->no + 1, 1,
                     "expected a final condition (exists, ~exists or forall)");
        return NULL;
    }
    /* ---- the final part ---- */
    c.p = LINE(i)->start;
    c.end = buf + strlen(buf);
    c.line = LINE(i)->no;
    c.col = 1;
    if (!parse_final(t, &c, error))
        return NULL;
#undef LINE
    /* Registers of threads that do not exist. */
    for (guint k = 0; k < t->init->len; k++) {
        LitmusInit *in = t->init->pdata[k];
        if (in->thread >= (int)t->nthreads) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, in->line, in->col,
                         "thread %d does not exist (the test has %u)", in->thread, t->nthreads);
            return NULL;
        }
    }
    for (guint k = 0; k < t->obs->len; k++) {
        LitmusObs *o = t->obs->pdata[k];
        if (o->thread >= (int)t->nthreads) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, file, t->cond_line, t->cond_col,
                         "%s: thread %d does not exist (the test has %u)", o->display, o->thread,
                         t->nthreads);
            return NULL;
        }
    }
    return g_steal_pointer(&t);
}

LitmusTest *litmus_parse_file(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_IO, "%s: cannot read: %s", path, e->message);
        return NULL;
    }
    /* A checkout without symbolic links leaves a one-line file naming the target. */
    g_autofree char *trimmed = g_strstrip(g_strdup(text));
    if (g_str_has_suffix(trimmed, ".litmus") && !strpbrk(trimmed, " \t\n{|")) {
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *target = g_build_filename(dir, trimmed, NULL);
        g_autofree char *ttext = NULL;
        if (!g_file_get_contents(target, &ttext, NULL, NULL)) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_IO,
                        "%s:1:1: a symbolic-link stub naming '%s', which does not exist", path, trimmed);
            return NULL;
        }
        return litmus_parse_string(ttext, target, error);
    }
    return litmus_parse_string(text, path, error);
}
