/* YAML with limits (see yaml_doc.h). */
#include <string.h>
#include "sim/base/yaml_doc.h"

static void syntax_error(const yaml_parser_t *p, const char *filename, GQuark domain, gint code, GError **error)
{
    /* An unclosed `[` or `{` is found where the text no longer fits it, often lines later:
     * the context's mark says where the construct started. */
    g_autofree char *started = p->context && (p->context_mark.line != p->problem_mark.line ||
                                              p->context_mark.column != p->problem_mark.column)
                                   ? g_strdup_printf(" started at %zu:%zu", p->context_mark.line + 1,
                                                     p->context_mark.column + 1)
                                   : g_strdup("");
    g_set_error(error, domain, code, "%s:%zu:%zu: YAML syntax error: %s%s%s%s", filename, p->problem_mark.line + 1,
                p->problem_mark.column + 1, p->problem ? p->problem : "unreadable", p->context ? " " : "",
                p->context ? p->context : "", started);
}

/* Where the aliases stood, by (parent node id, item index); the scalars with a tag written. */
struct YamlDocSource {
    GHashTable *marks;          /* guint64 key (id << 32 | item) -> yaml_mark_t* */
    GHashTable *tagged;         /* node ids (GUINT_TO_POINTER), as a set */
};

static guint64 item_key(guint64 parent_id, guint64 item) { return parent_id << 32 | item; }

/* The loader's node ids are in the order of the events that make nodes (a scalar, the start
 * of a collection), from 1; an alias makes none.  `open[k]` is the collection open at depth k:
 * its id and how many items it has had. */
typedef struct {
    guint64 next_id;
    struct { guint64 id, items; } open[YAML_DOC_MAX_DEPTH + 1];
    guint depth;
    GHashTable *marks;
    GHashTable *tagged;
} AliasWalk;

/* One event that takes an item's place (scalar, collection start, alias). */
static void item_seen(AliasWalk *w, const yaml_event_t *ev)
{
    if (w->depth) {
        guint64 item = w->open[w->depth - 1].items++;
        if (ev->type == YAML_ALIAS_EVENT && w->marks && item < G_MAXUINT32) {
            guint64 *key = g_new(guint64, 1);
            *key = item_key(w->open[w->depth - 1].id, item);
            g_hash_table_insert(w->marks, key, g_memdup2(&ev->start_mark, sizeof ev->start_mark));
        }
    }
    if (ev->type != YAML_ALIAS_EVENT)
        w->next_id++;
    if (ev->type == YAML_SCALAR_EVENT && ev->data.scalar.tag && w->tagged && w->next_id < G_MAXUINT)
        g_hash_table_add(w->tagged, GUINT_TO_POINTER((guint)w->next_id));
    if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
        w->open[w->depth].id = w->next_id;
        w->open[w->depth].items = 0;
        w->depth++;
    }
}

/* The first pass: the events, with depth, documents and values checked, and the aliases'
 * places kept in `marks` (may be NULL). */
static gboolean check_events(const char *text, gsize len, const char *filename, const char *what, GQuark domain,
                             gint code, YamlDocSource *src, GError **error)
{
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    guint depth = 0, docs = 0;
    gboolean ok = TRUE, done = FALSE;
    AliasWalk w = { .marks = src ? src->marks : NULL, .tagged = src ? src->tagged : NULL };
    while (ok && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            syntax_error(&p, filename, domain, code, error);
            ok = FALSE;
            break;
        }
        yaml_mark_t m = ev.start_mark;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1) {
                g_set_error(error, domain, code,
                            "%s:%zu:%zu: a second YAML document (a %s is one document: remove the `---` line "
                            "and what follows)", filename, m.line + 1, m.column + 1, what);
                ok = FALSE;
            }
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > YAML_DOC_MAX_DEPTH) {
                g_set_error(error, domain, code, "%s:%zu:%zu: nested deeper than %d levels", filename, m.line + 1,
                            m.column + 1, YAML_DOC_MAX_DEPTH);
                ok = FALSE;
            } else {
                item_seen(&w, &ev);
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            w.depth--;
            break;
        case YAML_SCALAR_EVENT:
            if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length)) {
                g_set_error(error, domain, code, "%s:%zu:%zu: a NUL character in a value", filename, m.line + 1,
                            m.column + 1);
                ok = FALSE;
            }
            item_seen(&w, &ev);
            break;
        case YAML_ALIAS_EVENT:
            item_seen(&w, &ev);
            break;
        case YAML_STREAM_END_EVENT:
            done = TRUE;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return ok;
}

static gboolean load(const char *text, gsize len, const char *filename, const char *what, yaml_document_t *doc,
                     YamlDocSource *src, GQuark domain, gint code, GError **error)
{
    if (!check_events(text, len, filename, what, domain, code, src, error))
        return FALSE;
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    gboolean ok = yaml_parser_load(&p, doc);
    if (!ok)
        syntax_error(&p, filename, domain, code, error);
    yaml_parser_delete(&p);
    return ok;
}

gboolean yaml_doc_load(const char *text, gsize len, const char *filename, const char *what, yaml_document_t *doc,
                       GQuark domain, gint code, GError **error)
{
    return load(text, len, filename, what, doc, NULL, domain, code, error);
}

gboolean yaml_doc_load_with_source(const char *text, gsize len, const char *filename, const char *what,
                                    yaml_document_t *doc, YamlDocSource **source, GQuark domain, gint code,
                                    GError **error)
{
    YamlDocSource *src = g_new(YamlDocSource, 1);
    src->marks = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    src->tagged = g_hash_table_new(g_direct_hash, g_direct_equal);
    if (!load(text, len, filename, what, doc, src, domain, code, error)) {
        yaml_doc_source_free(src);
        return FALSE;
    }
    *source = src;
    return TRUE;
}

void yaml_doc_source_free(YamlDocSource *a)
{
    if (!a)
        return;
    g_hash_table_destroy(a->marks);
    g_hash_table_destroy(a->tagged);
    g_free(a);
}

gboolean yaml_doc_tag_written(const YamlDocSource *a, yaml_document_t *doc, const yaml_node_t *node)
{
    return a && g_hash_table_contains(a->tagged, GUINT_TO_POINTER((guint)(node - doc->nodes.start) + 1));
}

const yaml_mark_t *yaml_doc_alias_at(const YamlDocSource *a, yaml_document_t *doc, const yaml_node_t *parent,
                                     gsize item)
{
    if (!a || !parent)
        return NULL;
    guint64 key = item_key((guint64)(parent - doc->nodes.start) + 1, item);
    return g_hash_table_lookup(a->marks, &key);
}
