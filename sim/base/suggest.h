/* "Did you mean": the closest of a list of known words to a mistyped one, for every message
 * that names an unknown key, lock, command or label. */
#ifndef QSIM_SUGGEST_H
#define QSIM_SUGGEST_H

#include <glib.h>

#define SUGGEST_MAX_CHARS 128

/* The closest of `candidates` to `word` by edit distance (with transpositions), or NULL when
 * none is close: at most a third of the word wrong, at least one edit allowed.  Words and
 * candidates longer than SUGGEST_MAX_CHARS are never close. */
const char *suggest_closest(const char *word, const char *const *candidates, guint n);

#endif
