/* Litmus tests: herdtools7's `.litmus` format (X86, X86_64 and AArch64 dialects), translated
 * into the tiny ISA, run many times under seeded perturbations through an executor, and judged
 * against their condition and, optionally, herd's kinds.txt verdicts.
 *
 *   file ──litmus_parse──► LitmusTest ──litmus_translate──► LitmusProgram (IsaProgram + maps)
 *        ──litmus_run_test (executor × runs)──► LitmusResult ──► text | json
 *
 * litmus_job_run is that line for a list of files, each read once (what `qsim litmus` does).
 * The executor is the seam: the SC reference interpreter and the timing model both plug in as
 * a LitmusExecutor (see sim/litmus/litmus_exec.c for the one the command uses).  Beside it,
 * litmus_explore_test gives the exact result under an axiomatic model (sim/memmodel/):
 *
 *   LitmusProgram ──litmus_explore_test (every consistent execution)──► LitmusResult */
#ifndef QSIM_LITMUS_H
#define QSIM_LITMUS_H

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>
#include "cores/isa/isa.h"
#include "sim/base/config.h"

#define LITMUS_ERROR (litmus_error_quark())
GQuark litmus_error_quark(void);
typedef enum {
    LITMUS_ERROR_IO,        /* unreadable file */
    LITMUS_ERROR_SYNTAX,    /* malformed file: message starts "file:line:col: " */
    LITMUS_ERROR_UNSUPPORTED, /* an instruction or construct outside the subset (file:line:col) */
    LITMUS_ERROR_EXEC,      /* the executor could not run the program */
    LITMUS_ERROR_ARCH,      /* a test of the other architecture than the executor's machine */
    LITMUS_ERROR_THREADS,   /* a test with more threads than the executor's machine has cores */
} LitmusErrorCode;

typedef enum { LITMUS_X86, LITMUS_X86_64, LITMUS_AARCH64 } LitmusArch;
const char *litmus_arch_name(LitmusArch a);   /* as in the file: "X86", "X86_64", "AArch64" */

/* ---- the parsed test ---- */

/* Something the final state is judged on: a thread's register or a memory location. */
typedef struct {
    int thread;            /* -1 for a location */
    char *name;            /* register: canonical ("X3", "ax"); location: its name */
    char *display;         /* as first written in the test ("0:EAX", "1:X0", "x") */
} LitmusObs;

typedef enum { LC_TRUE, LC_FALSE, LC_ATOM, LC_NOT, LC_AND, LC_OR, LC_IMPLIES } LitmusCondKind;

/* A proposition over the final state.  Atoms compare an observable with an integer or with
 * the address of a location (`1:X0=x`). */
typedef struct LitmusCond {
    LitmusCondKind kind;
    struct LitmusCond *l, *r;   /* NOT: l; AND/OR/IMPLIES: l, r */
    guint obs;                  /* ATOM: index into LitmusTest.obs */
    gboolean neq;               /* ATOM: `!=` rather than `=` */
    int64_t value;              /* ATOM: the integer compared with, when value_loc is NULL */
    char *value_loc;            /* ATOM: compare with this location's address, or NULL */
} LitmusCond;

typedef enum { LQ_EXISTS, LQ_NOT_EXISTS, LQ_FORALL } LitmusQuant;

/* One cell of the code table: an instruction (or a label, or both) with its file position. */
typedef struct {
    char *text;
    guint line, col;
} LitmusCell;

/* One entry of the initial state `{ ... }`: `[type] loc [= v]`, `[type] P:REG = v`. */
typedef struct {
    int thread;            /* -1: a location */
    char *name;            /* canonical register or location name */
    int size;              /* bytes, from the type; 0 when untyped */
    int64_t value;         /* integer value */
    char *value_loc;       /* or the address of this location (`x`, `&x`), else NULL */
    guint line, col;
} LitmusInit;

/* A parsed test.  Invariant: every thread has a (possibly empty) cell list; every LitmusCond
 * atom's obs index is < obs->len. */
