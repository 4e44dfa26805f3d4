/* The access script's grammar (see access_script.h): a hand-written scanner over the text,
 * tracking line and column for its errors. */
#include <string.h>
#include "sim/workload/access_script.h"
#include "sim/base/echo.h"
#include "sim/base/suggest.h"

/* The ops, a row each: its name, whether it takes a value, and its default. */
static const struct {
    const char *name;
    gboolean takes_value;
    gboolean default_is_number;  /* the default value is the access's number in the script (else 1) */
} ops[] = {
    [SCRIPT_LD] = { "ld", FALSE, FALSE },
    [SCRIPT_ST] = { "st", TRUE, TRUE },
    [SCRIPT_XCHG] = { "xchg", TRUE, TRUE },
    [SCRIPT_FADD] = { "fadd", TRUE, FALSE },
    [SCRIPT_EVICT] = { "evict", FALSE, FALSE },
};

const char *access_script_op_name(ScriptOp op) { return ops[op].name; }

typedef struct {
    const char *who, *p;
    guint line, col;
} Scan;

static void advance(Scan *s)
{
    if (*s->p == '\n') {
        s->line++;
        s->col = 1;
    } else {
        s->col++;
    }
    s->p++;
}

/* Skips blanks and comments, not new lines (they separate accesses). */
static void skip_blanks(Scan *s)
{
    for (;;) {
        while (*s->p == ' ' || *s->p == '\t' || *s->p == '\r')
            advance(s);
        if (*s->p != '#')
            return;
        while (*s->p && *s->p != '\n')
            advance(s);
    }
}

static gboolean fail(GError **error, const Scan *s, guint line, guint col, const char *fmt, ...) G_GNUC_PRINTF(5, 6);
static gboolean fail(GError **error, const Scan *s, guint line, guint col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s:%u:%u: %s", s->who, line, col, what);
    return FALSE;
}

/* The word at the cursor (letters, digits, _), moved past; "" when there is none. */
static char *take_word(Scan *s)
{
    const char *from = s->p;
    while (g_ascii_isalnum(*s->p) || *s->p == '_')
        advance(s);
    return g_strndup(from, (gsize)(s->p - from));
}

/* What stands at the cursor, for a message: up to the next blank or separator. */
static char *found_text(const Scan *s)
{
    if (!*s->p)
        return g_strdup("the end");
    if (*s->p == '\n')
        return g_strdup("the end of the line");
    gsize n = strcspn(s->p, " \t\r\n,;#");
    g_autofree char *w = g_strndup(s->p, MAX(n, 1));
    g_autofree char *shown = echo_clip(w);
    return g_strdup_printf("`%s`", shown);
}

static gboolean parse_number(Scan *s, guint64 max, guint64 *out, const char *what, GError **error)
{
    guint line = s->line, col = s->col;
    if (!g_ascii_isdigit(*s->p)) {
        g_autofree char *found = found_text(s);
        return fail(error, s, line, col, "expected %s (a whole number), found %s", what, found);
    }
    if (s->p[0] == '0' && g_ascii_isdigit(s->p[1])) {
        /* as every whole number qsim reads (sim/base/whole_number.h): 010 is neither 8 nor 10 */
        g_autofree char *digits = g_strndup(s->p, MIN(strspn(s->p, "0123456789"), 40));
        return fail(error, s, line, col, "%s `%s`: a number with a leading zero (numbers are decimal)", what, digits);
    }
    guint64 v = 0;
    while (g_ascii_isdigit(*s->p)) {
        guint d = (guint)(*s->p - '0');
        if (v > (max - d) / 10)
            return fail(error, s, line, col, "%s: at most %" G_GUINT64_FORMAT, what, max);
        v = v * 10 + d;
        advance(s);
    }
    if (g_ascii_isalpha(*s->p) || *s->p == '_') {
        g_autofree char *found = found_text(s);
        return fail(error, s, line, col, "expected %s (a whole number), found %s", what, found);
    }
    *out = v;
    return TRUE;
}

static gboolean parse_op(Scan *s, ScriptOp *op, GError **error)
{
    guint line = s->line, col = s->col;
    g_autofree char *w = take_word(s);
    const char *names[G_N_ELEMENTS(ops)];
    for (guint i = 0; i < G_N_ELEMENTS(ops); i++) {
        names[i] = ops[i].name;
        if (!strcmp(w, ops[i].name)) {
            *op = (ScriptOp)i;
            return TRUE;
        }
    }
    if (!*w) {
        g_autofree char *found = found_text(s);
        return fail(error, s, line, col, "expected an access (ld, st, xchg, fadd, evict), found %s", found);
    }
    const char *close = suggest_closest(w, names, G_N_ELEMENTS(names));
    g_autofree char *shown = echo_clip(w);
    g_autofree char *hint = close ? g_strdup_printf("; did you mean `%s`?", close) : g_strdup("");
    return fail(error, s, line, col, "`%s`: no such access%s (ld, st, xchg, fadd, evict)", shown, hint);
}

