/* Loading, overriding and validating machine configs (libyaml), driven entirely by
 * the schema table (printing them: config_write.c).  Every error a user can cause names
 * file:line:col and the key path. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "sim/base/config.h"
#include "sim/base/echo.h"
#include "sim/base/input_file.h"
#include "sim/base/suggest.h"
#include "sim/base/yaml_doc.h"

G_DEFINE_QUARK(qsim-config-error-quark, qsim_config_error)

/* ---- field access ---- */

static void *field(QsimConfig *c, const CfgKey *k) { return (char *)c + k->offset; }
static const void *cfield(const QsimConfig *c, const CfgKey *k) { return (const char *)c + k->offset; }

static guint choice_count(const CfgKey *k)
{
    guint n = 0;
    while (k->choices[n])
        n++;
    return n;
}

/* ---- scalar parsing: text -> typed value, with the reason on failure ---- */

typedef union {
    gint64 i;
    double d;
    gboolean b;
    int e;
} CfgValue;

/* Numbers are decimal, as people write them.  YAML 1.1 readers take a leading 0 as octal (and
 * strtoll with base 0 did: `rob: 032` was 26), so a leading zero is refused with the number it
 * would be in decimal, rather than read either way. */
typedef enum { NUM_OK, NUM_BAD, NUM_LEADING_ZERO, NUM_RANGE } NumParse;

/* The digits of a decimal integer at `s` (an optional '-' first): how many characters they take. */
static gsize decimal_digits(const char *s, gboolean *leading_zero)
{
    gsize i = s[0] == '-';
    gsize start = i;
    while (g_ascii_isdigit(s[i]))
        i++;
    *leading_zero = i - start > 1 && s[start] == '0';
    return i == start ? 0 : i;
}

