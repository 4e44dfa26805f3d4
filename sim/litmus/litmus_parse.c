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
 * `(* comments *)` nest and may appear anywhere.  As in libyaml, each part of the grammar has
 * its own function below, in the order the parts come, and litmus_parse_string calls them in
 * turn: header, preamble, initial state, thread header, code rows, final part (locations,
 * filter, condition), then the checks that need the whole test. */
#include <string.h>
#include "sim/litmus/litmus_priv.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"

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

static void line_clear(Line *l)
{
    g_free(l->text);
}

/* The parser's state.  The line-shaped parts (header, preamble, thread columns) are read a line
 * at a time from `lines`; the free-form ones (the initial state, the final part) with a cursor
 * over `buf`.  Each part's function starts at line `next` and leaves it on the first line after
 * its part. */
typedef struct {
    LitmusTest *t;
    const char *file;
    char *buf;             /* the text, comments blanked */
    GArray *lines;         /* Line */
    guint next;
    GError **error;
} LitParser;

static Line *line_at(const LitParser *p, guint i)
{
    return &g_array_index(p->lines, Line, i);
}

static Line *last_line(const LitParser *p)
{
    return line_at(p, p->lines->len - 1);
}

static gboolean at_end(const LitParser *p)
{
    return p->next >= p->lines->len;
}

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

/* ---- the initial state: { entry; entry; ... } ---- */

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

/* `[type words] ['*'] name` or `type P:REG`: the type sets the size, a '*' makes it a pointer. */
static gboolean parse_init_typed(const LitmusTest *t, LitCursor *c, LitmusInit *in, GError **error)
{
    for (;;) {
        guint il = c->line, ic = c->col;
        g_autofree char *word = lit_expect_ident(c, "a location or P:REG in the initial state", error);
        if (!word)
            return FALSE;
        lit_skip_space(c);
        gboolean star = FALSE;
        while (c->p < c->end && *c->p == '*') {
            star = TRUE;
            lit_advance(c);
            lit_skip_space(c);
        }
        gboolean more = c->p < c->end && (g_ascii_isalpha(*c->p) || *c->p == '_' || g_ascii_isdigit(*c->p));
        if (!more && !star) {
            in->name = g_steal_pointer(&word);
            return TRUE;
        }
        int sz = type_size(word);
        if (sz < 0 && !star) {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, il, ic, "unknown type '%s'", word);
            return FALSE;
        }
        in->size = star ? 8 : MAX(in->size, sz);
        if (g_ascii_isdigit(*c->p)) {
            /* `int 0:X1=...` : a typed register */
            int64_t th = 0;
            guint tl = c->line, tc = c->col;
            if (lit_parse_int(c, &th) != LIT_NUMBER || th < 0 || th > 63) {
                lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, tl, tc, "bad thread number (0 to 63)");
                return FALSE;
            }
            lit_skip_space(c);
            if (c->p < c->end && *c->p == ':')
                lit_advance(c);
            return parse_init_reg(t, c, in, th, error);
        }
    }
}

/* `= v`, v an integer, a location or &location; nothing when there is no '='. */
static gboolean parse_init_value(LitCursor *c, LitmusInit *in, GError **error)
{
    lit_skip_space(c);
    if (c->p >= c->end || *c->p != '=')
        return TRUE;
    lit_advance(c);
    lit_skip_space(c);
    return lit_parse_value(c, &in->value, &in->value_loc, error);
}

/* One initial-state entry, the cursor at its first character; stops before ';' or '}'. */
/* `given`: "THREAD:NAME" -> the entry that set it, for an entry given twice (a table: a test
 * may initialise tens of thousands of locations). */
