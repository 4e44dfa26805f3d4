/* Loading, overriding, validating and printing machine configs (libyaml), driven entirely by
 * the schema table.  Every error a user can cause names file:line:col and the key path. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "sim/base/config.h"
#include "sim/base/suggest.h"

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

static gboolean parse_int_text(const char *s, gint64 *out)
{
    char *end = NULL;
    errno = 0;
    gint64 v = g_ascii_strtoll(s, &end, 0);
    if (errno || end == s || *end)
        return FALSE;
    *out = v;
    return TRUE;
}

static gboolean parse_size_text(const char *s, gint64 *out)
{
    static const struct { const char *suffix; double mult; } units[] = {
        { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
        { "KB", 1000.0 }, { "MB", 1e6 }, { "GB", 1e9 }, { "K", 1024.0 }, { "M", 1048576.0 },
        { "G", 1073741824.0 }, { "B", 1.0 }, { "", 1.0 },
    };
    char *end = NULL;
    errno = 0;
    double v = g_ascii_strtod(s, &end);
    if (errno || end == s || v < 0)
        return FALSE;
    while (*end == ' ')
        end++;
    for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
        if (!strcmp(end, units[i].suffix)) {
            double bytes = v * units[i].mult;
            if (bytes != floor(bytes) || bytes > 9e18)
                return FALSE;
            *out = (gint64)bytes;
            return TRUE;
        }
    }
    return FALSE;
}

/* Parses `text` for key k.  On failure sets *why to a message (without position). */
static gboolean parse_value(const CfgKey *k, const char *text, CfgValue *v, char **why)
{
    switch (k->type) {
    case CFG_INT:
        if (!parse_int_text(text, &v->i)) {
            *why = g_strdup_printf("expected an integer, got '%s'", text);
            return FALSE;
        }
        if (v->i < k->min || v->i > k->max) {
            *why = g_strdup_printf("value %s is out of range [%.0f, %.0f]", text, k->min, k->max);
            return FALSE;
        }
        return TRUE;
    case CFG_SIZE:
        if (!parse_size_text(text, &v->i)) {
            *why = g_strdup_printf("expected a size such as 32KiB or 2.5MiB (whole bytes), got '%s'", text);
            return FALSE;
        }
        if (v->i < k->min || v->i > k->max) {
            *why = g_strdup_printf("size %s is out of range [%.0f, %.0f] bytes", text, k->min, k->max);
            return FALSE;
        }
        return TRUE;
    case CFG_DOUBLE: {
        char *end = NULL;
        errno = 0;
        v->d = g_ascii_strtod(text, &end);
        if (errno || end == text || *end || !isfinite(v->d)) {
            *why = g_strdup_printf("expected a number, got '%s'", text);
            return FALSE;
        }
        if (v->d < k->min || v->d > k->max) {
            *why = g_strdup_printf("value %s is out of range [%g, %g]", text, k->min, k->max);
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
        *why = g_strdup_printf("expected true or false, got '%s'", text);
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
            *why = g_strdup_printf("unknown value '%s'; did you mean '%s'? (one of: %s)", text, hint, list);
        else
            *why = g_strdup_printf("unknown value '%s' (one of: %s)", text, list);
        return FALSE;
    }
    case CFG_STRING:
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
    if (g_file_test(name, G_FILE_TEST_IS_REGULAR))
        return g_strdup(name);
    char *found = strchr(name, '/') ? NULL : config_search_file("configs", name, ".yaml");
    if (found)
        return found;
    g_autofree char *hint = strchr(name, '/') ? g_strdup("") : config_not_found_hint(name, "configs", ".yaml");
    g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_NOT_FOUND,
                "%s: no such config file%s (looked for it as a path and in the configs folders: "
                "$QSIM_CONFIG_PATH, then qsim's own; `qsim list configs` shows what is there)", name, hint);
    return NULL;
}

/* ---- the YAML walk ---- */

typedef struct {
    const char *filename;
    yaml_document_t doc;
    QsimConfig *cfg;
    yaml_mark_t *marks;     /* per schema row, where it was set */
    gboolean *seen;
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
    if (hint)
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    MARK_FMT "unknown key '%s'; did you mean '%s'?", MARK_ARGS(L, m), path, hint);
    else
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    MARK_FMT "unknown key '%s' (`qsim config --reference` lists every key)",
                    MARK_ARGS(L, m), path);
}