static NumParse parse_int_text(const char *s, gint64 *out)
{
    gboolean zero;
    gsize n = decimal_digits(s, &zero);
    if (!n || s[n])
        return NUM_BAD;
    if (zero)
        return NUM_LEADING_ZERO;
    errno = 0;
    gint64 v = g_ascii_strtoll(s, NULL, 10);
    if (errno)
        return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

/* "032KiB" written as "32KiB": the advice for a leading zero. */
static char *without_leading_zeros(const char *s)
{
    const char *sign = s[0] == '-' ? "-" : "";
    const char *p = s + (s[0] == '-');
    while (p[0] == '0' && g_ascii_isdigit(p[1]))
        p++;
    return g_strconcat(sign, p, NULL);
}

typedef unsigned __int128 U128;

static U128 gcd128(U128 a, U128 b)
{
    while (b) {
        U128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The bytes of `digits` units and the fraction frac / 10^k of one, exactly (no floating point:
 * 99999999999.99999999999B was rounded to 1e11 where 1.0000000001KiB was refused): NUM_BAD
 * unless they are whole bytes, NUM_RANGE past 9e18.  A fraction of more than 30 digits (its
 * last one not 0) is never whole bytes for a unit of at most 2^30. */
static NumParse exact_bytes(const char *digits, gsize ndigits, const char *frac, gsize k, guint64 mult, gint64 *out)
{
    while (k && frac[k - 1] == '0')
        k--;
    if (k > 30)
        return NUM_BAD;
    U128 whole = 0, f = 0, pow10 = 1;
    for (gsize i = 0; i < ndigits; i++) {
        whole = whole * 10 + (U128)(digits[i] - '0');
        if (whole > (U128)9e18)
            return NUM_RANGE;
    }
    for (gsize i = 0; i < k; i++) {
        f = f * 10 + (U128)(frac[i] - '0');
        pow10 *= 10;
    }
    /* f / 10^k in lowest terms is whole bytes times `mult` only if its denominator divides it */
    U128 g = f ? gcd128(f, pow10) : pow10;
    U128 den = pow10 / g;
    if ((U128)mult % den)
        return NUM_BAD;
    U128 bytes = whole * mult + (f / g) * ((U128)mult / den);
    if (bytes > (U128)9e18)
        return NUM_RANGE;
    *out = (gint64)bytes;
    return NUM_OK;
}

static NumParse parse_size_text(const char *s, gint64 *out)
{
    static const struct { const char *suffix; guint64 mult; } units[] = {
        { "KiB", 1024 }, { "MiB", 1048576 }, { "GiB", 1073741824 },
        { "KB", 1000 }, { "MB", 1000000 }, { "GB", 1000000000 }, { "K", 1024 }, { "M", 1048576 },
        { "G", 1073741824 }, { "B", 1 }, { "", 1 },
    };
    /* digits [. digits] [spaces] [unit]: no sign, exponent, hexadecimal or inf */
    gboolean zero;
    gsize n = s[0] == '-' ? 0 : decimal_digits(s, &zero);
    if (!n)
        return NUM_BAD;
    gsize whole = n, frac_at = n, frac_len = 0;
    if (s[n] == '.') {
        gsize f = n + 1;
        while (g_ascii_isdigit(s[f]))
            f++;
        if (f == n + 1)
            return NUM_BAD;
        frac_at = n + 1;
        frac_len = f - frac_at;
        n = f;
    }
    const char *end = s + n;
    while (*end == ' ')
        end++;
    for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
        if (!strcmp(end, units[i].suffix)) {
            if (zero)
                return NUM_LEADING_ZERO;
            return exact_bytes(s, whole, s + frac_at, frac_len, units[i].mult, out);
        }
    }
    return NUM_BAD;
}

static gboolean looks_hexadecimal(const char *s)
{
    const char *p = s + (s[0] == '-');
    return p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'o' || p[1] == 'b');
}

/* Parses `text` for key k.  On failure sets *why to a message (without position). */
static gboolean parse_value(const CfgKey *k, const char *text, CfgValue *v, char **why)
{
    g_autofree char *shown = echo_clip(text);
    switch (k->type) {
    case CFG_INT:
    case CFG_SIZE: {
        gboolean size = k->type == CFG_SIZE;
        NumParse r = size ? parse_size_text(text, &v->i) : parse_int_text(text, &v->i);
        if (r == NUM_LEADING_ZERO) {
            g_autofree char *plain = without_leading_zeros(text);
            g_autofree char *plain_shown = echo_clip(plain);
            *why = g_strdup_printf("'%s' has a leading zero (numbers are decimal: write %s)", shown, plain_shown);
            return FALSE;
        }
        if (r == NUM_BAD) {
            if (size)
                *why = g_strdup_printf("expected a size such as 32KiB or 2.5MiB (whole bytes), got '%s'", shown);
            else if (looks_hexadecimal(text))
                *why = g_strdup_printf("expected a decimal integer, got '%s'", shown);
            else
                *why = g_strdup_printf("expected an integer, got '%s'", shown);
            return FALSE;
        }
        if (r == NUM_RANGE || v->i < k->min || v->i > k->max) {
            if (size)
                *why = g_strdup_printf("size %s is out of range [%.0f, %.0f] bytes", shown, k->min, k->max);
            else
                *why = g_strdup_printf("value %s is out of range [%.0f, %.0f]", shown, k->min, k->max);
            return FALSE;
        }
        return TRUE;
    }
    case CFG_DOUBLE: {
        char *end = NULL;
        errno = 0;
        v->d = g_ascii_strtod(text, &end);
        if (errno || end == text || *end || !isfinite(v->d) || looks_hexadecimal(text)) {
            *why = g_strdup_printf("expected a number, got '%s'", shown);
            return FALSE;
        }
        if (v->d < k->min || v->d > k->max) {
            *why = g_strdup_printf("value %s is out of range [%g, %g]", shown, k->min, k->max);
            return FALSE;
        }
        return TRUE;
    }
    case CFG_BOOL: {
        static const char *const yes[] = { "true", "yes", "on", NULL };
        static const char *const no[] = { "false", "no", "off", NULL };
        for (guint i = 0; yes[i]; i++)
            if (!g_ascii_strcasecmp(text, yes[i])) {
                v->b = TRUE;
                return TRUE;
            }
        for (guint i = 0; no[i]; i++)
            if (!g_ascii_strcasecmp(text, no[i])) {
                v->b = FALSE;
                return TRUE;
            }
        *why = g_strdup_printf("expected true or false, got '%s'", shown);
        return FALSE;
    }
    case CFG_ENUM: {
        guint n = choice_count(k);
        for (guint i = 0; i < n; i++)
            if (!strcmp(text, k->choices[i])) {
                v->e = (int)i;
                return TRUE;
            }
        g_autofree char *list = g_strjoinv(", ", (char **)k->choices);
        const char *hint = suggest_closest(text, k->choices, n);
        if (hint)
            *why = g_strdup_printf("unknown value '%s'; did you mean '%s'? (one of: %s)", shown, hint, list);
        else
            *why = g_strdup_printf("unknown value '%s' (one of: %s)", shown, list);
        return FALSE;
    }
    case CFG_STRING:
        /* A config is UTF-8 text (libyaml checks a file's; a --set value arrives as bytes). */
        if (!g_utf8_validate(text, -1, NULL)) {
            *why = g_strdup("not UTF-8 text");
            return FALSE;
        }
        /* a required key is there to say something: `name: ""` named nothing */
        if (!k->def && !*text) {
            *why = g_strdup("an empty string (a required key needs a value)");
            return FALSE;
        }
        return TRUE;
    }
    g_assert_not_reached();
}

static void store_value(QsimConfig *c, const CfgKey *k, const char *text, const CfgValue *v)
{
    switch (k->type) {
    case CFG_INT:
    case CFG_SIZE:
        *(gint64 *)field(c, k) = v->i;
        break;
    case CFG_DOUBLE:
        *(double *)field(c, k) = v->d;
        break;
    case CFG_BOOL:
        *(gboolean *)field(c, k) = v->b;
        break;
    case CFG_ENUM:
        *(int *)field(c, k) = v->e;
        break;
    case CFG_STRING: {
        char **p = field(c, k);
        g_free(*p);
        *p = g_strdup(text);
        break;
    }
    }
}

/* ---- the config object ---- */

QsimConfig *config_new_defaults(void)
{
    QsimConfig *c = g_new0(QsimConfig, 1);
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        if (!k->def)
            continue;
        const char *text = k->def;
        g_autofree char *unq = NULL;
        if (k->type == CFG_STRING && text[0] == '"')
            text = unq = g_strndup(text + 1, strlen(text) - 2);
        CfgValue v;
        g_autofree char *why = NULL;
        if (!parse_value(k, text, &v, &why))
            g_error("schema default of %s is invalid: %s", k->path, why);
        store_value(c, k, text, &v);
    }
    return c;
}

