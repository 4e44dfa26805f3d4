/* The GNU assembler's text as a compiler writes it (`gcc -S`), read into what a translator
 * needs: the code's statements in order (labels and instructions, each with the C position of
 * the last `.loc` before it), the data symbols with their initial bytes, and which labels are
 * functions.  Everything else (debug sections, unwind directives, alignment of code) is read
 * past.  Arch-neutral but for the comment character: an AArch64 reader would pass "//".
 *
 * A statement's operands are split on commas outside parentheses and quotes; `;` separates
 * statements on one line (gas's rule: "rep; nop", "lock; cmpxchgl ..."). */
#ifndef QSIM_GAS_READ_H
#define QSIM_GAS_READ_H

#include <glib.h>

#define GAS_ERROR (gas_error_quark())
GQuark gas_error_quark(void);
typedef enum { GAS_ERROR_DATA } GasError;

typedef struct {
    guint sline;            /* line in the .s text, 1-based */
    char *label;            /* a label statement: its name (no instruction then) */
    char *mnemonic;         /* an instruction's mnemonic, lower case */
    gboolean lock, rep;     /* prefixes before it (on its line, or a line of their own) */
    GPtrArray *ops;         /* char*: its operands, trimmed */
    const char *cfile;      /* the C position of the last `.loc` (NULL before any) */
    guint cline, ccol;
    char *text;             /* the statement as written, for messages and comments */
} GasStmt;

typedef struct {
    char *name;
    gboolean tls;           /* .tdata / .tbss: one copy per thread */
    guint64 size;           /* from `.size`, else the bytes emitted */
    guint align;            /* bytes (1 when none was given) */
    GByteArray *bytes;      /* the initial image (shorter than size: the rest is 0) */
    char *reloc;            /* the first `.quad SYMBOL`-like word that names a symbol, or NULL */
    guint sline;
} GasData;

typedef struct {
    GPtrArray *stmts;       /* GasStmt*: the code (text sections), in order */
    GPtrArray *data;        /* GasData*: the data symbols, in order */
    GHashTable *functions;  /* name -> name: labels typed @function */
    GPtrArray *files;       /* char*: `.file N` names by N (NULL where none) */
} GasProgram;

/* Reads `text`; NULL with GAS_ERROR on data it cannot represent (a `.fill`, an `.incbin`). */
GasProgram *gas_read(const char *text, const char *comment, GError **error);
void gas_program_free(GasProgram *g);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(GasProgram, gas_program_free)

/* The data symbol of that name, or NULL. */
const GasData *gas_find_data(const GasProgram *g, const char *name);

#endif
