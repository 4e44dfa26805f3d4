/* Coherence protocols as data: the states, events and actions shared by the protocol tables
 * (coherence/msi.c, mesi.c, moesi.c for a directory; msi_bus.c, mesi_bus.c for a snooping bus),
 * and the row type those files fill in.
 *
 * Two controllers, each one table (after Sorin, Hill and Wood, "A Primer on Memory Consistency
 * and Cache Coherence", ch. 8 for a directory, ch. 7 for a bus):
 *  - the cache controller (one per core's private hierarchy): state x event -> actions, next;
 *  - the home/directory controller (one per line, at the line's home socket).
 * The home is *blocking*: while a line is in a transient directory state, requests for it wait
 * in a FIFO at the home (the tables write this out as DA_STALL rows).  The requester tells the
 * home it is done with an Unblock, as in gem5's blocking directories; acks still go to the
 * requester as in the Primer.
 *
 * On a bus (coherence/bus.c) the second table is the memory controller's (the Primer's
 * "LLC/memory"), and a cache's events include the requests it snoops: Own-GetS when it sees its
 * own request ordered on the bus, Other-GetS for another cache's.
 *
 * Classifying a message into an event is done by the memory system (coherence/memsys.c);
 * these tables only say what happens.  A (state, event) pair that no row covers is an
 * internal error (g_error) naming both. */
#ifndef QSIM_PROTOCOL_H
#define QSIM_PROTOCOL_H

#include <glib.h>
#include <stdint.h>
#include "sim/base/config.h"

/* Errors of the coherence module. */
#define COH_ERROR (coh_error_quark())
GQuark coh_error_quark(void);
typedef enum { COH_ERROR_TABLE, COH_ERROR_INVARIANT, COH_ERROR_CONFIG } CohError;

/* ---- cache controller ---- */
typedef enum {
    /* stable */
    CS_I, CS_S, CS_E, CS_O, CS_M,
    /* transient: from X to Y, waiting for A = acks, D = data, C = ack count */
    CS_IS_D, CS_IM_AD, CS_IM_A, CS_SM_AD, CS_SM_A, CS_OM_AC, CS_OM_A,
    CS_MI_A, CS_EI_A, CS_OI_A, CS_SI_A, CS_II_A,
    /* transient, bus (atomic requests and transactions: only the data is awaited) */
    CS_IM_D, CS_SM_D,
    CS__N
} CohCacheState;

typedef enum {
    /* from the own core */
    CE_LOAD, CE_STORE, CE_REPLACEMENT,
    /* from the home: other cores' transactions forwarded, and the answer to the own Put */
    CE_FWD_GETS, CE_FWD_GETM, CE_INV, CE_PUT_ACK,
    /* bus: the own request seen ordered on the bus (the Primer's "own transaction" columns) */
    CE_OWN_GETS, CE_OWN_GETM, CE_OWN_PUTM,
    /* responses to the own transaction */
    CE_DATA,          /* data or ack count with no acks outstanding after it */
    CE_DATA_ACKS,     /* data or ack count with acks still to come */
    CE_DATA_E,        /* exclusive clean data (MESI/MOESI E grant) */
    CE_INV_ACK,       /* not the last one */
    CE_LAST_INV_ACK,
    /* bus: other caches' requests, snooped */
    CE_OTHER_GETS, CE_OTHER_GETM, CE_OTHER_PUTM,
    CE__N
} CohCacheEvent;

typedef enum {
    CA_STALL        = 1u << 0,  /* the access waits in the line's MSHR queue */
    CA_HIT          = 1u << 1,  /* perform the access now */
    CA_SEND_GETS    = 1u << 2,
    CA_SEND_GETM    = 1u << 3,
    CA_SEND_UPGRADE = 1u << 4,  /* GetM from a holder of valid data */
    CA_SEND_PUTS    = 1u << 5,
    CA_SEND_PUTE    = 1u << 6,
    CA_SEND_PUTM    = 1u << 7,
    CA_SEND_PUTO    = 1u << 8,
    CA_DATA_TO_REQ  = 1u << 9,  /* cache-to-cache data (with the forwarded ack count) */
    CA_COPYBACK     = 1u << 10, /* data to the home, which writes memory */
    CA_ACK_TO_REQ   = 1u << 11,
    CA_SAVE_DATA    = 1u << 12, /* take data (an upgrade's grant: none) and ack count from the message */
    CA_DEC_ACK      = 1u << 13,
    CA_UNBLOCK      = 1u << 14, /* tell the home the transaction is complete */
    CA_WAKE         = 1u << 15, /* retry the accesses queued on the line */
    CA_LOST_INV     = 1u << 16, /* tell the core: invalidated */
    CA_LOST_DOWN    = 1u << 17, /* tell the core: lost write permission */
    CA_LEAVE        = 1u << 18, /* the line leaves the L1/L2 arrays (stays in the MSHR) */
    CA_FREE         = 1u << 19, /* the line is gone: back to I */
    /* bus: requests are ordered when the arbiter grants the bus, so a row that issues one
     * fires at the grant (the Primer's atomic requests) */
    CA_ISSUE_GETS   = 1u << 20, /* GetS on the bus */
    CA_ISSUE_GETM   = 1u << 21, /* GetM on the bus */
    CA_ISSUE_PUTM   = 1u << 22, /* PutM on the bus (a write-back: its data follows, CA_DATA_TO_MEM) */
    CA_DATA_TO_MEM  = 1u << 23, /* the line's data to the memory in the data phase */
} CohCacheAction;
#define CA__ALL ((1u << 24) - 1)
#define CA_ACTION_BITS 24
/* The bit index of one action (CohCacheAction or CohDirAction): where a table of action
 * functions keeps it. */
