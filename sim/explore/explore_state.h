/* The explorer's state of a whole program run: every thread's registers, control and run state,
 * the exclusive monitors and event registers, the futex sleep queue, memory, and each thread's
 * FIFO store buffer (the x86-TSO model's; empty under sc).  Two forms:
 *
 *   ExploreState   the working form a model steps (full register files, the memory image);
 *   bytes          the canonical form the search hashes and stores (explore_state_encode).
 *
 * The canonical form holds nothing that depends on the host (no pointers, no hash order) and
 * nothing that does not change what can happen next: a thread's step count, the order number of
 * a futex sleep (only its rank among today's sleepers), registers that are dead at the thread's
 * pc (zeroed first, explore_live.h), memory words equal to the initial image.  Its layout, in
 * order (varint = unsigned LEB128):
 *
 *   per thread:  byte   run state (InterpThreadState) | monitor armed << 3 | event << 4
 *                       | has an ldx line << 5
 *                varint pc + 1
 *                varint mask of the nonzero registers r0..r63, then each as a varint
 *                varint call depth, then each return pc as a varint
 *                varint ldx line (only with an ldx line)
 *                varint marks 0..3 (how often `mark N` ran; 0: any N but 1..3)
 *                varint futex word - base, varint rank (only when asleep in futex_wait)
 *                varint fault kind, address, size (only when faulted)
 *                varint store-buffer entries, then each: varint addr - base, byte size,
 *                       varint value (oldest first)
 *   memory:      per 8-byte word that differs from the initial image, in address order:
 *                varint (word index - previous index, the first counted from -1), varint
 *                value; then a 0.
 *
 * A model that needs more (an ARMv8 model's messages and views) appends its own section here. */
#ifndef QSIM_EXPLORE_STATE_H
#define QSIM_EXPLORE_STATE_H

#include <glib.h>
#include "cores/isa/isa.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_fault.h"
#include "cores/isa/thread_step.h"
#include "sim/explore/explore_reads.h"

#define EXPLORE_ERROR (explore_error_quark())
GQuark explore_error_quark(void);
typedef enum { EXPLORE_ERROR_SETUP } ExploreError;

/* The most entries a store buffer may hold (--store-buffer's maximum). */
#define EXPLORE_SB_MAX 64
/* A fault of the explorer's own: a thread ran this many ops in a row without a scheduling
 * point (a loop that never touches memory can never be ended by another thread). */
#define EXPLORE_RUNAWAY_OPS 1000000
#define EXPLORE_FAULT_RUNAWAY 100

typedef struct {
    uint64_t addr;
    uint8_t size;
    uint64_t value;
    int32_t pc;               /* the store that put it there (reports only; not encoded) */
} ExploreStore;

typedef struct {
    ISA_THREAD_HEAD;           /* state, pc, registers, call stack, monitor, event, marks, futex
                                * word (cores/isa/thread_step.h): what the thread step acts on */
    guint futex_rank;          /* THREAD_FUTEX: 0 for the one asleep longest among all sleepers */
    guint nbuf;                /* store buffer: buf[0] oldest */
    ExploreStore buf[EXPLORE_SB_MAX];
    /* THREAD_FAULT: an IsaFaultKind or EXPLORE_FAULT_RUNAWAY, and its address and size. */
    int fault_kind;
    uint64_t fault_addr;
    unsigned fault_size;
} ExploreThread;

/* What stays fixed over a search: the program, its layout, the initial memory, the dead
 * registers per pc.  Invariant: init has layout->size bytes, live has a mask per pc. */
typedef struct {
    const IsaProgram *p;
    IsaLayout *layout;
    guint nthreads;
    uint32_t line_size;
    guint8 *init;              /* the initial memory image */
    IsaRegMask *live;          /* live[pc]: registers r0..r63 live on entry to pc */
    guint nregs;               /* registers r0..r(nregs-1) may be nonzero (explore_regs_used) */
    ExploreReads *reads;       /* the bytes each thread may still read, per pc */
    int32_t entry;             /* main's pc */
    guint sb_size;             /* store-buffer depth (models with buffers) */
    const struct ExploreStateExt *ext; /* the model's section of the state, or NULL */
    const void *model;         /* the ExploreModel searched (its own parts use it), or NULL */
    void *scratch;             /* the model's working memory over a search (ext->world_new), or NULL */
    gboolean first_pass;       /* the model's has_promises pass without them */
} ExploreWorld;

typedef struct {
    ExploreThread *th;         /* nthreads */
    guint8 *mem;               /* layout->size bytes (arm64: each byte's coherence-last write) */
    void *ext;                 /* the model's own section (ExploreStateExt), or NULL */
    const struct ExploreStateExt *ext_ops;
} ExploreState;

/* A model's own section of the state: made, copied, freed, canonicalized and encoded (after
 * memory) by the model (arm64's messages and views, model_arm64.c). */
typedef struct ExploreStateExt {
    void *(*make)(const ExploreWorld *w);
    void (*free)(void *ext);
    void (*copy)(const ExploreWorld *w, void *to, const void *from);
    void (*canonicalize)(const ExploreWorld *w, ExploreState *s);
    void (*encode)(const ExploreWorld *w, const ExploreState *s, GByteArray *out);
    void (*decode)(const ExploreWorld *w, ExploreState *s, const guint8 **at);
    void *(*world_new)(const ExploreWorld *w);   /* the search's scratch (NULL: none) */
    void (*world_free)(void *scratch);
} ExploreStateExt;

/* NULL with an error when the entry point is missing or threads is 0. */
ExploreWorld *explore_world_new(const IsaProgram *p, guint nthreads, uint32_t line_size, const char *entry,
                                guint sb_size, GError **error);
void explore_world_free(ExploreWorld *w);

/* A state for the world (every thread at the entry, memory at the initial image). */
ExploreState *explore_state_new(const ExploreWorld *w);
void explore_state_free(ExploreState *s);
void explore_state_copy(const ExploreWorld *w, ExploreState *to, const ExploreState *from);

/* Appends s's canonical bytes to `out` (s must be canonical: explore_state_canonicalize). */
void explore_state_encode(const ExploreWorld *w, const ExploreState *s, GByteArray *out);
/* Reads canonical bytes back into s. */
void explore_state_decode(const ExploreWorld *w, ExploreState *s, const guint8 *bytes, gsize len);
/* Zeroes the registers dead at each thread's pc, so states that differ only there are one. */
void explore_state_canonicalize(const ExploreWorld *w, ExploreState *s);

/* Unsigned LEB128, as the canonical bytes write numbers (a model's own section too). */
/* Writes v as a varint into b (at most 10 bytes); how many bytes. */
guint explore_varint_into(guint8 *b, uint64_t v);
void explore_put_varint(GByteArray *out, uint64_t v);
uint64_t explore_get_varint(const guint8 **at);

/* The fixed hash of canonical bytes: 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime
 * 0x100000001b3), so a search visits states in the same order on every host. */
uint64_t explore_hash(const guint8 *bytes, gsize len);

/* Memory as it is (without any store buffer): little-endian, `size` bytes at addr. */
uint64_t explore_mem_load(const ExploreWorld *w, const ExploreState *s, uint64_t addr, unsigned size);
/* Whether any thread is in `state`; how many are. */
guint explore_count_in(const ExploreWorld *w, const ExploreState *s, InterpThreadState state);

#endif
