/* Sub-commands of the `qsim` command line.  Each is `int cmd_NAME(int argc, char **argv)`
 * where argv[0] is the sub-command's name; it parses its own options with a GOptionContext
 * (cli_parse) and returns the process exit status:
 *   0 success, 1 the run failed (e.g. mutual exclusion violated), 2 bad input. */
#ifndef QSIM_COMMANDS_H
#define QSIM_COMMANDS_H

#include <glib.h>
#include "sim/base/config.h"
#include "sim/workload/workload.h"
#include "sim/base/report.h"

/* Where an installed qsim's docs are (make install: $(DOCDIR)), for help texts:
 * QSIM_DOC("isa.md").  --help shows them at cli_doc_dir(). */
#define QSIM_DOC(file) QSIM_DOCDIR "/" file
/* The docs this binary can reach: its source tree's docs/ when it runs from one, the docs
 * installed beside it, else $(DOCDIR). */
const char *cli_doc_dir(void);

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
/* The range of an integer option (G_OPTION_ARG_INT or _INT64), a row per option of the
 * command, the list ending in { NULL }: the parse reads every integer value as a whole number
 * in its range (sim/base/whole_number.h) before GOption does, so a command sees no other. */
typedef struct {
    const char *option;       /* the long name */
    gint64 min, max;          /* min >= 0 */
} CliIntRange;
/* The one way a sub-command reads its options: a GOptionContext whose help shows
 * "qsim NAME [OPTION...] PARAMS" and `summary`, with `entries` (`ranges`: of their integer
 * options, or NULL when there are none).  FALSE after printing the problem. */
gboolean cli_parse_command(int *argc, char ***argv, const char *params, const char *summary,
                           const GOptionEntry *entries, const CliIntRange *ranges);
/* The workload options of one command (sim/cli/cli_workload.c): entries generated from the
 * workload schema that parse straight into `w`, remembering which were given. */
typedef struct {
    WorkloadOptions *w;
    WorkloadCommand command;
    guint64 given;            /* bit i: workload_schema[i] was on the command line */
    GOptionEntry *entries;    /* the command's rows, in schema order, NULL-terminated */
    GPtrArray *strings;       /* help and argument texts the entries point into */
} WorkloadFlags;

/* Entries for the rows of `command`; `w` must already hold the defaults (workload_init). */
void workload_flags_init(WorkloadFlags *f, WorkloadOptions *w, WorkloadCommand command);
void workload_flags_clear(WorkloadFlags *f);
/* Whether the option (row name or flag) was on the command line. */
gboolean workload_flags_given(const WorkloadFlags *f, const char *name);
/* How the options given combine: not a fixed-work count (--iterations) with a fixed-time
 * length (--duration, --duration-ms).  FALSE with the error when they do not. */
gboolean workload_flags_check(const WorkloadFlags *f, GError **error);
/* cli_parse_command for a command with workload options: help lists `what` (what to run: the
 * lock, the config), then the workload, then `how` (output and the command's own options). */
gboolean cli_parse_workload_command(int *argc, char ***argv, const char *params, const char *summary,
                                    const GOptionEntry *what, WorkloadFlags *wf, const GOptionEntry *how,
                                    const CliIntRange *ranges);

/* The options that pick the compiler of a lock in C (sim/cli/cli_lock.c): --cc CMD and
 * --cflags FLAGS, in every command that takes a lock. */
typedef struct {
    char *cc;
    char *cflags;
} CcFlags;
#define CC_FLAGS_N 2
/* The CC_FLAGS_N entries that parse into CcFlags *f, for a command's option table. */
#define CC_FLAGS_ENTRIES(f)                                                                                        \
    { "cc", 0, 0, G_OPTION_ARG_STRING, &(f)->cc,                                                                   \
      "A lock in C: its compiler, in place of gcc (x86-64) or aarch64-linux-gnu-gcc (arm64) ("                     \
      QSIM_DOC("c-locks.md") ")", "CMD" },                                                                         \
    { "cflags", 0, 0, G_OPTION_ARG_STRING, &(f)->cflags,                                                           \
      "A lock in C: compiler flags after qsim's own, which they override, e.g. --cflags \"-O1 -fno-inline\"",    \
      "FLAGS" }
void cc_flags_entries(CcFlags *f, GOptionEntry entries[CC_FLAGS_N]);
/* Hands them to the C front end (cfront_set_compiler); FALSE with the error when one is not a
 * command line, or when they are given and none of the n_locks names the command will compile
 * is a C file (locks NULL: the command cannot tell yet, as a sweep's file names its locks). */
gboolean cc_flags_apply(const CcFlags *f, const char *const *locks, guint n_locks, GError **error);
void cc_flags_clear(CcFlags *f);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CcFlags, cc_flags_clear)

/* The options that name the lock (sim/cli/cli_lock.c), the same in run, native and verify:
 * --lock/-l NAME|PATH, --lock-file PATH, --lock-param NAME=VALUE (repeatable), and the
 * compiler's --cc and --cflags. */
typedef struct {
    char *lock;
    char *lock_file;
    char **params;            /* NULL-terminated, or NULL */
    CcFlags cc;
} LockFlags;
#define LOCK_FLAGS_N (3 + CC_FLAGS_N)

/* Writes the LOCK_FLAGS_N entries that parse into `f` at `entries`, for a command's option
 * table. */
void lock_flags_entries(LockFlags *f, GOptionEntry entries[LOCK_FLAGS_N]);
void lock_flags_clear(LockFlags *f);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(LockFlags, lock_flags_clear)

