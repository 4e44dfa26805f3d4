/* YAML with limits: depth, one document, no NUL in a value; libyaml's errors positioned. */
#include <check.h>
#include <string.h>
#include "sim/base/yaml_doc.h"

#define TEST_ERROR (g_quark_from_static_string("test-yaml"))

typedef struct {
    const char *title, *input;
    const char *error;      /* the whole message, or NULL: it loads */
} YamlCase;

static char *nested_flow(guint depth)
{
    GString *s = g_string_new("a: ");
    for (guint i = 1; i < depth; i++)
        g_string_append_c(s, '[');
    for (guint i = 1; i < depth; i++)
        g_string_append_c(s, ']');
    g_string_append_c(s, '\n');
    return g_string_free(s, FALSE);
}

/* `depth` mappings, each the value of the one before's only key. */
static char *nested_block(guint depth)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < depth; i++)
        g_string_append_printf(s, "%*sk%u:\n", (int)i, "", i);
    return g_string_free(s, FALSE);
}

static const YamlCase cases[] = {
    { "a mapping", "a: 1\nb: [1, 2]\n", NULL },
    { "empty", "", NULL },
    { "one document marked", "---\na: 1\n...\n", NULL },
    { "a second document", "a: 1\n---\nb: 2\n", "t.yaml:2:1: a second YAML document (a thing is one document: remove "
                                                 "the `---` line and what follows)" },
    { "an escaped NUL", "a: \"x\\0y\"\n", "t.yaml:1:4: a NUL character in a value" },
    { "a syntax error", "a: [1, 2\n", "t.yaml:2:1: YAML syntax error: did not find expected ',' or ']' while parsing "
                                      "a flow sequence started at 1:4" },
};

static gboolean load(const char *text, GError **error)
{
    yaml_document_t doc;
    if (!yaml_doc_load(text, strlen(text), "t.yaml", "thing", &doc, TEST_ERROR, 7, error))
        return FALSE;
    yaml_document_delete(&doc);
    return TRUE;
}

START_TEST(test_cases)
{
    const YamlCase *c = &cases[_i];
    g_autoptr(GError) e = NULL;
    gboolean ok = load(c->input, &e);
    if (!c->error) {
        ck_assert_msg(ok, "%s: %s", c->title, e ? e->message : "");
        return;
    }
    ck_assert_msg(!ok, "%s: loaded", c->title);
    ck_assert(g_error_matches(e, TEST_ERROR, 7));
    ck_assert_msg(!strcmp(e->message, c->error), "%s:\n got  %s\n want %s", c->title, e->message, c->error);
}
END_TEST

/* Depth 32 loads; 33 is refused at the collection that goes too deep, flow or block. */
START_TEST(test_depth_limit)
{
    g_autofree char *ok_flow = nested_flow(YAML_DOC_MAX_DEPTH), *deep_flow = nested_flow(YAML_DOC_MAX_DEPTH + 1);
    g_autofree char *ok_block = nested_block(YAML_DOC_MAX_DEPTH), *deep_block = nested_block(YAML_DOC_MAX_DEPTH + 1);
    g_autoptr(GError) e = NULL;
    ck_assert_msg(load(ok_flow, &e), "%s", e ? e->message : "");
    ck_assert_msg(load(ok_block, &e), "%s", e ? e->message : "");
    ck_assert(!load(deep_flow, &e));
    ck_assert_str_eq(e->message, "t.yaml:1:35: nested deeper than 32 levels");
    g_clear_error(&e);
    ck_assert(!load(deep_block, &e));
    ck_assert_str_eq(e->message, "t.yaml:33:33: nested deeper than 32 levels");
}
END_TEST

/* A megabyte of `[` stops at the limit: libyaml alone would scan it quadratically. */
START_TEST(test_deep_input_stops_early)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < (1u << 20); i++)
        g_string_append_c(s, '[');
    g_autoptr(GError) e = NULL;
    ck_assert(!load(s->str, &e));
    g_string_free(s, TRUE);
    ck_assert_str_eq(e->message, "t.yaml:1:33: nested deeper than 32 levels");
}
END_TEST

/* The document shares an anchored node wherever an alias uses it; where each alias stood is
 * kept beside it, by its parent and place, for messages that point at the use. */
START_TEST(test_alias_positions)
{
    const char *text = "a: &x 1\nb: [2, *x]\nc:\n  d: *x\n  *x : e\n";
    yaml_document_t doc;
    YamlDocSource *al = NULL;
    g_autoptr(GError) e = NULL;
    ck_assert_msg(yaml_doc_load_with_source(text, strlen(text), "t.yaml", "thing", &doc, &al, TEST_ERROR, 7, &e),
                  "%s", e ? e->message : "");
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    ck_assert(!yaml_doc_alias_at(al, &doc, root, 1)); /* a's value is written there */
    yaml_node_t *b = yaml_document_get_node(&doc, root->data.mapping.pairs.start[1].value);
    ck_assert(!yaml_doc_alias_at(al, &doc, b, 0));
    const yaml_mark_t *m = yaml_doc_alias_at(al, &doc, b, 1);
    ck_assert(m && m->line == 1 && m->column == 7);
    yaml_node_t *c = yaml_document_get_node(&doc, root->data.mapping.pairs.start[2].value);
    m = yaml_doc_alias_at(al, &doc, c, 1);
    ck_assert(m && m->line == 3 && m->column == 5);
    m = yaml_doc_alias_at(al, &doc, c, 2); /* an alias as a key */
    ck_assert(m && m->line == 4 && m->column == 2);
    /* the node itself is the anchor's: line 1 */
    ck_assert_uint_eq(yaml_document_get_node(&doc, c->data.mapping.pairs.start[0].value)->start_mark.line, 0);
    yaml_doc_source_free(al);
    yaml_document_delete(&doc);
}
END_TEST

Suite *make_yaml_doc_suite(void)
{
    Suite *s = suite_create("yaml_doc");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_cases, 0, G_N_ELEMENTS(cases));
    tcase_add_test(tc, test_depth_limit);
    tcase_add_test(tc, test_deep_input_stops_early);
    tcase_add_test(tc, test_alias_positions);
    suite_add_tcase(s, tc);
    return s;
}
