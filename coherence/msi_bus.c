/* MSI on an atomic snooping bus: the two tables of the Primer's simple snooping system.
 *
 * Follows Sorin, Hill and Wood, "A Primer on Memory Consistency and Cache Coherence" (2nd ed.,
 * 2020), §7.2.2 "Simple Snooping System Model: Atomic Requests, Atomic Transactions": Table 7.5
 * (cache controller) and Table 7.6 (memory controller).  State and event names are the
 * Primer's (IS_D, IM_D, SM_D for its IS^D, IM^D, SM^D; IorS, IorS_D; Own-GetS, Other-GetM...).
 *  - Atomic requests: a request is ordered in the cycle it is issued.  qsim issues it when the
 *    arbiter grants the bus (coherence/bus.c), so a Load or Store row that issues a request
 *    fires at the grant; until then the line keeps its state.
 *  - Atomic transactions: no other request appears on the bus until the data of this one has
 *    arrived, so the Primer's "(A)" cells (IS_D + Other-GetS, ...) cannot happen and have no
 *    rows; nor do the cells it shades as impossible.  A blank cell of the Primer (a legal event
 *    with nothing to do, such as S + Other-GetS) is a row with no actions, so that a trace
 *    shows every cache seeing every request.
 *  - A replacement of a transient line (the Primer's "stall" in the Replacement column) never
 *    happens: qsim does not choose a busy line as a victim.
 *  - No acks: every cache sees a GetM when it is ordered and drops its S copy then (S +
 *    Other-GetM -> I), so the requester waits for the data only.
 * The Primer's upgrade sidebar: with atomic requests an Upgrade (no data) would be faster than
 * the GetM of S + Store; Table 7.5 sends GetM, and so does qsim. */
#include "coherence/protocol.h"

#define R(s, e, a, n) { .state = CS_##s, .event = CE_##e, .next = CS_##n, a } /* a: COH_DO(actions, in order) */
#define STALL2(s) R(s, LOAD, COH_DO(CA_STALL), s), R(s, STORE, COH_DO(CA_STALL), s)

static const CohRow msi_bus_cache[] = {
    /* ---- stable states (Table 7.5, rows I, S, M) ---- */
    R(I,  LOAD,        COH_DO(CA_ISSUE_GETS), IS_D),
    R(I,  STORE,       COH_DO(CA_ISSUE_GETM), IM_D),
    R(I,  OWN_PUTM,    COH_DO_NOTHING, I),              /* its own write-back, seen after the line left */
    R(I,  OTHER_GETS,  COH_DO_NOTHING, I),
    R(I,  OTHER_GETM,  COH_DO_NOTHING, I),
    R(I,  OTHER_PUTM,  COH_DO_NOTHING, I),
    R(S,  LOAD,        COH_DO(CA_HIT), S),
    R(S,  STORE,       COH_DO(CA_ISSUE_GETM), SM_D),
    R(S,  REPLACEMENT, COH_DO(CA_FREE), I),        /* silent: memory still owns the line */
    R(S,  OTHER_GETS,  COH_DO_NOTHING, S),
    R(S,  OTHER_GETM,  COH_DO(CA_LOST_INV, CA_FREE), I),
    R(M,  LOAD,        COH_DO(CA_HIT), M),
    R(M,  STORE,       COH_DO(CA_HIT), M),
    R(M,  REPLACEMENT, COH_DO(CA_ISSUE_PUTM, CA_DATA_TO_MEM, CA_FREE), I),
    R(M,  OTHER_GETS,  COH_DO(CA_DATA_TO_REQ, CA_DATA_TO_MEM, CA_LOST_DOWN), S),
    R(M,  OTHER_GETM,  COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    /* ---- transient states ---- */
    STALL2(IS_D),
    R(IS_D,  OWN_GETS,  COH_DO_NOTHING, IS_D),
    R(IS_D,  DATA,      COH_DO(CA_SAVE_DATA, CA_WAKE), S),
    STALL2(IM_D),
    R(IM_D,  OWN_GETM,  COH_DO_NOTHING, IM_D),
    R(IM_D,  DATA,      COH_DO(CA_SAVE_DATA, CA_WAKE), M),
    R(SM_D,  LOAD,      COH_DO(CA_HIT), SM_D),
    R(SM_D,  STORE,     COH_DO(CA_STALL), SM_D),
    R(SM_D,  OWN_GETM,  COH_DO_NOTHING, SM_D),
    R(SM_D,  DATA,      COH_DO(CA_SAVE_DATA, CA_WAKE), M),
};
#undef R

/* The fifth column is what the memory does beside the Primer's actions: the LLC rule (protocol.h). */
#define D(s, e, a, n, r) { .state = DS_##s, .event = DE_##e, .next = DS_##n, a, .rules = (r) }
static const CohRow msi_bus_mem[] = {
    /* ---- Table 7.6: memory is the owner in IorS, a cache in M ---- */
    D(IORS,   GETS,        COH_DO(DA_DATA_TO_REQ), IORS, 0),
    D(IORS,   GETM,        COH_DO(DA_DATA_TO_REQ), M, DR_STALE_LLC),
    D(M,      GETS,        COH_DO_NOTHING, IORS_D, 0), /* the owner answers; its copy comes here too */
    D(M,      GETM,        COH_DO_NOTHING, M, 0),      /* the owner answers and hands over */
    D(M,      PUTM,        COH_DO_NOTHING, IORS_D, 0), /* the write-back's data follows */
    D(IORS_D, OWNER_DATA,  COH_DO(DA_WRITE_MEM), IORS, 0),
};
#undef D

const CohProtocol coh_msi_bus = {
    .name = "msi-bus",
    .source = "Sorin, Hill, Wood: A Primer on Memory Consistency and Cache Coherence, "
              "Tables 7.5-7.6 (MSI, simple snooping system: atomic requests, atomic transactions)",
    .cache = msi_bus_cache, .n_cache = G_N_ELEMENTS(msi_bus_cache),
    .dir = msi_bus_mem, .n_dir = G_N_ELEMENTS(msi_bus_mem),
    .has_o = FALSE, .has_e = FALSE, .bus = TRUE, .dir_start = DS_IORS,
};
