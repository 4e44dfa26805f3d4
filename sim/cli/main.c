/* qsim: the command line.  Dispatch is driven by one table of sub-commands. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/suggest.h"
#include "sim/base/version.h"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: qsim COMMAND [OPTION...]\n"
            "       qsim --config CFG --lock NAME [OPTION...]   (same as `qsim run ...`)\n\n"
            "A cycle-level cache-coherence simulator for studying lock algorithms.\n\n"
            "Commands:\n");
    for (const QsimCommand *c = qsim_commands; c->name; c++)
        fprintf(out, "  %-11s %s\n", c->name, c->summary);
    fprintf(out, "\nRun `qsim COMMAND --help` for a command's options.\n"
                 "Options:\n  -h, --help     show this help\n  --version      print the version\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return QSIM_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    cli_remember_words(argc, argv);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return QSIM_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("qsim %s (commit %s)\n", qsim_version(), qsim_commit());
        return QSIM_EXIT_OK;
    }
    if (cmd[0] == '-') {
        /* `qsim --config X --lock Y` is `qsim run --config X --lock Y`. */
        const QsimCommand *run = qsim_command_find("run");
        if (run) {
            char **args = g_new0(char *, argc + 1);
            args[0] = (char *)"run";
            for (int i = 1; i < argc; i++)
                args[i] = argv[i];
            int rc = run->fn(argc, args);
            g_free(args);
            return rc;
        }
        cli_eprintf("qsim: unknown option '%s' (try `qsim --help`)\n", cmd);
        return QSIM_EXIT_USAGE;
    }
    const QsimCommand *c = qsim_command_find(cmd);
    if (!c) {
        const char *names[64];
        guint n = 0;
        for (const QsimCommand *k = qsim_commands; k->name && n < 64; k++)
            names[n++] = k->name;
        const char *hint = suggest_closest(cmd, names, n);
        if (hint)
            cli_eprintf("qsim: unknown command '%s'; did you mean '%s'?\n", cmd, hint);
        else
            cli_eprintf("qsim: unknown command '%s' (try `qsim --help`)\n", cmd);
        return QSIM_EXIT_USAGE;
    }
    return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    return cli_finish_output(dispatch(argc, argv));
}
