/* The table of sub-commands: one row each, driving dispatch, `qsim --help` and did-you-mean. */
#include <string.h>
#include "sim/cli/commands.h"

const QsimCommand qsim_commands[] = {
    { "run",     "run a lock on a machine model and report where the cycles went", cmd_run },
    { "compare", "does lock b beat lock a? a verdict per workload and thread count, with intervals over seeds", cmd_compare },
    { "list",    "list the configs and locks qsim finds, or a reference (options, counters, report keys)",                       cmd_list },
    { "config",  "print a config's effective values as YAML (or the key reference)", cmd_config },
    { "asm",     "assemble an ISA source file and print the listing (or its errors)", cmd_asm },
    { "verify",  "check a lock's mutual exclusion and progress in every execution under a memory model", cmd_verify },
    { "protocol", "print a coherence protocol's tables, state diagram (DOT) or trace legend", cmd_protocol },
    { "latency", "measure load/store/CAS latency to a line held in each state (ccbench-like)", cmd_latency },
    { "validate", "hold the model against published measurements (tests/validation/*.tsv)", cmd_validate },
    { "native",  "run a lock natively on this machine, one pinned thread per CPU", cmd_native },
    { "calibrate", "measure this machine and write a machine config of it", cmd_calibrate },
    { "sweep",   "run a parameter sweep (axes from a YAML file) in parallel, or merge its shards", cmd_sweep },
    { "litmus",  "run herd7 litmus tests on a machine model and check them against their verdicts", cmd_litmus },
    { "serve",   "serve the live page on 127.0.0.1: click accesses on a teaching machine and watch them run", cmd_serve },
    { "man",     "print the manual page qsim(1), made from these tables (roff)", cmd_man },
    { "completion", "print the shell completion script (bash)", cmd_completion },
    { NULL, NULL, NULL },
};

/* Kept beside the table (not in cli.c) so that code using the CLI helpers does not pull every
 * command into small programs. */
const QsimCommand *qsim_command_find(const char *name)
{
    for (const QsimCommand *c = qsim_commands; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}
