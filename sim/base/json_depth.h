/* How deep JSON text nests, counted before a parser sees it.  json-glib's parser recurses once
 * per `[` or `{`, so 100,000 of them overflow the stack (SIGSEGV): every JSON file qsim reads
 * back (a run folder's run.json, a results folder's sweep.json and rows) is counted here first,
 * through the one input reader (input_file.h). */
#ifndef QSIM_JSON_DEPTH_H
#define QSIM_JSON_DEPTH_H

#include <glib.h>

/* Far above what qsim writes (a results row nests 4 levels, run.json 4). */
#define JSON_MAX_DEPTH 32

/* FALSE with "NAME:L:C: nested deeper than 32 levels" (G_FILE_ERROR_INVAL) when brackets outside
 * strings nest deeper than JSON_MAX_DEPTH in `text`, whose first line is line `line` of NAME.
 * `per_line`: JSON lines, each line a document of its own (its depth starts at 0). */
gboolean json_depth_check(const char *text, gsize len, const char *name, guint line, gboolean per_line,
                          GError **error);

#endif
