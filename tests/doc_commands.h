/* Test helper: the commands of a shell block in a document (README.md, HACKING.md), one a line,
 * each without its trailing `  # comment` and surrounding blanks. */
#ifndef QSIM_TEST_DOC_COMMANDS_H
#define QSIM_TEST_DOC_COMMANDS_H

#include <glib.h>

/* Appends `line`'s command to `out` (a GPtrArray of g_free'd strings), if it has one; `line` is
 * cut in place. */
void doc_command_add(GPtrArray *out, char *line);

#endif
