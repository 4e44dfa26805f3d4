/* Scripted accesses, for demonstrations in the manner of Vivio's: a list of memory accesses run
 * on a machine's memory system one after another, each starting when the previous one has
 * completed and the memory system is quiet, so that they happen in the script's order and the
 * trace shows each access's transitions by themselves (`qsim run --script`).
 *
 * The grammar (docs/teaching.md, "Scripted accesses"):
 *
 *   script  := access { SEP access }         SEP: ',' or ';' or a new line
 *   access  := THREAD ':' OP VAR [ '=' VALUE ]
 *   THREAD  := N | C '.' T                   N: thread N, on core N (its first hardware thread);
 *                                            C.T: core C's hardware thread T, named as the text
 *                                            trace names it (`0.1:st x=5`): it shares core C's
 *                                            caches with the core's other hardware threads
 *   OP      := ld | st | xchg | fadd | evict
 *   VAR     := a name (letters, digits, _; not starting with a digit): an 8-byte word in a
 *              line of its own, one per name
 *   VALUE   := a whole number: what st and xchg write (default: the access's number in the
 *              script, 1 for the first, so a later load shows whose store it read), what fadd
 *              adds (default 1); ld and evict take none
 *   `#` starts a comment that runs to the end of its line.
 *
 * st, xchg and fadd need the line in M; evict drops the core's copy (a Put to the home); ld
 * reads.  Errors are `WHO:LINE:COL: what is wrong`, WHO the file or `--script`, with a "did
 * you mean" for an op that is almost one. */
#ifndef QSIM_ACCESS_SCRIPT_H
#define QSIM_ACCESS_SCRIPT_H

#include <glib.h>

typedef enum { SCRIPT_LD, SCRIPT_ST, SCRIPT_XCHG, SCRIPT_FADD, SCRIPT_EVICT } ScriptOp;

typedef struct {
    guint thread;           /* the core: N of `N:`, C of `C.T:` */
    guint hw_thread;        /* T of `C.T:` (0 for `N:`): the core's hardware thread */
    gboolean hw_named;      /* written `C.T:` */
    guint hw_col;           /* where T starts, for its error */
    ScriptOp op;
    guint var;              /* index into AccessScript.vars */
    guint64 value;          /* st/xchg: written; fadd: added (defaults filled in) */
    gboolean value_given;
    guint line, col;        /* where it starts in the script */
    char *text;             /* as a person reads it: "1:st x=5" */
} ScriptAccess;

typedef struct {
    char *who;              /* the file, or "--script" */
    GArray *accesses;       /* ScriptAccess */
    GPtrArray *vars;        /* char*: the variables, in order of first use */
    guint nthreads;         /* the highest core + 1 */
    guint hw_threads;       /* the highest hardware thread + 1 (1: every access is a core's first) */
    gboolean hw_named;      /* some access is written `C.T:`: the run names every thread `core C.T` */
} AccessScript;

/* At most this many accesses in one script (a demonstration, traced access by access). */
#define ACCESS_SCRIPT_MAX 1000
#define ACCESS_SCRIPT_MAX_THREAD 63

/* Parses `text`; NULL with a G_OPTION_ERROR `who:line:col: ...` when it is not a script. */
AccessScript *access_script_parse(const char *who, const char *text, GError **error);
void access_script_free(AccessScript *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AccessScript, access_script_free)
/* The op's name ("ld"). */
const char *access_script_op_name(ScriptOp op);

#endif