typedef struct {
    char *filename;
    LitmusArch arch;
    char *name;            /* from the header line, without a trailing ".litmus" */
    char *doc;             /* the quoted doc string, or NULL */
    GPtrArray *init;       /* LitmusInit* */
    guint nthreads;
    GPtrArray *code;       /* per thread: GPtrArray of LitmusCell* */
    GPtrArray *obs;        /* LitmusObs* */
    GArray *locations;     /* guint obs indices listed in `locations [...]` */
    LitmusCond *filter;    /* or NULL */
    LitmusQuant quant;
    LitmusCond *cond;
    guint cond_line, cond_col;
} LitmusTest;

LitmusTest *litmus_parse_file(const char *path, GError **error);
LitmusTest *litmus_parse_string(const char *text, const char *filename, GError **error);
void litmus_test_free(LitmusTest *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LitmusTest, litmus_test_free)

/* ---- conditions (sim/litmus/litmus_cond.c) ---- */

/* Parses a proposition alone (as after `exists`), adding its observables to `obs`
 * (LitmusObs*).  Positions in errors are relative to (line, col). */
LitmusCond *litmus_cond_parse(const char *text, LitmusArch arch, GPtrArray *obs,
                              const char *filename, guint line, guint col, GError **error);
void litmus_cond_free(LitmusCond *c);
/* Evaluates with obs_value[i] the final value of observable i; loc_addr looks a location's
 * address up by name (for atoms like `1:X0=x`), ctx passed through. */
gboolean litmus_cond_eval(const LitmusCond *c, const uint64_t *obs_value, const guint8 *obs_bytes,
                          uint64_t (*loc_addr)(void *ctx, const char *loc), void *ctx);
/* The proposition as text, fully parenthesised where needed ("0:EAX=0 /\ 1:EAX=0"). */
char *litmus_cond_to_string(const LitmusCond *c, const GPtrArray *obs);
void litmus_obs_free(LitmusObs *o);
/* The canonical name of a register of `arch` (W3 -> X3, %eax/EAX/rax -> ax), and its width
 * in bytes; NULL when `name` is not a register of the architecture. */
const char *litmus_reg_canonical(LitmusArch arch, const char *name, int *width);

/* ---- translation into the ISA (sim/litmus/litmus_translate.c, litmus_x86.c, litmus_arm.c) ---- */

/* A litmus location: one shared symbol in its own cache line. */
typedef struct {
    char *name;
    int32_t sym;           /* index into prog->syms */
    guint size;            /* bytes read back for the final state */
    int32_t points_to;     /* the initial value is the address of location points_to, or -1;
                            * an executor must store that address before the threads start */
} LitmusLoc;

/* The translated test.  Thread t starts at entry `main` with tid = t and branches to its own
 * code (entry "P<t>"), runs a prologue that sets its registers' initial values, then the body,
 * then `halt`.  obs_reg[i] / obs_loc[i] say where observable i of the test ends up: an ISA
 * register of thread obs.thread, or a location index (the other is -1). */
typedef struct {
    IsaProgram *prog;
    guint nthreads;
    GPtrArray *locs;       /* LitmusLoc* */
    int *obs_reg;
    int *obs_loc;
    guint8 *obs_bytes;     /* the observable's width: a location's size, a register's name */
    guint nobs;
} LitmusProgram;

LitmusProgram *litmus_translate(const LitmusTest *t, GError **error);
void litmus_program_free(LitmusProgram *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LitmusProgram, litmus_program_free)
/* Reads a file and translates it: sets both *test and *prog (the caller's), or neither. */
gboolean litmus_load_file(const char *path, LitmusTest **test, LitmusProgram **prog, GError **error);
/* The program as ISA assembly-like text, for --show and for reading tests' failures. */
char *litmus_program_dump(const LitmusProgram *p);

/* ---- the executor interface ---- */

/* Perturbations the runner draws, per run, from its seeded stream; an executor honours what its
 * model can express and ignores the rest (the SC interpreter has no caches).
 *   start_skew[t]  cycles thread t starts after the others' earliest start
 *   think[t]       upper bound, in cycles, of a random delay the executor may put before each of
 *                  thread t's instructions (the executor draws it from the run's seed)
 *   owner[l]       the thread whose cache holds location l's line in M before the run, or -1
 *   sharers[l]     when owner[l] is -1: bit t set = thread t's cache holds the line in S
 * Arrays are nthreads and nlocs long. */
