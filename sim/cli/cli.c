/* Helpers shared by the sub-commands: option parsing and error printing. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sim/cli/commands.h"
#include "sim/base/echo.h"
#include "sim/base/output_file.h"
#include "sim/base/suggest.h"
#include "sim/base/whole_number.h"

static gboolean check_integer_options(const GOptionEntry *const *groups, const CliIntRange *ranges, int argc,
                                      char **argv, GError **error);

/* ---- what was printed ---- */

int cli_finish_output(int rc)
{
    errno = 0;
    gboolean failed = fflush(stdout) != 0 || ferror(stdout);
    int err = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = TRUE;
        err = errno;
    }
    if (failed)
        cli_eprintf("qsim: standard output: %s\n", err ? g_strerror(err) : "a write failed");
    /* stderr is unbuffered: a failed write (a trace, a message) left its error flag set */
    gboolean err_failed = fflush(stderr) != 0 || ferror(stderr);
    return failed || err_failed ? QSIM_EXIT_USAGE : rc;
}

/* ---- printing errors ---- */

/* What the user typed on this command line (the words the parse saw, and the values inside
 * --name=VALUE and -cVALUE): what an error may echo, and so what cli_eprintf clips. */
static GPtrArray *typed_words;

void cli_remember_words(int argc, char **argv)
{
    if (!typed_words)
        typed_words = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_set_size(typed_words, 0);
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        g_ptr_array_add(typed_words, g_strdup(w));
        const char *eq = strchr(w, '=');
        if (w[0] == '-' && w[1] == '-' && eq)
            g_ptr_array_add(typed_words, g_strdup(eq + 1));
        else if (w[0] == '-' && w[1] && w[1] != '-' && w[2])
            g_ptr_array_add(typed_words, g_strdup(w + 2));
    }
    g_ptr_array_add(typed_words, NULL);
}

void cli_eprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *shown = echo_clip_words(msg, typed_words ? (const char *const *)typed_words->pdata : NULL);
    fputs(shown, stderr);
}

/* Parses argv with `ctx`, whose options are the `groups` (NULL-terminated entry lists). */
static const GOptionEntry *find_long(const GOptionEntry *const *groups, const char *name, gsize len);
static const GOptionEntry *find_short(const GOptionEntry *const *groups, char c);
static gboolean takes_arg(const GOptionEntry *e);

/* GOption's own error for `--lokc` names the option and nothing more: like every other error,
 * say which option was meant.  NULL when every long option is known (GOption's help options too). */
static char *unknown_option_error(const GOptionEntry *const *groups, int argc, char **argv)
{
    static const char *const builtin[] = { "help", "help-all", "help-qsim" };
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "--"))
            break;
        if (w[0] != '-' || w[1] != '-')
            continue;
        const char *name = w + 2, *eq = strchr(name, '=');
        gsize len = eq ? (gsize)(eq - name) : strlen(name);
        const GOptionEntry *e = find_long(groups, name, len);
        if (e) {
            if (!eq && takes_arg(e))
                i++;   /* its value, whatever it looks like */
            continue;
        }
        g_autofree char *typed = g_strndup(name, len);
        gboolean known = FALSE;
        for (guint k = 0; k < G_N_ELEMENTS(builtin); k++)
            known |= !strcmp(typed, builtin[k]);
        if (known)
            continue;
        g_autoptr(GPtrArray) names = g_ptr_array_new();
        for (guint g = 0; groups[g]; g++)
            for (const GOptionEntry *o = groups[g]; o->long_name; o++)
                if (!(o->flags & G_OPTION_FLAG_HIDDEN))
                    g_ptr_array_add(names, (gpointer)o->long_name);
        const char *hint = suggest_closest(typed, (const char *const *)names->pdata, names->len);
        return hint ? g_strdup_printf("unknown option --%s; did you mean --%s?", typed, hint)
                    : g_strdup_printf("unknown option --%s", typed);
    }
    return NULL;
}

/* ---- help ---- */

