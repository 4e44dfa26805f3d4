/* docs/teaching.md is tested, so that its outputs and answers cannot go stale:
 *  - every ```console block's `$ qsim ...` command (split into words as the shell splits it)
 *    runs and exits 0, and the lines shown under
 *    it are what it prints: in order, adjacent unless a `...` line stands between them, from
 *    the first line of the output unless the block starts with `...`, to the last unless it
 *    ends with one (`> /dev/null` at the end: the lines are what it prints on stderr, the
 *    trace);
 *  - every number an answer gives in bold (**34**) is printed by a command of its section (a
 *    `###` subsection is a section of its own here: a block moved into the next subsection
 *    leaves its answer without its numbers);
 *  - a block that runs a scenario or a script sits in the section about it: the section's title
 *    or text names the scenario (`ping-pong`) or `--script` in a code span;
 *  - the unit has at least six exercises, and its opening says how many, names every machine
 *    they run on and where the teacher's notes are (the last section).
 *
 * When the timing model changes, the page goes stale on purpose: the test then names, for
 * every command, the first shown line that qsim no longer prints (with its line in the page),
 * and every bold number no command prints, all in one run; and it writes what each command
 * prints now to teaching-outputs.txt beside the qsim binary (build/), to copy from.  Numbers
 * are only half of it: re-read each answer against the new output (docs/teaching.md, "For the
 * teacher", says how). */
#include <check.h>
#include <string.h>
#include "tests/run_qsim.h"

typedef struct {
    char *title;
    gboolean subsection;     /* a `###` section, inside the `##` section before it */
    GPtrArray *commands;     /* char*: "run --config ..." (without "qsim ") */
    GArray *command_at;      /* guint, per command: its line in the page */
    GPtrArray *expected;     /* GPtrArray* of char* lines, per command */
    GPtrArray *where;        /* GArray* of guint, per command: the page's line of each expected line */
    GString *prose;          /* the section's text outside code blocks */
    GString *outputs;        /* what its commands printed (filled when run) */
} Section;

static void section_free(gpointer p)
{
    Section *s = p;
    g_free(s->title);
    g_ptr_array_unref(s->commands);
    g_array_unref(s->command_at);
    g_ptr_array_unref(s->expected);
    g_ptr_array_unref(s->where);
    g_string_free(s->prose, TRUE);
    g_string_free(s->outputs, TRUE);
    g_free(s);
}

static Section *section_new(const char *title)
{
    Section *s = g_new0(Section, 1);
    s->title = g_strdup(title);
    s->commands = g_ptr_array_new_with_free_func(g_free);
    s->command_at = g_array_new(FALSE, FALSE, sizeof(guint));
    s->expected = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    s->where = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
    s->prose = g_string_new(NULL);
    s->outputs = g_string_new(NULL);
    return s;
}

static GPtrArray *parse_doc(void)
{
    g_autofree char *path = g_build_filename(test_srcdir(), "docs", "teaching.md", NULL);
    g_autofree char *text = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, NULL), "no docs/teaching.md");
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GPtrArray *sections = g_ptr_array_new_with_free_func(section_free);
    Section *cur = section_new("(top)");
    g_ptr_array_add(sections, cur);
    gboolean in_console = FALSE, in_other = FALSE;
    GPtrArray *exp = NULL;
    GArray *where = NULL;
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (!in_console && !in_other && g_str_has_prefix(l, "```")) {
            in_console = !strcmp(l, "```console");
            in_other = !in_console;
            exp = NULL;
            continue;
        }
        if ((in_console || in_other) && !strcmp(l, "```")) {
            in_console = in_other = FALSE;
            continue;
        }
        if (in_other)
            continue;
        if (in_console) {
            if (g_str_has_prefix(l, "$ ")) {
                ck_assert_msg(g_str_has_prefix(l, "$ qsim "), "docs/teaching.md:%u: a command that is not qsim", i + 1);
                g_ptr_array_add(cur->commands, g_strdup(l + 7));
                guint at = i + 1;
                g_array_append_val(cur->command_at, at);
                exp = g_ptr_array_new_with_free_func(g_free);
                g_ptr_array_add(cur->expected, exp);
                where = g_array_new(FALSE, FALSE, sizeof(guint));
                g_ptr_array_add(cur->where, where);
            } else {
                ck_assert_msg(exp, "docs/teaching.md:%u: output before any command", i + 1);
                g_ptr_array_add(exp, g_strchomp(g_strdup(l)));
                guint at = i + 1;
                g_array_append_val(where, at);
            }
            continue;
        }
        if (g_str_has_prefix(l, "## ") || g_str_has_prefix(l, "### ")) {
            gboolean sub = l[2] == '#';
            cur = section_new(l + (sub ? 4 : 3));
            cur->subsection = sub;
            g_ptr_array_add(sections, cur);
            continue;
        }
        g_string_append_printf(cur->prose, "%s\n", l);
    }
    ck_assert_msg(!in_console && !in_other, "docs/teaching.md: a code block is not closed");
    return sections;
}

