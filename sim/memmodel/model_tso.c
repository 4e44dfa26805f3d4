/* x86-TSO (Owens, Sarkar, Sewell, "A better x86 memory model: x86-TSO", TPHOLs 2009) in
 * herd's axiomatic form, herd/libdir/x86tso.cat with x86fences.cat and filters.cat: program
 * order is kept except a write before a later read (the store buffer), unless MFENCE or a
 * locked instruction (X: both events of an atomic read-modify-write) sits between them; reads
 * from the own thread's buffer (rfi) order nothing globally. */
#include "sim/memmodel/model.h"

static const MmRow tso_rows[] = {
    /* kind         name       expression                                   x86tso.cat */
    { MM_LET,       "com",     "rf | fr | co" },                         /* let com = rf | fr | co */
    { MM_ACYCLIC,   "uniproc", "po-loc | rmw | com" },                   /* acyclic po-loc | amo | com */
    { MM_EMPTY,     "atomic",  "rmw & (fre; coe)" },                     /* empty rmw & (fre;coe) */
    { MM_LET,       "po-ghb",  "([W]; po; [W]) | ([R]; po; [M])" },      /* let po_ghb = WW(po) | RM(po) */
    { MM_LET,       "mfence",  "[M]; po; [MFENCE]; po; [M]" },           /* x86fences.cat: fencerel(MFENCE) */
    { MM_LET,       "poWR",    "[W]; po; [R]" },                         /* let poWR = WR(po) */
    { MM_LET,       "implied", "poWR; [X] | [X]; poWR" },                /* let implied = MA(poWR) | AM(poWR) */
    { MM_LET,       "ghb",     "mfence | implied | po-ghb | ((rfe | fr | co); sca-class)" }, /* let ghb = ... */
    { MM_ACYCLIC,   "tso",     "ghb" },                                  /* acyclic ghb as tso */
};

const MmModelDef mm_model_tso = {
    "tso", "x86-TSO", "herdtools7 herd/libdir/x86tso.cat; Owens, Sarkar, Sewell, TPHOLs 2009",
    tso_rows, G_N_ELEMENTS(tso_rows),
};
