/* Running a sweep: the points on a GThreadPool, each finished point appended to results.jsonl
 * at once (so a kill loses only points in flight), then results sorted by point so that the
 * files do not depend on -j or on the order points finished. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include "sim/sweep/sweep.h"
#include "sim/base/output_file.h"

/* Shared by the workers; everything but `s` is guarded by `lock`.  Each run builds its own
 * machine, so the simulator itself shares nothing between workers. */
typedef struct {
    const Sweep *s;
    const SweepRunOptions *o;
    GMutex lock;
    GCond finished;       /* signalled as each point finishes */
    FILE *jsonl, *times;
    char *jsonl_path, *times_path;
    guint done, total, failed, workers;
    double done_seconds;  /* host time of the points finished, summed */
    GArray *running;      /* of gint64: start times (monotonic us) of the points in flight */
    gint64 start;
    GError *io_error;     /* the first write error; later points are still run but not lost silently */
} SweepRunState;

/* Calls the progress callback with where the sweep stands (state locked). */
static void report_progress(SweepRunState *st, gboolean finished)
{
    if (!st->o->progress)
        return;
    gint64 now = g_get_monotonic_time();
    g_autofree double *running = g_new0(double, st->running->len + 1);
    for (guint i = 0; i < st->running->len; i++)
        running[i] = (now - g_array_index(st->running, gint64, i)) / 1e6;
    SweepProgress p = {
        .total = st->total, .done = st->done, .failed = st->failed, .workers = st->workers,
        .elapsed = (now - st->start) / 1e6, .done_seconds = st->done_seconds,
        .running = running, .nrunning = st->running->len,
    };
    st->o->progress(&p, finished, st->o->progress_user);
}

void sweep_run_order(GArray *pending)
{
    /* A fixed seed: the order is the same on every run and every machine (Fisher-Yates). */
    GRand *r = g_rand_new_with_seed(0x5eed);
    guint *v = (guint *)pending->data;
    for (guint i = pending->len; i > 1; i--) {
        guint j = (guint)g_rand_int_range(r, 0, (gint32)i);
        guint t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
    g_rand_free(r);
}

static void run_point(gpointer data, gpointer user)
{
    SweepRunState *st = user;
    guint p = GPOINTER_TO_UINT(data) - 1;
    RunOptions o;
    run_options_init(&o);
    g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func(g_free);
    sweep_point_options(st->s, p, &o, sets);
    gint64 t0 = g_get_monotonic_time();
    g_mutex_lock(&st->lock);
    g_array_append_val(st->running, t0);
    g_mutex_unlock(&st->lock);

    RunResult r;
    g_autoptr(GError) error = NULL;
    gboolean ran = run_simulation(&o, &r, &error);
    /* A point the run refuses (more threads than the config has cores...) is recorded as a
     * failure, like a stalled run: one bad combination should not cost the rest. */
    g_autofree char *line = sweep_row_json(st->s, p, ran ? &r : NULL, ran ? NULL : error->message);
    gboolean ok = ran && r.ok;
    if (ran)
        run_result_clear(&r);
    double secs = (g_get_monotonic_time() - t0) / 1e6;
    g_autofree char *time_line = sweep_host_time_json(st->s, p, secs);

    g_mutex_lock(&st->lock);
    for (guint i = 0; i < st->running->len; i++)
        if (g_array_index(st->running, gint64, i) == t0) {
            g_array_remove_index_fast(st->running, i);
            break;
        }
    /* Results first: a host time without its row is dropped on resume, never the reverse. */
    if (!st->io_error && sweep_append_line(st->jsonl, st->jsonl_path, line, &st->io_error))
        sweep_append_line(st->times, st->times_path, time_line, &st->io_error);
    st->done++;
    st->failed += !ok;
    st->done_seconds += secs;
    report_progress(st, TRUE);
    g_cond_signal(&st->finished);
    g_mutex_unlock(&st->lock);
}

/* Host times of the points kept on resume (others are dropped: their rows are gone). */
static gboolean keep_host_times(const Sweep *s, const char *out, const gboolean *done, GError **error)
{
    g_autoptr(GPtrArray) times = sweep_host_times_read(out, error);
    if (!times)
        return FALSE;
    g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func(sweep_row_free);
    guint npoints = s->npoints;
    g_autofree char *path = g_build_filename(out, SWEEP_HOST_TIMES, NULL);
    g_autofree gboolean *seen = g_new0(gboolean, npoints);
    for (guint i = 0; i < times->len; i++) {
        SweepRow *r = times->pdata[i];
        if (r->point >= npoints || !done[r->point] || seen[r->point])
            continue;
        if (!sweep_row_key_check(s, r, path, error))
            return FALSE;
        seen[r->point] = TRUE;
        times->pdata[i] = NULL;
        g_ptr_array_add(keep, r);
    }
    return sweep_host_times_write(out, keep, error);
}

static FILE *open_append(const char *dir, const char *name, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) local = NULL;
    FILE *f = output_file_open(path, OUTPUT_APPEND, &local);
    if (!f)
        g_set_error_literal(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, local->message);
    return f;
}

