/* Microbenchmarks on the model: a small ISA program (each thread a `main`) run on a machine
 * config with the real memory system, as the published microbenchmarks that `qsim validate`
 * holds the model against were run on hardware (a loop of one instruction, a ping-pong between
 * two cores).  The program marks its timed region with `mark 1` (start) and `mark 2` (end) on
 * thread 0; the result is the cycles between them. */
#ifndef QSIM_MICROBENCH_H
#define QSIM_MICROBENCH_H

#include <glib.h>
#include "sim/base/config.h"
#include "cores/core.h"

typedef struct {
    Cycle region;            /* cycles between thread 0's mark 1 and mark 2 */
    Cycle cycles;            /* the whole run */
    CoreStats thread0;       /* thread 0's counters */
} MicrobenchResult;

/* Assembles `source` (named `name` in errors) for cfg's arch and runs it on `threads` cores,
 * placed first on socket 0 unless `cores` names them.  FALSE with an error for a source that
 * does not assemble, a run that stalls, or a region that was never marked. */
gboolean microbench_run(const QsimConfig *cfg, const char *name, const char *source, guint threads,
                        const guint *cores, MicrobenchResult *out, GError **error);

#endif
