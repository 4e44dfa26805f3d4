/* MSI, written as the two tables of a blocking directory protocol.
 *
 * Follows Sorin, Hill and Wood, "A Primer on Memory Consistency and Cache Coherence" (2nd ed.,
 * 2020), ch. 8: Table 8.1 (the MSI directory protocol's cache controller) and Table 8.2 (its
 * directory controller), with the deviations coherence/mesi.c lists for the same reasons:
 *  - the directory is blocking, so the requester sends an Unblock and the directory waits for
 *    it in S_DU, S_U and M_U (the Primer's S^D is S_DU/S_D here);
 *  - data is classified by the acks still outstanding after it (Data, Data_Acks);
 *  - an upgrade (GetM from S) is answered with an ack count and no data;
 *  - far atomics are performed at the home (AT_AD, AT_A).
 * What MSI lacks against MESI is the point of having it: a load that misses in every cache
 * gets S (I + GetS -> S_U, never E), so the same core's first store needs an Upgrade, an
 * AckCount and an Unblock (S + Store -> SM_AD) where MESI's E + Store -> M is a silent hit. */
#include "coherence/protocol.h"

#define R(s, e, a, n) { .state = CS_##s, .event = CE_##e, .next = CS_##n, a } /* a: COH_DO(actions, in order) */
#define STALL2(s) R(s, LOAD, COH_DO(CA_STALL), s), R(s, STORE, COH_DO(CA_STALL), s)