typedef struct {
    guint nthreads, nlocs;
    guint64 *start_skew;
    guint64 *think;
    int *owner;
    guint64 *sharers;
} LitmusPerturb;

/* What a run leaves: regs[t * ISA_NREG_SLOTS + r] = thread t's register r after its `halt`;
 * mem[l] = location l's final value read at locs[l]->size bytes; addr[l] = its address. The
 * runner allocates the arrays (nthreads * ISA_NREG_SLOTS, nlocs, nlocs); the executor fills
 * them. */
typedef struct {
    guint nthreads, nlocs;
    uint64_t *regs;
    uint64_t *mem;
    uint64_t *addr;
} LitmusFinal;

/* Runs `p` once with nthreads = p->nthreads; `seed` seeds every random choice the executor
 * makes in this run, so (p, seed, perturb) decides the result. */
typedef gboolean (*LitmusExecFn)(void *ctx, const LitmusProgram *p, guint64 seed,
                                 const LitmusPerturb *perturb, LitmusFinal *out, GError **error);

typedef struct {
    const char *name;      /* "sc", "haswell", ... shown in reports */
    LitmusExecFn run;
    void *ctx;
    void (*ctx_free)(void *ctx);
    gboolean arch_bound;   /* a machine of one architecture, `arch`, which runs only its tests;
                            * FALSE (the SC interpreter): tests of either */
    Arch arch;
    guint cores;           /* a machine's cores, one per litmus thread; 0 (the SC interpreter): any
                            * number of threads */
} LitmusExecutor;

void litmus_executor_free(LitmusExecutor *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LitmusExecutor, litmus_executor_free)
/* Whether `ex` can run `t`, a static question about the pair: LITMUS_ERROR_ARCH naming the file
 * when it is of the other architecture than ex's machine, LITMUS_ERROR_THREADS when it has
 * more threads than the machine has cores.  A caller treats either as bad input. */
gboolean litmus_executor_accepts(const LitmusExecutor *ex, const LitmusTest *t, GError **error);

/* The executor for a machine config (sim/litmus/litmus_exec.c): the timing model's slot. */
LitmusExecutor *litmus_executor_for_config(const QsimConfig *cfg, GError **error);
/* Whether its cores fast-forward steady loops (default on; the outcomes are the same). */
void litmus_executor_set_fast_forward(LitmusExecutor *ex, gboolean on);
/* The sequentially consistent reference interpreter (cores/isa/interp.c) as an executor. */
LitmusExecutor *litmus_interp_executor_new(void);

/* ---- kinds.txt ---- */

typedef enum { LK_NONE, LK_ALLOWED, LK_FORBIDDEN, LK_REQUIRED } LitmusKind;
const char *litmus_kind_name(LitmusKind k);
/* Reads herd's kinds file: `NAME Allowed|Forbidden|Required` (also Allow/Forbid/Require),
 * `#` comments and blank lines ignored.  Returns name -> GINT_TO_POINTER(LitmusKind). */
GHashTable *litmus_kinds_load(const char *path, GError **error);
/* The same from text (`path` names it in messages). */
GHashTable *litmus_kinds_parse(const char *text, const char *path, GError **error);

/* ---- running ---- */

typedef struct {
    guint runs;            /* default 1000 */
    guint64 seed;
} LitmusRunOptions;

typedef struct {
    char *key;             /* "0:EAX=0; 1:EAX=1; x=2;" */
    guint64 count;
    gboolean satisfies;    /* the proposition holds in this state */
} LitmusState;

/* The outcome of running one test.  positive = runs (not filtered out) whose final state
 * satisfies the proposition; witnesses = positive for exists/~exists, runs - filtered - positive
 * for forall (the runs that break it); validated: the test's condition holds as litmus7 says
 * Ok (exists: positive > 0; ~exists: positive == 0; forall: positive == all).  Expectation:
 * Forbidden fails when positive > 0, Required when positive < all; Allowed is not checked. */