#define CA_BIT(a) __builtin_ctz(a)
/* Actions a table of the other family may not use: a bus has no home to send to, and a
 * directory no bus to issue on. */
#define CA_DIRECTORY_ONLY (CA_SEND_GETS | CA_SEND_GETM | CA_SEND_UPGRADE | CA_SEND_PUTS | CA_SEND_PUTE | \
                           CA_SEND_PUTM | CA_SEND_PUTO | CA_COPYBACK | CA_ACK_TO_REQ | CA_DEC_ACK | CA_UNBLOCK)
#define CA_BUS_ONLY (CA_ISSUE_GETS | CA_ISSUE_GETM | CA_ISSUE_PUTM | CA_DATA_TO_MEM)

/* ---- home / directory controller ---- */
typedef enum {
    /* stable */
    DS_I, DS_S, DS_EM, DS_O,
    /* transient (the line is busy; requests queue) */
    DS_S_DU,   /* to S: waiting for the old owner's copy-back and the requester's Unblock */
    DS_S_D,    /* to S: waiting for the copy-back */
    DS_S_U,    /* to S: waiting for the Unblock */
    DS_EM_U,   /* to EM: waiting for the Unblock */
    DS_O_U,    /* to O: waiting for the Unblock */
    DS_AT_AD,  /* far atomic: waiting for the owner's data and the acks */
    DS_AT_A,   /* far atomic: waiting for the acks */
    /* bus memory controller (Primer Table 7.6) */
    DS_IORS,   /* stable: memory owns the line, caches may share it */
    /* msi, and the bus memory's M (the Primer's names: one cache holds the line in M) */
    DS_M,      /* stable */
    DS_M_U,    /* to M: waiting for the Unblock */
    DS_IORS_D, /* to IorS: waiting for the owner's data */
    DS_I_D,    /* to I: waiting for the write-back's data */
    DS__N
} CohDirState;

typedef enum {
    DE_GETS, DE_GETM,
    DE_UPGRADE,       /* GetM from a core that holds valid data (sharer or owner) */
    DE_FAR_ATOMIC,
    DE_PUTS,          /* from a sharer that is not the last holder */
    DE_PUTS_LAST,     /* from the last sharer, no owner */
    DE_PUTE,          /* from the owner, no data */
    DE_PUTM,          /* from the owner, with data, no sharers left */
    DE_PUTO,          /* from the owner, with data, sharers remain */
    DE_PUT_STALE,     /* from a core the directory no longer lists */
    DE_UNBLOCK,
    DE_COPYBACK,      /* the old owner's data after a Fwd-GetS (MESI) */
    DE_DATA,          /* far atomic: owner's data, no acks outstanding */
    DE_DATA_ACKS,     /* far atomic: owner's data, acks outstanding */
    DE_INV_ACK, DE_LAST_INV_ACK,
    DE_OWNER_DATA,    /* bus: the owner's data (after a GetS it snooped, or its PutM's write-back) */
    DE__N
} CohDirEvent;

