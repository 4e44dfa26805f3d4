/* Where a lock's source file is.  Every place that takes a lock by name (`qsim run --lock` and
 * `--vs`, `qsim verify --lock`, `qsim native --lock`, a sweep's `locks:`) looks it up here, so
 * a name and a path work the same everywhere. */
#ifndef QSIM_LOCK_FIND_H
#define QSIM_LOCK_FIND_H

#include <glib.h>
#include "sim/base/arch.h"

/* The path of lock NAME:
 *   - NAME itself when it is a path: it has a '/', or it ends in ".qs" or ".c" and names a file;
 *   - else NAME.qs (NAME may already end in .qs) in the lock folders, first match winning:
 *     $QSIM_LOCK_PATH (colon-separated), then qsim's own (config_search_dirs("locks")).
 * NULL with a G_FILE_ERROR otherwise: "no built-in lock `NAME`" with a close name if there is
 * one, "PATH: no such lock file" for a path, or input_file_check's refusal of a path that is
 * no lock source (a device, a file over the size limit). */
char *lock_find(const char *name, GError **error);

/* The lookup lock_find makes, for any ISA source kept in folders as locks are: `kind` names it
 * in messages ("lock", "scenario"), `subdir` is its folders' name ("locks", "scenarios": also
 * what `qsim list` calls them), `env` their variable ("$QSIM_LOCK_PATH"). */
char *source_find(const char *name, const char *kind, const char *subdir, const char *env, GError **error);

/* The ISA text of the lock source at `path` (as lock_find gives it), for `arch`: a .qs file's
 * text; a .c file compiled by GCC and translated (sim/cfront/cfront.h: CFRONT_ERROR when the
 * compiler or the translation refuses it, or the arch has no translator yet). */
gboolean lock_read(const char *path, ArchTarget target, char **text, GError **error);

/* The names of the locks in the lock folders, sorted. */
GPtrArray *lock_names(void);

#endif