static gboolean walk_mapping(Loader *L, yaml_node_t *map, const char *prefix, GError **error)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = yaml_document_get_node(&L->doc, p->key);
        yaml_node_t *vn = yaml_document_get_node(&L->doc, p->value);
        if (kn->type != YAML_SCALAR_NODE) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                        MARK_FMT "keys must be plain names", MARK_ARGS(L, kn->start_mark));
            return FALSE;
        }
        const char *key = (const char *)kn->data.scalar.value;
        g_autofree char *path = *prefix ? g_strconcat(prefix, ".", key, NULL) : g_strdup(key);
        const CfgKey *k = config_schema_find(path);
        if (k) {
            guint idx = (guint)(k - qsim_config_schema);
            if (L->seen[idx]) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID,
                            MARK_FMT "%s: key given twice (first at line %zu)", MARK_ARGS(L, kn->start_mark),
                            path, L->marks[idx].line + 1);
                return FALSE;
            }
            if (vn->type != YAML_SCALAR_NODE) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: expected a single value, got a %s", MARK_ARGS(L, vn->start_mark),
                            path, vn->type == YAML_MAPPING_NODE ? "mapping" : "list");
                return FALSE;
            }
            const char *text = (const char *)vn->data.scalar.value;
            CfgValue v;
            g_autofree char *why = NULL;
            if (!parse_value(k, text, &v, &why)) {
                gboolean range = strstr(why, "out of range") != NULL;
                g_set_error(error, QSIM_CONFIG_ERROR,
                            range ? QSIM_CONFIG_ERROR_RANGE : QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: %s", MARK_ARGS(L, vn->start_mark), path, why);
                return FALSE;
            }
            store_value(L->cfg, k, text, &v);
            L->seen[idx] = TRUE;
            L->marks[idx] = vn->start_mark;
        } else if (section_exists(path)) {
            if (vn->type != YAML_MAPPING_NODE) {
                g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_TYPE,
                            MARK_FMT "%s: expected a mapping of keys (a section), got %s",
                            MARK_ARGS(L, vn->start_mark), path,
                            vn->type == YAML_SCALAR_NODE ? "a single value" : "a list");
                return FALSE;
            }
            if (!walk_mapping(L, vn, path, error))
                return FALSE;
        } else {
            unknown_key(L, path, kn->start_mark, error);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean is_pow2(gint64 v) { return v > 0 && (v & (v - 1)) == 0; }

/* Cross-key checks, once every value is in.  `where` gives a key's position, if it was set. */
static gboolean validate(Loader *L, GError **error)
{
    QsimConfig *c = L->cfg;
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        if (!k->def && !L->seen[i]) {
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_MISSING,
                        "%s:1:1: missing required key '%s' (%s)", L->filename, k->path, k->doc);
            return FALSE;
        }
    }
#define CHECK(cond, key, ...)                                                                  \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            const CfgKey *ck_ = config_schema_find(key);                                        \
            guint ix_ = (guint)(ck_ - qsim_config_schema);                                      \
            yaml_mark_t m_ = L->seen[ix_] ? L->marks[ix_] : (yaml_mark_t){ 0, 0, 0 };           \
            g_autofree char *msg_ = g_strdup_printf(__VA_ARGS__);                               \
            g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_INVALID, MARK_FMT "%s: %s", \
                        MARK_ARGS(L, m_), key, msg_);                                           \
            return FALSE;                                                                       \
        }                                                                                       \
    } while (0)
    CHECK(is_pow2(c->line_size), "line_size", "must be a power of two, got %" G_GINT64_FORMAT, c->line_size);
    const struct { const char *size, *ways; const CacheConfig *cc; gboolean on; } caches[] = {
        { "l1.size", "l1.ways", &c->l1, TRUE },
        { "l2.size", "l2.ways", &c->l2, c->l2_enabled },
        { "llc.size", "llc.ways", &c->llc, TRUE },
    };
    for (guint i = 0; i < G_N_ELEMENTS(caches); i++) {
        if (!caches[i].on)
            continue;
        gint64 set_bytes = caches[i].cc->ways * c->line_size;
        CHECK(caches[i].cc->size % set_bytes == 0, caches[i].size,
              "must be a multiple of ways x line_size (%" G_GINT64_FORMAT " bytes)", set_bytes);
    }
    CHECK(!c->l2_enabled || c->l2.latency > c->l1.latency, "l2.latency", "must exceed l1.latency");
    CHECK(c->llc.latency > (c->l2_enabled ? c->l2.latency : c->l1.latency), "llc.latency",
          "must exceed the private caches' latency");
    CHECK(c->topology.socket_links != SOCKETS_TWISTED_HYPERCUBE || c->topology.sockets == 8,
          "topology.socket_links", "twisted-hypercube needs topology.sockets: 8");
    CHECK(c->topology.socket_links != SOCKETS_MCM_PAIRS || c->topology.sockets % 2 == 0,
          "topology.socket_links", "mcm-pairs needs an even number of sockets");
    /* The bus runs the Primer's snooping tables (coherence/msi_bus.c, mesi_bus.c): one bus, no
     * home directory to keep an O or F copy's bookkeeping or to perform far atomics. */
    gboolean bus = c->topology.interconnect == INTERCONNECT_BUS;
    CHECK(!bus || c->topology.sockets == 1, "topology.interconnect",
          "bus joins the cores of one socket: it needs topology.sockets: 1");
    CHECK(!bus || c->protocol == PROTO_MSI || c->protocol == PROTO_MESI, "protocol",
          "the bus runs msi or mesi (the snooping tables of the Primer's ch. 7); moesi and mesif need "
          "topology.interconnect: directory");
    CHECK(!bus || c->arch != ARCH_ARM64 || c->core.atomics != ATOMICS_LSE_FAR, "core.atomics",
          "lse-far performs atomics at the line's home directory, which a bus does not have: use "
          "lse-near or llsc");