typedef enum {
    DA_STALL          = 1u << 0,  /* queue the request in the line's home FIFO */
    DA_DATA_TO_REQ    = 1u << 1,  /* data from the LLC or memory, with the ack count */
    DA_DATA_E_TO_REQ  = 1u << 2,  /* exclusive clean data */
    DA_ACKCOUNT_TO_REQ= 1u << 3,  /* upgrade grant: no data, just the ack count */
    DA_FWD_GETS       = 1u << 4,
    DA_FWD_GETM       = 1u << 5,  /* the owner sends its data (and ack count) to the requester */
    DA_INV_SHARERS    = 1u << 6,  /* every sharer but the requester; acks to the requester */
    DA_ADD_REQ        = 1u << 7,  /* requester joins the sharers */
    DA_OWNER_TO_SHARER= 1u << 8,
    DA_SET_OWNER_REQ  = 1u << 9,
    DA_CLEAR_OWNER    = 1u << 10,
    DA_CLEAR_SHARERS  = 1u << 11,
    DA_REMOVE_REQ     = 1u << 12, /* from the sharers */
    DA_WRITE_MEM      = 1u << 13,
    DA_PUT_ACK        = 1u << 14,
    DA_SAVE_ACKS      = 1u << 15, /* far atomic: note the expected acks */
    DA_DEC_ACK        = 1u << 16,
    DA_ATOMIC_REPLY   = 1u << 17, /* perform the far atomic on memory, reply to the requester */
    DA_FWD_TO_HOME    = 1u << 18, /* far atomic: DA_FWD_GETM/DA_INV_SHARERS answer the home */
} CohDirAction;
#define DA__ALL ((1u << 19) - 1)
#define DA_ACTION_BITS 19

/* What a home does on a row besides its actions: the rules of the LLCs beside the directory,
 * which the Primer's tables do not have, and of MESIF's F copy (Intel's QPI protocol, which runs
 * the MESI tables).  The protocol tables carry only the LLC rules; MESIF's are a table of their
 * own (coh_mesif_rules below), which memsys_new adds to a MESIF run's copy of the MESI table.
 * A row's rules apply after its actions.  `qsim protocol` prints the Primer's cells, not these. */
typedef enum {
    DR_STALE_LLC     = 1u << 0, /* a writer is coming: no LLC holds the current data any more */
    DR_LLC_TO_READER = 1u << 1, /* the copy-back fills the reader's socket's (inclusive) LLC too */
    DR_F_FORWARD     = 1u << 2, /* MESIF: a reader whose own LLC lacks the line gets the F socket's copy,
                                 * not memory's */
    DR_F_TO_READER   = 1u << 3, /* MESIF: the reader's socket takes F (the newest reader forwards) */
    DR_F_DROP        = 1u << 4, /* MESIF: F goes when, after the row, no LLC holds the current data */
} CohDirRule;
#define DR__ALL ((1u << 5) - 1)
#define DR_MESIF (DR_F_FORWARD | DR_F_TO_READER | DR_F_DROP)

/* A row: in state `state`, event `event` runs `run`, in order, then the line is in `next`
 * (gem5's SLICC transitions, which list their actions).  `actions` is the same actions as one
 * set of bits, for asking whether a row does something and for printing its cells in one
 * order; both are written from one list by COH_DO, and coh_protocol_check holds them equal. */
#define COH_ROW_MAX_ACTIONS 6
typedef struct {
    guint8 state;      /* CohCacheState or CohDirState */
    guint8 event;      /* CohCacheEvent or CohDirEvent */
    guint8 next;
    guint32 actions;   /* CohCacheAction or CohDirAction bits: the set of `run` */
    guint8 rules;      /* directory rows: CohDirRule bits; cache rows: 0 */
    guint8 n_run;
    guint32 run[COH_ROW_MAX_ACTIONS]; /* the actions in the order they run, one bit each */
} CohRow;

/* COH_DO(CA_SEND_GETS, CA_LEAVE): a row's actions, in the order they run, as a designated
 * initializer of `run`, `n_run` and `actions`; COH_DO_NOTHING for a row without any. */