/* Whether want[from..to) matches got lines starting at got[at]. */
static gboolean segment_at(char **got, guint ngot, guint at, GPtrArray *want, guint from, guint to)
{
    if (at + (to - from) > ngot)
        return FALSE;
    for (guint k = from; k < to; k++)
        if (strcmp(got[at + k - from], want->pdata[k]))
            return FALSE;
    return TRUE;
}

/* Checks `want` (lines, "..." for any lines) against `out`; NULL when it matches, else why,
 * and then *bad is the index in `want` of the first line not printed where it is shown. */
static char *match(const char *out, GPtrArray *want, guint *bad)
{
    g_auto(GStrv) got = g_strsplit(out, "\n", -1);
    guint ngot = g_strv_length(got);
    for (guint i = 0; i < ngot; i++)
        g_strchomp(got[i]);
    while (ngot > 0 && !*got[ngot - 1])
        ngot--; /* the final newline */
    guint pos = 0, w = 0;
    gboolean anchored = TRUE;
    while (w < want->len) {
        if (!strcmp(want->pdata[w], "...")) {
            anchored = FALSE;
            w++;
            continue;
        }
        guint end = w;
        while (end < want->len && strcmp(want->pdata[end], "..."))
            end++;
        gboolean last = end == want->len;
        gboolean found = FALSE;
        for (guint at = pos; at + (end - w) <= ngot; at++) {
            if (segment_at(got, ngot, at, want, w, end) && (!last || at + (end - w) == ngot)) {
                found = TRUE;
                pos = at + (end - w);
                break;
            }
            if (anchored)
                break;
        }
        if (!found) {
            /* name the first line that differs: from where the run of lines should start (the
             * first printed copy of its first line, after a `...`) */
            guint at = pos;
            if (!anchored)
                while (at < ngot && strcmp(got[at], want->pdata[w]))
                    at++;
            guint k = w;
            if (at < ngot)
                while (k + 1 < end && at + (k - w) < ngot && !strcmp(got[at + (k - w)], want->pdata[k]))
                    k++;
            gboolean whole = k + 1 == end && at + (k - w) < ngot && !strcmp(got[at + (k - w)], want->pdata[k]);
            *bad = k;
            return g_strdup_printf("%s:\n  %s",
                                   whole ? "the block ends without `...`, but qsim prints more after this line"
                                         : "this line is not printed where the page shows it",
                                   (const char *)want->pdata[k]);
        }
        anchored = TRUE;
        w = end;
    }
    return NULL;
}

/* Where the outputs of a stale page go: beside the qsim binary under test (build/). */
static char *outputs_path(void)
{
    const char *bin = g_getenv("QSIM_BIN");
    g_autofree char *dir = bin ? g_path_get_dirname(bin) : g_build_filename(test_srcdir(), "build", NULL);
    return g_build_filename(dir, "teaching-outputs.txt", NULL);
}

