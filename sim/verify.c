/* Lock verification (see verify.h). */
#include <string.h>
#include "sim/verify.h"
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_exec.h"

void verify_options_init(VerifyOptions *o)
{
    memset(o, 0, sizeof *o);
    workload_init(&o->workload, WL_VERIFY);
    o->target = arch_target(ARCH_X86);
    o->seeds = 100;
    o->first_seed = 1;
}

void verify_result_clear(VerifyResult *r)
{
    g_clear_pointer(&r->failure, g_free);
}

static uint64_t read_var(const Interp *in, const char *name)
{
    uint64_t v = 0;
    interp_read_sym(in, name, 0, 8, &v);
    return v;
}

/* Checks one finished run; NULL when everything held, else what did not. */
static char *check_run(const Interp *in, const IsaProgram *p, const HarnessOptions *h)
{
    GString *g = g_string_new(NULL);
    InterpOutcome oc = interp_outcome(in);
    guint sleepers = interp_futex_sleepers(in);
    if (oc != INTERP_FINISHED && sleepers)
        g_string_append_printf(g, "lost wake-up: %u thread%s asleep in futex_wait with no futex_wake to come "
                               "(the run ended in %s); ", sleepers, sleepers == 1 ? "" : "s", interp_outcome_name(oc));
    else if (oc != INTERP_FINISHED)
        g_string_append_printf(g, "the run ended in %s; ", interp_outcome_name(oc));
    /* A `halt` in the lock's code ends its thread early: say so, rather than count what it left
     * undone as lost updates. */
    gboolean halted_in_lock = FALSE;
    for (guint t = 0; t < h->threads; t++) {
        const InterpThread *th = interp_thread(in, t);
        if (th->state != THREAD_HALTED || !harness_pc_in_lock(p, th->pc))
            continue;
        const IsaInsn *i = &g_array_index(p->insns, IsaInsn, th->pc);
        g_autofree char *pos = asm_format_pos(p, i);
        g_string_append_printf(g, "thread %u halted inside the lock at %s (`halt`) after %" G_GUINT64_FORMAT
                               " acquisitions; ", t, pos, th->marks[2]);
        halted_in_lock = TRUE;
    }
    uint64_t want = (uint64_t)harness_writers(h) * h->iterations;
    uint64_t counter = read_var(in, HARNESS_COUNTER), viol = read_var(in, HARNESS_VIOLATIONS);
    /* The counts say something only of a run that finished its loops. */
    gboolean finished = oc == INTERP_FINISHED && !halted_in_lock;
    if (finished && counter != want)
        g_string_append_printf(g, "counter is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT
                               " (lost updates: mutual exclusion failed); ", counter, want);
    if (viol)
        g_string_append_printf(g, "%" G_GUINT64_FORMAT " critical sections were entered while another "
                               "thread was inside; ", viol);
    if (finished && h->readers) {
        uint64_t reads = read_var(in, HARNESS_READS), rwant = (uint64_t)MIN(h->readers, h->threads) * h->iterations;
        if (reads != rwant)
            g_string_append_printf(g, "%" G_GUINT64_FORMAT " read sections completed, expected %"
                                   G_GUINT64_FORMAT "; ", reads, rwant);
    }
    for (guint t = 0; t < h->threads && finished; t++)
        if (interp_thread(in, t)->marks[2] != h->iterations)
            g_string_append_printf(g, "thread %u acquired %" G_GUINT64_FORMAT " times, expected %u; ", t,
                                   interp_thread(in, t)->marks[2], h->iterations);
    if (!g->len) {
        g_string_free(g, TRUE);
        return NULL;
    }
    g_string_truncate(g, g->len - 2);
    g_autofree char *states = interp_describe(in);
    g_string_append_printf(g, "\n%s", states);
    return g_string_free(g, FALSE);
}

gboolean verify_lock(const char *lock_name, const char *lock_text, const VerifyOptions *o,
                     VerifyResult *r, GError **error)
{
    memset(r, 0, sizeof *r);
    HarnessOptions h;
    workload_harness(&o->workload, &h);
    g_autoptr(IsaProgram) p = harness_assemble(lock_name, lock_text, &h, o->target, o->lock_params, error);
    if (!p)
        return FALSE;
    /* Generous: a fair schedule needs about threads x ops-per-acquisition steps per acquisition.
     * Saturating: at the workload table's maxima the product passes 64 bits. */
    guint64 bound = o->max_steps;
    if (!bound) {
        guint64 per = (guint64)h.threads * h.threads * (2000 + (guint64)h.cs_work + h.think);
        bound = per && h.iterations > (G_MAXUINT64 - 2000000) / per ? G_MAXUINT64
                                                                    : 2000000 + per * h.iterations;
    }
    r->ok = TRUE;
    for (guint k = 0; k < o->seeds; k++) {
        guint64 seed = o->first_seed + k;
        InterpOptions io = { .threads = h.threads, .seed = seed, .max_steps = bound, .line_size = o->line_size };
        g_autoptr(Interp) in = interp_new(p, &io, error);
        if (!in)
            return FALSE;
        interp_run(in);
        r->runs++;
        r->steps += interp_steps(in);
        r->max_readers = MAX(r->max_readers, read_var(in, HARNESS_MAX_READERS));
        char *why = check_run(in, p, &h);
        if (why) {
            r->ok = FALSE;
            r->failed_seed = seed;
            r->failure = why;
            break;
        }
    }
    return TRUE;
}

