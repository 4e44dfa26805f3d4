/* What herd calls an ISA instruction's events: the annotations of its read and of its write
 * (acquire, release, atomic, exclusive...) and the kind of its fence.  One definition for the
 * two places that turn instructions into events: the litmus paths (thread_paths.c) and the
 * execution-graph explorer's replay (graph_replay.c). */
#ifndef QSIM_MM_INSN_EVENTS_H
#define QSIM_MM_INSN_EVENTS_H

#include "sim/memmodel/event_graph.h"
#include "cores/isa/isa.h"

/* MmEvent.flags of the instruction's read (a load, an RMW's or an ldx's). */
guint32 mm_insn_read_flags(const IsaInsn *in);
/* MmEvent.flags of the instruction's write (a store, an RMW's or an stx's). */
guint32 mm_insn_write_flags(const IsaInsn *in);
/* The fence an instruction is (`fence*` and `isb`). */
MmFenceKind mm_insn_fence_kind(const IsaInsn *in);

#endif