/* Set while a command line that qsim did not read from its own argv is parsed (`run --replay`'s
 * kept one): a help option there is refused, not obeyed. */
static gboolean help_refused;

void cli_parse_refuse_help(gboolean refuse)
{
    help_refused = refuse;
}

/* The help option in argv, found the way GOption finds it (not inside an option's value, not
 * after `--`): "--help", "--help-all", "-h" or "-?" (alone or in a cluster of short options),
 * or NULL.  *all: the whole help (--help-all).  With GOption's own help turned off after this,
 * a help option missed here would be an unknown option (exit 2), never an unchecked exit 0. */
static const char *help_asked(const GOptionEntry *const *groups, int argc, char **argv, gboolean *all)
{
    *all = FALSE;
    gboolean has_h = find_short(groups, 'h') != NULL;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "--"))
            break;
        if (w[0] != '-' || !w[1])
            continue;
        if (w[1] == '-') {
            const char *name = w + 2, *eq = strchr(name, '=');
            /* (--help-GROUP names no group here: every command's options are one group) */
            if (!strcmp(name, "help") || !strcmp(name, "help-all")) {
                *all = !strcmp(name, "help-all");
                return w;
            }
            const GOptionEntry *e = find_long(groups, name, eq ? (gsize)(eq - name) : strlen(name));
            if (e && !eq && takes_arg(e))
                i++;
            continue;
        }
        int values = 0;
        for (const char *c = w + 1; *c; c++) {
            if (*c == '?' || (*c == 'h' && !has_h))
                return w;
            const GOptionEntry *e = find_short(groups, *c);
            if (e && takes_arg(e))
                values++;   /* GOption takes each one's value from the words after the cluster */
        }
        i += values;
    }
    return NULL;
}

/* GOption prints help and calls exit(0) itself, so a help that never reached stdout (a full
 * disk, a closed pipe) was exit 0.  qsim prints it and ends the same way, by its own check. */
static gboolean help_given(GOptionContext *ctx, const GOptionEntry *const *groups, int argc, char **argv)
{
    gboolean all;
    const char *word = help_asked(groups, argc, argv, &all);
    if (!word)
        return TRUE;
    if (help_refused) {
        cli_eprintf("qsim %s: %s asks for help, not a run\n", argv[0], word);
        return FALSE;
    }
    g_autofree char *prg = g_strdup_printf("qsim %s", argv[0]);
    g_set_prgname(prg);   /* help's "Usage: qsim NAME [OPTION...]" */
    g_autofree char *text = g_option_context_get_help(ctx, !all, NULL);
    fputs(text, stdout);
    exit(cli_finish_output(QSIM_EXIT_OK));
}

