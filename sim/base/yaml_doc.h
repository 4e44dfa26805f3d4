/* Loading one YAML document (a config, a sweep file) with the limits libyaml does not have:
 *   - nesting at most YAML_DOC_MAX_DEPTH deep (libyaml's scanner is quadratic in the depth of
 *     flow collections: 100k `[` took it seconds, a megabyte over a minute);
 *   - one document: a `---` and a second one after it is an error, not ignored;
 *   - no NUL character in a value (a "\0" escape would cut a name short).
 * The limits are checked on a first pass over the parser's events, which stops at the first
 * problem before the deep part is scanned; the document is then loaded as usual.  Errors are
 * "file:line:col: message" in the caller's domain and code. */
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

#endif