#undef CHECK
    return TRUE;
}

QsimConfig *config_load_string(const char *text, const char *filename, const char *const *sets,
                               GError **error)
{
    g_autoptr(QsimConfig) cfg = config_new_defaults();
    Loader L = { .filename = filename, .cfg = cfg };
    L.marks = g_new0(yaml_mark_t, qsim_config_schema_len);
    L.seen = g_new0(gboolean, qsim_config_schema_len);
    gboolean ok = FALSE;

    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &L.doc)) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_SYNTAX,
                    "%s:%zu:%zu: YAML syntax error: %s%s%s", filename, parser.problem_mark.line + 1,
                    parser.problem_mark.column + 1, parser.problem ? parser.problem : "unreadable",
                    parser.context ? " " : "", parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        goto out;
    }
    yaml_parser_delete(&parser);
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
        const CfgKey *k = config_schema_find(key);
        L.seen[k - qsim_config_schema] = TRUE;
    }
    ok = validate(&L, error);
done:
    yaml_document_delete(&L.doc);
out:
    g_free(L.marks);
    g_free(L.seen);
    return ok ? g_steal_pointer(&cfg) : NULL;
}

QsimConfig *config_load(const char *name, const char *const *sets, GError **error)
{
    g_autofree char *path = config_resolve_path(name, error);
    if (!path)
        return NULL;
    g_autofree char *text = NULL;
    GError *local = NULL;
    if (!g_file_get_contents(path, &text, NULL, &local)) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_NOT_FOUND, "%s: %s", path, local->message);
        g_error_free(local);
        return NULL;
    }
    return config_load_string(text, path, sets, error);
}

gboolean config_set(QsimConfig *c, const char *assignment, GError **error)
{
    const char *eq = strchr(assignment, '=');
    if (!eq) {
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_SYNTAX,
                    "--set %s: expected key.path=value", assignment);
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
        g_set_error(error, QSIM_CONFIG_ERROR, QSIM_CONFIG_ERROR_UNKNOWN_KEY,
                    "--set %s: unknown key '%s'%s%s%s", assignment, key, hint ? "; did you mean '" : "",
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
                    "--set %s: %s: %s", assignment, key, why);
        return FALSE;
    }
    store_value(c, k, value, &v);
    return TRUE;
}

/* ---- printing ---- */

static char *format_size(gint64 v)
{
    static const struct { const char *unit; gint64 mult; } units[] = {
        { "GiB", 1073741824LL }, { "MiB", 1048576LL }, { "KiB", 1024LL },
    };
    for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
        if (v >= units[i].mult && (v * 4) % units[i].mult == 0) {
            char buf[G_ASCII_DTOSTR_BUF_SIZE];
            g_ascii_formatd(buf, sizeof buf, "%.10g", (double)v / (double)units[i].mult);
            return g_strconcat(buf, units[i].unit, NULL);
        }
    }
    return g_strdup_printf("%" G_GINT64_FORMAT, v);
}

/* The fewest significant digits that read back as the same double (2.3, not 2.2999999999999998). */
static char *format_double(double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    for (int digits = 1; digits < 17; digits++) {
        char fmt[8];
        g_snprintf(fmt, sizeof fmt, "%%.%dg", digits);
        g_ascii_formatd(buf, sizeof buf, fmt, v);
        if (g_ascii_strtod(buf, NULL) == v)
            return g_strdup(buf);
    }
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.17g", v));
}