typedef struct {
    char *name;
    char *filename;
    LitmusArch arch;
    LitmusQuant quant;
    char *condition;       /* "exists (0:EAX=0 /\ 1:EAX=0)" */
    char *executor;
    guint64 runs, filtered, positive, witnesses;
    gboolean observed;     /* witnesses > 0 */
    gboolean validated;
    GPtrArray *states;     /* LitmusState*, sorted by key */
    LitmusKind expect;     /* LK_NONE when not asked */
    gboolean expect_ok;
    /* The exhaustive search (litmus_explore_test): runs and the states' counts are consistent
     * executions, and the verdict is exact.  model is NULL for runs on an executor. */
    char *model;           /* "sc", "tso", "arm64" */
    guint64 candidates;    /* candidate executions judged */
    guint unroll;          /* the bound on backward branches per thread */
    guint64 paths_cut;     /* thread paths that would have passed it */
    guint64 paths_dropped; /* thread paths that accessed memory outside the test's locations */
} LitmusResult;

LitmusResult *litmus_run_test(const LitmusTest *t, const LitmusProgram *p,
                              const LitmusExecutor *ex, const LitmusRunOptions *o,
                              GError **error);
/* Sets r->expect and r->expect_ok.  An exhaustive result checks Allowed too (its condition
 * must be reachable): its verdict is exact. */
void litmus_result_check(LitmusResult *r, LitmusKind expect);

/* ---- the exact verdict (sim/litmus/litmus_exhaustive.c) ---- */

typedef struct {
    const char *model;     /* "sc", "tso" or "arm64"; NULL: the test's arch's (tso, arm64) */
    guint unroll;          /* backward branches each thread may take */
} LitmusExhaustive;

#define LITMUS_DEFAULT_UNROLL 2   /* herd7's -unroll default */

/* Every final state `t` can reach under the model and how many consistent executions reach
 * each (sim/memmodel/): a result like litmus_run_test's, with runs the number of those
 * executions.  NULL with LITMUS_ERROR_EXEC when the model cannot take the program (an
 * unknown model, an op it gives no meaning, too many events). */
LitmusResult *litmus_explore_test(const LitmusTest *t, const LitmusProgram *p, const LitmusExhaustive *o,
                                  GError **error);
/* The model a test gets by default: "arm64" for AArch64, "tso" for X86 and X86_64. */
const char *litmus_default_model(LitmusArch arch);
void litmus_result_free(LitmusResult *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LitmusResult, litmus_result_free)

/* litmus7-like text for one result, ending in a blank line. */
char *litmus_result_text(const LitmusResult *r);
/* One JSON object per result. */
JsonNode *litmus_result_json(const LitmusResult *r);

/* ---- the whole `qsim litmus` job (sim/litmus/litmus_job.c) ---- */

/* After option parsing, so that tests can drive it with their own executor: reads and
 * translates each file once, runs every test that could be read and that `ex` accepts (or,
 * with `exhaustive`, explores it; a test the search cannot take is noted and counts as bad
 * input), checks each against `kinds` when not NULL, and writes the report (text, or JSON: one
 * object for one test, else an array; nothing when no test ran) to `out`.  What the user should hear about,
 * in the order it happened, goes to `notes` (char *, one message each, no trailing newline): a
 * file that could not be read or translated or is for the other architecture (named, skipped),
 * a failed --expect check, a test the kinds file does not name, a run that failed (which stops
 * the job).  The caller prints both. */
typedef enum {
    LITMUS_JOB_OK,
    LITMUS_JOB_FAILED,      /* a Forbidden outcome seen, a Required one missed, or a run failed */
    LITMUS_JOB_BAD_INPUT,   /* some file could not be read, translated, or run on ex's
                             * architecture; every other test still ran.  Wins over FAILED. */
} LitmusJobOutcome;
typedef struct {
    LitmusRunOptions run;
    gboolean json;
    GHashTable *kinds;     /* or NULL */
    gboolean exhaustive;   /* exact verdicts (litmus_explore_test) instead of runs; ex may be
                            * NULL then (when it is not, it only says which tests fit) */
    LitmusExhaustive explore;
} LitmusJob;
LitmusJobOutcome litmus_job_run(const char *const *files, const LitmusJob *job, const LitmusExecutor *ex,
                                GString *out, GPtrArray *notes);

#endif
