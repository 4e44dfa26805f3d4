/* Sequential consistency (Lamport 1979) as herd writes it, herd/libdir/sc.cat: one total order
 * of all events that every thread's program order and every communication edge agree with.
 *
 * The difference from the cat file: herd's po does not order the read and the write of one
 * atomic instruction (they are one instance), so a read-modify-write reading its own write is
 * kept out here by `rmw` beside po, as herd's intra-instruction order does there. */
#include "sim/memmodel/model.h"

static const MmRow sc_rows[] = {
    /* kind         name     expression                    sc.cat */
    { MM_LET,       "com",   "rf | fr | co" },          /* (fr | rf | co) */
    { MM_EMPTY,     "atom",  "rmw & (fre; coe)" },      /* empty rmw & (fre;coe) as atom */
    { MM_ACYCLIC,   "sc",    "po | rmw | (com; sca-class)" }, /* acyclic po | ((fr | rf | co);sm) as sc */
};

const MmModelDef mm_model_sc = {
    "sc", "sequential consistency", "herdtools7 herd/libdir/sc.cat",
    sc_rows, G_N_ELEMENTS(sc_rows),
};
