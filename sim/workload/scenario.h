/* Scenarios: programs a teacher runs without writing a lock (`qsim run --scenario NAME`).  A
 * scenario is ISA source like a lock (scenarios/NAME.qs) with one entry point, `body`, which the
 * harness calls once per iteration (sim/workload/harness.h, HARNESS_SCENARIO): no lock, no critical
 * section, no mutual-exclusion verdict.  Its header may hold lines
 *
 *     #: --threads 4 --iterations 20 --set topology.cores_per_socket=4
 *
 * the options of `qsim run` it is meant to run with; the command line's own come after them,
 * so they win (and --set adds to them, on whichever config is named).  A problem one of the
 * header's words causes is put at its place in the file (scenario_options' `places`).  Scenarios are found by name as locks are
 * (sim/workload/lock_find.h): a path, or NAME.qs in $QSIM_SCENARIO_PATH, then qsim's own scenarios/. */
#ifndef QSIM_SCENARIO_H
#define QSIM_SCENARIO_H

#include <glib.h>

/* The entry point the harness calls, and the header's option lines' prefix. */
#define SCENARIO_ENTRY "body"
#define SCENARIO_OPTIONS_PREFIX "#:"

/* The path of scenario NAME: NAME itself when it is a path (it has a '/', or ends in ".qs" and
 * names a file), else NAME.qs in the scenario folders.  NULL with a G_FILE_ERROR otherwise:
 * "no built-in scenario `NAME`" with a close name if there is one, or "PATH: no such scenario
 * file". */
char *scenario_find(const char *name, GError **error);
/* The names of the scenarios in the scenario folders, sorted. */
GPtrArray *scenario_names(void);
/* The options of the header's `#:` lines of `text` (read from `file`), as words in order
 * (NULL-terminated, never NULL), and when `places` is not NULL, where each word starts
 * ("file:line:col", one per word), so that a problem a word causes later can point at it; NULL
 * with `file:line:col: ...` when a line does not split as a shell would split it, or holds
 * something that is no option (a word not starting with '-' where no option takes it is left
 * to the option parser, which names it). */
GStrv scenario_options(const char *file, const char *text, GStrv *places, GError **error);

#endif
