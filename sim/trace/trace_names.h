/* Names for addresses and cache lines in traces, from the program's layout: a shared variable
 * by its name ("lock_word"), a per-thread one as name[tid] ("node[2]"), a place inside a
 * variable as name+offset ("h_data+8"), and a cache line by the first variable in it, so that
 * a trace says `lock_word` where the memory system says 0x10000. */
#ifndef QSIM_TRACE_NAMES_H
#define QSIM_TRACE_NAMES_H

#include <glib.h>
#include <stdint.h>
#include "cores/isa/isa.h"

typedef struct TraceNames TraceNames;

/* Borrows nothing: the names are copied. */
TraceNames *trace_names_new(const IsaProgram *p, const IsaLayout *l);
void trace_names_free(TraceNames *n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TraceNames, trace_names_free)

/* "lock_word", "h_data+8", "node[2]"; an address no variable covers prints as "0x10040".
 * Caller frees. */
char *trace_names_addr(const TraceNames *n, uint64_t addr);
/* The line's name (its first variable, or its address); valid while n lives. */
const char *trace_names_line(const TraceNames *n, uint64_t line);
/* The variables in the line, "h_counter, h_flag, h_data" ("" for none); valid while n lives. */
const char *trace_names_line_vars(const TraceNames *n, uint64_t line);
/* The line that `name` (a variable, "node[2]", "h_data+8", or an address like 0x10040) lies
 * in.  FALSE when nothing of that name is in the program. */
gboolean trace_names_find(const TraceNames *n, const char *name, uint64_t *line);
/* The lines the program's variables occupy, by address (borrowed array of uint64_t). */
const GArray *trace_names_lines(const TraceNames *n);
uint64_t trace_names_line_of(const TraceNames *n, uint64_t addr);

#endif