void config_free(QsimConfig *c)
{
    if (!c)
        return;
    for (guint i = 0; i < qsim_config_schema_len; i++)
        if (qsim_config_schema[i].type == CFG_STRING)
            g_free(*(char **)field(c, &qsim_config_schema[i]));
    g_free(c);
}

gboolean config_equal(const QsimConfig *a, const QsimConfig *b)
{
    if (a->arch != b->arch)
        return FALSE;
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        if (!config_key_applies(k, a->arch))
            continue;
        const void *x = cfield(a, k), *y = cfield(b, k);
        switch (k->type) {
        case CFG_INT:
        case CFG_SIZE:
            if (*(const gint64 *)x != *(const gint64 *)y)
                return FALSE;
            break;
        case CFG_DOUBLE:
            if (*(const double *)x != *(const double *)y)
                return FALSE;
            break;
        case CFG_BOOL:
            if (!*(const gboolean *)x != !*(const gboolean *)y)
                return FALSE;
            break;
        case CFG_ENUM:
            if (*(const int *)x != *(const int *)y)
                return FALSE;
            break;
        case CFG_STRING:
            if (g_strcmp0(*(char *const *)x, *(char *const *)y))
                return FALSE;
            break;
        }
    }
    return TRUE;
}

/* ---- where configs live ---- */

/* The environment variable that puts the user's folders first, per kind of file. */
static const struct {
    const char *subdir;
    const char *env;
} search_path_envs[] = {
    { "configs", "QSIM_CONFIG_PATH" },
    { "locks", "QSIM_LOCK_PATH" },
    { "scenarios", "QSIM_SCENARIO_PATH" },
};

GPtrArray *config_search_dirs(const char *subdir)
{
    GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
    for (guint k = 0; k < G_N_ELEMENTS(search_path_envs); k++) {
        const char *env = g_getenv(search_path_envs[k].env);
        if (!env || strcmp(subdir, search_path_envs[k].subdir))
            continue;
        g_auto(GStrv) parts = g_strsplit(env, ":", -1);
        for (guint i = 0; parts[i]; i++)
            if (*parts[i])
                g_ptr_array_add(dirs, g_strdup(parts[i]));
    }
    /* A binary run from its source tree uses that tree's files; an installed one its data dir. */
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    gboolean in_tree = exe && g_str_has_prefix(exe, QSIM_SRCDIR "/");
    char *src = g_build_filename(QSIM_SRCDIR, subdir, NULL);
    if (in_tree)
        g_ptr_array_add(dirs, src);
    /* An installed binary finds its data beside it (PREFIX/bin/qsim -> PREFIX/share/qsim), so a
     * staged (DESTDIR) or moved install works too; then the configured data dir. */
    if (exe) {
        g_autofree char *bindir = g_path_get_dirname(exe);
        g_ptr_array_add(dirs, g_build_filename(bindir, "..", "share", "qsim", subdir, NULL));
    }
    g_ptr_array_add(dirs, g_build_filename(QSIM_DATADIR, subdir, NULL));
    if (!in_tree)
        g_ptr_array_add(dirs, src);
    return dirs;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *config_search_names(const char *subdir, const char *ext, GHashTable **paths)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    GHashTable *where = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GPtrArray) dirs = config_search_dirs(subdir);
    for (guint i = 0; i < dirs->len; i++) {
        GDir *d = g_dir_open(dirs->pdata[i], 0, NULL);
        if (!d)
            continue;
        const char *f;
        while ((f = g_dir_read_name(d))) {
            if (!g_str_has_suffix(f, ext) || strlen(f) == strlen(ext))
                continue;
            char *name = g_strndup(f, strlen(f) - strlen(ext));
            if (g_hash_table_contains(where, name)) {   /* an earlier folder has it */
                g_free(name);
                continue;
            }
            g_hash_table_insert(where, g_strdup(name), g_build_filename(dirs->pdata[i], f, NULL));
            g_ptr_array_add(names, name);
        }
        g_dir_close(d);
    }
    g_ptr_array_sort(names, by_name);
    if (paths)
        *paths = where;
    else
        g_hash_table_unref(where);
    return names;
}

