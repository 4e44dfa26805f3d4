/* The reader of GNU assembler text (see gas_read.h). */
#include <string.h>
#include <ctype.h>
#include "sim/cfront/gas_read.h"

G_DEFINE_QUARK(qsim-gas-error-quark, gas_error)

typedef enum { SEC_CODE, SEC_DATA, SEC_TLS, SEC_OTHER } SecKind;

typedef struct {
    GasProgram *g;
    const char *comment;
    char *section, *previous;
    GPtrArray *pushed;        /* char*: .pushsection's saved sections */
    GasData *cur;             /* the data symbol being emitted, or NULL */
    guint pending_align;
    gboolean lock, rep;       /* prefixes waiting for their instruction */
    const char *cfile;
    guint cline, ccol;
    guint sline;
    GError **error;
    gboolean failed;
} Reader;

static void stmt_free(gpointer p)
{
    GasStmt *s = p;
    g_free(s->label);
    g_free(s->mnemonic);
    if (s->ops)
        g_ptr_array_free(s->ops, TRUE);
    g_free(s->text);
    g_free(s);
}

static void data_free(gpointer p)
{
    GasData *d = p;
    g_free(d->name);
    g_byte_array_free(d->bytes, TRUE);
    g_free(d->reloc);
    g_free(d);
}

void gas_program_free(GasProgram *g)
{
    if (!g)
        return;
    g_ptr_array_free(g->stmts, TRUE);
    g_ptr_array_free(g->data, TRUE);
    g_hash_table_destroy(g->functions);
    g_ptr_array_free(g->files, TRUE);
    g_free(g);
}

const GasData *gas_find_data(const GasProgram *g, const char *name)
{
    for (guint i = 0; i < g->data->len; i++)
        if (!strcmp(((GasData *)g->data->pdata[i])->name, name))
            return g->data->pdata[i];
    return NULL;
}

static GasData *find_data_mut(GasProgram *g, const char *name)
{
    return (GasData *)gas_find_data(g, name);
}

/* ---- lexing ---- */

/* The end of s's code: where the comment starts outside a string, or the end. */
static gsize code_length(const char *s, const char *comment)
{
    gboolean quoted = FALSE;
    gsize n = strlen(comment);
    for (gsize i = 0; s[i]; i++) {
        if (s[i] == '\\' && quoted && s[i + 1]) {
            i++;
            continue;
        }
        if (s[i] == '"')
            quoted = !quoted;
        else if (!quoted && !strncmp(s + i, comment, n))
            return i;
    }
    return strlen(s);
}

/* Splits on `sep` outside quotes and (when parens) parentheses; each piece trimmed. */
static GPtrArray *split_outside(const char *s, char sep, gboolean parens)
{
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    int depth = 0;
    gboolean quoted = FALSE;
    const char *start = s;
    for (const char *c = s;; c++) {
        if (*c == '\\' && quoted && c[1]) {
            c++;
            continue;
        }
        if (*c == '"')
            quoted = !quoted;
        else if (!quoted && parens && *c == '(')
            depth++;
        else if (!quoted && parens && *c == ')')
            depth--;
        if (*c == '\0' || (*c == sep && !quoted && depth == 0)) {
            g_ptr_array_add(out, g_strstrip(g_strndup(start, (gsize)(c - start))));
            if (!*c)
                break;
            start = c + 1;
        }
    }
    return out;
}

static gboolean is_label_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

/* A quoted string's bytes (escapes as C writes them); *end after its closing quote. */
static GByteArray *read_string(const char *s, const char **end)
{
    GByteArray *b = g_byte_array_new();
    const char *p = strchr(s, '"');
    if (!p) {
        *end = s + strlen(s);
        return b;
    }
    for (p++; *p && *p != '"'; p++) {
        guint8 c = (guint8)*p;
        if (*p == '\\' && p[1]) {
            p++;
            switch (*p) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
                guint v = 0;
                for (guint k = 0; k < 3 && *p >= '0' && *p <= '7'; k++, p++)
                    v = v * 8 + (guint)(*p - '0');
                p--;
                c = (guint8)v;
                break;
            }
            default: c = (guint8)*p; break;
            }
        }
        g_byte_array_append(b, &c, 1);
    }
    *end = *p ? p + 1 : p;
    return b;
}