START_TEST(test_outputs_are_what_qsim_prints)
{
    g_autoptr(GPtrArray) sections = parse_doc();
    guint ncommands = 0, exercises = 0;
    /* every stale line and number, so that one run lists all there is to update */
    g_autoptr(GString) stale = g_string_new(NULL);
    g_autoptr(GString) now = g_string_new(NULL); /* each command and what it prints now */
    for (guint s = 0; s < sections->len; s++) {
        Section *sec = sections->pdata[s];
        exercises += g_str_has_prefix(sec->title, "Exercise ");
        for (guint c = 0; c < sec->commands->len; c++) {
            g_autofree char *cmd = g_strdup(sec->commands->pdata[c]);
            gboolean trace = g_str_has_suffix(cmd, " > /dev/null");
            if (trace)
                cmd[strlen(cmd) - strlen(" > /dev/null")] = '\0';
            ck_assert_msg(!strchr(cmd, '"') && !strchr(cmd, '|'), "qsim %s: keep commands plain", cmd);
            /* split as the shell splits what a reader pastes: 'mcs_node[2]', '0:ld x, 1:st x' */
            g_auto(GStrv) args = NULL;
            ck_assert_msg(g_shell_parse_argv(cmd, NULL, &args, NULL), "qsim %s: not a shell command line", cmd);
            g_autofree char *out = NULL, *err = NULL;
            int rc = run_qsim((const char *const *)args, &out, &err);
            ck_assert_msg(rc == 0, "docs/teaching.md, %s: qsim %s exits %d: %s", sec->title, cmd, rc, err);
            const char *printed = trace ? err : out;
            g_string_append(sec->outputs, printed);
            g_string_append_printf(now, "$ qsim %s\n%s\n", (const char *)sec->commands->pdata[c], printed);
            guint bad = 0;
            g_autofree char *why = match(printed, sec->expected->pdata[c], &bad);
            if (why)
                g_string_append_printf(stale, "docs/teaching.md:%u (%s): qsim %s: %s\n",
                                       g_array_index((GArray *)sec->where->pdata[c], guint, bad), sec->title, cmd, why);
            ncommands++;
        }
    }
    ck_assert_uint_ge(exercises, 6);
    ck_assert_uint_ge(ncommands, 15);
    /* the answers' numbers, in bold, come from the outputs of their section */
    g_autoptr(GRegex) bold = g_regex_new("\\*\\*([0-9]+(\\.[0-9]+)?)\\*\\*", 0, 0, NULL);
    g_autoptr(GRegex) number = g_regex_new("(?<![0-9A-Za-z_.])[0-9]+(\\.[0-9]+)?(?![0-9A-Za-z_])", 0, 0, NULL);
    guint checked = 0;
    for (guint s = 0; s < sections->len; s++) {
        Section *sec = sections->pdata[s];
        g_autoptr(GHashTable) printed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GMatchInfo) mi = NULL;
        g_regex_match(number, sec->outputs->str, 0, &mi);
        while (g_match_info_matches(mi)) {
            g_hash_table_add(printed, g_match_info_fetch(mi, 0));
            g_match_info_next(mi, NULL);
        }
        g_autoptr(GMatchInfo) bi = NULL;
        g_regex_match(bold, sec->prose->str, 0, &bi);
        while (g_match_info_matches(bi)) {
            g_autofree char *n = g_match_info_fetch(bi, 1);
            if (!g_hash_table_contains(printed, n))
                g_string_append_printf(stale, "docs/teaching.md (%s): the answer says **%s**, which no command of the section prints\n",
                                       sec->title, n);
            checked++;
            g_match_info_next(bi, NULL);
        }
    }
    if (stale->len) {
        g_autofree char *path = outputs_path();
        gboolean saved = g_file_set_contents(path, now->str, (gssize)now->len, NULL);
        /* Check carries a failure message of a few KiB: whole entries up to that, then a count */
        g_auto(GStrv) entries = g_strsplit(stale->str, "\n", -1);
        g_autoptr(GString) shown = g_string_new(NULL);
        guint n = 0, total = g_strv_length(entries) - 1;
        while (n < total && shown->len + strlen(entries[n]) < 2500)
            g_string_append_printf(shown, "%s\n", entries[n++]);
        if (n < total)
            g_string_append_printf(shown, "(and %u more)\n", total - n);
        ck_abort_msg("docs/teaching.md is stale:\n%s%s%s", shown->str, saved ? "what every command prints now: " : "",
                     saved ? path : "");
    }
    ck_assert_uint_ge(checked, 30);
}
END_TEST

/* The page's opening says what it holds: how many exercises (in words), every machine an
 * exercise runs on, and where the teacher's notes are (the last section). */
START_TEST(test_intro_says_what_the_page_holds)
{
    static const char *const numbers[] = { "no", "one", "two", "three", "four", "five", "six", "seven",
                                           "eight", "nine", "ten", "eleven", "twelve" };
    g_autoptr(GPtrArray) sections = parse_doc();
    const Section *top = sections->pdata[0];
    g_autoptr(GHashTable) configs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    guint exercises = 0;
    for (guint s = 0; s < sections->len; s++) {
        const Section *sec = sections->pdata[s];
        if (!g_str_has_prefix(sec->title, "Exercise "))
            continue;
        exercises++;
        for (guint c = 0; c < sec->commands->len; c++) {
            const char *at = strstr(sec->commands->pdata[c], "--config ");
            if (at)
                g_hash_table_add(configs, g_strndup(at + 9, strcspn(at + 9, " ")));
        }
    }
    ck_assert_uint_lt(exercises, G_N_ELEMENTS(numbers));
    g_autofree char *count = g_strdup_printf(" %s exercises ", numbers[exercises]);
    g_autofree char *prose = g_strdelimit(g_strdup(top->prose->str), "\n", ' ');
    ck_assert_msg(strstr(prose, count), "the opening does not say '%s'", count);
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, configs);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        g_autofree char *named = g_strdup_printf("`%s`", (const char *)key);
        ck_assert_msg(strstr(prose, named), "the opening does not name the machine %s", named);
    }
    ck_assert_uint_ge(g_hash_table_size(configs), 2);
    guint last = sections->len - 1;
    while (((const Section *)sections->pdata[last])->subsection)
        last--;
    ck_assert_str_eq(((const Section *)sections->pdata[last])->title, "For the teacher");
    ck_assert_msg(strstr(prose, "at the end of the page, under \"For the teacher\""), "%s", prose);
}
END_TEST