char *config_search_file(const char *subdir, const char *name, const char *ext)
{
    g_autofree char *file = g_str_has_suffix(name, ext) ? g_strdup(name) : g_strconcat(name, ext, NULL);
    g_autoptr(GPtrArray) dirs = config_search_dirs(subdir);
    for (guint i = 0; i < dirs->len; i++) {
        char *p = g_build_filename(dirs->pdata[i], file, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
            return p;
        g_free(p);
    }
    return NULL;
}

char *config_not_found_hint(const char *name, const char *subdir, const char *ext)
{
    g_autoptr(GPtrArray) known = config_search_names(subdir, ext, NULL);
    g_autofree char *base = g_str_has_suffix(name, ext) ? g_strndup(name, strlen(name) - strlen(ext)) : g_strdup(name);
    const char *hint = suggest_closest(base, (const char *const *)known->pdata, known->len);
    return hint ? g_strdup_printf("; did you mean `%s`?", hint) : g_strdup("");
}

char *config_resolve_path(const char *name, GError **error)
{
    /* A path that is there is the config, even when it is no file (a device, a FIFO): reading
     * it says what is wrong, rather than "no such config". */
    if (g_file_test(name, G_FILE_TEST_IS_REGULAR) ||
        (strchr(name, '/') && g_file_test(name, G_FILE_TEST_EXISTS) && !g_file_test(name, G_FILE_TEST_IS_DIR)))
        return g_strdup(name);
    char *found = strchr(name, '/') ? NULL : config_search_file("configs", name, ".yaml");
    if (found)
        return found;
    g_autofree char *hint = strchr(name, '/') ? g_strdup("") : config_not_found_hint(name, "configs", ".yaml");
    g_autofree char *shown = echo_clip(name);
    g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_NOT_FOUND,
                "%s: no such config file%s (looked for it as a path and in the configs folders: "
                "$QSIM_CONFIG_PATH, then qsim's own; `qsim list configs` shows what is there)", shown, hint);
    return NULL;
}

/* ---- the YAML walk ---- */

typedef struct {
    const char *filename;
    yaml_document_t doc;
    QsimConfig *cfg;
    yaml_mark_t *marks;     /* per schema row, where the file set it */
    gboolean *seen;         /* per schema row: set by the file or a --set */
    gint *set_by;           /* per schema row: the index in `sets` of the last --set of it, or -1 */
    const char *const *sets;
    YamlDocSource *source;  /* what the file said that the document forgets (yaml_doc.h) */
    const yaml_mark_t *via; /* walking a section reached through an alias: that alias */
} Loader;

#define MARK_FMT "%s:%zu:%zu: "
#define MARK_ARGS(L, m) (L)->filename, (m).line + 1, (m).column + 1

static gboolean section_exists(const char *prefix)
{
    gsize n = strlen(prefix);
    for (guint i = 0; i < qsim_config_schema_len; i++)
        if (!strncmp(qsim_config_schema[i].path, prefix, n) && qsim_config_schema[i].path[n] == '.')
            return TRUE;
    return FALSE;
}

/* Keys that were renamed, so that an old config gets the new name rather than a guess. */
static const struct { const char *old, *now; } renamed_keys[] = {
    { "topology.c2c_cycles", "topology.snoop_response_cycles (and topology.snoop_data_cycles for dirty data)" },
};