static SecKind section_kind(const char *name)
{
    if (g_str_has_prefix(name, ".text"))
        return SEC_CODE;
    if (g_str_has_prefix(name, ".tdata") || g_str_has_prefix(name, ".tbss"))
        return SEC_TLS;
    if (g_str_has_prefix(name, ".data") || g_str_has_prefix(name, ".bss") || g_str_has_prefix(name, ".rodata") ||
        g_str_has_prefix(name, ".sdata") || g_str_has_prefix(name, ".sbss"))
        return SEC_DATA;
    return SEC_OTHER;
}

static void set_section(Reader *r, const char *name)
{
    g_free(r->previous);
    r->previous = r->section;
    r->section = g_strdup(name);
    r->cur = NULL;
}

/* ---- data ---- */

static void data_fail(Reader *r, const char *what)
{
    if (!r->failed)
        g_set_error(r->error, GAS_ERROR, GAS_ERROR_DATA, "line %u: %s", r->sline, what);
    r->failed = TRUE;
}

static GasData *new_data(Reader *r, const char *name, gboolean tls)
{
    GasData *d = find_data_mut(r->g, name);
    if (!d) {
        d = g_new0(GasData, 1);
        d->name = g_strdup(name);
        d->bytes = g_byte_array_new();
        d->align = 1;
        g_ptr_array_add(r->g->data, d);
    }
    d->tls = tls;
    d->sline = r->sline;
    if (r->pending_align > d->align)
        d->align = r->pending_align;
    r->pending_align = 0;
    return d;
}

/* `.byte`-like: each comma-separated value in `size` bytes, little-endian. */
static void data_values(Reader *r, const char *args, guint size)
{
    if (!r->cur) {
        data_fail(r, "data outside any symbol");
        return;
    }
    g_autoptr(GPtrArray) vals = split_outside(args, ',', TRUE);
    for (guint i = 0; i < vals->len; i++) {
        const char *v = vals->pdata[i];
        gint64 n = 0;
        char *end = NULL;
        if (*v)
            n = g_ascii_strtoll(v, &end, 0);
        if (!*v || !end || *end) {
            /* A symbol's address (a pointer in the data): its bytes are not known here. */
            if (!r->cur->reloc)
                r->cur->reloc = g_strdup(v);
            n = 0;
        }
        for (guint k = 0; k < size; k++) {
            guint8 b = (guint8)((guint64)n >> (8 * k));
            g_byte_array_append(r->cur->bytes, &b, 1);
        }
    }
}

static void data_zero(Reader *r, const char *args)
{
    if (!r->cur) {
        data_fail(r, "data outside any symbol");
        return;
    }
    g_autoptr(GPtrArray) a = split_outside(args, ',', TRUE);
    guint64 n = g_ascii_strtoull(a->pdata[0], NULL, 0);
    guint8 fill = a->len > 1 ? (guint8)g_ascii_strtoull(a->pdata[1], NULL, 0) : 0;
    if (n > (1u << 20)) {
        data_fail(r, "a data symbol over 1 MiB");
        return;
    }
    for (guint64 k = 0; k < n; k++)
        g_byte_array_append(r->cur->bytes, &fill, 1);
}

/* `.comm NAME, SIZE[, ALIGN]` and `.lcomm`: zeroed data. */
static void common(Reader *r, const char *args)
{
    g_autoptr(GPtrArray) a = split_outside(args, ',', TRUE);
    if (a->len < 2)
        return;
    GasData *d = new_data(r, a->pdata[0], FALSE);
    d->size = g_ascii_strtoull(a->pdata[1], NULL, 0);
    if (a->len > 2)
        d->align = MAX(d->align, (guint)g_ascii_strtoull(a->pdata[2], NULL, 0));
}

/* ---- directives ---- */

static void file_directive(Reader *r, const char *args)
{
    char *end;
    guint64 n = g_ascii_strtoull(args, &end, 10);
    if (end == args)
        return;                 /* `.file "name"`: the unit's name, no number */
    /* `.file N "name"` or (DWARF 5) `.file N "dir" "name"`: the last string is the name. */
    const char *p = end;
    GByteArray *last = NULL;
    while (strchr(p, '"')) {
        if (last)
            g_byte_array_free(last, TRUE);
        last = read_string(p, &p);
    }
    if (!last || n > 10000)
        return;
    g_byte_array_append(last, (const guint8 *)"", 1);
    while (r->g->files->len <= n)
        g_ptr_array_add(r->g->files, NULL);
    g_free(r->g->files->pdata[n]);
    r->g->files->pdata[n] = g_byte_array_free(last, FALSE);
}