static gboolean parse_checked(GOptionContext *ctx, const GOptionEntry *const *groups, const CliIntRange *ranges,
                              int *argc, char ***argv)
{
    g_autoptr(GError) error = NULL;
    cli_remember_words(*argc, *argv);
    if (!help_given(ctx, groups, *argc, *argv))
        return FALSE;
    /* every help option was found above: GOption's own would exit 0 whatever became of it */
    g_option_context_set_help_enabled(ctx, FALSE);
    g_autofree char *unknown = unknown_option_error(groups, *argc, *argv);
    if (unknown) {
        cli_eprintf("qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], unknown, (*argv)[0]);
        return FALSE;
    }
    if (!check_integer_options(groups, ranges, *argc, *argv, &error)) {
        cli_eprintf("qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], error->message, (*argv)[0]);
        return FALSE;
    }
    return cli_parse(ctx, argc, argv);
}

/* ---- where the docs are ---- */

const char *cli_doc_dir(void)
{
    /* A binary run from its source tree points at that tree's docs/ (a checkout has no
     * installed copy); an installed one at the docs beside it (PREFIX/bin/qsim ->
     * PREFIX/share/doc/qsim, so a staged or moved install too), else the configured doc dir. */
    static const char *dir;
    if (dir)
        return dir;
    dir = QSIM_DOCDIR;
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!exe)
        return dir;
    if (g_str_has_prefix(exe, QSIM_SRCDIR "/"))
        return dir = g_intern_string(QSIM_SRCDIR "/docs");
    g_autofree char *bindir = g_path_get_dirname(exe);
    g_autofree char *beside = g_build_filename(bindir, "..", "share", "doc", "qsim", NULL);
    g_autofree char *canon = g_canonicalize_filename(beside, NULL);
    g_autofree char *probe = g_build_filename(canon, "isa.md", NULL);
    if (g_file_test(probe, G_FILE_TEST_IS_REGULAR))
        dir = g_intern_string(canon);
    return dir;
}

/* Help texts name docs as QSIM_DOC("x.md"): shown, they name the docs this binary can reach. */
static const gchar *doc_paths(const gchar *text, gpointer unused)
{
    (void)unused;
    const char *dir = cli_doc_dir();
    if (!text || !strcmp(dir, QSIM_DOCDIR) || !strstr(text, QSIM_DOCDIR "/"))
        return text;
    g_autoptr(GString) s = g_string_new(text);
    g_autofree char *to = g_strconcat(dir, "/", NULL);
    g_string_replace(s, QSIM_DOCDIR "/", to, 0);
    return g_intern_string(s->str);
}

gboolean cli_parse(GOptionContext *ctx, int *argc, char ***argv)
{
    g_autoptr(GError) error = NULL;
    /* Help then reads "Usage: qsim NAME [OPTION...]". */
    g_autofree char *prg = g_strdup_printf("qsim %s", (*argv)[0]);
    g_set_prgname(prg);
    if (!g_option_context_parse(ctx, argc, argv, &error)) {
        cli_eprintf("qsim %s: %s (try `qsim %s --help`)\n", (*argv)[0], error->message, (*argv)[0]);
        return FALSE;
    }
    return TRUE;
}

/* ---- numbers on the command line ---- */

/* GOption reads integers with strtol's base 0: `--threads 010` was 8 and `--runs 0x10` 16, and
 * `-1` passed as any option's "not given".  Every integer option is read the one way qsim reads
 * whole numbers (whole_number.h: decimal digits in the option's range) before GOption sees it,
 * so GOption never fails on one, and a value out of the range cannot reach the command. */

static gboolean takes_arg(const GOptionEntry *e)
{
    return e->arg != G_OPTION_ARG_NONE && !(e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG));
}

static gboolean is_integer_option(const GOptionEntry *e)
{
    return e->arg == G_OPTION_ARG_INT || e->arg == G_OPTION_ARG_INT64;
}

/* The range of integer option `e` (every one has a row: a missing row is our bug). */
static const CliIntRange *range_of(const CliIntRange *ranges, const GOptionEntry *e)
{
    for (const CliIntRange *r = ranges; r && r->option; r++)
        if (!strcmp(r->option, e->long_name)) {
            g_assert(r->min >= 0 && r->min <= r->max && (e->arg == G_OPTION_ARG_INT64 || r->max <= G_MAXINT));
            return r;
        }
    g_error("integer option --%s has no range (CliIntRange)", e->long_name);
}

static const GOptionEntry *find_long(const GOptionEntry *const *groups, const char *name, gsize len)
{
    for (guint g = 0; groups[g]; g++)
        for (const GOptionEntry *e = groups[g]; e->long_name; e++)
            if (strlen(e->long_name) == len && !strncmp(e->long_name, name, len))
                return e;
    return NULL;
}

static const GOptionEntry *find_short(const GOptionEntry *const *groups, char c)
{
    for (guint g = 0; groups[g]; g++)
        for (const GOptionEntry *e = groups[g]; e->long_name; e++)
            if (e->short_name == c)
                return e;
    return NULL;
}

static gboolean check_integer(const GOptionEntry *e, const char *value, const CliIntRange *ranges, GError **error)
{
    const CliIntRange *r = range_of(ranges, e);
    g_autofree char *who = g_strconcat("--", e->long_name, NULL);
    guint64 v;
    return whole_number_parse(who, value, (guint64)r->min, (guint64)r->max, &v, error);
}

