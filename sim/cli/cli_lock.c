/* The options that name the lock to run, for `qsim run`, `qsim native` and `qsim verify`: one
 * table, so the three spell, abbreviate and explain them the same way (and `qsim man` and the
 * completion, made from the commands' entries, show one text for each). */
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/cfront/cfront.h"

void cc_flags_entries(CcFlags *f, GOptionEntry entries[CC_FLAGS_N])
{
    const GOptionEntry table[CC_FLAGS_N] = { CC_FLAGS_ENTRIES(f) };
    memcpy(entries, table, sizeof table);
}

gboolean cc_flags_apply(const CcFlags *f, const char *const *locks, guint n_locks, GError **error)
{
    if ((f->cc || f->cflags) && locks) {
        gboolean any_c = FALSE;
        for (guint i = 0; i < n_locks; i++)
            any_c |= locks[i] && cfront_is_c_path(locks[i]);
        /* A compiler named for no C source is a mistake, not a choice: say so (the values
         * themselves are not echoed, they may be long). */
        if (!any_c) {
            g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                        "--cc and --cflags compile a lock in C (--lock FILE.c), and no lock here is one");
            return FALSE;
        }
    }
    return cfront_set_compiler(f->cc, f->cflags, error);
}

void cc_flags_clear(CcFlags *f)
{
    g_clear_pointer(&f->cc, g_free);
    g_clear_pointer(&f->cflags, g_free);
}

void lock_flags_entries(LockFlags *f, GOptionEntry entries[LOCK_FLAGS_N])
{
    const GOptionEntry table[LOCK_FLAGS_N - CC_FLAGS_N] = {
        { "lock", 'l', 0, G_OPTION_ARG_STRING, &f->lock,
          "Lock: a name from `qsim list locks` (or $QSIM_LOCK_PATH), or a path to a .qs or .c file", "NAME|PATH" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &f->lock_file,
          "Your own lock source, as --lock PATH (the ISA: " QSIM_DOC("isa.md") ")", "PATH" },
        { "lock-param", 0, 0, G_OPTION_ARG_STRING_ARRAY, &f->params,
          "Set a lock's tunable (its `.param`), e.g. --lock-param spin_count=1000 (repeatable)", "NAME=VALUE" },
    };
    memcpy(entries, table, sizeof table);
    cc_flags_entries(&f->cc, entries + 3);
}

void lock_flags_clear(LockFlags *f)
{
    cc_flags_clear(&f->cc);
    g_clear_pointer(&f->lock, g_free);
    g_clear_pointer(&f->lock_file, g_free);
    g_clear_pointer(&f->params, g_strfreev);
}