static gboolean parse_init_entry(LitmusTest *t, LitCursor *c, GHashTable *given, GError **error)
{
    LitmusInit *in = g_new0(LitmusInit, 1);
    in->thread = -1;
    in->line = c->line;
    in->col = c->col;
    int64_t thread = 0;
    gboolean ok;
    LitNumber num = lit_parse_int(c, &thread);
    if (num == LIT_TOO_BIG || (num == LIT_NUMBER && (thread < 0 || thread > 63))) {
        /* a negative thread would read as "a location" below and be dropped */
        lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, in->line, in->col, "bad thread number (0 to 63)");
        init_free(in);
        return FALSE;
    }
    if (num == LIT_NUMBER) {
        lit_skip_space(c);
        ok = c->p < c->end && *c->p == ':';
        if (!ok)
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected ':' after a thread number");
        else
            lit_advance(c);
        ok = ok && parse_init_reg(t, c, in, thread, error);
    } else {
        ok = parse_init_typed(t, c, in, error);
    }
    ok = ok && parse_init_value(c, in, error);
    if (ok) {
        lit_skip_space(c);
        if (c->p < c->end && *c->p != ';') {
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col,
                         "expected ';' between initial-state entries, got '%c'", *c->p);
            ok = FALSE;
        }
    }
    if (!ok) {
        init_free(in);
        return FALSE;
    }
    /* a second value for the same thing would silently win: refuse it */
    char *key = g_strdup_printf("%d:%s", in->thread, in->name ? in->name : "");
    const LitmusInit *o = g_hash_table_lookup(given, key);
    if (o) {
        g_free(key);
        if (in->thread >= 0)
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, in->line, in->col,
                         "%d:%s is initialised twice (first at %u:%u)", in->thread, in->name, o->line, o->col);
        else
            lit_error_at(error, LITMUS_ERROR_SYNTAX, c->file, in->line, in->col,
                         "%s is initialised twice (first at %u:%u)", in->name, o->line, o->col);
        init_free(in);
        return FALSE;
    }
    g_hash_table_insert(given, key, in);
    g_ptr_array_add(t->init, in);
    return TRUE;
}

/* ---- the line-shaped parts ---- */

static void skip_blank_lines(LitParser *p)
{
    while (!at_end(p) && blank(line_at(p, p->next)->text))
        p->next++;
}

/* ARCH NAME */
static gboolean parse_header(LitParser *p)
{
    skip_blank_lines(p);
    if (at_end(p)) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, 1, 1, "empty file: expected 'ARCH NAME'");
        return FALSE;
    }
    const Line *l = line_at(p, p->next++);
    g_autofree char *head = g_strstrip(g_strdup(l->text));
    g_auto(GStrv) words = g_strsplit_set(head, " \t", 2);
    guint col = first_col(l->text);
    const char *arch = words[0];
    if (!g_ascii_strcasecmp(arch, "X86"))
        p->t->arch = LITMUS_X86;
    else if (!g_ascii_strcasecmp(arch, "X86_64"))
        p->t->arch = LITMUS_X86_64;
    else if (!g_ascii_strcasecmp(arch, "AArch64"))
        p->t->arch = LITMUS_AARCH64;
    else {
        lit_error_at(p->error, LITMUS_ERROR_UNSUPPORTED, p->file, l->no, col,
                     "unsupported architecture '%s' (X86, X86_64 or AArch64)", arch);
        return FALSE;
    }
    const char *name = words[1] ? g_strstrip(words[1]) : "";
    if (!*name) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, col + (guint)strlen(arch),
                     "expected the test's name after the architecture");
        return FALSE;
    }
    p->t->name = g_str_has_suffix(name, ".litmus") ? g_strndup(name, strlen(name) - 7) : g_strdup(name);
    return TRUE;
}

/* The doc string and Key=Value lines, up to the line that opens the initial state. */
static gboolean parse_preamble(LitParser *p)
{
    for (; !at_end(p); p->next++) {
        const Line *l = line_at(p, p->next);
        if (blank(l->text))
            continue;
        const char *s = l->text + first_col(l->text) - 1;
        if (*s == '{')
            return TRUE;
        if (*s == '"') {
            const char *q = strchr(s + 1, '"');
            if (!p->t->doc)
                p->t->doc = q ? g_strndup(s + 1, (gsize)(q - s - 1)) : g_strdup(s + 1);
            continue;
        }
        const char *eq = strchr(s, '=');
        gboolean key = eq && eq > s;
        for (const char *k = s; key && k < eq; k++)
            if (!(g_ascii_isalnum(*k) || *k == '_' || *k == '-' || *k == '.'))
                key = FALSE;
        if (!key) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, first_col(l->text),
                         "expected the initial state '{' (or a Key=Value line)");
            return FALSE;
        }
    }
    lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, last_line(p)->no, 1, "missing the initial state '{ ... }'");
    return FALSE;
}