/* Every integer option's value in argv is a whole number in its range.  Options are found as
 * GOption finds them: --name=VALUE, --name VALUE, -c VALUE, -cVALUE, short flags run together;
 * `--` ends them.  What this cannot place (an unknown option) is left to GOption to report. */
static gboolean check_integer_options(const GOptionEntry *const *groups, const CliIntRange *ranges, int argc,
                                      char **argv, GError **error)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (a[0] != '-' || !a[1])
            continue;
        if (a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            const GOptionEntry *e = find_long(groups, name, eq ? (gsize)(eq - name) : strlen(name));
            if (!e || !takes_arg(e))
                continue;
            const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (value && is_integer_option(e) && !check_integer(e, value, ranges, error))
                return FALSE;
            continue;
        }
        for (const char *c = a + 1; *c; c++) {
            const GOptionEntry *e = find_short(groups, *c);
            if (!e)
                break;
            if (!takes_arg(e))
                continue;
            const char *value = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (value && is_integer_option(e) && !check_integer(e, value, ranges, error))
                return FALSE;
            break;
        }
    }
    return TRUE;
}

/* Set while cli_describe_commands runs a command: its parsing records into it instead. */
static CliCommandDoc *describing;

static void cli_option_free(gpointer p)
{
    CliOption *o = p;
    g_free(o->long_name);
    g_free(o->arg);
    g_free(o->help);
    g_free(o);
}

static void cli_command_doc_free(gpointer p)
{
    CliCommandDoc *d = p;
    g_free(d->params);
    g_free(d->summary);
    g_ptr_array_unref(d->options);
    g_free(d);
}

static void describe_entries(const GOptionEntry *e, const CliIntRange *ranges)
{
    for (; e && e->long_name; e++) {
        if (is_integer_option(e))
            range_of(ranges, e); /* every integer option has its range: `qsim man` finds one missing */
        CliOption *o = g_new0(CliOption, 1);
        o->long_name = g_strdup(e->long_name);
        o->short_name = e->short_name;
        o->takes_arg = e->arg != G_OPTION_ARG_NONE && !(e->flags & G_OPTION_FLAG_NO_ARG);
        o->arg = g_strdup(e->arg_description);
        o->help = g_strdup(e->description);
        g_ptr_array_add(describing->options, o);
    }
}

static void describe(const char *params, const char *summary)
{
    describing->params = g_strdup(params ? params : "");
    describing->summary = g_strdup(summary ? summary : "");
}

GPtrArray *cli_describe_commands(void)
{
    GPtrArray *docs = g_ptr_array_new_with_free_func(cli_command_doc_free);
    for (const QsimCommand *c = qsim_commands; c->name; c++) {
        CliCommandDoc *d = g_new0(CliCommandDoc, 1);
        d->command = c;
        d->options = g_ptr_array_new_with_free_func(cli_option_free);
        char *args[] = { (char *)c->name, NULL };
        describing = d;
        c->fn(1, args);
        describing = NULL;
        g_assert(d->params); /* every command parses with cli_parse_command or cli_parse_workload_command */
        g_ptr_array_add(docs, d);
    }
    return docs;
}

gboolean cli_parse_command(int *argc, char ***argv, const char *params, const char *summary,
                           const GOptionEntry *entries, const CliIntRange *ranges)
{
    if (describing) {
        describe(params, summary);
        describe_entries(entries, ranges);
        return FALSE;
    }
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_translate_func(ctx, doc_paths, NULL, NULL);
    g_option_context_set_summary(ctx, summary);
    if (entries) {
        g_option_context_add_main_entries(ctx, entries, NULL);
        /* The main group add_main_entries makes translates with gettext, not the context's
         * function: an option's help naming a doc (--cc's) needs doc_paths too. */
        g_option_group_set_translate_func(g_option_context_get_main_group(ctx), doc_paths, NULL, NULL);
    }
    const GOptionEntry *groups[] = { entries, NULL };
    gboolean ok = parse_checked(ctx, entries ? groups : groups + 1, ranges, argc, argv);
    g_option_context_free(ctx);
    return ok;
}

