/* How far a verdict of `qsim compare` holds (sim/run/compare.h): across harness timings, across
 * the seeds' regimes, and across the clear penalty nobody has published for the machine.
 *
 * A verdict is one of three: b wins, b loses, or even.  "Wins" and "loses" need the interval to
 * exclude 1 and the ratio to be at least 2% from it: a 0.5% shift is inside what a different
 * jitter draw moves (the timing axis shows it), and the interval of a few steady runs is
 * narrow enough to call it significant. */
#ifndef QSIM_COMPARE_ROBUST_H
#define QSIM_COMPARE_ROBUST_H

#include <glib.h>
#include "sim/base/sample_stats.h"
#include "sim/base/sample_modes.h"

#define COMPARE_EVEN_BAND 0.02

typedef enum { VERDICT_EVEN, VERDICT_B_WINS, VERDICT_B_LOSES } CompareVerdict;

CompareVerdict compare_verdict_of(const RatioStats *rs);
/* The verdict of a ratio of means alone, for the checks run at a few seeds (the timing axis,
 * the penalty's ends): there a bistable lock puts one seed of three in another regime and the
 * interval spans both, so "the interval contains 1" would call every such setting even and
 * every such penalty a flip; the ratio more than 2% from 1 is what counts. */
CompareVerdict compare_verdict_point(double ratio);
/* "even", "b wins", "b loses" with b's name: "qspin-cmpxchg wins". */
const char *compare_verdict_word(CompareVerdict v);

/* b/a over the timing settings of one row: the distribution, not one number. */
typedef struct {
    guint n;                     /* settings */
    double median, min, max;     /* of the settings' b/a */
    guint wins, loses, even;     /* settings where each verdict came out */
    SampleModes modes;           /* regimes among the settings' b/a (sample_modes.h) */
} TimingSpread;

/* The spread of ratio[0..n-1] with each setting's verdict verdict[0..n-1]; member (n, or NULL)
 * gets each setting's mode. */
void timing_spread(const double *ratio, const CompareVerdict *verdict, guint n, TimingSpread *out, guint *member);

/* The clear penalty's range on x86: its floor is the configured branch mispredict penalty (the
 * refill a clear costs at least: Intel documents the clear as a flush and restart from the last
 * retired op, like a mispredict), its top the weight VTune gave a memory-ordering machine clear
 * on the Pentium 4 ("Memory Order Machine Clear Performance Impact" = clears x 500 / clockticks,
 * the VTune Performance Analyzer's event ratios): the one published per-clear figure, from a
 * pipeline twice as deep as Haswell's, so an upper bound. */
#define CLEAR_PENALTY_TOP 500

typedef struct {
    gboolean checked;            /* an x86 config with the check asked for */
    guint floor, top, configured;
    CompareVerdict verdict;      /* at the configured penalty (the row's own ratio), by compare_verdict_point */
    RatioStats at_floor, at_top; /* b/a at the two ends */
    gboolean robust;             /* the verdict is the same at both ends */
    guint holds_to;              /* when not: the furthest penalty tried where it held ... */
    guint flips_at;              /* ... and the nearest where it did not */
    CompareVerdict flipped;      /* what it became there */
    RatioStats at_flip;
} PenaltyRange;

/* The penalty to try next between a held `lo` and a flipped `hi` (geometric midpoint), or 0
 * when they are close enough (within a factor of 1.5) to report. */
guint penalty_probe(guint lo, guint hi);
/* One sentence: "Clear penalty 16-500 cycles: robust (b/a 1.82 [1.81, 1.83] at 16, 1.52 [1.46, 1.59]
 * at 500: loses at both)." or where it flips. */
char *penalty_range_text(const PenaltyRange *p, const char *lock_b);

#endif
