/* MESI, written as the two tables of a blocking directory protocol.
 *
 * Follows Sorin, Hill and Wood, "A Primer on Memory Consistency and Cache Coherence" (2nd ed.,
 * 2020), ch. 8: Table 8.1/8.2 (the MSI directory protocol's cache and directory controllers)
 * extended with E as in Tables 8.3 and 8.4 (MESI).  State and event names are the Primer's
 * (IS_D, IM_AD, IM_A, SM_AD, SM_A, MI_A, EI_A, SI_A, II_A; Fwd-GetS, Fwd-GetM, Inv, Put-Ack,
 * Data, Inv-Ack, Last-Inv-Ack).  Differences, each for a reason:
 *  - the directory is blocking (requests for a busy line wait in the home FIFO, which is the
 *    queue the design asks for), so the requester sends an Unblock when it is done, and the
 *    directory has the transient states S_DU/S_D/S_U/EM_U that wait for it;
 *  - the Primer's "Data from Dir (ack=0)", "Data from Dir (ack>0)" and "Data from Owner" are
 *    classified by what is still outstanding after the message: Data (nothing) or Data_Acks;
 *  - an upgrade (GetM from S) is answered with an ack count and no data (DA_ACKCOUNT_TO_REQ);
 *  - far atomics (arm64 LSE) are performed at the home after invalidating every copy
 *    (DS_AT_AD, DS_AT_A): not in the Primer.
 * MESIF runs this table; its F state lives at the socket level, beside the directory (memsys.h),
 * and what each directory row does with it is MESIF's own table (coherence/mesif.c).
 * A row lists its actions in the order they run (COH_DO). */
#include "coherence/protocol.h"

#define R(s, e, a, n) { .state = CS_##s, .event = CE_##e, .next = CS_##n, a } /* a: COH_DO(actions, in order) */
#define STALL2(s) R(s, LOAD, COH_DO(CA_STALL), s), R(s, STORE, COH_DO(CA_STALL), s)

