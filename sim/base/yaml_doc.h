/* Loading one YAML document (a config, a sweep file) with the limits libyaml does not have:
 *   - nesting at most YAML_DOC_MAX_DEPTH deep (libyaml's scanner is quadratic in the depth of
 *     flow collections: 100k `[` took it seconds, a megabyte over a minute);
 *   - one document: a `---` and a second one after it is an error, not ignored;
 *   - no NUL character in a value (a "\0" escape would cut a name short).
 * The limits are checked on a first pass over the parser's events, which stops at the first
 * problem before the deep part is scanned; the document is then loaded as usual.  Errors are
 * "file:line:col: message" in the caller's domain and code.
 *
 * The loaded document forgets two things the text said, which the first pass keeps
 * (YamlDocSource): it shares the anchored node wherever an alias (`*name`) uses it, so its
 * marks are the anchor's (an error about a value should point at the use); and it gives an
 * untagged scalar the tag `!!str` spells, so `!!str 5` and `5` look alike. */
#ifndef QSIM_YAML_DOC_H
#define QSIM_YAML_DOC_H

#include <glib.h>
#include <yaml.h>

#define YAML_DOC_MAX_DEPTH 32

/* Loads `text` (`len` bytes) into *doc, which the caller deletes (yaml_document_delete) only
 * on success.  An empty text is a document without a root node.  `what` names the kind of file
 * in messages ("config", "sweep file"). */
gboolean yaml_doc_load(const char *text, gsize len, const char *filename, const char *what, yaml_document_t *doc,
                       GQuark domain, gint code, GError **error);

/* Where the aliases stood, by item `item` of collection node `parent` (a mapping's items are
 * its keys and values in turn: pair i's key is item 2i, its value 2i + 1), and which scalars
 * had a tag written. */
typedef struct YamlDocSource YamlDocSource;
/* As yaml_doc_load, and *source (the caller frees it with yaml_doc_source_free) on success. */
gboolean yaml_doc_load_with_source(const char *text, gsize len, const char *filename, const char *what,
                                    yaml_document_t *doc, YamlDocSource **source, GQuark domain, gint code,
                                    GError **error);
void yaml_doc_source_free(YamlDocSource *a);
/* The position of the alias that stood at item `item` of `parent`, or NULL when the item was
 * written there (its node's own marks are then its place). */
const yaml_mark_t *yaml_doc_alias_at(const YamlDocSource *a, yaml_document_t *doc, const yaml_node_t *parent,
                                     gsize item);
/* Whether scalar `node` had a tag written (`!!str 5`, `! 5`), not one the loader gave it. */
gboolean yaml_doc_tag_written(const YamlDocSource *a, yaml_document_t *doc, const yaml_node_t *node);

#endif
