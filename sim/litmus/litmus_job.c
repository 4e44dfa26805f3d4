/* The `qsim litmus` job: a list of files through the whole pipeline.  Each file is read and
 * translated exactly once (a file may be a pipe that cannot be read twice); a file that cannot
 * be read, translated or run on the executor's architecture is named in a note and skipped, and
 * every other test still runs, so that one bad file in a catalogue does not hide the verdicts
 * of all the others.  The job decides the outcome; the command prints and maps it to an exit
 * status. */
#include <stdarg.h>
#include "sim/litmus/litmus.h"
#include "sim/base/report.h"

gboolean litmus_load_file(const char *path, LitmusTest **test, LitmusProgram **prog, GError **error)
{
    g_autoptr(LitmusTest) t = litmus_parse_file(path, error);
    LitmusProgram *p = t ? litmus_translate(t, error) : NULL;
    if (!p)
        return FALSE;
    *test = g_steal_pointer(&t);
    *prog = p;
    return TRUE;
}

/* A test ready to run: read, translated and accepted by the executor. */
typedef struct {
    LitmusTest *test;
    LitmusProgram *prog;
} LitmusLoaded;

static void loaded_clear(LitmusLoaded *l)
{
    litmus_test_free(l->test);
    litmus_program_free(l->prog);
}

static void note(GPtrArray *notes, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void note(GPtrArray *notes, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_ptr_array_add(notes, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* Reads every file before anything runs, so that the report knows how many tests there are;
 * FALSE when some file was skipped. */
static gboolean load_all(const char *const *files, const LitmusExecutor *ex, GArray *loaded, GPtrArray *notes)
{
    gboolean all = TRUE;
    for (guint i = 0; files[i]; i++) {
        g_autoptr(GError) e = NULL;
        LitmusLoaded l = { NULL, NULL };
        if (!litmus_load_file(files[i], &l.test, &l.prog, &e) || (ex && !litmus_executor_accepts(ex, l.test, &e))) {
            note(notes, "%s", e->message);
            loaded_clear(&l);
            all = FALSE;
            continue;
        }
        g_array_append_val(loaded, l);
    }
    return all;
}

/* Judges r against the kinds file, if any: FALSE when the check failed. */
static gboolean check_kind(LitmusResult *r, GHashTable *kinds, GPtrArray *notes)
{
    gpointer k;
    if (!kinds)
        return TRUE;
    if (!g_hash_table_lookup_extended(kinds, r->name, NULL, &k)) {
        note(notes, "%s: not in the kinds file; not checked", r->name);
        return TRUE;
    }
    litmus_result_check(r, (LitmusKind)GPOINTER_TO_INT(k));
    if (r->expect_ok)
        return TRUE;
    guint64 judged = r->runs - r->filtered;
    gboolean forbidden = r->expect == LK_FORBIDDEN;
    if (r->expect == LK_ALLOWED)
        note(notes, "%s: Allowed, but no execution under %s reaches its condition", r->name, r->model);
    else if (r->model)
        note(notes, "%s: %s, but %s in %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " executions under %s",
             r->name, litmus_kind_name(r->expect), forbidden ? "its condition holds" : "its condition fails",
             forbidden ? r->positive : judged - r->positive, judged, r->model);
    else
        note(notes, "%s: %s, but %s in %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " runs", r->name,
             litmus_kind_name(r->expect), forbidden ? "its condition was observed" : "its condition failed",
             forbidden ? r->positive : judged - r->positive, judged);
    return FALSE;
}

/* Runs the loaded tests in order and writes the report; FALSE when a check failed, or when a
 * run failed, which stops the job there (and leaves out a JSON report).  A test the exhaustive
 * search cannot take is named in a note and skipped (*unexplored set): the others go on. */
static gboolean run_all(const GArray *loaded, const LitmusJob *job, const LitmusExecutor *ex, GString *out,
                        GPtrArray *notes, gboolean *unexplored)
{
    gboolean checks_ok = TRUE;
    g_autoptr(JsonArray) results = json_array_new();
    for (guint i = 0; i < loaded->len; i++) {
        const LitmusLoaded *l = &g_array_index(loaded, LitmusLoaded, i);
        g_autoptr(GError) e = NULL;
        g_autoptr(LitmusResult) r = job->exhaustive ? litmus_explore_test(l->test, l->prog, &job->explore, &e)
                                                    : litmus_run_test(l->test, l->prog, ex, &job->run, &e);
        if (!r && job->exhaustive) {
            note(notes, "%s", e->message);
            *unexplored = TRUE;
            continue;
        }
        if (!r) {
            note(notes, "%s", e->message);
            return FALSE;
        }
        if (!check_kind(r, job->kinds, notes))
            checks_ok = FALSE;
        if (job->json) {
            json_array_add_element(results, litmus_result_json(r));
        } else {
            g_autofree char *txt = litmus_result_text(r);
            g_string_append(out, txt);
        }
    }
    if (job->json && json_array_get_length(results) > 0) {
        /* One test: one object, not an array. */
        g_autoptr(JsonNode) root = NULL;
        if (json_array_get_length(results) == 1) {
            root = json_array_dup_element(results, 0);
        } else {
            root = json_node_new(JSON_NODE_ARRAY);
            json_node_set_array(root, results);
        }
        g_autofree char *s = report_to_json(root);
        g_string_append(out, s);
    }
    return checks_ok;
}

LitmusJobOutcome litmus_job_run(const char *const *files, const LitmusJob *job, const LitmusExecutor *ex,
                                GString *out, GPtrArray *notes)
{
    g_autoptr(GArray) loaded = g_array_new(FALSE, FALSE, sizeof(LitmusLoaded));
    g_array_set_clear_func(loaded, (GDestroyNotify)loaded_clear);
    gboolean all_read = load_all(files, ex, loaded, notes), unexplored = FALSE;
    gboolean all_ok = run_all(loaded, job, ex, out, notes, &unexplored);
    return !all_read || unexplored ? LITMUS_JOB_BAD_INPUT : !all_ok ? LITMUS_JOB_FAILED : LITMUS_JOB_OK;
}