static char *format_value(const QsimConfig *c, const CfgKey *k)
{
    const void *f = cfield(c, k);
    switch (k->type) {
    case CFG_INT:
        return g_strdup_printf("%" G_GINT64_FORMAT, *(const gint64 *)f);
    case CFG_SIZE:
        return format_size(*(const gint64 *)f);
    case CFG_DOUBLE:
        return format_double(*(const double *)f);
    case CFG_BOOL:
        return g_strdup(*(const gboolean *)f ? "true" : "false");
    case CFG_ENUM:
        return g_strdup(k->choices[*(const int *)f]);
    case CFG_STRING: {
        const char *s = *(char *const *)f;
        GString *out = g_string_new("\"");
        for (const char *p = s ? s : ""; *p; p++) {
            if (*p == '"' || *p == '\\')
                g_string_append_c(out, '\\');
            if (*p == '\n')
                g_string_append(out, "\\n");
            else
                g_string_append_c(out, *p);
        }
        g_string_append_c(out, '"');
        return g_string_free(out, FALSE);
    }
    }
    g_assert_not_reached();
}

char *config_key_archs_text(const CfgKey *k, const char *only)
{
    if (!k->archs)
        return g_strdup("every arch");
    GString *s = g_string_new(NULL);
    for (guint a = 0; a < ARCH__N; a++)
        if (k->archs & CFG_ARCH(a))
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", arch_name((Arch)a));
    g_string_append_printf(s, " %s", only);
    return g_string_free(s, FALSE);
}

char *config_to_yaml(const QsimConfig *c)
{
    GString *out = g_string_new("# qsim effective config: every key, defaults filled in.\n");
    char section[64] = "";
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        const char *dot = strchr(k->path, '.');
        const char *leaf = k->path;
        const char *indent = "";
        if (dot) {
            gsize n = MIN((gsize)(dot - k->path), sizeof section - 1);
            if (strncmp(section, k->path, n) || section[n]) {
                memcpy(section, k->path, n);
                section[n] = 0;
                g_string_append_printf(out, "%s:\n", section);
            }
            leaf = dot + 1;
            indent = "  ";
        } else {
            section[0] = 0;
        }
        g_autofree char *v = format_value(c, k);
        if (config_key_applies(k, c->arch)) {
            g_string_append_printf(out, "%s%s: %s\n", indent, leaf, v);
        } else {
            g_autofree char *why = config_key_archs_text(k, "only: ignored on this arch");
            g_string_append_printf(out, "%s# %s: %s    (%s)\n", indent, leaf, v, why);
        }
    }
    return g_string_free(out, FALSE);
}

const char *config_key_type_name(const CfgKey *k)
{
    switch (k->type) {
    case CFG_INT: return "integer";
    case CFG_SIZE: return "size";
    case CFG_DOUBLE: return "number";
    case CFG_BOOL: return "boolean";
    case CFG_ENUM: return "choice";
    case CFG_STRING: return "string";
    }
    return "?";
}

char *config_key_range(const CfgKey *k)
{
    if (k->type == CFG_ENUM)
        return g_strjoinv(", ", (char **)k->choices);
    if (k->type == CFG_INT || k->type == CFG_SIZE)
        return g_strdup_printf("%.0f to %.0f%s%s", k->min, k->max, k->unit ? " " : "", k->unit ? k->unit : "");
    if (k->type == CFG_DOUBLE)
        return g_strdup_printf("%g to %g%s%s", k->min, k->max, k->unit ? " " : "", k->unit ? k->unit : "");
    return g_strdup("");
}

char *config_reference_markdown(void)
{
    GString *out = g_string_new(
        "# Config reference\n\n"
        "Generated by `qsim config --reference` from the schema table in `sim/base/config_schema.c`;\n"
        "a test keeps this file and the table in step. Sizes take units (`32KiB`, `2.5MiB`,\n"
        "`30MB`); latencies are core cycles. Any key can be overridden on the command line with\n"
        "`--set key.path=value`. A key that applies to one arch only is ignored on the other's\n"
        "machines, and `qsim config` prints it there as a comment.\n\n"
        "| key | type | default | range or values | applies to | meaning |\n"
        "| --- | --- | --- | --- | --- | --- |\n");
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        g_autofree char *range = config_key_range(k);
        g_autofree char *archs = config_key_archs_text(k, "only");
        g_string_append_printf(out, "| `%s` | %s | %s | %s | %s | %s |\n", k->path, config_key_type_name(k),
                               k->def ? k->def : "(required)", range, archs, k->doc);
    }
    return g_string_free(out, FALSE);
}
