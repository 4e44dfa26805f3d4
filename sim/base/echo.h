/* Echoing what a user wrote in an error message: a token is shown as written up to
 * ECHO_MAX_CHARS characters, then "..." (a megabyte-long number is not printed back whole),
 * and a control character in it as an escape (\n, \t, \r, \x1b; C1 as \u009b in UTF-8 and
 * \x9b as a lone byte), so that what a user wrote cannot drive the terminal. */
#ifndef QSIM_ECHO_H
#define QSIM_ECHO_H

#include <glib.h>

#define ECHO_MAX_CHARS 60

/* `text`, or its first ECHO_MAX_CHARS characters and "..." (cut between UTF-8 characters),
 * control characters escaped. */
char *echo_clip(const char *text);
/* The same for the first `len` bytes of `text` (a token inside a line). */
char *echo_clip_len(const char *text, gsize len);
/* A message with every run of more than ECHO_MAX_CHARS non-blank characters clipped (a closing
 * quote or bracket kept): for messages built in many places from a source's tokens, which no
 * word of our own is that long. */
char *echo_clip_message(const char *msg);
/* A message as the command line prints it: every one of `words` (what the user typed: the
 * command line's words, NULL-terminated) found in it echoed as echo_clip does, and every run of
 * more than ECHO_MAX_CHARS non-blank characters that is part of a word (a piece of a value)
 * clipped; control characters other than newline and tab escaped everywhere.  Text of our own
 * is kept whole, however long. */
char *echo_clip_words(const char *msg, const char *const *words);

#endif
