/* CPU lists and pinning for native runs: one thread per CPU, in the order given. */
#ifndef QSIM_NATIVE_CPUS_H
#define QSIM_NATIVE_CPUS_H

#include <pthread.h>
#include <glib.h>

/* Parses a CPU list such as "0,2-5" into guint CPU numbers (in the order written, no
 * duplicates). */
gboolean native_parse_cpus(const char *text, GArray **out, GError **error);
/* The CPUs this process may run on, ascending. */
GArray *native_allowed_cpus(void);
/* The `threads` CPUs a run uses, thread i on the i-th: the first of `wanted` (each checked
 * against the affinity mask), else the first of the allowed ones.  More threads than CPUs is
 * refused: spinning threads that share a CPU measure the scheduler. */
GArray *native_choose_cpus(const GArray *wanted, guint threads, GError **error);
/* Sets `attr` so that the thread it starts runs on `cpu` only. */
void native_pin_attr(pthread_attr_t *attr, guint cpu);

#endif
