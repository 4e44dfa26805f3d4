/* The per-instruction profile of a run (`qsim run --profile`): the cores' per-pc counters
 * (cores/core_profile.h), summed over the cores, grouped by source line, as the report's
 * "profile" array and as a table for people.
 *
 * One row per source line that holds an op, in source order (the lock file's lines, then the
 * harness's, named "<harness>"), each an object:
 *   file, line     where the op is ("qspin-cmpxchg", 42): the lock as given to --lock, or
 *                  "<harness>" for the workload loop around it (`qsim asm --harness` lists it)
 *   source         the line's text, trimmed
 *   then every ProfileRow counter by name (profile_row_registry), summed over the line's ops
 *   and over the cores. */
#ifndef QSIM_RUN_PROFILE_H
#define QSIM_RUN_PROFILE_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include "cores/isa/isa.h"
#include "cores/core_profile.h"

/* The report's "profile" array.  rows: one per op of `prog` (prog->insns->len), summed over
 * the cores; texts[i]: the source of prog->files[i] (NULL: lines shown without text). */
JsonNode *run_profile_build(const IsaProgram *prog, const char *const *texts, const ProfileRow *rows);
/* The profile array as a table for people: the rows with any count, their totals last. */
char *run_profile_text(JsonArray *profile);
/* The report's per-variable counters (`variables`) as a table beside the profile: one row per
 * variable (a lock's or the harness's, lines of one name summed), one column per counter; NULL
 * when there are none. */
char *run_profile_variables_text(JsonObject *variables);
/* The profile keys with unit and meaning, as Markdown table rows (for docs/report.md). */
char *run_profile_keys_markdown(void);

#endif
