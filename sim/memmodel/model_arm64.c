/* The ARMv8 AArch64 memory model, other-multicopy-atomic, as herd runs it: herdtools7
 * herd/libdir/aarch64.cat with aarch64hwreqs.cat (dob, pob, aob, bob, lob) and aarch64deps.cat
 * (lmrs, lmws), restricted to explicit memory accesses (no page tables, tags, instruction
 * fetch or cache maintenance, which litmus translations do not have).  The shape is Pulte,
 * Flur, Deacon, French, Sarkar, Sewell, "Simplifying ARM concurrency: multicopy-atomic
 * axiomatic and operational models for ARMv8", POPL 2018: internal (coherence per location),
 * external (ordered-before is irreflexive) and atomic.
 *
 * Dependencies (addr, data, ctrl and the pick-* relations: through a CSEL or the comparison
 * inside a CAS) come from the instructions' semantics in herd's AArch64Sem.ml, computed by
 * thread_paths.c.  Mixed sizes (herd -variant mixed; Flur et al., POPL 2017): an access is
 * split into byte events of one instance, rf and co per byte, and obs lifted through sca-class
 * (the bytes of one access, event_graph.h), the identity when every access is one event. */
#include "sim/memmodel/model.h"

static const MmRow arm64_rows[] = {
    /* kind          name             expression                                 cat line */
    { MM_LET,        "ca",            "fr | co" },                        /* Coherence-after */
    /* Exp-obs = rf & ext | ca & ext; obs = Exp-obs; sca-class? (an access observed in one
     * byte is observed in all its bytes: sca-class holds the identity) */
    { MM_LET,        "obs",           "(rfe | (ca & ext)); sca-class" },
    /* aarch64deps.cat: lmrs = [W]; ((po & same-loc) & ~intervening(W, po & same-loc)); [R] */
    { MM_LET,        "lmrs",          "[W]; (po-loc \\ (po-loc; [W]; po-loc)); [R]" },
    { MM_LET,        "lmws",          "[M]; po-loc; [W]" },            /* lmws = [Exp & M]; (po & same-loc); [Exp & W] */
    /* dob = addr | data | ctrl; [W] | addr; [M]; po; [W] | addr; [M]; lmrs; [R] | data; [M]; lmrs; [R] */
    { MM_LET,        "dob",           "addr | data | ctrl; [W] | addr; [M]; po; [W] | addr; [M]; lmrs; [R]"
                                      " | data; [M]; lmrs; [R]" },
    /* IFB-ob = [R]; ctrl; [IFB]; po | [R]; pick-ctrl-dep; [IFB]; po
     *        | [R]; addr; [M]; po; [IFB]; po | [R]; pick-addr-dep; [M]; po; [IFB]; po  (IFB: ISB) */
    { MM_LET,        "ifb-ob",        "[R]; ctrl; [ISB]; po | [R]; pick-ctrl-dep; [ISB]; po"
                                      " | [R]; addr; [M]; po; [ISB]; po | [R]; pick-addr-dep; [M]; po; [ISB]; po" },
    /* pob = pick-addr-dep; [W] | pick-data-dep | pick-ctrl-dep; [W] | pick-addr-dep; [M]; po; [W] */
    { MM_LET,        "pob",           "pick-addr-dep; [W] | pick-data-dep | pick-ctrl-dep; [W]"
                                      " | pick-addr-dep; [M]; po; [W]" },
    /* aob = [M]; rmw; [M] | [M]; rmw; lmrs; [A | Q] */
    { MM_LET,        "aob",           "[M]; rmw; [M] | [M]; rmw; lmrs; [A | Q]" },
    /* bob, one line each: DMB full, DMB LD (not after a no-return read), DMB ST,
     * an acquire-release atomic, release then acquire, acquire or acquire-pc, release */
    { MM_LET,        "bob",           "[M]; po; [DMB.FULL]; po; [M]"
                                      " | [R \\ NoRet]; po; [DMB.LD]; po; [M]"
                                      " | [W]; po; [DMB.ST]; po; [W]"
                                      " | [range([A]; amo; [L])]; po; [M]"
                                      " | [L]; po; [A]"
                                      " | [A | Q]; po; [M]"
                                      " | [M]; po; [L]" },
    /* lob = ... | IFB-ob | lmws | dob | pob | aob | bob | lob; lob */
    { MM_LET,        "lob",           "(ifb-ob | lmws | dob | pob | aob | bob)+" },
    /* pick-dep = (pick-basic-dep | pick-addr-dep | pick-data-dep | pick-ctrl-dep) & ~same-instance */
    { MM_LET,        "pick-dep",      "(pick-basic-dep | pick-addr-dep | pick-data-dep | pick-ctrl-dep)"
                                      " \\ same-instance" },
    { MM_LET,        "pick-lob",      "pick-dep; lob; [W]" },          /* pick-lob = pick-dep; lob; [Exp & W] */
    { MM_LET,        "local-hw-reqs", "(lob | pick-lob)+" },           /* local-hw-reqs = lob | pick-lob | ...; ... */
    { MM_LET,        "ob",            "(obs | local-hw-reqs)+" },      /* ob = hw-reqs | obs | ob; ob */
    /* Pulte et al.: acyclic po-loc | ca | rf as internal (herd's coRW1 adds the rmw's own write) */
    { MM_ACYCLIC,    "internal",      "po-loc | rmw | ca | rf" },
    { MM_IRREFLEXIVE, "external",     "ob" },                          /* irreflexive ob as external */
    { MM_EMPTY,      "atomic",        "rmw & (fre; coe)" },            /* empty rmw & (fre; coe) as atomic */
};

const MmModelDef mm_model_arm64 = {
    "arm64", "ARMv8 AArch64 (other-multicopy-atomic)",
    "herdtools7 herd/libdir/aarch64.cat; Pulte et al., POPL 2018",
    arm64_rows, G_N_ELEMENTS(arm64_rows),
};