/* The sweep, with its results folder locked. */
static gboolean execute_locked(const Sweep *s, const SweepRunOptions *o, guint *failed, GError **error)
{
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
                        "%s:%u:1: point %u was run as `%s`, but %s now %s%s%s; the sweep file changed: "
                        "use another --out (or remove %s)", path, r->lineno, r->point, r->key, s->filename,
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
    if (!keep_host_times(s, o->out, done, error))
        return FALSE;
    SweepMeta meta;
    sweep_meta_of(s, o->shard, o->nshards, &meta);
    gboolean meta_ok = sweep_meta_write(o->out, &meta, error);
    sweep_meta_clear(&meta);
    if (!meta_ok)
        return FALSE;

    SweepRunState st = { .s = s, .o = o, .start = g_get_monotonic_time() };
    g_mutex_init(&st.lock);
    g_cond_init(&st.finished);
    st.running = g_array_new(FALSE, FALSE, sizeof(gint64));
    st.jsonl_path = g_build_filename(o->out, "results.jsonl", NULL);
    st.times_path = g_build_filename(o->out, SWEEP_HOST_TIMES, NULL);
    st.jsonl = open_append(o->out, "results.jsonl", error);
    st.times = st.jsonl ? open_append(o->out, SWEEP_HOST_TIMES, error) : NULL;
    g_autoptr(GArray) pending = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint p = 0; p < s->npoints; p++)
        if (p % o->nshards == o->shard - 1 && !done[p])
            g_array_append_val(pending, p);
    sweep_run_order(pending);
    st.total = pending->len;
    st.workers = MIN(o->jobs, MAX(pending->len, 1u));
    gboolean ok = st.times != NULL;
    if (ok && pending->len) {
        GThreadPool *pool = g_thread_pool_new(run_point, &st, (gint)st.workers, TRUE, error);
        ok = pool != NULL;
        if (pool) {
            g_mutex_lock(&st.lock);
            report_progress(&st, FALSE);   /* the start, for a batch log */
            g_mutex_unlock(&st.lock);
            for (guint i = 0; i < pending->len; i++)
                g_thread_pool_push(pool, GUINT_TO_POINTER(g_array_index(pending, guint, i) + 1), NULL);
            /* Wait for the points, telling the progress callback where they stand about once a
             * second (a batch log wants a line even while one long point runs). */
            g_mutex_lock(&st.lock);
            while (st.done < st.total) {
                gint64 until = g_get_monotonic_time() + G_USEC_PER_SEC;
                if (!g_cond_wait_until(&st.finished, &st.lock, until))
                    report_progress(&st, FALSE);
            }
            g_mutex_unlock(&st.lock);
            g_thread_pool_free(pool, FALSE, TRUE);
        }
    }
    if (st.jsonl)
        fclose(st.jsonl);
    if (st.times)
        fclose(st.times);
    g_free(st.jsonl_path);
    g_free(st.times_path);
    g_array_unref(st.running);
    g_cond_clear(&st.finished);
    g_mutex_clear(&st.lock);
    if (st.io_error) {
        g_clear_error(error);
        g_propagate_error(error, st.io_error);
        return FALSE;
    }
    if (!ok)
        return FALSE;
    g_autoptr(GPtrArray) all = sweep_rows_read(path, NULL, error);
    if (!all || !sweep_results_write(o->out, all, error))
        return FALSE;
    g_autoptr(GPtrArray) times = sweep_host_times_read(o->out, error);
    if (!times || !sweep_host_times_write(o->out, times, error))
        return FALSE;
    for (guint i = 0; i < all->len; i++)
        *failed += !((SweepRow *)all->pdata[i])->ok;
    return TRUE;
}

gboolean sweep_execute(const Sweep *s, const SweepRunOptions *o, guint *failed, GError **error)
{
    *failed = 0;
    if (!*o->out) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_INPUT, "--out '': an empty path (name a folder)");
        return FALSE;
    }
    if (g_mkdir_with_parents(o->out, 0777) != 0) {
        g_set_error(error, QSIM_SWEEP_ERROR, QSIM_SWEEP_ERROR_IO, "%s: %s", o->out, g_strerror(errno));
        return FALSE;
    }
    int lock;
    if (!sweep_out_lock(o->out, &lock, error))
        return FALSE;
    gboolean ok = execute_locked(s, o, failed, error);
    sweep_out_unlock(lock);
    return ok;
}
