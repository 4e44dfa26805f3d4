/* One run for the live page: `qsim run` as a child process (the same code path as the command
 * line, and a model that stops on a planted fault's missing row cannot take the server down with
 * it), in a fresh temporary folder that holds its page; the answer is JSON for the page. */
#ifndef QSIM_SERVE_RUN_H
#define QSIM_SERVE_RUN_H

#include "sim/serve/serve_request.h"

typedef enum {
    SERVE_RUN_OK,        /* the answer is JSON (the run may still carry the checker's complaint) */
    SERVE_RUN_BAD,       /* the run refused its input: the answer is qsim's message (HTTP 400) */
    SERVE_RUN_FAILED,    /* the run could not be made or died: the answer says why (HTTP 500) */
} ServeRunOutcome;

/* Runs `r` with the qsim at `qsim` (an absolute path); *answer (caller frees) as above.  The JSON:
 * {"command": the `qsim run` line, "report": the run's JSON report, "invariant": the checker's
 * complaint or null, "fault": whether one is planted, "page": the step-through page, HTML}. */
ServeRunOutcome serve_run(const ServeRequest *r, const char *qsim, char **answer);

#endif
