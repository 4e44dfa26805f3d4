/* YAML with limits (see yaml_doc.h). */
#include <string.h>
#include "sim/base/yaml_doc.h"

static void syntax_error(const yaml_parser_t *p, const char *filename, GQuark domain, gint code, GError **error)
{
    g_set_error(error, domain, code, "%s:%zu:%zu: YAML syntax error: %s%s%s", filename, p->problem_mark.line + 1,
                p->problem_mark.column + 1, p->problem ? p->problem : "unreadable", p->context ? " " : "",
                p->context ? p->context : "");
}

/* The first pass: the events, with depth, documents and values checked. */
static gboolean check_events(const char *text, gsize len, const char *filename, const char *what, GQuark domain,
                             gint code, GError **error)
{
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    guint depth = 0, docs = 0;
    gboolean ok = TRUE, done = FALSE;
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
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_SCALAR_EVENT:
            if (memchr(ev.data.scalar.value, '\0', ev.data.scalar.length)) {
                g_set_error(error, domain, code, "%s:%zu:%zu: a NUL character in a value", filename, m.line + 1,
                            m.column + 1);
                ok = FALSE;
            }
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

gboolean yaml_doc_load(const char *text, gsize len, const char *filename, const char *what, yaml_document_t *doc,
                       GQuark domain, gint code, GError **error)
{
    if (!check_events(text, len, filename, what, domain, code, error))
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
