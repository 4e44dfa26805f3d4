/* Ranges in sweep files, for the loader (sim/sweep/sweep.c) and its `exclude`: `A..B`,
 * `A..B step C`, and `...` continuing a list's progression.  Runs of numbers are kept as their
 * bounds, counted arithmetically, so a range or progression of 1e12 numbers costs nothing
 * before it is refused, and `exclude` matches one without making its values. */
#ifndef QSIM_SWEEP_RANGE_H
#define QSIM_SWEEP_RANGE_H

#include <glib.h>
#include <yaml.h>

/* A value as written, or a run of whole numbers (a range, or what `...` continues) kept as
 * its bounds: the axis makes its values, `exclude` matches them without making any. */
typedef struct {
    yaml_node_t *node;
    char *text;                /* NULL: the numbers from..to by step */
    guint64 from, to, step;
} SweepValueItem;

/* An array of SweepValueItem that frees their texts. */
GArray *sweep_value_items_new(void);
/* Appends an item: `text` (taken), or the run from..to by step when it is NULL. */
void sweep_value_item_add(GArray *out, yaml_node_t *node, char *text, guint64 from, guint64 to, guint64 step);
/* How many values a run has. */
guint64 sweep_run_count(const SweepValueItem *it);

/* Digits only, in [min, max]. */
gboolean sweep_parse_uint(const char *s, guint64 min, guint64 max, guint64 *out);
/* A whole number, written as digits only. */
gboolean sweep_plain_uint(const char *v, guint64 *out);
gboolean sweep_is_ellipsis(const char *v);
/* "A..B" or "A..B step C" (spaces around `..` allowed): *is_range FALSE when `v` is no range;
 * FALSE with *why for a range written wrong. */
gboolean sweep_parse_range(const char *v, gboolean *is_range, guint64 *from, guint64 *to, guint64 *step, char **why);
/* What `...` continues, between the numbers written before it and `end`: a constant step,
 * added to `out` as a run, or (given three numbers that have no constant step) a constant ratio,
 * as in [1, 2, 4, ..., 256], added value by value (64 at most).  `end` must be in the
 * progression; `have` values are already on the axis. */
gboolean sweep_continue_progression(const guint64 *before, guint nbefore, guint64 end, guint64 have, GArray *out,
                                    yaml_node_t *node, char **why);

#endif
