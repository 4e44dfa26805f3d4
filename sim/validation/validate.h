/* `qsim validate`: the model held against published measurements.
 *
 * A table (the .tsv files in tests/validation) lists measurements with their sources, one per row:
 *   machine  what  conditions  published  unit  tolerance  source  note
 * machine names a config; `what` says which model figure answers the row, measured by the
 * mechanism the row names, never looked up:
 *   load store cas fai swap     a coherence access (state=M|O|E|S|F|I distance=...): the
 *                               latency probe (sim/validation/latency_probe.c); with method=ccbench, on
 *                               the core, fenced as ccbench fences it (state M only)
 *   l1-hit l2-hit llc-hit memory  core 0 alone (memory: distance= for a remote home)
 *   hot                         op=cas|fai|swap back to back on a hot line, on the core
 *   mfence lfence sfence pause  the instruction back to back, on the core
 *   c2c-oneway                  two threads passing a line by CAS, half a round trip
 *                               (distance=smt-sibling: one core's two hardware threads;
 *                               same-die|1-hop|...: two cores)
 *   contended                   op=fai|cas threads=N all on one line: time per op per thread
 *   barrier-ratio               a=B1 b=B2: seed 003's loop (a store, the barrier, a load) with
 *                               barrier B1 over the same with B2; barriers mfence, lfence,
 *                               sfence, lock-add, xchg
 *   lock-ratio                  lock=A vs=B threads=T data=same-line|separate-line: cycles of
 *                               a `qsim run` of A over B
 * unit is cycles, ns (at the config's clock) or ratio; tolerance a relative error, or `shown`
 * for rows that are printed beside the model's figure but never pass or fail (results the
 * model exists to predict, or figures the model is known to miss, with the reason in note). */
#ifndef QSIM_VALIDATE_H
#define QSIM_VALIDATE_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    char *file;
    guint line;
    char *machine, *what, *conditions, *unit, *source, *note;
    double published;
    double tolerance;        /* relative; < 0: shown only */
} ValidationRow;

typedef struct {
    const ValidationRow *row;
    double model;            /* in the row's unit */
    double error;            /* (model - published) / published */
    gboolean pass;           /* within tolerance (always TRUE for shown rows) */
} ValidationResult;

typedef struct ValidationTable ValidationTable;

/* Reads every row of `path` (header line first).  FALSE with `file:line: what is wrong`. */
ValidationTable *validation_table_new(void);
gboolean validation_table_load(ValidationTable *t, const char *path, GError **error);
guint validation_table_len(const ValidationTable *t);
const ValidationRow *validation_table_row(const ValidationTable *t, guint i);
void validation_table_free(ValidationTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ValidationTable, validation_table_free)

/* The tables shipped with qsim: every *.tsv of the first `validation` folder found on the
 * config search path, sorted by name.  NULL-terminated, caller frees. */
GStrv validation_default_tables(GError **error);

/* Runs rows whose machine is `only` (NULL: all), every config with `sets` applied (NULL-
 * terminated "key=value" overrides, may be NULL).  Array of ValidationResult, in table order;
 * FALSE with an error for a row the model cannot answer (unknown config, what or condition). */
GArray *validation_run(const ValidationTable *t, const char *only, const char *const *sets, GError **error);

/* The results as text (a table and a summary line), or JSON. */
char *validation_text(const GArray *results);
char *validation_markdown(const GArray *results);
JsonNode *validation_json(const GArray *results);
/* Rows checked that failed. */
guint validation_failures(const GArray *results);

#endif
