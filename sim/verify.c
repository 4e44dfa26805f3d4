/* Lock verification (see verify.h). */
#include <string.h>
#include "sim/verify.h"
#include "cores/asm.h"
#include "cores/interp.h"
#include "cores/isa_exec.h"

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
static char *check_run(const Interp *in, const HarnessOptions *h)
{
    GString *g = g_string_new(NULL);
    InterpOutcome oc = interp_outcome(in);
    guint sleepers = interp_futex_sleepers(in);
    if (oc != INTERP_FINISHED && sleepers)
        g_string_append_printf(g, "lost wake-up: %u thread%s asleep in futex_wait with no futex_wake to come "
                               "(the run ended in %s); ", sleepers, sleepers == 1 ? "" : "s", interp_outcome_name(oc));
    else if (oc != INTERP_FINISHED)
        g_string_append_printf(g, "the run ended in %s; ", interp_outcome_name(oc));
    uint64_t want = (uint64_t)harness_writers(h) * h->iterations;
    uint64_t counter = read_var(in, HARNESS_COUNTER), viol = read_var(in, HARNESS_VIOLATIONS);
    if (oc == INTERP_FINISHED && counter != want)
        g_string_append_printf(g, "counter is %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT
                               " (lost updates: mutual exclusion failed); ", counter, want);
    if (viol)
        g_string_append_printf(g, "%" G_GUINT64_FORMAT " critical sections were entered while another "
                               "thread was inside; ", viol);
    if (oc == INTERP_FINISHED && h->readers) {
        uint64_t reads = read_var(in, HARNESS_READS), rwant = (uint64_t)MIN(h->readers, h->threads) * h->iterations;
        if (reads != rwant)
            g_string_append_printf(g, "%" G_GUINT64_FORMAT " read sections completed, expected %"
                                   G_GUINT64_FORMAT "; ", reads, rwant);
    }
    for (guint t = 0; t < h->threads && oc == INTERP_FINISHED; t++)
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
    g_autofree char *harness = harness_source(&h);
    AsmSource src[2] = { { lock_name, lock_text }, { "<harness>", harness } };
    /* The lock alone first, so a missing entry point reads as such, not as the harness's
     * undefined label. */
    g_autoptr(IsaProgram) alone = asm_assemble_with_params(src, 1, o->target, o->lock_params, error);
    if (!alone)
        return FALSE;
    const char *need[] = { "lock", "unlock", "read_lock", "read_unlock" };
    for (guint i = 0; i < (h.readers ? 4u : 2u); i++)
        if (isa_program_find_entry(alone, need[i]) < 0) {
            g_set_error(error, ASM_ERROR, ASM_ERROR_INVALID,
                        "%s: no entry point `%s`%s (mark its label with `.entry %s`)", lock_name, need[i],
                        i >= 2 ? ": --readers needs a reader/writer lock" : "", need[i]);
            return FALSE;
        }
    g_autoptr(IsaProgram) p = asm_assemble_with_params(src, 2, o->target, o->lock_params, error);
    if (!p)
        return FALSE;
    /* Generous: a fair schedule needs about threads x ops-per-acquisition steps per acquisition. */
    guint64 bound = o->max_steps ? o->max_steps
                                 : 2000000 + (guint64)h.threads * h.threads * h.iterations *
                                                 (2000 + h.cs_work + h.think);
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
        char *why = check_run(in, &h);
        if (why) {
            r->ok = FALSE;
            r->failed_seed = seed;
            r->failure = why;
            break;
        }
    }
    return TRUE;
}