static void unknown_key(Loader *L, const char *path, yaml_mark_t m, GError **error)
{
    for (guint i = 0; i < G_N_ELEMENTS(renamed_keys); i++)
        if (!strcmp(path, renamed_keys[i].old)) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                        MARK_FMT "'%s' was renamed %s", MARK_ARGS(L, m), path, renamed_keys[i].now);
            return;
        }
    const char *names[256];
    guint n = 0;
    for (guint i = 0; i < qsim_config_schema_len && n < 256; i++)
        names[n++] = qsim_config_schema[i].path;
    const char *hint = suggest_closest(path, names, n);
    g_autofree char *shown = echo_clip(path);
    if (hint)
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    MARK_FMT "unknown key '%s'; did you mean '%s'?", MARK_ARGS(L, m), shown, hint);
    else
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    MARK_FMT "unknown key '%s' (`qsim config --reference` lists every key)",
                    MARK_ARGS(L, m), shown);
}

/* What a YAML scalar may be for each type of key: its explicit tags (beside the default one,
 * which every untagged scalar has) and whether it may be quoted.  A quoted "false" is a string,
 * not a boolean; `rob: !!null 5` is a null, not a number (both were read as what the text
 * said).  Enum choices and strings are names: quoting them changes nothing. */
static const struct {
    CfgType type;
    const char *name;          /* what the key takes, in messages */
    const char *tags[3];       /* the explicit tags it takes ("!!int"), NULL-terminated */
    gboolean quoted;
} scalar_rules[] = {
    { CFG_INT, "an integer", { "!!int" }, FALSE },
    { CFG_SIZE, "a size", { "!!int" }, FALSE },
    { CFG_DOUBLE, "a number", { "!!float", "!!int" }, FALSE },
    { CFG_BOOL, "true or false", { "!!bool" }, FALSE },
    { CFG_ENUM, "one of its names", { "!!str" }, TRUE },
    { CFG_STRING, "a string", { "!!str" }, TRUE },
};

/* "!!null" for YAML's own tags, the tag as written otherwise. */
static char *short_tag(const char *tag)
{
    const char *yaml = "tag:yaml.org,2002:";
    g_autofree char *t = g_str_has_prefix(tag, yaml) ? g_strconcat("!!", tag + strlen(yaml), NULL) : g_strdup(tag);
    return echo_clip(t);
}

/* Whether scalar `vn` (its tag written in the file: `tagged`) is of the kind key `k` takes
 * (scalar_rules); a null (`~`, `null`, an empty value, `!!null`) is no value for any key.  On
 * failure, *why without position. */
static gboolean scalar_fits(const CfgKey *k, const yaml_node_t *vn, gboolean tagged, char **why)
{
    guint r = 0;
    while (scalar_rules[r].type != k->type)
        r++;
    const char *text = (const char *)vn->data.scalar.value, *tag = (const char *)vn->tag;
    gboolean plain = vn->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    gboolean null = plain && (!*text || !strcmp(text, "~") || !strcmp(text, "null") || !strcmp(text, "Null") ||
                              !strcmp(text, "NULL"));
    g_autofree char *shown = tag ? short_tag(tag) : NULL;
    if ((null && !tagged) || (shown && !strcmp(shown, "!!null"))) {
        *why = g_strdup_printf("no value (a YAML null); give %s%s", scalar_rules[r].name,
                               k->def ? ", or leave the key out" : "");
        return FALSE;
    }
    if (tag && (tagged || strcmp(tag, YAML_DEFAULT_SCALAR_TAG))) {
        gboolean ok = FALSE;
        for (guint i = 0; scalar_rules[r].tags[i] && !ok; i++)
            ok = !strcmp(shown, scalar_rules[r].tags[i]);
        if (!ok) {
            *why = g_strdup_printf("a value tagged %s, where %s is expected", shown, scalar_rules[r].name);
            return FALSE;
        }
    }
    if (!plain && !scalar_rules[r].quoted) {
        g_autofree char *v = echo_clip(text);
        *why = g_strdup_printf("a quoted string ('%s'), where %s is expected: write it without quotes", v,
                               scalar_rules[r].name);
        return FALSE;
    }
    return TRUE;
}

/* Where item `item` of `map` (`node`) is in the file: an alias's use, not the anchor its node
 * shares (issue 29 item 15); inside a section reached through an alias, that alias. */
static yaml_mark_t item_mark(const Loader *L, yaml_node_t *map, gsize item, const yaml_node_t *node)
{
    if (L->via)
        return *L->via;
    const yaml_mark_t *alias = yaml_doc_alias_at(L->source, (yaml_document_t *)&L->doc, map, item);
    return alias ? *alias : node->start_mark;
}