/* A cursor over the rest of the text from line i, column col. */
static LitCursor cursor_at(const LitParser *p, guint i, guint col)
{
    const Line *l = line_at(p, i);
    return (LitCursor){ l->start + col - 1, p->buf + strlen(p->buf), p->file, l->no, col };
}

/* { entry; entry; ... }, which must end its line. */
static gboolean parse_init(LitParser *p)
{
    const Line *l = line_at(p, p->next);
    guint col = first_col(l->text);
    LitCursor c = cursor_at(p, p->next, col + 1);  /* just after '{' */
    g_autoptr(GHashTable) given = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (;;) {
        lit_skip_space(&c);
        if (c.p >= c.end) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, col, "unterminated initial state '{'");
            return FALSE;
        }
        if (*c.p == '}') {
            lit_advance(&c);
            break;
        }
        if (*c.p == ';') {
            lit_advance(&c);
            continue;
        }
        if (!parse_init_entry(p->t, &c, given, p->error))
            return FALSE;
    }
    for (const char *rest = c.p; *rest && *rest != '\n'; rest++)
        if (!g_ascii_isspace(*rest)) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, c.line, c.col,
                         "expected a new line after the initial state");
            return FALSE;
        }
    while (!at_end(p) && line_at(p, p->next)->no <= c.line)
        p->next++;
    return TRUE;
}

static gboolean starts_word(const char *s, const char *w)
{
    gsize n = strlen(w);
    return !strncmp(s, w, n) && !(g_ascii_isalnum(s[n]) || s[n] == '_');
}

/* Whether a line starts the final part, which ends the code rows. */
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

/* Cuts a row `cell | cell | ... ;` (a thread header or a code row, `what`) into its cells; the
 * last ';' must end the line.  NULL (error set) when it does not. */
static char **split_row(LitParser *p, Line *l, const char *what)
{
    char *semi = strrchr(l->text, ';');
    if (!semi || !blank(semi + 1)) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, (guint)strlen(l->text) + 1,
                     "expected ';' at the end of the %s", what);
        return NULL;
    }
    *semi = '\0';
    return g_strsplit(l->text, "|", -1);
}

/* P0 | P1 | ... ; which also says how many threads there are. */
static gboolean parse_thread_header(LitParser *p)
{
    skip_blank_lines(p);
    if (at_end(p) || final_keyword(line_at(p, p->next)->text)) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, at_end(p) ? last_line(p)->no : line_at(p, p->next)->no,
                     1, "expected the thread header 'P0 | P1 ... ;'");
        return FALSE;
    }
    Line *l = line_at(p, p->next++);
    g_auto(GStrv) cells = split_row(p, l, "thread header");
    if (!cells)
        return FALSE;
    guint col = 1;
    for (guint k = 0; cells[k]; k++) {
        g_autofree char *w = g_strstrip(g_strdup(cells[k]));
        g_autofree char *want = g_strdup_printf("P%u", k);
        if (strcmp(w, want)) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, col + first_col(cells[k]) - 1,
                         "expected '%s' in the thread header, got '%s'", want, w);
            return FALSE;
        }
        col += (guint)strlen(cells[k]) + 1;
        g_ptr_array_add(p->t->code, g_ptr_array_new_with_free_func((GDestroyNotify)cell_free));
    }
    p->t->nthreads = p->t->code->len;
    return TRUE;
}

/* The code rows, up to the first line of the final part; each non-empty cell goes to its
 * thread with its position. */
