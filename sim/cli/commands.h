/* Sub-commands of the `qsim` command line.  Each is `int cmd_NAME(int argc, char **argv)`
 * where argv[0] is the sub-command's name; it parses its own options with a GOptionContext
 * (cli_parse) and returns the process exit status:
 *   0 success, 1 the run failed (e.g. mutual exclusion violated), 2 bad input. */
#ifndef QSIM_COMMANDS_H
#define QSIM_COMMANDS_H

#include <glib.h>
#include "sim/base/config.h"

#define QSIM_EXIT_OK 0
#define QSIM_EXIT_FAILED 1
#define QSIM_EXIT_USAGE 2

typedef struct {
    const char *name;
    const char *summary;
    int (*fn)(int argc, char **argv);
} QsimCommand;

extern const QsimCommand qsim_commands[];
const QsimCommand *qsim_command_find(const char *name);

/* Parses argv with a context whose help names `qsim NAME`; on error prints it and returns FALSE. */
gboolean cli_parse(GOptionContext *ctx, int *argc, char ***argv);
/* The one way a sub-command reads its options: a GOptionContext whose help shows
 * "qsim NAME [OPTION...] PARAMS" and `summary`, with `entries`.  FALSE after printing the
 * problem. */
gboolean cli_parse_command(int *argc, char ***argv, const char *params, const char *summary,
                           const GOptionEntry *entries);
/* Prints "qsim: <message>" to stderr and returns QSIM_EXIT_USAGE. */
int cli_fail(const GError *error);

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_litmus(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_latency(int argc, char **argv);

int cmd_native(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

#endif
