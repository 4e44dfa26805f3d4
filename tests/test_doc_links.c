/* The docs point where they say: every relative link of README.md, HACKING.md and the pages in docs/
 * names a file of the tree and, with `#anchor`, a heading of that page (as GitHub spells
 * anchors), and the docs the man page lists are in docs/.  A page split or a heading renamed
 * without its links fails here. */
#include <check.h>
#include <string.h>
#include <glib.h>
#include "tests/run_qsim.h"

/* GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces `-`. */
static char *anchor_of(const char *heading)
{
    GString *a = g_string_new(NULL);
    for (const char *c = heading; *c; c++) {
        if (g_ascii_isalnum(*c) || *c == '-' || *c == '_')
            g_string_append_c(a, g_ascii_tolower(*c));
        else if (*c == ' ')
            g_string_append_c(a, '-');
        else if ((guchar)*c >= 0x80)
            g_string_append_c(a, *c);
    }
    return g_string_free(a, FALSE);
}

/* The page's lines outside fenced code blocks (where `#` is a shell comment, not a heading). */
static GPtrArray *prose_lines(const char *text)
{
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) all = g_strsplit(text, "\n", -1);
    gboolean fenced = FALSE;
    for (guint i = 0; all[i]; i++) {
        if (g_str_has_prefix(all[i], "```"))
            fenced = !fenced;
        else if (!fenced)
            g_ptr_array_add(lines, g_strdup(all[i]));
    }
    return lines;
}

static char *slurp(const char *path)
{
    char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "%s: cannot read", path);
    return text;
}

/* Whether the page at `path` has a heading whose anchor is `anchor`. */
static gboolean has_anchor(const char *path, const char *anchor)
{
    g_autofree char *text = slurp(path);
    g_autoptr(GPtrArray) lines = prose_lines(text);
    for (guint i = 0; i < lines->len; i++) {
        const char *l = lines->pdata[i];
        if (*l != '#')
            continue;
        l += strspn(l, "#");
        g_autofree char *a = anchor_of(g_strstrip(g_strdup(l)));
        if (!strcmp(a, anchor))
            return TRUE;
    }
    return FALSE;
}

/* The links of one page that do not resolve, each `page: target (why)`; returns how many it saw. */
static guint check_page(const char *page, GString *broken)
{
    g_autofree char *text = slurp(page);
    g_autoptr(GPtrArray) lines = prose_lines(text);
    g_autoptr(GRegex) link = g_regex_new("\\]\\(([^)\\s]+)\\)", 0, 0, NULL);
    g_autofree char *dir = g_path_get_dirname(page);
    guint seen = 0;
    for (guint i = 0; i < lines->len; i++) {
        g_autoptr(GMatchInfo) m = NULL;
        for (g_regex_match(link, lines->pdata[i], 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
            g_autofree char *target = g_match_info_fetch(m, 1);
            if (g_regex_match_simple("^[a-z]+:", target, 0, 0))
                continue; /* https:, mailto: */
            seen++;
            char *hash = strchr(target, '#');
            const char *anchor = hash ? hash + 1 : NULL;
            if (hash)
                *hash = '\0';
            g_autofree char *path = *target ? g_build_filename(dir, target, NULL) : g_strdup(page);
            if (!g_file_test(path, G_FILE_TEST_EXISTS))
                g_string_append_printf(broken, "%s: %s (no such file)\n", page, target);
            else if (anchor && g_str_has_suffix(path, ".md") && !has_anchor(path, anchor))
                g_string_append_printf(broken, "%s: %s#%s (no such heading)\n", page, target, anchor);
        }
    }
    return seen;
}

START_TEST(test_links_resolve)
{
    g_autoptr(GString) broken = g_string_new(NULL);
    guint seen = 0;
    static const char *const top[] = { "README.md", "HACKING.md" };
    for (guint i = 0; i < G_N_ELEMENTS(top); i++) {
        g_autofree char *page = g_build_filename(test_srcdir(), top[i], NULL);
        seen += check_page(page, broken);
    }
    g_autofree char *docs = g_build_filename(test_srcdir(), "docs", NULL);
    GDir *d = g_dir_open(docs, 0, NULL);
    ck_assert_msg(d, "%s: cannot open", docs);
    const char *name;
    while ((name = g_dir_read_name(d)))
        if (g_str_has_suffix(name, ".md")) {
            g_autofree char *page = g_build_filename(docs, name, NULL);
            seen += check_page(page, broken);
        }
    g_dir_close(d);
    ck_assert_msg(!broken->len, "links that go nowhere:\n%s", broken->str);
    ck_assert_uint_ge(seen, 20);
}
END_TEST

/* The anchor rule on the headings the docs link to. */
START_TEST(test_anchor_rule)
{
    static const struct { const char *heading, *anchor; } rows[] = {
        { "Noise: repeated runs and the scheduler's warnings", "noise-repeated-runs-and-the-schedulers-warnings" },
        { "In a VM, and with few CPUs", "in-a-vm-and-with-few-cpus" },
        { "An example: one build machine (2026-12-01)", "an-example-one-build-machine-2026-12-01" },
        { "The code (`sim/calibrate/`, one idea a file)", "the-code-simcalibrate-one-idea-a-file" },
    };
    for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
        g_autofree char *a = anchor_of(rows[i].heading);
        ck_assert_str_eq(a, rows[i].anchor);
    }
}
END_TEST

/* The FILES section of qsim(1) lists the docs by name: each one is in docs/. */
START_TEST(test_man_page_names_docs_that_exist)
{
    g_autofree char *page = NULL;
    ck_assert_int_eq(run_qsim_line("man", &page, NULL), 0);
    const char *list = strstr(page, "The documentation:");
    ck_assert_msg(list, "qsim man lists no docs");
    g_autofree char *para = g_strndup(list, strcspn(list, "\n"));
    g_autoptr(GRegex) re = g_regex_new("([a-z0-9-]+\\.md)", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    guint named = 0;
    for (g_regex_match(re, para, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
        g_autofree char *file = g_match_info_fetch(m, 1);
        g_autofree char *path = g_build_filename(test_srcdir(), "docs", file, NULL);
        ck_assert_msg(g_file_test(path, G_FILE_TEST_EXISTS), "qsim man names %s, not in docs/", file);
        named++;
    }
    ck_assert_uint_ge(named, 8);
}
END_TEST

Suite *make_doc_links_suite(void)
{
    Suite *s = suite_create("doc_links");
    TCase *tc = tcase_create("links");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_links_resolve);
    tcase_add_test(tc, test_anchor_rule);
    tcase_add_test(tc, test_man_page_names_docs_that_exist);
    suite_add_tcase(s, tc);
    return s;
}
