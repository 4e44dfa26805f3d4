/* MESI on an atomic snooping bus: coherence/msi_bus.c's tables (Sorin, Hill and Wood, "A
 * Primer on Memory Consistency and Cache Coherence", 2nd ed., §7.2.2, Tables 7.5-7.6) with E
 * added the way the Primer's §7.3 adds it to its snooping MSI.
 *  - The memory tells "no cache holds the line" (I) from "caches may share it" (S) and answers a
 *    GetS in I with exclusive data (Data_E); S is conservative: an S copy still leaves silently,
 *    so the memory may say S when nobody holds the line any more, and the next reader then gets
 *    S, never wrongly E.
 *  - E answers other caches' requests as M does (the memory cannot tell E from M: E -> M is
 *    silent), and leaves with a PutM and its data (clean data: memory is written all the same).
 *  - The Primer puts E on its baseline system (non-atomic requests, §7.2.3); here it sits on
 *    the simple system's atomic requests and transactions, so its only transient states are the
 *    ones msi_bus.c has.
 * The memory's EM is the Primer's "EorM". */
#include "coherence/protocol.h"

#define R(s, e, a, n) { .state = CS_##s, .event = CE_##e, .next = CS_##n, a } /* a: COH_DO(actions, in order) */
#define STALL2(s) R(s, LOAD, COH_DO(CA_STALL), s), R(s, STORE, COH_DO(CA_STALL), s)

static const CohRow mesi_bus_cache[] = {
    /* ---- stable states ---- */
    R(I,  LOAD,        COH_DO(CA_ISSUE_GETS), IS_D),
    R(I,  STORE,       COH_DO(CA_ISSUE_GETM), IM_D),
    R(I,  OWN_PUTM,    COH_DO_NOTHING, I),
    R(I,  OTHER_GETS,  COH_DO_NOTHING, I),
    R(I,  OTHER_GETM,  COH_DO_NOTHING, I),
    R(I,  OTHER_PUTM,  COH_DO_NOTHING, I),
    R(S,  LOAD,        COH_DO(CA_HIT), S),
    R(S,  STORE,       COH_DO(CA_ISSUE_GETM), SM_D),
    R(S,  REPLACEMENT, COH_DO(CA_FREE), I),
    R(S,  OTHER_GETS,  COH_DO_NOTHING, S),
    R(S,  OTHER_GETM,  COH_DO(CA_LOST_INV, CA_FREE), I),
    R(E,  LOAD,        COH_DO(CA_HIT), E),
    R(E,  STORE,       COH_DO(CA_HIT), M),         /* silent: the store MSI needs a GetM for */
    R(E,  REPLACEMENT, COH_DO(CA_ISSUE_PUTM, CA_DATA_TO_MEM, CA_FREE), I),
    R(E,  OTHER_GETS,  COH_DO(CA_DATA_TO_REQ, CA_DATA_TO_MEM, CA_LOST_DOWN), S),
    R(E,  OTHER_GETM,  COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    R(M,  LOAD,        COH_DO(CA_HIT), M),
    R(M,  STORE,       COH_DO(CA_HIT), M),
    R(M,  REPLACEMENT, COH_DO(CA_ISSUE_PUTM, CA_DATA_TO_MEM, CA_FREE), I),
    R(M,  OTHER_GETS,  COH_DO(CA_DATA_TO_REQ, CA_DATA_TO_MEM, CA_LOST_DOWN), S),
    R(M,  OTHER_GETM,  COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    /* ---- transient states ---- */
    STALL2(IS_D),
    R(IS_D,  OWN_GETS,  COH_DO_NOTHING, IS_D),
    R(IS_D,  DATA,      COH_DO(CA_SAVE_DATA, CA_WAKE), S),
    R(IS_D,  DATA_E,    COH_DO(CA_SAVE_DATA, CA_WAKE), E),
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
static const CohRow mesi_bus_mem[] = {
    D(I,    GETS,        COH_DO(DA_DATA_E_TO_REQ), EM, 0),           /* nobody else holds it: exclusive */
    D(I,    GETM,        COH_DO(DA_DATA_TO_REQ), EM, DR_STALE_LLC),
    D(S,    GETS,        COH_DO(DA_DATA_TO_REQ), S, 0),
    D(S,    GETM,        COH_DO(DA_DATA_TO_REQ), EM, DR_STALE_LLC),
    D(EM,   GETS,        COH_DO_NOTHING, S_D, 0),     /* the owner answers; its copy comes here too */
    D(EM,   GETM,        COH_DO_NOTHING, EM, 0),
    D(EM,   PUTM,        COH_DO_NOTHING, I_D, 0),
    D(S_D,  OWNER_DATA,  COH_DO(DA_WRITE_MEM), S, 0),
    D(I_D,  OWNER_DATA,  COH_DO(DA_WRITE_MEM), I, 0),
};
#undef D

const CohProtocol coh_mesi_bus = {
    .name = "mesi-bus",
    .source = "Sorin, Hill, Wood: A Primer on Memory Consistency and Cache Coherence, "
              "Tables 7.5-7.6 (simple snooping system: atomic requests, atomic transactions) "
              "with E as in its section 7.3",
    .cache = mesi_bus_cache, .n_cache = G_N_ELEMENTS(mesi_bus_cache),
    .dir = mesi_bus_mem, .n_dir = G_N_ELEMENTS(mesi_bus_mem),
    .has_o = FALSE, .has_e = TRUE, .bus = TRUE,
};