static const CohRow msi_cache[] = {
    /* ---- stable states (Table 8.1, rows I, S, M) ---- */
    R(I,  LOAD,        COH_DO(CA_SEND_GETS), IS_D),
    R(I,  STORE,       COH_DO(CA_SEND_GETM), IM_AD),
    R(S,  LOAD,        COH_DO(CA_HIT), S),
    R(S,  STORE,       COH_DO(CA_SEND_UPGRADE), SM_AD),
    R(S,  REPLACEMENT, COH_DO(CA_SEND_PUTS, CA_LEAVE), SI_A),
    R(S,  INV,         COH_DO(CA_ACK_TO_REQ, CA_LOST_INV, CA_FREE), I),
    R(M,  LOAD,        COH_DO(CA_HIT), M),
    R(M,  STORE,       COH_DO(CA_HIT), M),
    R(M,  REPLACEMENT, COH_DO(CA_SEND_PUTM, CA_LEAVE), MI_A),
    R(M,  FWD_GETS,    COH_DO(CA_DATA_TO_REQ, CA_COPYBACK, CA_LOST_DOWN), S),
    R(M,  FWD_GETM,    COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    /* ---- transient states ---- */
    STALL2(IS_D),
    R(IS_D,  DATA,          COH_DO(CA_SAVE_DATA, CA_UNBLOCK, CA_WAKE), S),
    STALL2(IM_AD),
    R(IM_AD, DATA,          COH_DO(CA_SAVE_DATA, CA_UNBLOCK, CA_WAKE), M),
    R(IM_AD, DATA_ACKS,     COH_DO(CA_SAVE_DATA), IM_A),
    R(IM_AD, INV_ACK,       COH_DO(CA_DEC_ACK), IM_AD),
    STALL2(IM_A),
    R(IM_A,  INV_ACK,       COH_DO(CA_DEC_ACK), IM_A),
    R(IM_A,  LAST_INV_ACK,  COH_DO(CA_DEC_ACK, CA_UNBLOCK, CA_WAKE), M),
    R(SM_AD, LOAD,          COH_DO(CA_HIT), SM_AD),
    R(SM_AD, STORE,         COH_DO(CA_STALL), SM_AD),
    R(SM_AD, INV,           COH_DO(CA_ACK_TO_REQ, CA_LOST_INV, CA_LEAVE), IM_AD),
    R(SM_AD, DATA,          COH_DO(CA_SAVE_DATA, CA_UNBLOCK, CA_WAKE), M),
    R(SM_AD, DATA_ACKS,     COH_DO(CA_SAVE_DATA), SM_A),
    R(SM_AD, INV_ACK,       COH_DO(CA_DEC_ACK), SM_AD),
    R(SM_A,  LOAD,          COH_DO(CA_HIT), SM_A),
    R(SM_A,  STORE,         COH_DO(CA_STALL), SM_A),
    R(SM_A,  INV_ACK,       COH_DO(CA_DEC_ACK), SM_A),
    R(SM_A,  LAST_INV_ACK,  COH_DO(CA_DEC_ACK, CA_UNBLOCK, CA_WAKE), M),
    STALL2(MI_A),
    R(MI_A,  FWD_GETS,      COH_DO(CA_DATA_TO_REQ, CA_COPYBACK), SI_A),
    R(MI_A,  FWD_GETM,      COH_DO(CA_DATA_TO_REQ), II_A),
    R(MI_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
    STALL2(SI_A),
    R(SI_A,  INV,           COH_DO(CA_ACK_TO_REQ), II_A),
    R(SI_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
    STALL2(II_A),
    R(II_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
};
#undef R

/* The fifth column is what the home does beside the Primer's actions: the LLC rules (protocol.h;
 * MESIF's are in coherence/mesif.c). */
#define D(s, e, a, n, r) { .state = DS_##s, .event = DE_##e, .next = DS_##n, a, .rules = (r) }
/* A busy line queues every request; the FIFO is the home's serialisation point. */
#define Q(s, e) D(s, e, COH_DO(DA_STALL), s, 0) /* e queues while the line is in s */
#define DSTALL(s)                                                        \
    Q(s, GETS), Q(s, GETM), Q(s, UPGRADE), Q(s, FAR_ATOMIC), Q(s, PUTS), \
    Q(s, PUTS_LAST), Q(s, PUTM), Q(s, PUT_STALE)

static const CohRow msi_dir[] = {
    /* ---- stable states (Table 8.2, rows I, S, M) ---- */
    D(I,  GETS,       COH_DO(DA_DATA_TO_REQ, DA_ADD_REQ), S_U, 0),   /* S, not E: the lesson of MSI */
    D(I,  GETM,       COH_DO(DA_DATA_TO_REQ, DA_SET_OWNER_REQ), M_U, DR_STALE_LLC),
    D(I,  FAR_ATOMIC, COH_DO(DA_ATOMIC_REPLY), I, 0),
    D(I,  PUT_STALE,  COH_DO(DA_PUT_ACK), I, 0),
    D(S,  GETS,       COH_DO(DA_DATA_TO_REQ, DA_ADD_REQ), S_U, 0),
    D(S,  GETM,       COH_DO(DA_INV_SHARERS, DA_DATA_TO_REQ, DA_CLEAR_SHARERS, DA_SET_OWNER_REQ), M_U,
                      DR_STALE_LLC),
    D(S,  UPGRADE,    COH_DO(DA_INV_SHARERS, DA_ACKCOUNT_TO_REQ, DA_CLEAR_SHARERS, DA_SET_OWNER_REQ), M_U,
                      DR_STALE_LLC),
    D(S,  FAR_ATOMIC, COH_DO(DA_FWD_TO_HOME, DA_INV_SHARERS, DA_CLEAR_SHARERS, DA_SAVE_ACKS), AT_A, 0),
    D(S,  PUTS,       COH_DO(DA_REMOVE_REQ, DA_PUT_ACK), S, 0),
    D(S,  PUTS_LAST,  COH_DO(DA_REMOVE_REQ, DA_PUT_ACK), I, 0),
    D(S,  PUT_STALE,  COH_DO(DA_PUT_ACK), S, 0),
    D(M,  GETS,       COH_DO(DA_FWD_GETS, DA_OWNER_TO_SHARER, DA_ADD_REQ), S_DU, 0),
    D(M,  GETM,       COH_DO(DA_FWD_GETM, DA_SET_OWNER_REQ), M_U, DR_STALE_LLC),
    D(M,  FAR_ATOMIC, COH_DO(DA_FWD_TO_HOME, DA_FWD_GETM, DA_CLEAR_OWNER, DA_SAVE_ACKS), AT_AD, DR_STALE_LLC),
    D(M,  PUTM,       COH_DO(DA_CLEAR_OWNER, DA_WRITE_MEM, DA_PUT_ACK), I, 0),
    D(M,  PUT_STALE,  COH_DO(DA_PUT_ACK), M, 0),
    /* ---- transient states ---- */
    DSTALL(S_DU),
    D(S_DU, COPYBACK, COH_DO(DA_WRITE_MEM), S_U, DR_LLC_TO_READER),
    /* Never fires with qsim's latencies, as in coherence/mesi.c: the copy-back always arrives
     * before the requester's Unblock.  Kept for a network that reorders. */
    D(S_DU, UNBLOCK,  COH_DO_NOTHING, S_D, 0),
    DSTALL(S_D),
    D(S_D,  COPYBACK, COH_DO(DA_WRITE_MEM), S, DR_LLC_TO_READER),  /* never fires: only the row above leads here */
    DSTALL(S_U),
    D(S_U,  UNBLOCK,  COH_DO_NOTHING, S, 0),
    DSTALL(M_U),
    D(M_U,  UNBLOCK,  COH_DO_NOTHING, M, 0),
    DSTALL(AT_AD),
    D(AT_AD, DATA,    COH_DO(DA_WRITE_MEM, DA_ATOMIC_REPLY), I, 0),
    DSTALL(AT_A),
    D(AT_A, INV_ACK,      COH_DO(DA_DEC_ACK), AT_A, 0),
    D(AT_A, LAST_INV_ACK, COH_DO(DA_DEC_ACK, DA_ATOMIC_REPLY), I, 0),
};
#undef Q
#undef D

const CohProtocol coh_msi = {
    .name = "msi",
    .source = "Sorin, Hill, Wood: A Primer on Memory Consistency and Cache Coherence, "
              "Tables 8.1-8.2 (MSI directory protocol), blocking-directory variant",
    .cache = msi_cache, .n_cache = G_N_ELEMENTS(msi_cache),
    .dir = msi_dir, .n_dir = G_N_ELEMENTS(msi_dir),
    .has_o = FALSE, .has_e = FALSE,
};
