/* Echoing a user's text in messages: clipped at ECHO_MAX_CHARS characters, whole UTF-8
 * characters, closing quotes kept. */
#include <check.h>
#include <string.h>
#include "sim/base/echo.h"
#include "sim/base/suggest.h"

START_TEST(test_clip)
{
    g_autofree char *short_ = echo_clip("core.rob");
    ck_assert_str_eq(short_, "core.rob");
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < ECHO_MAX_CHARS; i++)
        g_string_append_c(s, 'a');
    g_autofree char *exact = echo_clip(s->str);
    ck_assert_str_eq(exact, s->str);
    g_string_append(s, "bcd");
    g_autofree char *clipped = echo_clip(s->str);
    ck_assert_uint_eq(strlen(clipped), ECHO_MAX_CHARS + 3);
    ck_assert(g_str_has_suffix(clipped, "aaa..."));
    g_string_free(s, TRUE);
    /* 70 two-byte characters: 60 of them, none cut in half. */
    GString *u = g_string_new(NULL);
    for (guint i = 0; i < 70; i++)
        g_string_append(u, "\xc3\xa9");
    g_autofree char *uc = echo_clip(u->str);
    ck_assert(g_utf8_validate(uc, -1, NULL));
    ck_assert_uint_eq(g_utf8_strlen(uc, -1), ECHO_MAX_CHARS + 3);
    g_string_free(u, TRUE);
}
END_TEST

START_TEST(test_clip_message)
{
    GString *m = g_string_new("t.qs:1:9: undefined label `");
    for (guint i = 0; i < 1000; i++)
        g_string_append_c(m, 'y');
    g_string_append(m, "`; did you mean `spin`?");
    g_autofree char *c = echo_clip_message(m->str);
    g_string_free(m, TRUE);
    ck_assert_msg(g_str_has_prefix(c, "t.qs:1:9: undefined label `yyy"), "%s", c);
    ck_assert_msg(g_str_has_suffix(c, "yyy...`; did you mean `spin`?"), "%s", c);
    ck_assert_uint_lt(strlen(c), 120);
    g_autofree char *plain = echo_clip_message("nothing long here");
    ck_assert_str_eq(plain, "nothing long here");
}
END_TEST

/* A very long word is no typo of a name: not compared (the distance costs both lengths). */
START_TEST(test_suggest_skips_long_words)
{
    static const char *const names[] = { "spin", "acquire" };
    ck_assert_str_eq(suggest_closest("spn", names, 2), "spin");
    GString *w = g_string_new("spin");
    for (guint i = 0; i < 100000; i++)
        g_string_append_c(w, 'x');
    ck_assert_ptr_null(suggest_closest(w->str, names, 2));
    const char *const longs[] = { w->str };
    ck_assert_ptr_null(suggest_closest("spin", longs, 1));
    g_string_free(w, TRUE);
}
END_TEST

/* Control characters (C1 too, in UTF-8 or as a lone byte) are escaped, so an echo cannot drive
 * the terminal; the 60 characters counted are those written. */
START_TEST(test_clip_escapes_controls)
{
    g_autofree char *esc = echo_clip("a\x1b[31mb\tc\nd\x7f");
    ck_assert_str_eq(esc, "a\\x1b[31mb\\tc\\nd\\x7f");
    g_autofree char *c1 = echo_clip("x\xc2\x9b" "1m");   /* U+009B, CSI as C1 in UTF-8 */
    ck_assert_str_eq(c1, "x\\u009b1m");
    g_autofree char *c1_byte = echo_clip("x\x9b" "1m");  /* CSI to an 8-bit terminal */
    ck_assert_str_eq(c1_byte, "x\\x9b1m");
    g_autofree char *latin1 = echo_clip("caf\xe9");     /* no UTF-8, no control: as it is */
    ck_assert_str_eq(latin1, "caf\xe9");
    g_autofree char *utf8 = echo_clip("café");
    ck_assert_str_eq(utf8, "café");
    g_autofree char *many = g_strnfill(100, '\x1b');
    g_autofree char *clipped = echo_clip(many);
    ck_assert_uint_eq(strlen(clipped), ECHO_MAX_CHARS * 4 + 3);
}
END_TEST

/* A message and the words typed: a word (or a piece of one) is clipped wherever it is, the
 * message's own long text kept whole, control characters escaped all through. */
START_TEST(test_clip_words)
{
    g_autofree char *value = g_strnfill(1000, 'v');
    g_autofree char *piece = g_strnfill(500, 'v');
    g_autofree char *ours = g_strnfill(100, 'o');
    g_autofree char *opt = g_strconcat("--out=", value, NULL);
    const char *words[] = { "run", opt, value, NULL };
    g_autofree char *msg = g_strdup_printf("--out %s/results.csv: %s; cpu `%s`; %s\x1b\n", value, "no", piece, ours);
    g_autofree char *c = echo_clip_words(msg, words);
    g_autofree char *head = g_strnfill(ECHO_MAX_CHARS, 'v');
    g_autofree char *want = g_strdup_printf("--out %s.../results.csv: no; cpu `%s...`; %s\\x1b\n", head, head, ours);
    ck_assert_str_eq(c, want);
    g_autofree char *plain = echo_clip_words("nothing typed here\n", NULL);
    ck_assert_str_eq(plain, "nothing typed here\n");
}
END_TEST

Suite *make_echo_suite(void)
{
    Suite *s = suite_create("echo");
    TCase *tc = tcase_create("clip");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_clip);
    tcase_add_test(tc, test_clip_message);
    tcase_add_test(tc, test_clip_escapes_controls);
    tcase_add_test(tc, test_clip_words);
    tcase_add_test(tc, test_suggest_skips_long_words);
    suite_add_tcase(s, tc);
    return s;
}
