/* Test helper: runs the built qsim binary (env QSIM_BIN, set by `make check-unit`). */
#ifndef QSIM_TEST_RUN_QSIM_H
#define QSIM_TEST_RUN_QSIM_H

#include <glib.h>

/* Runs `qsim ARGS...` (NULL-terminated) in the source tree; returns the exit status and, when
 * asked, what it printed.  Asserts (via Check) that the binary could be started. */
int run_qsim(const char *const *args, char **out, char **err);
/* As run_qsim, with the arguments as one space-separated string (no quoting). */
int run_qsim_line(const char *line, char **out, char **err);
/* How run_qsim_with runs it. */
typedef enum {
    RUN_QSIM_LIMITED = 1 << 0,     /* at most 20 s of CPU and (outside the sanitizer build) 3 GiB of
                                    * address space: a bad input that would eat the machine or spin
                                    * fails the test instead */
    RUN_QSIM_STDOUT_FULL = 1 << 1, /* stdout is /dev/full (every write fails: a full disk) */
    RUN_QSIM_STDERR_FULL = 1 << 2, /* stderr is /dev/full */
    RUN_QSIM_WALL = 1 << 3,        /* killed (SIGALRM) after 120 s of wall time: an input that would
                                    * block for ever (a FIFO with no writer) fails the test, and
                                    * leaves no process behind */
    RUN_QSIM_FILES_4K = 1 << 4,    /* a file it writes stops at 4 KiB: a write past that fails (EFBIG,
                                    * as one on a full disk fails with ENOSPC), on any file system */
} RunQsimFlags;
/* As run_qsim, with `flags` (RUN_QSIM_STDOUT_FULL: `out` must be NULL; _STDERR_FULL: `err`). */
int run_qsim_with(const char *const *args, guint flags, char **out, char **err);
/* QSIM_TEST_SCALE=quick (the sanitizer run) asks heavy tests to do less. */
gboolean test_scale_quick(void);
const char *test_srcdir(void);
/* A JSON report printed by qsim, less its `provenance` (the command line and the checkout's
 * paths differ between runs meant to report the same), printed again; NULL if not JSON. */
char *report_without_provenance(const char *json);

#endif
