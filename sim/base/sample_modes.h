/* Modes in a small sample: whether repeated runs (seeds, or timing settings) fell into separate
 * regimes, so that no mean or interval is taken across two of them as if they were one.  A
 * bistable lock shows it: qspin at think 100 on haswell runs one seed in ten at 124 cycles per
 * acquisition and nine at 324, where every acquisition takes the slow path; their mean, 304,
 * describes no run.
 *
 * The rule, on the log of the values (they are cycles, ratios: positive, and a regime is a
 * factor away, not a number of cycles): sort them and cut at the k largest gaps between
 * neighbours (k = 1 .. SAMPLE_MODES_MAX - 1); the cut stands when its smallest gap is more
 * than SAMPLE_MODES_GAP_FACTOR times the pooled within-mode standard deviation (df = n - k - 1,
 * at least 2) and more than SAMPLE_MODES_MIN_GAP (a factor of 1.05: closer regimes change no
 * verdict); the largest k that stands wins, so three regimes are found even when the gap between
 * two of them is smaller than the spread of the other two together.  A sample of fewer than
 * SAMPLE_MODES_MIN_N values is one mode: with df below 2 the pooled spread says nothing.
 *
 * Why 6 and 6: drawn from one normal or uniform cloud (relative spread 5% to 50%), 10 values are
 * cut in under 2% of samples and 12 in under 0.5% (a simulation of 10,000 samples each, in
 * docs/study-qspin-cmpxchg.md), while one seed at 124 beside nine at 324 +- 3, the seed thread's
 * own cmpxchg runs (67 and 97 M) and ratios at 0.4, 1.0 and 2.3 are all cut where they should
 * be.  At n = 4 or 5 the same rule cuts 10-30% of unimodal samples: too few to tell. */
#ifndef QSIM_SAMPLE_MODES_H
#define QSIM_SAMPLE_MODES_H

#include <glib.h>

#define SAMPLE_MODES_MAX 4
#define SAMPLE_MODES_MIN_N 6
#define SAMPLE_MODES_GAP_FACTOR 6.0
#define SAMPLE_MODES_MIN_GAP 1.05   /* as a factor between neighbours */

typedef struct {
    guint n;                 /* values in this mode */
    double low, high;        /* its smallest and largest value */
    double mean, median;
} SampleMode;

typedef struct {
    guint nmodes;            /* 1: one regime */
    SampleMode mode[SAMPLE_MODES_MAX]; /* from the lowest values up */
} SampleModes;

/* The modes of x[0..n-1] (every value > 0; a value <= 0 makes the sample one mode).  With
 * `member` (n of them) each value's mode index is written there. */
void sample_modes(const double *x, guint n, SampleModes *out, guint *member);

#endif
