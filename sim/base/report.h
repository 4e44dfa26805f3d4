/* Report writers.  A run's results are one JSON tree (json-glib), built once; the writers turn
 * it into JSON, CSV (one header line, one row: nested keys flattened with dots) or text for
 * people.  Writers never know the fields, so adding a counter to a report is one line. */
#ifndef QSIM_REPORT_H
#define QSIM_REPORT_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef enum { REPORT_TEXT, REPORT_JSON, REPORT_CSV } ReportFormat;

gboolean report_format_parse(const char *s, ReportFormat *out, GError **error);
/* The report in `fmt`, ending in a newline. */
char *report_format(JsonNode *root, ReportFormat fmt);
char *report_to_json(JsonNode *root);
/* Header and row, keys flattened ("latency.p50", "per_thread.0.core"). */
char *report_to_csv(JsonNode *root, gboolean with_header);
char *report_to_text(JsonNode *root);
/* Appends one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a
 * quote or a line break. */
void report_csv_field(GString *s, const char *v);
/* Two reports a and b (`qsim run --vs`, `--native`), labelled, in each format:
 *   text  a table of the keys both hold: "a: LABEL", "b: LABEL" and b/a where the numbers differ;
 *   json  a "pair" document {schema_version, kind, labels: {a, b}, a: report, b: report,
 *         b_over_a: the tree of b/a over every number both hold at the same place (null where
 *         a is 0)};
 *   csv   the same document flattened: one header, one row (a.cycles, b.cycles, b_over_a.cycles). */
char *report_compare_format(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b, ReportFormat fmt);
char *report_compare_text(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b);
JsonNode *report_compare_tree(JsonNode *a, JsonNode *b, const char *label_a, const char *label_b);
/* Walks trees a and b together, over the places both hold (object members by name, array
 * elements up to the shorter length), and calls `leaf` at each place where a holds a value,
 * with its path ("latency.mean", "per_thread.0.acquisitions"); the tree of what it returned,
 * in a's layout: an object without members and an array without elements are left out (NULL
 * when nothing is left), an element in an array that has others is null. */
typedef JsonNode *(*ReportLeafFn)(JsonNode *a, JsonNode *b, const char *path, gpointer data);
JsonNode *report_tree_zip(JsonNode *a, JsonNode *b, ReportLeafFn leaf, gpointer data);
/* A pair document's body {labels: {a, b}, a, b, b_over_a} (a, b and b_over_a taken; a NULL
 * b_over_a is an empty object): keyed by role, so a lock against itself keeps both sides. */
JsonNode *report_pair_tree(const char *label_a, const char *label_b, JsonNode *a, JsonNode *b, JsonNode *b_over_a);

/* Every JSON or CSV document qsim writes for results starts with its schema's version and its
 * kind, so that a reader can check it against docs/report.schema.json:
 *   report         one run (`qsim run`, `qsim native`)
 *   summary        runs over seeds (`--repeat N`): the report's layout, each number summarised
 *   pair           two side by side, by role a and b (`--vs`, `--native`, `--repeat --vs`)
 *   validate-host  the model against the host (`qsim validate --host`)
 *   compare        the verdict table (`qsim compare`)
 * Bump the version when a key changes meaning or goes; adding a key keeps it. */
#define REPORT_SCHEMA_VERSION 1
/* A new tree: {schema_version, kind, then body's members} (body is borrowed). */
JsonNode *report_document(JsonNode *body, const char *kind);
/* The document in `fmt`: JSON, or CSV as one header and one row (every key flattened, so the
 * identity columns are in every mode's row); text is body's own, without the stamp. */
char *report_document_format(JsonNode *body, const char *kind, ReportFormat fmt);

/* Building a report: one member each (json-glib's builder wants the name and value apart). */
void report_add_int(JsonBuilder *b, const char *key, gint64 v);
void report_add_double(JsonBuilder *b, const char *key, double v);
void report_add_string(JsonBuilder *b, const char *key, const char *v);
void report_add_bool(JsonBuilder *b, const char *key, gboolean v);

/* Flattened (key, value-as-text) pairs in tree order. */
typedef struct {
    char *key;
    char *value;
    gboolean numeric;
    double number;
} ReportField;
GArray *report_flatten(JsonNode *root); /* of ReportField; free with report_fields_free */
void report_fields_free(GArray *fields);

#endif
