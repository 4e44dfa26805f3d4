/* Fewer ops for one translated instruction (cf_peephole.c): a result moved or masked out of a
 * temporary is written straight to its register, and a mask before an op that reads only the
 * low bits is left out, a mask of a register already zero-extended is a move, and a move into a
 * temporary is read from its source.  `lines` are the instruction's ISA ops (no indent; labels "NAME:"), in
 * order, replaced in place; temporaries are r<t_first> .. r<t_first + t_count - 1>, dead once
 * the instruction ends.  The ops that remain compute what the ops given did, for every register
 * and memory word a later instruction can read. */
#ifndef QSIM_CF_PEEPHOLE_H
#define QSIM_CF_PEEPHOLE_H

#include <glib.h>

/* `zext32`: the registers known to be zero-extended from 32 bits when the instruction starts (bit
 * r for register r), updated to those after it; 0 where control can arrive from elsewhere (a
 * label, a function's start). */
void cf_peephole(GPtrArray *lines, guint t_first, guint t_count, guint64 *zext32);

#endif
