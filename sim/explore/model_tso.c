/* x86-TSO, the abstract machine of Owens, Sarkar and Sewell ("A better x86 memory model:
 * x86-TSO", TPHOLs 2009; Sewell et al., CACM 53(7), 2010), which the Intel SDM's rules
 * (Vol. 3A, section 8.2.2 "Memory Ordering in P6 and More Recent Processor Families") describe:
 *
 *   - each thread has a FIFO store buffer; a plain store (`st`, any suffix: on x86 every store
 *     is a release) enters it;
 *   - a move of its own takes the oldest entry to memory ("drain"), at any time;
 *   - a plain load (`ld`, any suffix) reads each byte from the thread's newest buffered store to
 *     that byte, else from memory (store forwarding);
 *   - a locked instruction (cas, xchg, fadd, for, fand: LOCK CMPXCHG, XCHG, LOCK XADD, ...) and
 *     MFENCE (`fence`, `fence.full`) run only with an empty buffer, the RMW then acting on
 *     memory in one step (SDM 8.2.2: "Locked instructions have a total order"; "Reads or writes
 *     cannot be reordered with I/O instructions, locked instructions, or serializing
 *     instructions");
 *   - SFENCE (`fence.store`) and LFENCE (`fence.load`) order only what write-back memory already
 *     keeps in order under these rules (stores with older stores, loads with older loads: SDM
 *     8.2.2, and 8.2.5 "Strengthening or Weakening the Memory-Ordering Model"), so they are
 *     local ops that do nothing here;
 *   - the futex ops are system calls that order like a full barrier (docs/isa.md): they too
 *     run with an empty buffer, each one atomic step as in the interpreter.
 *
 * x86 has no ldx/stx/wfe/sev; arm64 code run under this model gets them as the interpreter
 * defines them, ldx and stx acting on memory with an empty buffer (as a locked instruction).
 *
 * The buffer is bounded (ExploreWorld.sb_size, --store-buffer): a store that finds it full waits
 * for a drain, as on real hardware; the search then says that the bound was reached. */
#include <string.h>
#include "sim/explore/explore_exec.h"

static gboolean tso_local(const ExploreWorld *w, const ExploreState *s, guint t, const IsaInsn *i)
{
    (void)w;
    if (i->op == OP_FENCE)
        return i->fence != FENCE_FULL || s->th[t].nbuf == 0;
    return explore_op_is_private(i);
}

/* Whether thread t's next op may run now (it is runnable). */
static gboolean step_enabled(const ExploreWorld *w, const ExploreState *s, guint t, gboolean *bounded)
{
    const IsaInsn *i = explore_insn(w, s, t);
    if (!i)
        return TRUE; /* it faults */
    const ExploreThread *th = &s->th[t];
    if (i->op == OP_FENCE || explore_op_is_atomic_step(i))
        return th->nbuf == 0;
    if (i->op == OP_ST && th->nbuf >= w->sb_size) {
        *bounded = TRUE;
        return FALSE;
    }
    return TRUE;
}

static void tso_moves(const ExploreWorld *w, const ExploreState *s, GArray *moves, gboolean *bounded)
{
    for (guint t = 0; t < w->nthreads; t++) {
        const ExploreThread *th = &s->th[t];
        if (th->state == THREAD_RUNNABLE && step_enabled(w, s, t, bounded))
            g_array_append_val(moves, ((ExploreMove){ t, EXPLORE_MOVE_STEP, 0 }));
        if (th->nbuf)
            g_array_append_val(moves, ((ExploreMove){ t, EXPLORE_MOVE_DRAIN, 0 }));
    }
}

static void drain(const ExploreWorld *w, ExploreState *s, guint t, ExploreNote *note)
{
    ExploreThread *th = &s->th[t];
    ExploreStore e = th->buf[0];
    memmove(&th->buf[0], &th->buf[1], (th->nbuf - 1) * sizeof th->buf[0]);
    th->nbuf--;
    if (note)
        note->pc = e.pc;
    explore_mem_store(w, s, t, e.addr, e.size, e.value, note);
}

static void tso_apply(const ExploreWorld *w, ExploreState *s, ExploreMove m, ExploreNote *note)
{
    if (m.kind == EXPLORE_MOVE_DRAIN)
        drain(w, s, m.thread, note);
    else
        explore_exec_op(w, &explore_model_tso, s, m.thread, note);
}

static uint64_t tso_load(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                         ExploreNote *note)
{
    uint64_t v = explore_mem_read(w, s, addr, size, note);
    const ExploreThread *th = &s->th[t];
    for (unsigned b = 0; b < size; b++) {
        uint64_t at = addr + b;
        for (guint k = th->nbuf; k-- > 0;) {
            const ExploreStore *e = &th->buf[k];
            if (at < e->addr || at >= e->addr + e->size)
                continue;
            uint64_t byte = (e->value >> (8 * (at - e->addr))) & 0xff;
            v = (v & ~(0xffULL << (8 * b))) | byte << (8 * b);
            if (note)
                note->from_buffer[b] = (gint8)k;
            break;
        }
    }
    if (note)
        note->rvalue = v;
    return v;
}

static void tso_store(const ExploreWorld *w, ExploreState *s, guint t, uint64_t addr, unsigned size,
                      uint64_t value, int32_t pc, ExploreNote *note)
{
    ExploreThread *th = &s->th[t];
    g_assert(th->nbuf < w->sb_size);
    th->buf[th->nbuf++] = (ExploreStore){ .addr = addr, .size = (uint8_t)size, .value = value, .pc = pc };
    if (note) {
        note->buffered = TRUE;
        note->waddr = addr;
        note->wsize = size;
        note->wvalue = value;
    }
}

const ExploreModel explore_model_tso = {
    .name = "tso",
    .title = "x86-TSO",
    .reference = "Owens, Sarkar, Sewell, \"A better x86 memory model: x86-TSO\", TPHOLs 2009; Intel SDM "
                 "Vol. 3A, 8.2.2",
    .has_buffers = TRUE,
    .local = tso_local,
    .moves = tso_moves,
    .apply = tso_apply,
    .load = tso_load,
    .store = tso_store,
};