/* A scenario's `#:` header as `qsim run` got it (sim/cli/cli_scenario.c). */
typedef struct {
    GStrv words;        /* the words put before the command line's */
    GPtrArray *sets;    /* its --set assignments that the command line does not give again */
    GPtrArray *places;  /* where each of those is in the file, "FILE:LINE:COL" */
} CliScenarioHeader;
void cli_scenario_header_clear(CliScenarioHeader *header);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliScenarioHeader, cli_scenario_header_clear)

/* `qsim run --scenario NAME`: when argv names a scenario, its header's `#:` options are put
 * after argv[0] and before the rest (`*expanded` holds the new vector, `header` the strings it
 * adds; the caller frees both).  -1 to go on (also when there is no scenario), else the exit
 * status, the problem printed. */
int cli_scenario_expand(int *argc, char ***argv, char ***expanded, CliScenarioHeader *header);
/* cli_fail's, except that a problem the config puts on a --set of the header's ("--set K=V:
 * ...") is put at that word of the scenario file ("FILE:LINE:COL: --set K=V: ..."): the person
 * who typed the command did not write it. */
int cli_scenario_fail(const CliScenarioHeader *header, const GError *error);

/* `qsim run --script SCRIPT` (sim/cli/cli_script.c): SCRIPT a file, or the accesses themselves;
 * runs them with `o` and prints the table (fmt text) or the JSON report; the exit status. */
typedef struct ScriptRunOptions ScriptRunOptions;
int cli_run_script(const char *arg, const ScriptRunOptions *o, ReportFormat fmt);
/* One line on stderr when the --trace-html page `path` left steps out (sim/cli/cmd_run.c). */
typedef struct TraceHtmlCut TraceHtmlCut;
void cli_warn_page_cut(const char *path, const TraceHtmlCut *cut);

/* ---- which modes combine ---- */

/* A mode of a command (--repeat, --vs, the trace options): a bit in its rules, by position. */
typedef struct {
    const char *name;         /* as the messages say it */
    const char *example;      /* words that turn it on, for the tests: "--repeat 2" */
} CliMode;

/* A pair (or set) of a command's modes and whether they go together, one rule a row that a
 * reader compares with its neighbours and a test runs. */
typedef struct {
    guint modes;              /* the modes of the row, two or more bits */
    gboolean combine;         /* TRUE: they go together; FALSE: refused */
    const char *message;      /* refused: the message; combined: what they do together */
} CliModeRule;

/* The first refusing rule all of whose modes are `given`, or NULL: the one place a command's
 * modes are checked. */
const CliModeRule *cli_mode_conflict(const CliModeRule *rules, guint n, guint given);

/* `qsim run`'s modes (NULL-terminated) and their rules (sim/cli/cmd_run.c). */
extern const CliMode run_modes[];
extern const CliModeRule run_mode_rules[];
extern const guint run_mode_rules_len;

/* ---- describing the commands (for `qsim man` and `qsim completion`) ---- */

/* One option of a command, copied from its GOptionEntry. */
typedef struct {
    char *long_name;
    char short_name;          /* or 0 */
    gboolean takes_arg;
    char *arg;                /* arg_description ("CFG", "text|json|csv"), or NULL */
    char *help;
} CliOption;

/* A command as its own option parsing describes it: the same entries its --help shows. */
typedef struct {
    const QsimCommand *command;
    char *params;             /* positional arguments ("FILE...", "configs|locks|..."), or "" */
    char *summary;            /* the help's summary paragraph */
    GPtrArray *options;       /* CliOption*, in help order */
} CliCommandDoc;

/* Every command of qsim_commands, each run in describe mode: its option parsing records what
 * it would parse, then the command returns without doing anything. */
GPtrArray *cli_describe_commands(void);   /* of CliCommandDoc*, in table order */

/* The one way the commands print to stderr: as fprintf(stderr, ...), with every word of the
 * command line in the text (an option's value, whole or a piece) clipped to ECHO_MAX_CHARS and
 * control characters escaped (sim/base/echo.h), so no option's value is echoed whole. */
void cli_eprintf(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* Tells cli_eprintf what the user typed: the parse helpers do it for every command's argv
 * (main for the command's own name, before there is a command). */
void cli_remember_words(int argc, char **argv);
/* A help option (--help, -h, --help-all) on a command line parsed while `refuse` holds is
 * refused (exit 2) instead of printing help: for a command line read from a file (`run --replay`). */
void cli_parse_refuse_help(gboolean refuse);
/* The exit status once what the command printed has reached its files: `rc`, or
 * QSIM_EXIT_USAGE when a write to stdout or stderr failed (a full disk, a closed pipe), stdout's
 * reason said on stderr.  main ends with it; so does a command's --help. */
int cli_finish_output(int rc);
/* Prints "qsim: <message>" to stderr (cli_eprintf) and returns QSIM_EXIT_USAGE. */
int cli_fail(const GError *error);
/* Whether `path`, given to output option `option` ("--out"), can name a file or folder; when not
 * (an empty path, a loop of symbolic links), says so on stderr.  Every output option asks it. */
gboolean cli_output_path_ok(const char *option, const char *path);
/* cli_output_path_ok for an option that names a file, and the writer's refusals
 * (sim/base/output_file.h) before any work is spent on what goes there: a FIFO, a device or a
 * folder at `path` (through links) is refused, saying so on stderr. */
gboolean cli_output_file_ok(const char *option, const char *path);

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_litmus(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_latency(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_protocol(int argc, char **argv);

int cmd_serve(int argc, char **argv);
int cmd_man(int argc, char **argv);
int cmd_completion(int argc, char **argv);

int cmd_native(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_sweep(int argc, char **argv);

#endif
