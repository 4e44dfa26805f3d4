/* Fewer ops for one translated instruction (cf_peephole.c): a result moved or masked out of a
 * temporary is written straight to its register, and a mask before an op that reads only the
 * low bits is left out.  `lines` are the instruction's ISA ops (no indent; labels "NAME:"), in
 * order, replaced in place; temporaries are r<t_first> .. r<t_first + t_count - 1>, dead once
 * the instruction ends.  The ops that remain compute what the ops given did, for every register
 * and memory word a later instruction can read. */
#ifndef QSIM_CF_PEEPHOLE_H
#define QSIM_CF_PEEPHOLE_H

#include <glib.h>

void cf_peephole(GPtrArray *lines, guint t_first, guint t_count);

#endif
