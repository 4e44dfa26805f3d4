/* Echoing what a user wrote in an error message: a token is shown as written up to
 * ECHO_MAX_CHARS characters, then "..." (a megabyte-long number is not printed back whole). */
#ifndef QSIM_ECHO_H
#define QSIM_ECHO_H

#include <glib.h>

#define ECHO_MAX_CHARS 60

/* `text`, or its first ECHO_MAX_CHARS characters and "..." (cut between UTF-8 characters). */
char *echo_clip(const char *text);
/* The same for the first `len` bytes of `text` (a token inside a line). */
char *echo_clip_len(const char *text, gsize len);
/* A message with every run of more than ECHO_MAX_CHARS non-blank characters clipped (a closing
 * quote or bracket kept): for messages built in many places from a source's tokens, which no
 * word of our own is that long. */
char *echo_clip_message(const char *msg);

#endif