static gboolean walk_mapping(Loader *L, yaml_node_t *map, const char *prefix, GError **error)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
        yaml_node_t *vn = yaml_document_get_node(&L->doc, p->value);
        gsize pair = (gsize)(p - map->data.mapping.pairs.start);
        yaml_mark_t km = item_mark(L, map, 2 * pair, kn), vm = item_mark(L, map, 2 * pair + 1, vn);
        if (kn->type != YAML_SCALAR_NODE) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                        MARK_FMT "keys must be plain names", MARK_ARGS(L, km));
            return FALSE;
        }
        const char *key = (const char *)kn->data.scalar.value;
        g_autofree char *path = *prefix ? g_strconcat(prefix, ".", key, NULL) : g_strdup(key);
        const CfgKey *k = config_schema_find(path);
        if (k) {
            guint idx = (guint)(k - qsim_config_schema);
            if (L->seen[idx]) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID,
                            MARK_FMT "%s: key given twice (first at line %zu)", MARK_ARGS(L, km),
                            path, L->marks[idx].line + 1);
                return FALSE;
            }
            if (vn->type != YAML_SCALAR_NODE) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: expected a single value, got a %s", MARK_ARGS(L, vm),
                            path, vn->type == YAML_MAPPING_NODE ? "mapping" : "list");
                return FALSE;
            }
            const char *text = (const char *)vn->data.scalar.value;
            CfgValue v;
            g_autofree char *why = NULL;
            if (!scalar_fits(k, vn, yaml_doc_tag_written(L->source, &L->doc, vn), &why)) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE, MARK_FMT "%s: %s", MARK_ARGS(L, vm), path,
                            why);
                return FALSE;
            }
            if (!parse_value(k, text, &v, &why)) {
                gboolean range = strstr(why, "out of range") != NULL;
                g_set_error(error, QSIM_CONFIG_ERROR,
                            range ? QSIM_CONFIG_ERROR_RANGE : QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: %s", MARK_ARGS(L, vm), path, why);
                return FALSE;
            }
            store_value(L->cfg, k, text, &v);
            L->seen[idx] = TRUE;
            L->marks[idx] = vm;
        } else if (section_exists(path)) {
            if (vn->type != YAML_MAPPING_NODE) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: expected a mapping of keys (a section), got %s",
                            MARK_ARGS(L, vm), path,
                            vn->type == YAML_SCALAR_NODE ? "a single value" : "a list");
                return FALSE;
            }
            const yaml_mark_t *outer = L->via;
            const yaml_mark_t *alias = yaml_doc_alias_at(L->source, &L->doc, map, 2 * pair + 1);
            if (alias && !L->via)
                L->via = alias;
            gboolean ok = walk_mapping(L, vn, path, error);
            L->via = outer;
            if (!ok)
                return FALSE;
        } else {
            unknown_key(L, path, km, error);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean is_pow2(gint64 v) { return v > 0 && (v & (v - 1)) == 0; }

static guint key_index(const char *path)
{
    const CfgKey *k = config_schema_find(path);
    g_assert(k);
    return (guint)(k - qsim_config_schema);
}

/* "--set core.rob=0" as messages show it (a long value clipped). */
static char *set_label(const char *assignment)
{
    g_autofree char *shown = echo_clip(assignment);
    return g_strconcat("--set ", shown, NULL);
}

/* Where a cross-key problem among `keys` (NULL-terminated; keys[0] is the one the message
 * names) is reported: the last --set of any of them (the latest change is the likeliest cause,
 * and the file's line of another key would point at text that is not wrong), else the file
 * position of the first of them the file sets, else the file's start. */
static char *problem_place(const Loader *L, const char *const *keys)
{
    if (!L->filename)
        return NULL;   /* a config built in code: no place but the key */
    gint last = -1;
    for (guint i = 0; keys[i]; i++)
        last = MAX(last, L->set_by[key_index(keys[i])]);
    if (last >= 0)
        return set_label(L->sets[last]);
    for (guint i = 0; keys[i]; i++) {
        guint ix = key_index(keys[i]);
        if (L->seen[ix])
            return g_strdup_printf("%s:%zu:%zu", L->filename, L->marks[ix].line + 1, L->marks[ix].column + 1);
    }
    return g_strdup_printf("%s:1:1", L->filename);
}

/* A cross-key check: when `cond` fails, "PLACE: KEY: message" and FALSE from validate. */
#define CHECK(cond, keys, ...)                                                                         \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            static const char *const ks_[] = { STRIP_PARENS keys, NULL };                            \
            g_autofree char *place_ = problem_place(L, ks_);                                           \
            g_autofree char *msg_ = g_strdup_printf(__VA_ARGS__);                                      \
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID, "%s%s%s: %s",             \
                        place_ ? place_ : "", place_ ? ": " : "", ks_[0], msg_);                       \
            return FALSE;                                                                              \
        }                                                                                              \
    } while (0)
#define STRIP_PARENS(...) __VA_ARGS__