static gboolean parse_code(LitParser *p)
{
    LitmusTest *t = p->t;
    for (; !at_end(p); p->next++) {
        Line *l = line_at(p, p->next);
        if (blank(l->text))
            continue;
        if (final_keyword(l->text))
            return TRUE;
        g_auto(GStrv) cells = split_row(p, l, "code row");
        if (!cells)
            return FALSE;
        guint col = 1;
        for (guint k = 0; cells[k]; k++) {
            guint at = col + first_col(cells[k]) - 1;
            if (k >= t->nthreads) {
                lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, l->no, at, "more columns than threads (%u)",
                             t->nthreads);
                return FALSE;
            }
            if (!blank(cells[k])) {
                LitmusCell *cell = g_new0(LitmusCell, 1);
                cell->text = g_strstrip(g_strdup(cells[k]));
                cell->line = l->no;
                cell->col = at;
                g_ptr_array_add(t->code->pdata[k], cell);
            }
            col += (guint)strlen(cells[k]) + 1;
        }
    }
    lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, last_line(p)->no + 1, 1,
                 "expected a final condition (exists, ~exists or forall)");
    return FALSE;
}

/* ---- the final part: [locations [...]] [filter PROP] QUANT PROP [;] ---- */

static void skip_word(LitCursor *c, const char *word)
{
    for (gsize i = strlen(word); i > 0; i--)
        lit_advance(c);
}

/* locations [obs; obs; ...]: observables the histogram shows first. */
static gboolean parse_locations(LitParser *p, LitCursor *c)
{
    skip_word(c, "locations");
    lit_skip_space(c);
    if (c->p >= c->end || *c->p != '[') {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected '[' after locations");
        return FALSE;
    }
    lit_advance(c);
    for (;;) {
        lit_skip_space(c);
        if (c->p < c->end && *c->p == ']') {
            lit_advance(c);
            return TRUE;
        }
        guint idx;
        if (!lit_parse_obs(c, p->t->arch, p->t->obs, &idx, p->error))
            return FALSE;
        g_array_append_val(p->t->locations, idx);
        lit_skip_space(c);
        if (c->p < c->end && *c->p == ';')
            lit_advance(c);
    }
}

/* filter PROP: runs whose final state fails it are not counted. */
static gboolean parse_filter(LitParser *p, LitCursor *c)
{
    guint line = c->line, col = c->col;
    skip_word(c, "filter");
    if (p->t->filter) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c->file, line, col, "a second filter");
        return FALSE;
    }
    p->t->filter = lit_cond_parse_cursor(c, p->t->arch, p->t->obs, p->error);
    return p->t->filter != NULL;
}

/* (exists | ~exists | forall) PROP [;], the end of the file. */
static gboolean parse_condition(LitParser *p, LitCursor *c)
{
    LitmusTest *t = p->t;
    guint line = c->line, col = c->col;
    if (starts_word(c->p, "exists")) {
        t->quant = LQ_EXISTS;
    } else if (starts_word(c->p, "forall")) {
        t->quant = LQ_FORALL;
    } else if (*c->p == '~') {
        lit_advance(c);
        lit_skip_space(c);
        if (!starts_word(c->p, "exists")) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "expected 'exists' after '~'");
            return FALSE;
        }
        t->quant = LQ_NOT_EXISTS;
    } else {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c->file, line, col,
                     "expected locations, filter, exists, ~exists or forall");
        return FALSE;
    }
    skip_word(c, "exists");  /* as long as "forall" */
    lit_skip_space(c);
    t->cond_line = c->line;
    t->cond_col = c->col;
    t->cond = lit_cond_parse_cursor(c, t->arch, t->obs, p->error);
    if (!t->cond)
        return FALSE;
    lit_skip_space(c);
    if (c->p < c->end && *c->p == ';')
        lit_advance(c);
    lit_skip_space(c);
    if (c->p < c->end) {
        lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c->file, c->line, c->col, "unexpected text after the condition");
        return FALSE;
    }
    return TRUE;
}

