/* The protocol states, each declared once (protocol.h: CohCacheStateInfo, CohDirStateInfo), as
 * gem5's SLICC declares a state with its description and access permission: its name, what it
 * means, and the flags the predicates of protocol.h read.  A state's name, its words
 * (protocol_words.c, `qsim protocol`, the trace) and its permissions come from its row here and
 * nowhere else.
 *
 * The words follow the Primer's reading of its tables (Sorin, Hill and Wood, ch. 8): transient
 * states are "from X to Y, waiting for A (acks), D (data), C (the ack count), U (an Unblock)". */
#include "coherence/protocol.h"

/* ======================================================================================
 * The cache controller's states
 * ====================================================================================== */

#define R 1 /* readable */
#define W 1 /* writable */
#define ST 1 /* stable */
#define DI 1 /* dirty */
#define OW 1 /* owner */
/* One row each: name, words, then readable, writable, stable, dirty, owner (0: no). */
#define CS(s, doc, r, w, st, di, ow) [CS_##s] = { #s, doc, r, w, st, di, ow }
const CohCacheStateInfo coh_cache_states[CS__N] = {
    /* ---- stable ---- */
    CS(I, "invalid: no copy", 0, 0, ST, 0, 0),
    CS(S, "shared: a readable copy; other caches may hold one too", R, 0, ST, 0, 0),
    CS(E, "exclusive: the only copy, clean; a store makes it M without asking anyone", R, W, ST, 0, OW),
    CS(O, "owned: a readable copy this cache answers for while others may share it; memory is written only when "
          "it leaves (written data if it came from M, clean if from E)", R, 0, ST, DI, OW),
    CS(M, "modified: the only copy, written; readable and writable", R, W, ST, DI, OW),
    /* ---- transient ---- */
    CS(IS_D, "from I to S: GetS sent, waiting for the data (D); accesses wait", 0, 0, 0, 0, 0),
    CS(IM_AD, "from I to M: GetM sent, waiting for the data (D) and the invalidation acks (A); accesses wait",
       0, 0, 0, 0, 0),
    CS(IM_A, "from I to M: data in, waiting for the last invalidation acks (A); accesses wait", 0, 0, 0, 0, 0),
    CS(SM_AD, "from S to M: Upgrade sent, waiting for the grant or the data (D) and the acks (A); loads still hit "
              "the old copy", R, 0, 0, 0, 0),
    CS(SM_A, "from S to M: grant or data in, waiting for the last acks (A); loads still hit", R, 0, 0, 0, 0),
    CS(OM_AC, "from O to M: Upgrade sent, waiting for the ack count (C) and the acks (A); loads still hit",
       R, 0, 0, DI, OW),
    CS(OM_A, "from O to M: ack count in, waiting for the last acks (A); loads still hit", R, 0, 0, DI, OW),
    CS(MI_A, "from M to I: PutM sent with the data, waiting for the home's Put-Ack (A)", 0, 0, 0, DI, OW),
    CS(EI_A, "from E to I: PutE sent, waiting for the home's Put-Ack (A)", 0, 0, 0, 0, OW),
    CS(OI_A, "from O to I: PutO sent with the data, waiting for the home's Put-Ack (A)", 0, 0, 0, DI, OW),
    CS(SI_A, "from S to I: PutS sent, waiting for the home's Put-Ack (A)", 0, 0, 0, 0, 0),
    CS(II_A, "to I: the line was taken away while its Put was on the way; waiting for the Put-Ack (A)",
       0, 0, 0, 0, 0),
    /* ---- transient, bus ---- */
    CS(IM_D, "from I to M: GetM ordered on the bus, waiting for the data (D); accesses wait", 0, 0, 0, 0, 0),
    CS(SM_D, "from S to M: GetM ordered on the bus, waiting for the data (D); loads still hit the old copy",
       R, 0, 0, 0, 0),
};
#undef CS
#undef R
#undef W
#undef DI
#undef OW

/* ======================================================================================
 * The home's (directory's, or a bus's memory controller's) states
 * ====================================================================================== */

/* What a busy home waits for: one source for the state's line and a queued request's reason. */
#define WAIT_S_DU  "the old owner's copy-back (D) and the requester's Unblock (U)"
#define WAIT_S_D   "the old owner's copy-back (D)"
#define WAIT_S_U   "the requester's Unblock (U)"
#define WAIT_EM_U  "the new owner's Unblock (U)"
#define WAIT_O_U   "the new sharer's Unblock (U)"
#define WAIT_AT_AD "the owner's data (D) and the acks (A)"
#define WAIT_AT_A  "the acks (A)"
#define WAIT_M_U   "the new owner's Unblock (U)"
#define WAIT_IORS_D "the owner's data on the bus (D)"
#define WAIT_I_D   "the owner's write-back data (D)"

/* A stable state: name and words.  A transient one: what it is on its way to, and what it waits for. */
#define STABLE(s, name, doc) [DS_##s] = { name, doc, NULL, ST }
#define BUSY(s, name, to, wait, then) [DS_##s] = { name, to "waiting for " wait "; " then, wait, 0 }
const CohDirStateInfo coh_dir_states[DS__N] = {
    STABLE(I, "I", "no cache holds the line; memory is up to date"),
    STABLE(S, "S", "one or more caches share a clean copy; memory is up to date"),
    STABLE(EM, "EM", "one cache holds the line in E or M (the directory cannot tell which: E -> M is silent)"),
    STABLE(O, "O", "one cache owns the line and answers for it (memory may be stale) and others may share it"),
    BUSY(S_DU, "S_DU", "to S: ", WAIT_S_DU, "requests queue"),
    BUSY(S_D, "S_D", "to S: ", WAIT_S_D, "requests queue"),
    BUSY(S_U, "S_U", "to S: ", WAIT_S_U, "requests queue"),
    BUSY(EM_U, "EM_U", "to EM: ", WAIT_EM_U, "requests queue"),
    BUSY(O_U, "O_U", "to O: ", WAIT_O_U, "requests queue"),
    BUSY(AT_AD, "AT_AD", "far atomic: ", WAIT_AT_AD, "requests queue"),
    BUSY(AT_A, "AT_A", "far atomic: ", WAIT_AT_A, "requests queue"),
    /* bus memory controller (Primer Table 7.6) */
    STABLE(IORS, "IorS", "memory owns the line (no cache holds it in M); caches may share it in S"),
    /* msi, and the bus memory's M */
    STABLE(M, "M", "one cache holds the line in M; memory's copy may be stale"),
    BUSY(M_U, "M_U", "to M: ", WAIT_M_U, "requests queue"),
    BUSY(IORS_D, "IorS_D", "to IorS: ", WAIT_IORS_D, "the bus is held"),
    BUSY(I_D, "I_D", "to I: ", WAIT_I_D, "the bus is held"),
};
#undef STABLE
#undef BUSY
#undef ST
