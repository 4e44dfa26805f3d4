/* The table of sub-commands: one row each, driving dispatch, `qsim --help` and did-you-mean. */
#include "sim/commands.h"

const QsimCommand qsim_commands[] = {
    { "list",    "list the known configs or locks",                       cmd_list },
    { "config",  "print a config's effective values as YAML (or the key reference)", cmd_config },
    { "native",  "run a lock natively on this machine, one pinned thread per CPU", cmd_native },
    { NULL, NULL, NULL },
};