static gboolean parse_final(LitParser *p)
{
    LitCursor c = cursor_at(p, p->next, 1);
    for (;;) {
        lit_skip_space(&c);
        if (c.p >= c.end) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, c.file, c.line, c.col,
                         "expected a final condition (exists, ~exists or forall)");
            return FALSE;
        }
        gboolean ok;
        if (starts_word(c.p, "locations"))
            ok = parse_locations(p, &c);
        else if (starts_word(c.p, "filter"))
            ok = parse_filter(p, &c);
        else
            return parse_condition(p, &c);
        if (!ok)
            return FALSE;
    }
}

/* ---- the whole test ---- */

/* Registers of threads that do not exist, which only the thread header can tell. */
static gboolean check_threads(LitParser *p)
{
    const LitmusTest *t = p->t;
    for (guint k = 0; k < t->init->len; k++) {
        const LitmusInit *in = t->init->pdata[k];
        if (in->thread >= (int)t->nthreads) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, in->line, in->col,
                         "thread %d does not exist (the test has %u)", in->thread, t->nthreads);
            return FALSE;
        }
    }
    for (guint k = 0; k < t->obs->len; k++) {
        const LitmusObs *o = t->obs->pdata[k];
        if (o->thread >= (int)t->nthreads) {
            lit_error_at(p->error, LITMUS_ERROR_SYNTAX, p->file, t->cond_line, t->cond_col,
                         "%s: thread %d does not exist (the test has %u)", o->display, o->thread, t->nthreads);
            return FALSE;
        }
    }
    return TRUE;
}

/* Cuts the text into lines, remembering where each starts; a '\r' before the '\n' is blanked. */
static void split_lines(LitParser *p)
{
    const char *s = p->buf;
    guint no = 1;
    while (*s) {
        const char *nl = strchr(s, '\n');
        gsize n = nl ? (gsize)(nl - s) : strlen(s);
        Line l = { g_strndup(s, n), s, no++ };
        if (n && l.text[n - 1] == '\r')
            l.text[n - 1] = ' ';
        g_array_append_val(p->lines, l);
        s += n + (nl ? 1 : 0);
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

    g_autofree char *buf = g_strdup(text);
    g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(Line));
    g_array_set_clear_func(lines, (GDestroyNotify)line_clear);
    LitParser p = { t, filename, buf, lines, 0, error };
    if (!strip_comments(buf, filename, error))
        return NULL;
    split_lines(&p);
    if (!parse_header(&p) || !parse_preamble(&p) || !parse_init(&p) || !parse_thread_header(&p) ||
        !parse_code(&p) || !parse_final(&p) || !check_threads(&p))
        return NULL;
    return g_steal_pointer(&t);
}

LitmusTest *litmus_parse_file(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autoptr(GError) e = NULL;
    if (!input_file_read(path, INPUT_LITMUS, &text, NULL, &e)) {
        g_set_error_literal(error, LITMUS_ERROR, LITMUS_ERROR_IO, e->message);
        return NULL;
    }
    /* A checkout without symbolic links leaves a one-line file naming the target. */
    g_autofree char *trimmed = g_strstrip(g_strdup(text));
    if (g_str_has_suffix(trimmed, ".litmus") && !strpbrk(trimmed, " \t\n{|")) {
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *target = g_build_filename(dir, trimmed, NULL);
        g_autofree char *ttext = NULL;
        if (!g_file_test(target, G_FILE_TEST_EXISTS)) {
            g_set_error(error, LITMUS_ERROR, LITMUS_ERROR_IO,
                        "%s:1:1: a symbolic-link stub naming '%s', which does not exist", path, trimmed);
            return NULL;
        }
        g_clear_error(&e);
        if (!input_file_read(target, INPUT_LITMUS, &ttext, NULL, &e)) {
            g_set_error_literal(error, LITMUS_ERROR, LITMUS_ERROR_IO, e->message);
            return NULL;
        }
        return litmus_parse_string(ttext, target, error);
    }
    return litmus_parse_string(text, path, error);
}
