/* Reading every file qsim reads: what a user hands it (configs, lock sources, litmus tests, herd
 * kinds files, sweep files, validation tables) and what it reads back from the folders it wrote
 * (a run folder for `run --replay`, a results folder for `sweep --merge/--resume/--plot`).
 * Every one is read here, so every one gets the same guards (docs/robustness.md):
 *   - a regular file, or for a file a user hands over, a pipe (`qsim litmus <(generate)`): a
 *     device (/dev/zero, a terminal), a socket or a folder is refused before a byte is read (a
 *     FIFO is opened without waiting for a writer, then read until its writer closes it); a file
 *     in a folder qsim wrote must be a regular file, a FIFO there is refused too;
 *   - at most its kind's size limit (input_limits), checked while reading, so an endless or
 *     huge file costs no more than the limit;
 *   - no NUL byte: each is a text format, and a NUL would cut the text short silently;
 *   - for JSON, nesting no deeper than JSON_MAX_DEPTH (json_depth.h), before any parser sees it.
 * Errors are G_FILE_ERROR and begin with the file's name (and a position for a NUL). */
#ifndef QSIM_INPUT_FILE_H
#define QSIM_INPUT_FILE_H

#include <glib.h>

typedef enum {
    INPUT_CONFIG,
    INPUT_LOCK,
    INPUT_LITMUS,
    INPUT_KINDS,
    INPUT_SWEEP,
    INPUT_TABLE,           /* a validation table (`qsim validate --table`) */
    INPUT_SCRIPT,          /* scripted accesses (`qsim run --script FILE`) */
    INPUT_RUN_RECORD,      /* a run folder's run.json (sim/report/run_folder.h) */
    INPUT_RUN_REPORT,      /* a run folder's report.txt (.json, .csv) */
    INPUT_RUN_CONFIG,      /* a run folder's config.yaml */
    INPUT_RUN_LOCK,        /* a run folder's lock.qs */
    INPUT_SWEEP_META,      /* a results folder's sweep.json */
    INPUT_SWEEP_ROWS,      /* a results folder's results.jsonl or host-times.jsonl */
    INPUT__N
} InputKind;

typedef enum {
    INPUT_TEXT,
    INPUT_JSON,            /* one JSON document: its nesting is limited */
    INPUT_JSON_LINES,      /* a JSON document a line: each line's nesting is limited */
} InputFormat;

typedef struct {
    const char *what;      /* "config", "lock source": how messages name the file */
    gsize max_bytes;
    gboolean files_only;   /* a pipe is refused too: a file qsim wrote into a folder of its own */
    InputFormat format;
} InputLimit;

/* Indexed by InputKind. */
extern const InputLimit input_limits[INPUT__N];

/* Reads PATH whole into *text (NUL-terminated; *len without the terminator, `len` may be NULL). */
gboolean input_file_read(const char *path, InputKind kind, char **text, gsize *len, GError **error);
/* The same refusals from the file's metadata alone (not a regular file, over the limit), for a
 * path looked up now and read later by another reader: a pipe is refused too (the later read
 * would have no limit, and a pipe cannot be read twice). */
gboolean input_file_check(const char *path, InputKind kind, GError **error);
/* How messages name a file that is not a regular one: "a FIFO", "a character device", "a folder". */
const char *input_file_type_name(unsigned mode);
/* The checks on text already in memory (the size limit and NUL bytes), `name` as the file. */
gboolean input_text_check(const char *text, gsize len, const char *name, InputKind kind, GError **error);

#endif
