/* The table of sub-commands: one row each, driving dispatch, `qsim --help` and did-you-mean. */
#include "sim/commands.h"

const QsimCommand qsim_commands[] = {
    { "list",    "list the known configs or locks",                       cmd_list },
    { "config",  "print a config's effective values as YAML (or the key reference)", cmd_config },
    { "asm",     "assemble an ISA source file and print the listing (or its errors)", cmd_asm },
    { "verify",  "check a lock's mutual exclusion and progress on the reference interpreter", cmd_verify },
    { "latency", "measure load/store/CAS latency to a line held in each state (ccbench-like)", cmd_latency },
    { NULL, NULL, NULL },
};