static guint var_index(AccessScript *sc, const char *name)
{
    for (guint i = 0; i < sc->vars->len; i++)
        if (!strcmp(sc->vars->pdata[i], name))
            return i;
    g_ptr_array_add(sc->vars, g_strdup(name));
    return sc->vars->len - 1;
}

/* One access at the cursor (blanks skipped), into `a`. */
static gboolean parse_access(Scan *s, AccessScript *sc, ScriptAccess *a, GError **error)
{
    const char *from = s->p;
    a->line = s->line;
    a->col = s->col;
    guint64 t;
    if (!parse_number(s, ACCESS_SCRIPT_MAX_THREAD, &t, "a thread", error))
        return FALSE;
    a->thread = (guint)t;
    if (*s->p == '.') { /* C.T: a hardware thread of core C, as the text trace names it */
        advance(s);
        a->hw_col = s->col;
        if (!parse_number(s, ACCESS_SCRIPT_MAX_THREAD, &t, "a hardware thread", error))
            return FALSE;
        a->hw_thread = (guint)t;
        a->hw_named = TRUE;
    }
    skip_blanks(s);
    if (*s->p != ':') {
        g_autofree char *found = found_text(s);
        return fail(error, s, s->line, s->col, "expected `:` after the thread (THREAD:OP VAR, e.g. 0:ld x), found %s",
                    found);
    }
    advance(s);
    skip_blanks(s);
    if (!parse_op(s, &a->op, error))
        return FALSE;
    if (*s->p != ' ' && *s->p != '\t') {
        g_autofree char *found = found_text(s);
        return fail(error, s, s->line, s->col, "expected a variable after `%s`, found %s", ops[a->op].name, found);
    }
    skip_blanks(s);
    guint vline = s->line, vcol = s->col;
    if (!g_ascii_isalpha(*s->p) && *s->p != '_') {
        g_autofree char *found = found_text(s);
        return fail(error, s, vline, vcol, "expected a variable (a name: letters, digits, _), found %s", found);
    }
    g_autofree char *var = take_word(s);
    a->var = var_index(sc, var);
    skip_blanks(s);
    if (*s->p == '=') {
        guint eline = s->line, ecol = s->col;
        if (!ops[a->op].takes_value)
            return fail(error, s, eline, ecol, "`%s` takes no value (only st, xchg and fadd do)", ops[a->op].name);
        advance(s);
        skip_blanks(s);
        if (!parse_number(s, G_MAXINT64, &a->value, "a value", error))
            return FALSE;
        a->value_given = TRUE;
    }
    a->text = g_strstrip(g_strndup(from, (gsize)(s->p - from)));
    return TRUE;
}

AccessScript *access_script_parse(const char *who, const char *text, GError **error)
{
    g_autoptr(AccessScript) sc = g_new0(AccessScript, 1);
    sc->who = g_strdup(who);
    sc->accesses = g_array_new(FALSE, TRUE, sizeof(ScriptAccess));
    sc->vars = g_ptr_array_new_with_free_func(g_free);
    Scan s = { who, text, 1, 1 };
    for (;;) {
        skip_blanks(&s);
        while (*s.p == '\n') { /* blank lines */
            advance(&s);
            skip_blanks(&s);
        }
        if (!*s.p)
            break;
        if (sc->accesses->len == ACCESS_SCRIPT_MAX) {
            fail(error, &s, s.line, s.col, "more than %d accesses (a script is a demonstration, traced access by "
                                           "access)", ACCESS_SCRIPT_MAX);
            return NULL;
        }
        ScriptAccess a = { 0 };
        if (!parse_access(&s, sc, &a, error)) {
            g_free(a.text);
            return NULL;
        }
        if (!a.value_given)
            a.value = ops[a.op].default_is_number ? sc->accesses->len + 1 : 1;
        g_array_append_val(sc->accesses, a);
        sc->nthreads = MAX(sc->nthreads, a.thread + 1);
        sc->hw_threads = MAX(sc->hw_threads, a.hw_thread + 1);
        sc->hw_named |= a.hw_named;
        skip_blanks(&s);
        if (*s.p == ',' || *s.p == ';' || *s.p == '\n') {
            advance(&s);
            continue;
        }
        if (*s.p) {
            g_autofree char *found = found_text(&s);
            fail(error, &s, s.line, s.col, "expected `,`, `;` or a new line between accesses, found %s", found);
            return NULL;
        }
    }
    if (!sc->accesses->len) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s: no accesses (a script is THREAD:OP VAR, ..., e.g. `0:ld x, 1:st x, 0:ld x`)", who);
        return NULL;
    }
    return g_steal_pointer(&sc);
}

void access_script_free(AccessScript *s)
{
    if (!s)
        return;
    for (guint i = 0; s->accesses && i < s->accesses->len; i++)
        g_free(g_array_index(s->accesses, ScriptAccess, i).text);
    if (s->accesses)
        g_array_free(s->accesses, TRUE);
    if (s->vars)
        g_ptr_array_unref(s->vars);
    g_free(s->who);
    g_free(s);
}
