/* Checking: single writer or many readers for every line, every readable copy holding the last
 * stored value (the golden copy), and inclusion (a private line is in its socket's LLC).
 * Checked per line after every transition when memsys_set_check() is on, and over all lines
 * by memsys_check_invariants().  The first violation is kept, the rest are counted. */
#include "coherence/memsys_internal.h"

void invariant_violation(MemSys *ms, const char *fmt, ...)
{
    ms->n_violations++;
    if (ms->violation->len)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_string_append_vprintf(ms->violation, fmt, ap);
    va_end(ap);
    g_string_append_printf(ms->violation, " (cycle %" G_GUINT64_FORMAT ")", engine_now(ms->e));
}

static gboolean can_read(guint s) { return coh_cache_state_readable(s); }

/* Single writer or many readers; every readable copy holds the last stored value. */
void invariant_check_line(MemSys *ms, uint64_t line)
{
    guint writers = 0, readers = 0, owners = 0;
    const DirEntry *d = dir_find(ms, line);
    if (!d)
        return; /* never touched: no core holds it */
    for (guint i = 0; i < ms->ncores; i++) {
        const PrivLine *pl = dir_holder(d, i);
        if (!pl)
            continue;
        guint s = pl->state;
        if (s == CS_M || s == CS_E)
            writers++;
        else if (can_read(s))
            readers++;
        if (s == CS_O || s == CS_OM_AC || s == CS_OM_A)
            owners++;
        if (can_read(s) && memcmp(pl->data, d->golden, ms->line_size))
            invariant_violation(ms, "core %u holds line 0x%" G_GINT64_MODIFIER "x in %s with stale data", i, line,
                      coh_cache_state_name(s));
    }
    if (writers > 1 || (writers == 1 && readers > 0) || owners > 1)
        invariant_violation(ms, "line 0x%" G_GINT64_MODIFIER "x: %u cores in M/E, %u more readers, %u owners", line,
                  writers, readers, owners);
}

gboolean memsys_check_invariants(const MemSys *ms, GError **error)
{
    MemSys *mm = (MemSys *)ms; /* invariant_check_line records into the violation log */
    g_autoptr(GArray) lines = memsys_lines(ms);
    for (guint i = 0; i < lines->len; i++) {
        uint64_t line = g_array_index(lines, uint64_t, i);
        invariant_check_line(mm, line);
        /* inclusion: a stable private copy is in its socket's LLC */
        for (guint c = 0; c < ms->ncores; c++) {
            const PrivLine *pl = pl_find(ms, &ms->cores[c], line);
            if (pl && (pl->in_l1 || pl->in_l2) && !llc_has(ms, ms->cores[c].socket, line))
                invariant_violation(mm, "line 0x%" G_GINT64_MODIFIER "x in core %u's caches but not in its LLC",
                          line, c);
        }
    }
    if (ms->violation->len) {
        g_set_error(error, COH_ERROR, COH_ERROR_INVARIANT, "%s (%" G_GUINT64_FORMAT " violations)",
                    ms->violation->str, ms->n_violations);
        return FALSE;
    }
    return TRUE;
}

void memsys_set_check(MemSys *ms, gboolean on) { ms->check = on; }

/* Quiet means stable: with no message in flight and nothing pending, a line that some cache or
 * the home still holds in a transient state waits for something that will never come (a
 * dropped message, a deadlock).  Checked by whoever knows the memory system is quiet. */
gboolean memsys_check_quiet(const MemSys *ms, GError **error)
{
    g_autoptr(GArray) lines = memsys_lines(ms);
    for (guint i = 0; i < lines->len; i++) {
        uint64_t line = g_array_index(lines, uint64_t, i);
        for (guint c = 0; c < ms->ncores; c++) {
            guint s = memsys_cache_state(ms, c, line);
            if (!coh_cache_state_stable(s)) {
                g_set_error(error, COH_ERROR, COH_ERROR_INVARIANT, "the memory system is quiet, but core %u holds "
                            "line 0x%" G_GINT64_MODIFIER "x in %s (%s): what it waits for will never come (cycle %"
                            G_GUINT64_FORMAT ")", c, line, coh_cache_state_name(s), coh_cache_states[s].doc,
                            engine_now(ms->e));
                return FALSE;
            }
        }
        guint d = memsys_dir_state(ms, line);
        if (!coh_dir_state_stable(d)) {
            g_set_error(error, COH_ERROR, COH_ERROR_INVARIANT, "the memory system is quiet, but the home holds line 0x%"
                        G_GINT64_MODIFIER "x in %s, waiting for %s, which will never come (cycle %" G_GUINT64_FORMAT ")",
                        line, coh_dir_state_name(d), coh_dir_states[d].wait, engine_now(ms->e));
            return FALSE;
        }
    }
    return TRUE;
}
