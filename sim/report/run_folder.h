/* A run folder: `qsim run --out DIR` keeps a run's report with everything it was made of, so
 * that `qsim run --replay DIR` makes it again, byte for byte, and says whether it did.
 *
 *   DIR/run.json      {"qsim_run_folder": 1, "argv": [...], "format": "text", "report": "report.txt",
 *                      "provenance": {...}}: the command's words after `qsim` (without --out),
 *                      and the report's provenance (sim/report/provenance.h)
 *   DIR/report.txt    the report as printed (report.json, report.csv for those formats); host
 *                      times are left out of a kept report, since no rerun repeats them
 *   DIR/config.yaml   the effective config (`qsim config` with the run's --set applied)
 *   DIR/lock.qs       the lock's source
 *   DIR/command       the command line, for people
 *
 * Every file is written by the one writer (sim/base/output_file.h) into a folder that is new or
 * empty, unless the run is told to replace what is there (`--force`), and read back by the one
 * reader (sim/base/input_file.h: regular files only, size limits, no NUL, run.json's nesting
 * limited).  Reading checks run.json's members and their types, and each input against the
 * SHA-256 the provenance gives it: an edited copy is refused, not replayed. */
#ifndef QSIM_RUN_FOLDER_H
#define QSIM_RUN_FOLDER_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    GStrv argv;                /* "run", "--config", ... */
    char *format;              /* "text", "json" or "csv" */
    char *report;
    gsize report_len;          /* read: the kept report's length in bytes */
    char *config_yaml;
    char *lock_text;
    JsonObject *provenance;
} RunFolder;

void run_folder_clear(RunFolder *f);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunFolder, run_folder_clear)

/* Whether DIR can become a run folder (before a run is spent on it): it is not there, or an
 * empty folder (with `force`, any folder: the run's files replace those of the same names), and
 * the nearest folder of its path that exists is one this user can write. */
gboolean run_folder_check(const char *dir, gboolean force, GError **error);
/* Makes DIR (and its parents) and writes the folder, by run_folder_check's rule. */
gboolean run_folder_write(const char *dir, const RunFolder *f, gboolean force, GError **error);
/* Reads DIR; FALSE with an error naming the file when one is missing, malformed or edited. */
gboolean run_folder_read(const char *dir, RunFolder *f, GError **error);
/* The report file's name for a format ("report.txt", ...). */
const char *run_folder_report_name(const char *format);

#endif
