/* Sub-commands of the `qsim` command line.  Each is `int cmd_NAME(int argc, char **argv)`
 * where argv[0] is the sub-command's name; it parses its own options with a GOptionContext
 * (cli_parse) and returns the process exit status:
 *   0 success, 1 the run failed (e.g. mutual exclusion violated), 2 bad input. */
#ifndef QSIM_COMMANDS_H
#define QSIM_COMMANDS_H

#include <glib.h>

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
/* Prints "qsim: <message>" to stderr and returns QSIM_EXIT_USAGE. */
int cli_fail(const GError *error);
/* Suggests the closest of `candidates` to `word` (edit distance), or NULL. */
const char *cli_did_you_mean(const char *word, const char *const *candidates, guint n);

int cmd_list(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_native(int argc, char **argv);

#endif
