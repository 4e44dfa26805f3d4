/* The ARMv8 model's section of an explorer state (model_arm64.c): Promising-ARM's memory and
 * views (Pulte, Pichon-Pharabod, Kang, Lee, Hur, "Promising-ARM/RISC-V: a simpler and faster
 * operational concurrency model", PLDI 2019).
 *
 *   memory    a list of write messages <addr, size := value>_tid; a message's timestamp is its
 *             position (1..n); timestamp 0 is the floor image, what each byte held before
 *             message 1.  The order is coherence order per byte.  ExploreState.mem holds each
 *             byte's last write (so the end checks read the final memory).  A message is
 *             `promised` while its thread has promised it and not yet made it.
 *   views     timestamps: each register's (the writes its value depends on), per byte the
 *             thread's coherence view `coh`, vrOld/vwOld (the last read/write done), vrNew/vwNew
 *             (what later reads/writes must come after: barriers, acquires), vCAP (addresses
 *             and branches so far: later writes wait for them), vRel (release writes: a later
 *             LDAR waits for them); the forward bank is per message (`fwd`, `ex`: a thread that
 *             reads its own last write to a byte gets that write's address and data views, not
 *             its timestamp, unless it was exclusive and the read is an acquire); the exclusive
 *             bank (xcl: the timestamp and view of the last ldx's read).
 *
 * Canonical form: messages no thread can ever read again are dropped (every byte of one has a
 * later write that every thread's coherence view has reached, and no exclusive bank reaches
 * back past it), and a first message every thread has seen on each of its bytes is folded
 * into the floor; views are renumbered to count the messages kept, which keeps every
 * comparison the rules make between a view and a message's timestamp.  Encoded after memory:
 *
 *   byte appended, varint n, then per message: varint addr - base, byte size, varint value, byte tid,
 *          byte promised | ex << 1 | needed << 2, byte fwd
 *   floor: per 8-byte word that differs from the initial image, as memory's; then a 0
 *   per thread: 7 bytes vrOld, vrOld-without-no-return-reads, vwOld, vrNew, vwNew, vCAP, vRel;
 *          byte xcl, and with it bytes xcl_ts, xcl_view; varint mask of registers with a
 *          nonzero view, then each view; the same for the registers' pick views; coh: per run
 *          of bytes with one nonzero view, varint (start - end of the previous run + 1, the
 *          first from 0), varint length, byte view; then a 0 */
#ifndef QSIM_EXPLORE_ARM64_STATE_H
#define QSIM_EXPLORE_ARM64_STATE_H

#include "sim/explore/explore_state.h"

/* The most messages memory may hold: a move that would add one more is left out, and the
 * search says a bound cut it. */
#define ARM_MAX_MSGS 64

typedef uint8_t ArmView;

typedef struct {
    uint64_t addr, value;
    uint8_t size, tid;
    gboolean promised;         /* promised by tid, not yet fulfilled */
    /* (promised) since the promise, tid took a step that cannot move ahead of it: one that
     * touched a newer message (read it, fulfilled it, or wrote a new one) or a futex op.  Only
     * such a promise may be fulfilled (model_arm64.c, "needed promises"). */
    gboolean needed;
    gboolean ex;               /* made by an exclusive or atomic write */
    ArmView fwd;               /* the write's address and data views (the forward bank) */
    int32_t pc;                /* the op that made it (reports only; not encoded) */
    guint step;                /* the trace step that made it (reports only) */
} ArmMsg;

typedef struct {
    ArmView reg[ISA_NREG_SLOTS];
    /* Per register, the reads it depends on only through a CSEL's condition (herd's pick
     * dependencies): they order later writes (as an address, data or control dependency does)
     * but not later reads. */
    ArmView pick[ISA_NREG_SLOTS];
    ArmView vrold, vrold_ret, vwold, vrnew, vwnew, vcap, vrel;
    gboolean xcl;
    ArmView xcl_ts, xcl_view;
} ArmThread;

typedef struct {
    guint n;
    ArmMsg msg[ARM_MAX_MSGS];  /* msg[k] has timestamp k + 1 */
    guint8 *floor;             /* layout->size bytes */
    ArmView *coh;              /* nthreads x layout->size */
    ArmThread *th;
    /* The last move added a message (a new write or a promise), or none was made yet: only
     * then may a thread promise (promise-first: model_arm64.c). */
    gboolean appended;
} ArmState;

extern const ExploreStateExt explore_arm64_ext;

static inline ArmState *arm_of(const ExploreState *s) { return s->ext; }
static inline ArmView *arm_coh(const ExploreWorld *w, ArmState *a, guint t)
{
    return a->coh + (gsize)t * w->layout->size;
}
static inline gboolean arm_covers(const ArmMsg *m, uint64_t addr)
{
    return addr >= m->addr && addr < m->addr + m->size;
}
/* Byte `addr` of message ts (0: the floor). */
guint8 arm_byte(const ExploreWorld *w, const ArmState *a, guint ts, uint64_t addr);
/* Drops what no thread can read again and renumbers views (the canonical form). */
void arm_compact(const ExploreWorld *w, ExploreState *s);

#endif