static void loc_directive(Reader *r, const char *args)
{
    g_auto(GStrv) w = g_strsplit_set(args, " \t", -1);
    guint k = 0, nums[3] = { 0, 0, 0 }, n = 0;
    for (; w[k] && n < 3; k++) {
        if (!*w[k])
            continue;
        if (!isdigit((unsigned char)w[k][0]))
            break;
        nums[n++] = (guint)g_ascii_strtoull(w[k], NULL, 10);
    }
    if (n < 2 || nums[0] >= r->g->files->len || !r->g->files->pdata[nums[0]])
        return;
    r->cfile = r->g->files->pdata[nums[0]];
    r->cline = nums[1];
    r->ccol = nums[2];
}

static void directive(Reader *r, const char *name, const char *args)
{
    SecKind k = r->section ? section_kind(r->section) : SEC_OTHER;
    if (!strcmp(name, ".text") || !strcmp(name, ".data") || !strcmp(name, ".bss")) {
        set_section(r, name);
    } else if (!strcmp(name, ".section") || !strcmp(name, ".pushsection")) {
        g_autoptr(GPtrArray) a = split_outside(args, ',', FALSE);
        if (!strcmp(name, ".pushsection"))
            g_ptr_array_add(r->pushed, g_strdup(r->section ? r->section : ".text"));
        set_section(r, a->pdata[0]);
    } else if (!strcmp(name, ".popsection")) {
        if (r->pushed->len) {
            g_autofree char *s = g_ptr_array_steal_index(r->pushed, r->pushed->len - 1);
            set_section(r, s);
        }
    } else if (!strcmp(name, ".previous")) {
        char *p = r->previous;
        r->previous = r->section;
        r->section = p;
        r->cur = NULL;
    } else if (!strcmp(name, ".file")) {
        file_directive(r, args);
    } else if (!strcmp(name, ".loc")) {
        loc_directive(r, args);
    } else if (!strcmp(name, ".type")) {
        g_autoptr(GPtrArray) a = split_outside(args, ',', FALSE);
        if (a->len == 2 && strstr(a->pdata[1], "function"))
            g_hash_table_replace(r->g->functions, g_strdup(a->pdata[0]), g_strdup(a->pdata[0]));
    } else if (!strcmp(name, ".size")) {
        g_autoptr(GPtrArray) a = split_outside(args, ',', FALSE);
        GasData *d = a->len == 2 ? find_data_mut(r->g, a->pdata[0]) : NULL;
        char *end;
        guint64 n = a->len == 2 ? g_ascii_strtoull(a->pdata[1], &end, 0) : 0;
        if (d && end != a->pdata[1] && !*end)
            d->size = n;
    } else if (!strcmp(name, ".comm") || !strcmp(name, ".lcomm")) {
        common(r, args);
    } else if (k != SEC_DATA && k != SEC_TLS) {
        return;                 /* alignment of code, symbol binding, debug data: nothing to keep */
    } else if (!strcmp(name, ".balign") || (!strcmp(name, ".align") && !strcmp(r->comment, "#"))) {
        r->pending_align = (guint)g_ascii_strtoull(args, NULL, 0);
    } else if (!strcmp(name, ".p2align") || !strcmp(name, ".align")) {
        /* AArch64's .align is a power of two, as .p2align (x86's: bytes). */
        guint e = (guint)g_ascii_strtoull(args, NULL, 0);
        r->pending_align = e < 16 ? 1u << e : 1;
    } else if (!strcmp(name, ".zero") || !strcmp(name, ".skip") || !strcmp(name, ".space")) {
        data_zero(r, args);
    } else if (!strcmp(name, ".byte")) {
        data_values(r, args, 1);
    } else if (!strcmp(name, ".value") || !strcmp(name, ".short") || !strcmp(name, ".2byte") ||
               !strcmp(name, ".hword") || (!strcmp(name, ".word") && !strcmp(r->comment, "#"))) {
        data_values(r, args, 2);
    } else if (!strcmp(name, ".long") || !strcmp(name, ".int") || !strcmp(name, ".4byte") || !strcmp(name, ".word")) {
        data_values(r, args, 4);
    } else if (!strcmp(name, ".quad") || !strcmp(name, ".8byte") || !strcmp(name, ".xword") || !strcmp(name, ".dword")) {
        data_values(r, args, 8);
    } else if (!strcmp(name, ".string") || !strcmp(name, ".asciz") || !strcmp(name, ".ascii")) {
        if (!r->cur) {
            data_fail(r, "data outside any symbol");
            return;
        }
        const char *end;
        GByteArray *b = read_string(args, &end);
        g_byte_array_append(r->cur->bytes, b->data, b->len);
        if (strcmp(name, ".ascii"))
            g_byte_array_append(r->cur->bytes, (const guint8 *)"", 1);
        g_byte_array_free(b, TRUE);
    } else if (!strcmp(name, ".fill") || !strcmp(name, ".incbin") || !strcmp(name, ".uleb128") ||
               !strcmp(name, ".sleb128") || !strcmp(name, ".float") || !strcmp(name, ".double")) {
        g_autofree char *what = g_strdup_printf("data directive `%s` is not supported", name);
        data_fail(r, what);
    }
}