/* Cross-key checks, once every value is in: the one validation of a config, so that whatever
 * `qsim config` accepts, the model builds (memsys_new checks a config made in code with it). */
static gboolean cross_check(const Loader *L, GError **error)
{
    const QsimConfig *c = L->cfg;
    CHECK(is_pow2(c->line_size), ("line_size"), "must be a power of two, got %" G_GINT64_FORMAT, c->line_size);
    gint64 set_bytes = c->l1.ways * c->line_size;
    CHECK(c->l1.size % set_bytes == 0, ("l1.size", "l1.ways", "line_size"),
          "must be a multiple of ways x line_size (%" G_GINT64_FORMAT " bytes)", set_bytes);
    set_bytes = c->l2.ways * c->line_size;
    CHECK(!c->l2_enabled || c->l2.size % set_bytes == 0, ("l2.size", "l2.ways", "line_size", "l2.enabled"),
          "must be a multiple of ways x line_size (%" G_GINT64_FORMAT " bytes)", set_bytes);
    set_bytes = c->llc.ways * c->line_size;
    CHECK(c->llc.size % set_bytes == 0, ("llc.size", "llc.ways", "line_size"),
          "must be a multiple of ways x line_size (%" G_GINT64_FORMAT " bytes)", set_bytes);
    CHECK(!c->l2_enabled || c->l2.latency > c->l1.latency, ("l2.latency", "l1.latency", "l2.enabled"),
          "must exceed l1.latency");
    CHECK(c->llc.latency > (c->l2_enabled ? c->l2.latency : c->l1.latency),
          ("llc.latency", "l2.latency", "l1.latency", "l2.enabled"), "must exceed the private caches' latency");
    CHECK(c->topology.socket_links != SOCKETS_TWISTED_HYPERCUBE || c->topology.sockets == 8,
          ("topology.socket_links", "topology.sockets"), "twisted-hypercube needs topology.sockets: 8");
    CHECK(c->topology.socket_links != SOCKETS_MCM_PAIRS || c->topology.sockets % 2 == 0,
          ("topology.socket_links", "topology.sockets"), "mcm-pairs needs an even number of sockets");
    CHECK(c->llc_slices <= c->topology.cores_per_socket || c->topology.ondie == ONDIE_CROSSBAR,
          ("llc.slices", "topology.cores_per_socket", "topology.ondie"),
          "%" G_GINT64_FORMAT " slices exceed topology.cores_per_socket (%" G_GINT64_FORMAT "): a ring or mesh "
          "has a stop per core (only ondie: crossbar takes more)", c->llc_slices, c->topology.cores_per_socket);
    CHECK(c->smt.branch_predictor != SMT_PARTITIONED, ("smt.branch_predictor"),
          "partitioned: the predictor is a counter per pc, which has no parts to split (shared or replicated)");
    /* The bus runs the Primer's snooping tables (coherence/msi_bus.c, mesi_bus.c): one bus, no
     * home directory to keep an O or F copy's bookkeeping or to perform far atomics. */
    gboolean bus = c->topology.interconnect == INTERCONNECT_BUS;
    CHECK(!bus || c->topology.sockets == 1, ("topology.interconnect", "topology.sockets"),
          "bus joins the cores of one socket: it needs topology.sockets: 1");
    CHECK(!bus || c->protocol == PROTO_MSI || c->protocol == PROTO_MESI, ("protocol", "topology.interconnect"),
          "the bus runs msi or mesi (the snooping tables of the Primer's ch. 7); moesi and mesif need "
          "topology.interconnect: directory");
    CHECK(!bus || c->arch != ARCH_ARM64 || c->core.atomics != ATOMICS_LSE_FAR,
          ("core.atomics", "topology.interconnect", "arch"),
          "lse-far performs atomics at the line's home directory, which a bus does not have: use "
          "lse-near or llsc");
    CHECK(!bus || c->topology.snoop_acts == SNOOP_ACTS_ARRIVAL, ("topology.snoop_acts", "topology.interconnect"),
          "lookup defers a directory's forwards and invalidations in the caches they reach; the bus's "
          "snoops are atomic (coherence/bus.c): use arrival");
    return TRUE;
}
#undef CHECK
#undef STRIP_PARENS

static gboolean validate(Loader *L, GError **error)
{
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        if (!k->def && !L->seen[i]) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_MISSING,
                        "%s:1:1: missing required key '%s' (%s)", L->filename, k->path, k->doc);
            return FALSE;
        }
    }
    return cross_check(L, error);
}

gboolean config_validate(const QsimConfig *c, GError **error)
{
    Loader L = { .cfg = (QsimConfig *)c };
    return cross_check(&L, error);
}

