/* MESIF's rules: what each directory row of the MESI table does with the F copy.
 *
 * MESIF (Intel's QPI protocol) runs the MESI tables (coherence/mesi.c).  Its F (forward) state
 * is no cache state: it is kept per socket at the home, beside the directory (memsys.h,
 * DirEntry.f_socket), and marks the one socket whose LLC answers a reader from another socket
 * with a clean shared copy, instead of memory.  These rules are a table of their own, one row
 * per MESI directory row that is not a stall (coh_mesif_check holds them to it), so that the
 * MESI table says nothing of F: memsys_new adds them to a MESIF run's copy of the MESI table,
 * and `qsim protocol mesif` prints them after the MESI tables.
 *  - DR_F_FORWARD: a reader whose own socket's LLC lacks the line gets the F socket's copy;
 *  - DR_F_TO_READER: the reader's socket takes F (the newest reader forwards next);
 *  - DR_F_DROP: F goes if, after the row, no LLC holds the current data (a writer ends every
 *    shared copy). */
#include "coherence/protocol.h"

#define F(s, e, r) { DS_##s, DE_##e, (r) }
const CohFRule coh_mesif_rules[] = {
    /* ---- stable states ---- */
    F(I,     GETS,        DR_F_FORWARD | DR_F_TO_READER),
    F(I,     GETM,        DR_F_FORWARD | DR_F_DROP),
    F(I,     FAR_ATOMIC,  DR_F_DROP),
    F(I,     PUT_STALE,   DR_F_DROP),
    F(S,     GETS,        DR_F_FORWARD | DR_F_TO_READER),
    F(S,     GETM,        DR_F_FORWARD | DR_F_DROP),
    F(S,     UPGRADE,     DR_F_DROP),
    F(S,     FAR_ATOMIC,  DR_F_DROP),
    F(S,     PUTS,        DR_F_DROP),
    F(S,     PUTS_LAST,   DR_F_DROP),
    F(S,     PUT_STALE,   DR_F_DROP),
    F(EM,    GETS,        DR_F_TO_READER),
    F(EM,    GETM,        DR_F_DROP),
    F(EM,    FAR_ATOMIC,  DR_F_DROP),
    F(EM,    PUTE,        DR_F_DROP),
    F(EM,    PUTM,        DR_F_DROP),
    F(EM,    PUT_STALE,   DR_F_DROP),
    /* ---- transient states ---- */
    F(S_DU,  COPYBACK,    DR_F_DROP),
    F(S_DU,  UNBLOCK,     DR_F_DROP),
    F(S_D,   COPYBACK,    DR_F_DROP),
    F(S_U,   UNBLOCK,     DR_F_DROP),
    F(EM_U,  UNBLOCK,     DR_F_DROP),
    F(AT_AD, DATA,        DR_F_DROP),
    F(AT_A,  INV_ACK,     DR_F_DROP),
    F(AT_A,  LAST_INV_ACK, DR_F_DROP),
};
#undef F
const guint coh_n_mesif_rules = G_N_ELEMENTS(coh_mesif_rules);