/* ---- statements ---- */

static gboolean is_prefix(const char *w, Reader *r)
{
    if (!strcmp(w, "lock")) {
        r->lock = TRUE;
        return TRUE;
    }
    if (!strcmp(w, "rep") || !strcmp(w, "repe") || !strcmp(w, "repz") || !strcmp(w, "repne") || !strcmp(w, "repnz")) {
        r->rep = TRUE;
        return TRUE;
    }
    return FALSE;
}

static void add_label(Reader *r, const char *name)
{
    SecKind k = r->section ? section_kind(r->section) : SEC_OTHER;
    if (k == SEC_CODE) {
        GasStmt *s = g_new0(GasStmt, 1);
        s->sline = r->sline;
        s->label = g_strdup(name);
        s->text = g_strdup_printf("%s:", name);
        s->cfile = r->cfile, s->cline = r->cline, s->ccol = r->ccol;
        g_ptr_array_add(r->g->stmts, s);
    } else if (k == SEC_DATA || k == SEC_TLS) {
        r->cur = new_data(r, name, k == SEC_TLS);
    }
}

static void statement(Reader *r, char *s)
{
    /* Labels first: `name:` (gas allows several, and a statement after them). */
    for (;;) {
        char *p = s;
        while (is_label_char(*p))
            p++;
        if (p == s || *p != ':')
            break;
        *p = '\0';
        add_label(r, s);
        s = g_strstrip(p + 1);
    }
    if (!*s)
        return;
    char *w = s;
    while (*w && !isspace((unsigned char)*w))
        w++;
    g_autofree char *word = g_ascii_strdown(s, (gssize)(w - s));
    const char *rest = w;
    while (isspace((unsigned char)*rest))
        rest++;
    if (word[0] == '.') {
        directive(r, word, rest);
        return;
    }
    SecKind k = r->section ? section_kind(r->section) : SEC_OTHER;
    if (k != SEC_CODE)
        return;
    /* Prefixes: on their own ("lock" then a statement) or before the mnemonic. */
    while (is_prefix(word, r)) {
        if (!*rest)
            return;
        const char *e = rest;
        while (*e && !isspace((unsigned char)*e))
            e++;
        g_free(word);
        word = g_ascii_strdown(rest, (gssize)(e - rest));
        rest = e;
        while (isspace((unsigned char)*rest))
            rest++;
    }
    GasStmt *st = g_new0(GasStmt, 1);
    st->sline = r->sline;
    st->mnemonic = g_steal_pointer(&word);
    st->lock = r->lock;
    st->rep = r->rep;
    r->lock = r->rep = FALSE;
    st->ops = *rest ? split_outside(rest, ',', TRUE) : g_ptr_array_new_with_free_func(g_free);
    st->cfile = r->cfile, st->cline = r->cline, st->ccol = r->ccol;
    st->text = g_strdup_printf("%s%s%s%s%s", st->lock ? "lock " : "", st->rep ? "rep " : "", st->mnemonic,
                               *rest ? " " : "", rest);
    g_ptr_array_add(r->g->stmts, st);
}

