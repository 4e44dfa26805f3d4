/* Samples of a latency (cycles), and their mean and nearest-rank percentiles. */
#ifndef QSIM_LATENCY_STATS_H
#define QSIM_LATENCY_STATS_H

#include <glib.h>
#include <stdint.h>

typedef struct {
    GArray *samples; /* uint64_t */
} LatencySamples;

void latency_init(LatencySamples *s);
void latency_clear(LatencySamples *s);
static inline void latency_add(LatencySamples *s, uint64_t v) { g_array_append_val(s->samples, v); }
double latency_mean(const LatencySamples *s);
/* The smallest sample with at least p percent of samples at or below it; 0 when empty. */
uint64_t latency_percentile(LatencySamples *s, double p);

#endif