static const CohRow mesi_cache[] = {
    /* ---- stable states ---- */
    R(I,  LOAD,        COH_DO(CA_SEND_GETS), IS_D),
    R(I,  STORE,       COH_DO(CA_SEND_GETM), IM_AD),
    R(S,  LOAD,        COH_DO(CA_HIT), S),
    R(S,  STORE,       COH_DO(CA_SEND_UPGRADE), SM_AD),
    R(S,  REPLACEMENT, COH_DO(CA_SEND_PUTS, CA_LEAVE), SI_A),
    R(S,  INV,         COH_DO(CA_ACK_TO_REQ, CA_LOST_INV, CA_FREE), I),
    R(E,  LOAD,        COH_DO(CA_HIT), E),
    R(E,  STORE,       COH_DO(CA_HIT), M),
    R(E,  REPLACEMENT, COH_DO(CA_SEND_PUTE, CA_LEAVE), EI_A),
    R(E,  FWD_GETS,    COH_DO(CA_DATA_TO_REQ, CA_COPYBACK, CA_LOST_DOWN), S),
    R(E,  FWD_GETM,    COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    R(M,  LOAD,        COH_DO(CA_HIT), M),
    R(M,  STORE,       COH_DO(CA_HIT), M),
    R(M,  REPLACEMENT, COH_DO(CA_SEND_PUTM, CA_LEAVE), MI_A),
    R(M,  FWD_GETS,    COH_DO(CA_DATA_TO_REQ, CA_COPYBACK, CA_LOST_DOWN), S),
    R(M,  FWD_GETM,    COH_DO(CA_DATA_TO_REQ, CA_LOST_INV, CA_FREE), I),
    /* ---- transient states ---- */
    STALL2(IS_D),
    R(IS_D,  DATA,          COH_DO(CA_SAVE_DATA, CA_UNBLOCK, CA_WAKE), S),
    R(IS_D,  DATA_E,        COH_DO(CA_SAVE_DATA, CA_UNBLOCK, CA_WAKE), E),
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
    STALL2(EI_A),
    R(EI_A,  FWD_GETS,      COH_DO(CA_DATA_TO_REQ, CA_COPYBACK), SI_A),
    R(EI_A,  FWD_GETM,      COH_DO(CA_DATA_TO_REQ), II_A),
    R(EI_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
    STALL2(SI_A),
    R(SI_A,  INV,           COH_DO(CA_ACK_TO_REQ), II_A),
    R(SI_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
    STALL2(II_A),
    R(II_A,  PUT_ACK,       COH_DO(CA_FREE, CA_WAKE), I),
};
#undef R

/* The fifth column is what the home does beside the Primer's actions (protocol.h): the LLC
 * rules.  MESIF's are in coherence/mesif.c. */
#define D(s, e, a, n, r) { .state = DS_##s, .event = DE_##e, .next = DS_##n, a, .rules = (r) }
/* A busy line queues every request; the FIFO is the home's serialisation point.  Every
 * request a MESI cache sends: no PutO, which only an O owner sends (moesi.c). */
#define Q(s, e) D(s, e, COH_DO(DA_STALL), s, 0) /* e queues while the line is in s */
#define DSTALL(s)                                                        \
    Q(s, GETS), Q(s, GETM), Q(s, UPGRADE), Q(s, FAR_ATOMIC), Q(s, PUTS), \
    Q(s, PUTS_LAST), Q(s, PUTE), Q(s, PUTM), Q(s, PUT_STALE)

static const CohRow mesi_dir[] = {
    /* ---- stable states ---- */
    D(I,  GETS,       COH_DO(DA_DATA_E_TO_REQ, DA_SET_OWNER_REQ), EM_U, 0),
    D(I,  GETM,       COH_DO(DA_DATA_TO_REQ, DA_SET_OWNER_REQ), EM_U, DR_STALE_LLC),
    D(I,  FAR_ATOMIC, COH_DO(DA_ATOMIC_REPLY), I, 0),
    D(I,  PUT_STALE,  COH_DO(DA_PUT_ACK), I, 0),
    D(S,  GETS,       COH_DO(DA_DATA_TO_REQ, DA_ADD_REQ), S_U, 0),
    D(S,  GETM,       COH_DO(DA_INV_SHARERS, DA_DATA_TO_REQ, DA_CLEAR_SHARERS, DA_SET_OWNER_REQ), EM_U,
                      DR_STALE_LLC),
    D(S,  UPGRADE,    COH_DO(DA_INV_SHARERS, DA_ACKCOUNT_TO_REQ, DA_CLEAR_SHARERS, DA_SET_OWNER_REQ), EM_U,
                      DR_STALE_LLC),
    D(S,  FAR_ATOMIC, COH_DO(DA_FWD_TO_HOME, DA_INV_SHARERS, DA_CLEAR_SHARERS, DA_SAVE_ACKS), AT_A, 0),
    D(S,  PUTS,       COH_DO(DA_REMOVE_REQ, DA_PUT_ACK), S, 0),
    D(S,  PUTS_LAST,  COH_DO(DA_REMOVE_REQ, DA_PUT_ACK), I, 0),
    D(S,  PUT_STALE,  COH_DO(DA_PUT_ACK), S, 0),
    D(EM, GETS,       COH_DO(DA_FWD_GETS, DA_OWNER_TO_SHARER, DA_ADD_REQ), S_DU, 0),
    D(EM, GETM,       COH_DO(DA_FWD_GETM, DA_SET_OWNER_REQ), EM_U, DR_STALE_LLC),
    D(EM, FAR_ATOMIC, COH_DO(DA_FWD_TO_HOME, DA_FWD_GETM, DA_CLEAR_OWNER, DA_SAVE_ACKS), AT_AD,
                      DR_STALE_LLC),
    D(EM, PUTE,       COH_DO(DA_CLEAR_OWNER, DA_PUT_ACK), I, 0),
    D(EM, PUTM,       COH_DO(DA_CLEAR_OWNER, DA_WRITE_MEM, DA_PUT_ACK), I, 0),
    D(EM, PUT_STALE,  COH_DO(DA_PUT_ACK), EM, 0),
    /* ---- transient states ---- */
    DSTALL(S_DU),
    D(S_DU, COPYBACK, COH_DO(DA_WRITE_MEM), S_U, DR_LLC_TO_READER),
    /* Never fires with qsim's latencies: the requester's Unblock follows the owner's data,
     * which left with the copy-back, and a route through a third party is never shorter than
     * the direct one (memsys.h), so the copy-back is always in first.  Kept for a network that
     * reorders; the random tester lists it (and the S_D row) as never firing. */
    D(S_DU, UNBLOCK,  COH_DO_NOTHING, S_D, 0),
    DSTALL(S_D),
    /* never fires: only the row above leads here */
    D(S_D,  COPYBACK, COH_DO(DA_WRITE_MEM), S, DR_LLC_TO_READER),
    DSTALL(S_U),
    D(S_U,  UNBLOCK,  COH_DO_NOTHING, S, 0),
    DSTALL(EM_U),
    D(EM_U, UNBLOCK,  COH_DO_NOTHING, EM, 0),
    DSTALL(AT_AD),
    D(AT_AD, DATA,    COH_DO(DA_WRITE_MEM, DA_ATOMIC_REPLY), I, 0),
    DSTALL(AT_A),
    D(AT_A, INV_ACK,      COH_DO(DA_DEC_ACK), AT_A, 0),
    D(AT_A, LAST_INV_ACK, COH_DO(DA_DEC_ACK, DA_ATOMIC_REPLY), I, 0),
};
#undef Q
#undef D

const CohProtocol coh_mesi = {
    .name = "mesi",
    .source = "Sorin, Hill, Wood: A Primer on Memory Consistency and Cache Coherence, "
              "Tables 8.3-8.4 (MESI directory protocol), blocking-directory variant",
    .cache = mesi_cache, .n_cache = G_N_ELEMENTS(mesi_cache),
    .dir = mesi_dir, .n_dir = G_N_ELEMENTS(mesi_dir),
    .has_o = FALSE, .has_e = TRUE,
};
