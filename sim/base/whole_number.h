/* Whole numbers as qsim reads them from a command line (every integer option, the workload's,
 * --shard's two halves) and a sweep's axes: one way everywhere.  Decimal digits only: no sign,
 * no space, no leading zero (010 is neither octal 8 nor 10: it is refused), in a range.  The
 * messages name the value by `who` ("--jobs", "threads") and echo the text clipped (echo.h):
 *   "--jobs x: expected a whole number"
 *   "--jobs 010: a number with a leading zero (numbers are decimal: write 10)"
 *   "--jobs -1: out of range [1, 256]"    (a negative number, or one past the range) */
#ifndef QSIM_WHOLE_NUMBER_H
#define QSIM_WHOLE_NUMBER_H

#include <glib.h>

/* FALSE with a G_OPTION_ERROR_BAD_VALUE error when `text` is not a whole number in
 * [min, max]; else TRUE with the number in *out. */
gboolean whole_number_parse(const char *who, const char *text, guint64 min, guint64 max, guint64 *out,
                            GError **error);

#endif