static gboolean is_number(const char *s, gsize n)
{
    if (!n)
        return FALSE;
    for (gsize i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return FALSE;
    return TRUE;
}

/* The name the K-th definition of numeric local label N gets (".L" so that the translators take
 * it for a local label). */
static char *numeric_name(const char *n, guint k)
{
    return g_strdup_printf(".Lnum%s_%u", n, k);
}

/* Numeric local labels, as inline asm writes them (`1:` ... `cbnz w3, 1b`, `b.ne 2f`): gas lets
 * N be defined again and again, `Nb` meaning the last definition before and `Nf` the next after.
 * Each definition is given a name of its own and each whole operand `Nb`/`Nf` the name it
 * means; one that means none is left as written (the translator refuses it as undefined). */
static void name_numeric_labels(GasProgram *g)
{
    g_autoptr(GHashTable) total = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < g->stmts->len; i++) {
        const GasStmt *s = g->stmts->pdata[i];
        if (s->label && is_number(s->label, strlen(s->label))) {
            gpointer n = g_hash_table_lookup(total, s->label);
            g_hash_table_replace(total, g_strdup(s->label), GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
        }
    }
    if (!g_hash_table_size(total))
        return;
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < g->stmts->len; i++) {
        GasStmt *s = g->stmts->pdata[i];
        if (s->label) {
            if (!is_number(s->label, strlen(s->label)))
                continue;
            guint k = GPOINTER_TO_UINT(g_hash_table_lookup(seen, s->label));
            g_hash_table_replace(seen, g_strdup(s->label), GUINT_TO_POINTER(k + 1));
            char *name = numeric_name(s->label, k);
            g_free(s->label);
            s->label = name;
            continue;
        }
        for (guint o = 0; o < s->ops->len; o++) {
            const char *op = s->ops->pdata[o];
            gsize len = strlen(op);
            if (len < 2 || (op[len - 1] != 'b' && op[len - 1] != 'f') || !is_number(op, len - 1))
                continue;
            g_autofree char *n = g_strndup(op, len - 1);
            guint before = GPOINTER_TO_UINT(g_hash_table_lookup(seen, n));
            guint all = GPOINTER_TO_UINT(g_hash_table_lookup(total, n));
            gboolean back = op[len - 1] == 'b';
            if (back ? before == 0 : before >= all)
                continue;
            g_free(s->ops->pdata[o]);
            s->ops->pdata[o] = numeric_name(n, back ? before - 1 : before);
        }
    }
}

GasProgram *gas_read(const char *text, const char *comment, GError **error)
{
    GasProgram *g = g_new0(GasProgram, 1);
    g->stmts = g_ptr_array_new_with_free_func(stmt_free);
    g->data = g_ptr_array_new_with_free_func(data_free);
    g->functions = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g->files = g_ptr_array_new_with_free_func(g_free);
    Reader r = { .g = g, .comment = comment, .section = g_strdup(".text"),
                 .pushed = g_ptr_array_new_with_free_func(g_free), .error = error };
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint i = 0; lines[i] && !r.failed; i++) {
        r.sline = i + 1;
        /* gas reads a '#' first on a line as a comment on every target (GCC's #APP, #NO_APP
         * around inline asm); x86's comment string is '#' anyway. */
        if (g_strchug(lines[i])[0] == '#')
            continue;
        g_autofree char *code = g_strndup(lines[i], code_length(lines[i], comment));
        g_autoptr(GPtrArray) stmts = split_outside(code, ';', FALSE);
        for (guint k = 0; k < stmts->len; k++)
            statement(&r, stmts->pdata[k]);
    }
    g_free(r.section);
    g_free(r.previous);
    g_ptr_array_free(r.pushed, TRUE);
    if (r.failed) {
        gas_program_free(g);
        return NULL;
    }
    for (guint i = 0; i < g->data->len; i++) {
        GasData *d = g->data->pdata[i];
        if (!d->size)
            d->size = d->bytes->len;
    }
    name_numeric_labels(g);
    return g;
}
