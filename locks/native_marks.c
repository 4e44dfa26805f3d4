/* Per-thread mark records (see native_marks.h). */
#include <string.h>
#include "locks/native_marks.h"

void native_marks_init(NativeMarks *m, uint64_t cap)
{
    memset(m, 0, sizeof *m);
    m->cap = cap;
    m->samples = g_new(uint64_t, MAX(cap, 1));
}

void native_marks_clear(NativeMarks *m)
{
    g_free(m->samples);
    memset(m, 0, sizeof *m);
}

void native_marks_latency(NativeMarks *const *threads, guint n, LatencySamples *out)
{
    for (guint t = 0; t < n; t++)
        g_array_append_vals(out->samples, threads[t]->samples, (guint)threads[t]->kept);
}
