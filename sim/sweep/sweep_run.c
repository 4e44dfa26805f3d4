/* Running a sweep: the points on a GThreadPool, each finished point appended to results.jsonl
 * at once (so a kill loses only points in flight), then results sorted by point so that the
 * files do not depend on -j or on the order points finished. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"

/* Shared by the workers; everything but `s` is guarded by `lock`.  Each run builds its own
 * machine, so the simulator itself shares nothing between workers. */
typedef struct {
    const Sweep *s;
    GMutex lock;
    FILE *jsonl;
    guint done, total, failed;
    gint64 start;
    gboolean progress;
    GError *io_error;     /* the first write error; later points are still run but not lost silently */
    guint kill_after;     /* tests: exit abruptly after this many rows, like a kill (0: never) */
} SweepRunState;

static void format_duration(char *buf, gsize n, double secs)
{
    guint s = (guint)(secs + 0.5);
    if (s >= 3600)
        g_snprintf(buf, n, "%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
    else
        g_snprintf(buf, n, "%u:%02u", s / 60, s % 60);
}

static void progress_line(SweepRunState *st)
{
    double el = (g_get_monotonic_time() - st->start) / 1e6;
    char e[32], r[32] = "?";
    format_duration(e, sizeof e, el);
    if (st->done)
        format_duration(r, sizeof r, el / st->done * (st->total - st->done));
    fprintf(stderr, "\rqsim sweep: %u/%u points", st->done, st->total);
    if (st->failed)
        fprintf(stderr, " (%u failed)", st->failed);
    fprintf(stderr, ", %s elapsed, about %s left   ", e, r);
    fflush(stderr);
}

static void run_point(gpointer data, gpointer user)
{
    SweepRunState *st = user;
    guint p = GPOINTER_TO_UINT(data) - 1;
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(st->s, p, &o, sets);
    RunResult r;
    g_autoptr(GError) error = NULL;
    gboolean ran = run_simulation(&o, &r, &error);
    /* A point the run refuses (more threads than the config has cores...) is recorded as a
     * failure, like a stalled run: one bad combination should not cost the rest. */
    g_autofree char *line = sweep_row_json(st->s, p, ran ? &r : NULL, ran ? NULL : error->message);
    gboolean ok = ran && r.ok;
    if (ran)
        run_result_clear(&r);

    g_mutex_lock(&st->lock);
    if (!st->io_error)
        sweep_append_line(st->jsonl, line, &st->io_error);
    st->done++;
    st->failed += !ok;
    if (st->progress)
        progress_line(st);
    if (st->kill_after && st->done >= st->kill_after)
        _exit(137);
    g_mutex_unlock(&st->lock);
}

gboolean sweep_execute(const Sweep *s, const SweepRunOptions *o, guint *failed, GError **error)
{
    *failed = 0;
    if (g_mkdir_with_parents(o->out, 0777) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", o->out, g_strerror(errno));
        return FALSE;
    }
    g_autofree char *path = g_build_filename(o->out, "results.jsonl", NULL);
    gboolean torn = FALSE;
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, &torn, error);
    if (!rows)
        return FALSE;
    if ((rows->len || torn) && !o->resume) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT,
                    "%s already holds %u finished points: add --resume to continue that sweep, or choose "
                    "another --out", path, rows->len);
        return FALSE;
    }
    /* Resume only rows whose point still means the same thing: a changed sweep file must not
     * reuse stale results under new axis values. */
    g_autofree gboolean *done = g_new0(gboolean, s->npoints);
    g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(sweep_row_free);
    for (guint i = 0; i < rows->len; i++) {
        SweepRow *r = rows->pdata[i];
        g_autofree char *key = r->point < s->npoints ? sweep_point_key(s, r->point) : NULL;
        if (!key || strcmp(key, r->key)) {
            g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_MISMATCH,
                        "%s: point %u was run as `%s`, but %s now %s%s%s; the sweep file changed: "
                        "use another --out (or remove %s)", path, r->point, r->key, s->filename,
                        key ? "makes it `" : "has fewer points", key ? key : "", key ? "`" : "", o->out);
            return FALSE;
        }
        if (done[r->point])
            continue;
        done[r->point] = TRUE;
        rows->pdata[i] = NULL;
        g_ptr_array_add(keep, r);
    }
    /* Start from the clean rows (a line cut short by a kill would glue onto the next one). */
    if ((keep->len || torn) && !sweep_results_write(o->out, keep, error))
        return FALSE;
    if (!sweep_meta_write(o->out, s->fingerprint, s->npoints, s->filename, o->shard, o->nshards, error))
        return FALSE;

    SweepRunState st = { .s = s, .progress = o->progress, .start = g_get_monotonic_time() };
    g_mutex_init(&st.lock);
    const char *ka = g_getenv("QSIM_SWEEP_KILL_AFTER");
    st.kill_after = ka ? (guint)atoi(ka) : 0;
    st.jsonl = fopen(path, "a");
    if (!st.jsonl) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    g_autoptr(GArray) pending = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint p = 0; p < s->npoints; p++)
        if (p % o->nshards == o->shard - 1 && !done[p])
            g_array_append_val(pending, p);
    st.total = pending->len;
    if (pending->len) {
        GThreadPool *pool = g_thread_pool_new(run_point, &st, (gint)MIN(o->jobs, pending->len), TRUE, error);
        if (!pool) {
            fclose(st.jsonl);
            return FALSE;
        }
        for (guint i = 0; i < pending->len; i++)
            g_thread_pool_push(pool, GUINT_TO_POINTER(g_array_index(pending, guint, i) + 1), NULL);
        g_thread_pool_free(pool, FALSE, TRUE);   /* waits for every point */
    }
    fclose(st.jsonl);
    g_mutex_clear(&st.lock);
    if (st.progress && st.total)
        fputc('\n', stderr);
    if (st.io_error) {
        g_propagate_error(error, st.io_error);
        return FALSE;
    }
    g_autoptr(GPtrArray) all = sweep_rows_read(path, NULL, error);
    if (!all || !sweep_results_write(o->out, all, error))
        return FALSE;
    for (guint i = 0; i < all->len; i++)
        *failed += !((SweepRow *)all->pdata[i])->ok;
    return TRUE;
}