#define COH_NARGS_(_1, _2, _3, _4, _5, _6, n, ...) n
#define COH_NARGS(...) COH_NARGS_(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define COH_OR_1(a) (a)
#define COH_OR_2(a, ...) ((a) | COH_OR_1(__VA_ARGS__))
#define COH_OR_3(a, ...) ((a) | COH_OR_2(__VA_ARGS__))
#define COH_OR_4(a, ...) ((a) | COH_OR_3(__VA_ARGS__))
#define COH_OR_5(a, ...) ((a) | COH_OR_4(__VA_ARGS__))
#define COH_OR_6(a, ...) ((a) | COH_OR_5(__VA_ARGS__))
#define COH_CAT_(a, b) a##b
#define COH_CAT(a, b) COH_CAT_(a, b)
#define COH_DO(...) .run = { __VA_ARGS__ }, .n_run = COH_NARGS(__VA_ARGS__), \
                    .actions = COH_CAT(COH_OR_, COH_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define COH_DO_NOTHING .n_run = 0, .actions = 0

typedef struct {
    const char *name;               /* "mesi" */
    const char *source;             /* the Primer tables it follows */
    const CohRow *cache;
    guint n_cache;
    const CohRow *dir;
    guint n_dir;
    gboolean has_o, has_e;
    gboolean bus;                   /* snooping tables for coherence/bus.c: dir is the memory's */
    guint8 dir_start;               /* the state of a line nobody has touched (DS_I, or IorS) */
} CohProtocol;

extern const CohProtocol coh_msi;
extern const CohProtocol coh_mesi;
extern const CohProtocol coh_moesi;
extern const CohProtocol coh_msi_bus;
extern const CohProtocol coh_mesi_bus;
/* Every table set, for tools and tests (mesif runs coh_mesi, with coh_mesif_rules). */
extern const CohProtocol *const coh_protocols[];
extern const guint coh_n_protocols;

/* MESIF's rules (coherence/mesif.c): for every directory row of coh_mesi that is not a stall,
 * what it does with F (DR_MESIF bits).  MESIF runs the MESI tables; a MESIF run's copy of the
 * directory table gets these rules added (memsys_new), and no protocol table carries them. */
typedef struct {
    guint8 state;      /* CohDirState */
    guint8 event;      /* CohDirEvent */
    guint8 rules;      /* DR_MESIF bits */
} CohFRule;
extern const CohFRule coh_mesif_rules[];
extern const guint coh_n_mesif_rules;
/* The MESIF rules of coh_mesi's directory cell (state, event); 0 for a cell without any. */
guint coh_mesif_rules_of(const CohFRule *rules, guint n, guint state, guint event);
/* Checks a MESIF rule table against the MESI directory table it goes with: only MESIF bits, each
 * on a row of the table that is not a stall, and every such row says what becomes of F
 * (DR_F_TO_READER or DR_F_DROP, not both).  FALSE with a message on the first problem. */
gboolean coh_mesif_check(const CohProtocol *mesi, const CohFRule *rules, guint n, GError **error);

/* The tables a config runs: its protocol on its interconnect (mesif: the MESI tables).  NULL
 * for a combination the config check refuses (moesi or mesif on a bus). */
const CohProtocol *coh_protocol_select(const QsimConfig *cfg);

/* ---- the states, each declared once (coherence/protocol_states.c), as SLICC declares a
 * state with its description and access permission: names, words and predicates read these ---- */
typedef struct {
    const char *name;    /* "IS_D" */
    const char *doc;     /* what it means, one line ("from I to S: GetS sent, ...") */
    guint readable : 1;  /* the cache may read its copy: loads hit (a stable valid state, or one on its
                          * way to M that still has its old data) */
    guint writable : 1;  /* a store hits: the only copy (M, or E, which a store makes M silently) */
    guint stable : 1;    /* not waiting for anything */
    guint dirty : 1;     /* the only up-to-date copy, written: answering a snoop with its data means
                          * reading the line out of the private caches */
    guint owner : 1;     /* the directory lists the cache as the line's owner: it answers forwards */
} CohCacheStateInfo;
extern const CohCacheStateInfo coh_cache_states[CS__N];

typedef struct {
    const char *name;    /* "S_DU" */
    const char *doc;     /* what it means, one line */
    const char *wait;    /* a transient state: what it waits for ("the requester's Unblock (U)"); NULL if stable */
    guint stable : 1;    /* not busy: requests are served, not queued */
} CohDirStateInfo;
extern const CohDirStateInfo coh_dir_states[DS__N];

const char *coh_cache_state_name(guint s);
const char *coh_cache_event_name(guint e);
const char *coh_dir_state_name(guint s);
const char *coh_dir_event_name(guint e);
static inline gboolean coh_cache_state_stable(guint s) { return s < CS__N && coh_cache_states[s].stable; }
static inline gboolean coh_dir_state_stable(guint s) { return s < DS__N && coh_dir_states[s].stable; }
static inline gboolean coh_cache_state_readable(guint s) { return s < CS__N && coh_cache_states[s].readable; }
static inline gboolean coh_cache_state_writable(guint s) { return s < CS__N && coh_cache_states[s].writable; }
static inline gboolean coh_cache_state_dirty(guint s) { return s < CS__N && coh_cache_states[s].dirty; }
static inline gboolean coh_cache_state_owner(guint s) { return s < CS__N && coh_cache_states[s].owner; }

/* "IS_D + Data -> S": the row as a trace quotes it (caller frees). */
char *coh_row_text(const CohRow *r, gboolean dir);
/* "send GetM, lost-inv" : the actions of a row (caller frees). */
char *coh_actions_text(guint32 actions, gboolean dir);
/* Checks a table: states, events and next states in range, no duplicate (state, event),
 * actions known, each row's run list its action set (each action once, at most
 * COH_ROW_MAX_ACTIONS), stall rows keep their state; home rules known, on directory rows that
 * are not stalls, and none of MESIF's (they are a table of their own).  FALSE with a message on
 * the first problem. */
gboolean coh_protocol_check(const CohProtocol *p, GError **error);

#endif