QsimConfig *config_load_string(const char *text, const char *filename, const char *const *sets,
                               GError **error)
{
    g_autoptr(QsimConfig) cfg = config_new_defaults();
    Loader L = { .filename = filename, .cfg = cfg, .sets = sets };
    L.marks = g_new0(yaml_mark_t, qsim_config_schema_len);
    L.seen = g_new0(gboolean, qsim_config_schema_len);
    L.set_by = g_new(gint, qsim_config_schema_len);
    for (guint i = 0; i < qsim_config_schema_len; i++)
        L.set_by[i] = -1;
    gboolean ok = FALSE;

    if (!yaml_doc_load_with_source(text, strlen(text), filename, "config", &L.doc, &L.source, QSIM_CONFIG_ERROR,
                                    QSIM_CONFIG_ERROR_SYNTAX, error))
        goto out;
    yaml_node_t *root = yaml_document_get_root_node(&L.doc);
    if (root && !(root->type == YAML_SCALAR_NODE && !*root->data.scalar.value)) {
        if (root->type != YAML_MAPPING_NODE) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                        MARK_FMT "a config is a mapping of keys, got %s", MARK_ARGS(&L, root->start_mark),
                        root->type == YAML_SCALAR_NODE ? "a single value" : "a list");
            goto done;
        }
        if (!walk_mapping(&L, root, "", error))
            goto done;
    }
    for (guint i = 0; sets && sets[i]; i++) {
        if (!config_set(cfg, sets[i], error))
            goto done;
        const char *eq = strchr(sets[i], '=');
        g_autofree char *key = g_strstrip(g_strndup(sets[i], eq - sets[i]));
        guint ix = key_index(key);
        L.seen[ix] = TRUE;
        L.set_by[ix] = (gint)i;
    }
    ok = validate(&L, error);
done:
    yaml_document_delete(&L.doc);
    yaml_doc_source_free(L.source);
out:
    g_free(L.marks);
    g_free(L.seen);
    g_free(L.set_by);
    return ok ? g_steal_pointer(&cfg) : NULL;
}

QsimConfig *config_load(const char *name, const char *const *sets, GError **error)
{
    g_autofree char *path = config_resolve_path(name, error);
    if (!path)
        return NULL;
    g_autofree char *text = NULL;
    GError *local = NULL;
    if (!input_file_read(path, INPUT_CONFIG, &text, NULL, &local)) {
        /* A file that is there but is no config (a device, too big, binary) is invalid; one
         * that cannot be opened is not found. */
        gboolean there = local->code == G_FILE_ERROR_INVAL || local->code == G_FILE_ERROR_FAILED;
        g_set_error_literal(error, QSIM_CONFIG_ERROR, there ? QSIM_CONFIG_ERROR_INVALID : QSIM_CONFIG_ERROR_NOT_FOUND,
                            local->message);
        g_error_free(local);
        return NULL;
    }
    return config_load_string(text, path, sets, error);
}

gboolean config_set(QsimConfig *c, const char *assignment, GError **error)
{
    g_autofree char *label = set_label(assignment);
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_SYNTAX, "%s: expected key.path=value", label);
        return FALSE;
    }
    g_autofree char *key = g_strstrip(g_strndup(assignment, eq - assignment));
    g_autofree char *value = g_strstrip(g_strdup(eq + 1));
    const CfgKey *k = config_schema_find(key);
    if (!k) {
        const char *names[256];
        guint n = 0;
        for (guint i = 0; i < qsim_config_schema_len && n < 256; i++)
            names[n++] = qsim_config_schema[i].path;
        const char *hint = suggest_closest(key, names, n);
        g_autofree char *key_shown = echo_clip(key);
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    "%s: unknown key '%s'%s%s%s", label, key_shown, hint ? "; did you mean '" : "",
                    hint ? hint : "", hint ? "'?" : "");
        return FALSE;
    }
    /* Quoted values as in YAML. */
    gsize vl = strlen(value);
    if (vl >= 2 && (value[0] == '"' || value[0] == '\'') && value[vl - 1] == value[0]) {
        memmove(value, value + 1, vl - 2);
        value[vl - 2] = 0;
    }
    CfgValue v;
    g_autofree char *why = NULL;
    if (!parse_value(k, value, &v, &why)) {
        g_set_error(error, QSIM_CONFIG_ERROR,
                    strstr(why, "out of range") ? QSIM_CONFIG_ERROR_RANGE : QSIM_CONFIG_ERROR_TYPE,
                    "%s: %s: %s", label, key, why);
        return FALSE;
    }
    store_value(c, k, value, &v);
    return TRUE;
}
