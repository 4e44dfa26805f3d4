/* Where a report came from, in the report itself: qsim's version and commit, the config (its
 * name, the file it was read from, a SHA-256 of the effective config as `qsim config` prints it,
 * the --set overrides), the lock (its name, file and a SHA-256 of its source) and the command
 * line.  A report that says all of this can be traced back to its inputs, as gem5 keeps
 * config.ini beside stats.txt; `qsim run --out DIR` keeps the inputs themselves, and `--replay
 * DIR` checks them against these hashes. */
#ifndef QSIM_PROVENANCE_H
#define QSIM_PROVENANCE_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    const char *command;             /* the command line as typed, or NULL (a run made in code) */
    const char *config_name;         /* NULL: no config (a native run: the host is the machine) */
    const char *config_path;         /* the file read, or NULL (a config given as text) */
    const char *config_yaml;         /* the effective config (config_to_yaml), hashed */
    const char *const *sets;         /* "key=value", NULL-terminated, may be NULL */
    const char *lock_name;
    const char *lock_path;           /* the file read, or NULL */
    const char *lock_text;           /* its source, hashed */
} ProvenanceInput;

/* {qsim, commit, command?, config?: {name, path?, sha256, sets}, lock?: {name, path?, sha256}}. */
JsonObject *provenance_build(const ProvenanceInput *in);
/* {qsim, commit, command}: a document made of many runs (`qsim compare`, `validate --host`),
 * whose runs' inputs it names itself. */
JsonObject *provenance_of_command(const char *command);
/* Lower-case hex SHA-256 of `text` (newly allocated). */
char *provenance_sha256(const char *text);
/* The command line as one line a shell reads back: "qsim run --lock 'my lock.qs'". */
char *provenance_command_line(int argc, char **argv);

#endif