/* What a command runs that a section is about: a scenario's name, or `--script`; NULL for the
 * rest (every exercise runs a lock, so a lock's name would not place a block: its answer's
 * numbers do). */
static char *command_subject(const char *cmd)
{
    g_autofree char *plain = g_strdup(cmd);
    if (g_str_has_suffix(plain, " > /dev/null"))
        plain[strlen(plain) - strlen(" > /dev/null")] = '\0';
    g_auto(GStrv) args = NULL;
    if (!g_shell_parse_argv(plain, NULL, &args, NULL))
        return NULL;
    for (guint i = 0; args[i]; i++) {
        if (!strcmp(args[i], "--script"))
            return g_strdup("--script");
        if (!strcmp(args[i], "--scenario") && args[i + 1])
            return g_strdup(args[i + 1]);
    }
    return NULL;
}

/* Whether a code span of `text` (`...`) is `word` or holds it as a word of its own. */
static gboolean code_names(const char *text, const char *word)
{
    g_autoptr(GRegex) span = g_regex_new("`([^`\n]+)`", 0, 0, NULL);
    g_autoptr(GMatchInfo) mi = NULL;
    g_regex_match(span, text, 0, &mi);
    for (; g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
        g_autofree char *code = g_match_info_fetch(mi, 1);
        g_auto(GStrv) words = g_strsplit(code, " ", -1);
        if (g_strv_contains((const char *const *)words, word))
            return TRUE;
    }
    return FALSE;
}

/* Each block sits in the section whose command it shows: one that runs a scenario or a script
 * is in a section that names it (a block one section late shows another's runs under a title
 * and text that do not name them). */
START_TEST(test_blocks_sit_in_their_sections)
{
    g_autoptr(GPtrArray) sections = parse_doc();
    guint placed = 0;
    g_autoptr(GString) wrong = g_string_new(NULL);
    for (guint s = 0; s < sections->len; s++) {
        const Section *sec = sections->pdata[s];
        g_autofree char *title = g_strdup_printf("%s\n%s", sec->title, sec->prose->str);
        for (guint c = 0; c < sec->commands->len; c++) {
            g_autofree char *subject = command_subject(sec->commands->pdata[c]);
            if (!subject)
                continue;
            placed++;
            if (!code_names(title, subject))
                g_string_append_printf(wrong, "docs/teaching.md:%u (%s): qsim %s: the section does not name `%s`\n",
                                       g_array_index(sec->command_at, guint, c), sec->title,
                                       (const char *)sec->commands->pdata[c], subject);
        }
    }
    ck_assert_msg(!wrong->len, "blocks outside the section they belong to:\n%s", wrong->str);
    ck_assert_uint_ge(placed, 10);
}
END_TEST

/* The matcher itself: adjacency, `...`, anchoring at both ends. */
START_TEST(test_matcher)
{
    const char *out = "a\nb\nc\nd\n";
    static const struct {
        const char *want;
        gboolean ok;
        guint bad; /* when not: the index of the line named */
    } cases[] = {
        { "a,b,c,d", TRUE, 0 },     { "a,...,d", TRUE, 0 },    { "...,b,c,...", TRUE, 0 }, { "a,c,...", FALSE, 1 },
        { "b,...", FALSE, 0 },      { "...,c", FALSE, 1 },     { "...,d", TRUE, 0 },       { "a,b,...,b", FALSE, 3 },
        { "...,e,...", FALSE, 1 },  { "...,b,d,...", FALSE, 2 }, { "a,b,c", FALSE, 2 },    { "a,b,c,d,e", FALSE, 4 },
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_auto(GStrv) w = g_strsplit(cases[i].want, ",", -1);
        g_autoptr(GPtrArray) want = g_ptr_array_new();
        for (guint k = 0; w[k]; k++)
            g_ptr_array_add(want, w[k]);
        guint bad = 0;
        g_autofree char *why = match(out, want, &bad);
        ck_assert_msg((why == NULL) == cases[i].ok, "%s: %s", cases[i].want, why ? why : "matched");
        if (why)
            ck_assert_msg(bad == cases[i].bad, "%s: names line %u, not %u: %s", cases[i].want, bad, cases[i].bad, why);
    }
}
END_TEST

Suite *make_teaching_suite(void)
{
    Suite *s = suite_create("teaching");
    TCase *tc = tcase_create("doc");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_matcher);
    tcase_add_test(tc, test_outputs_are_what_qsim_prints);
    tcase_add_test(tc, test_intro_says_what_the_page_holds);
    tcase_add_test(tc, test_blocks_sit_in_their_sections);
    suite_add_tcase(s, tc);
    return s;
}