gboolean cli_parse_workload_command(int *argc, char ***argv, const char *params, const char *summary,
                                    const GOptionEntry *what, WorkloadFlags *wf, const GOptionEntry *how,
                                    const CliIntRange *ranges)
{
    if (describing) {
        describe(params, summary);
        describe_entries(what, ranges);
        describe_entries(wf->entries, ranges);
        describe_entries(how, ranges);
        return FALSE;
    }
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    /* The workload entries are callbacks: their group's user data is what they parse into. */
    g_option_context_set_translate_func(ctx, doc_paths, NULL, NULL);
    GOptionGroup *g = g_option_group_new("qsim", "Options", "Show the options", wf, NULL);
    g_option_group_set_translate_func(g, doc_paths, NULL, NULL);
    g_option_group_add_entries(g, what);
    g_option_group_add_entries(g, wf->entries);
    g_option_group_add_entries(g, how);
    g_option_context_set_main_group(ctx, g);
    const GOptionEntry *groups[4] = { NULL };
    guint ng = 0;
    const GOptionEntry *all[] = { what, wf->entries, how };
    for (guint i = 0; i < G_N_ELEMENTS(all); i++)
        if (all[i])
            groups[ng++] = all[i];
    gboolean ok = parse_checked(ctx, groups, ranges, argc, argv);
    g_option_context_free(ctx);
    return ok;
}

const CliModeRule *cli_mode_conflict(const CliModeRule *rules, guint n, guint given)
{
    for (guint i = 0; i < n; i++)
        if (!rules[i].combine && (given & rules[i].modes) == rules[i].modes)
            return &rules[i];
    return NULL;
}

int cli_fail(const GError *error)
{
    cli_eprintf("qsim: %s\n", error->message);
    return QSIM_EXIT_USAGE;
}

/* " (a -> b -> a)": the links from `path` round to one already passed, as each is written;
 * "" when the path is no link itself (the loop is in a folder above it) or the chain is not a
 * plain loop. */
static char *link_loop_text(const char *path)
{
    GString *s = g_string_new(NULL);
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *cur = g_canonicalize_filename(path, NULL);
    g_string_append(s, path);
    for (guint steps = 0; steps < 40; steps++) {
        g_ptr_array_add(seen, g_strdup(cur));
        g_autofree char *target = g_file_read_link(cur, NULL);
        if (!target)
            break;
        g_autofree char *dir = g_path_get_dirname(cur);
        g_autofree char *next = g_canonicalize_filename(target, dir);
        g_string_append_printf(s, " -> %s", target);
        for (guint i = 0; i < seen->len; i++)
            if (!strcmp(seen->pdata[i], next)) {
                g_autofree char *chain = g_string_free(s, FALSE);
                return g_strdup_printf(" (%s)", chain);
            }
        g_free(cur);
        cur = g_steal_pointer(&next);
    }
    g_string_free(s, TRUE);
    return g_strdup("");
}

gboolean cli_output_path_ok(const char *option, const char *path)
{
    /* The system's answer to "" is "Invalid argument" with no name: say what is wrong. */
    if (!*path) {
        cli_eprintf("qsim: %s '': an empty path (name a file or folder)\n", option);
        return FALSE;
    }
    /* A loop of symbolic links: making the folder says "Not a directory", and writing the file
     * would replace the link; neither says what the path is. */
    struct stat st;
    if (stat(path, &st) != 0 && errno == ELOOP) {
        g_autofree char *loop = link_loop_text(path);
        cli_eprintf("qsim: %s %s: a loop of symbolic links%s\n", option, path, loop);
        return FALSE;
    }
    return TRUE;
}

gboolean cli_output_file_ok(const char *option, const char *path)
{
    if (!cli_output_path_ok(option, path))
        return FALSE;
    g_autoptr(GError) error = NULL;
    if (output_file_check(path, &error))
        return TRUE;
    cli_eprintf("qsim: %s %s\n", option, error->message);
    return FALSE;
}
