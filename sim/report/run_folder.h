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
 * Reading checks each input against the SHA-256 the provenance gives it: an edited copy is
 * refused, not replayed. */
#ifndef QSIM_RUN_FOLDER_H
#define QSIM_RUN_FOLDER_H

#include <glib.h>
#include <json-glib/json-glib.h>

typedef struct {
    GStrv argv;                /* "run", "--config", ... */
    char *format;              /* "text", "json" or "csv" */
    char *report;
    char *config_yaml;
    char *lock_text;
    JsonObject *provenance;
} RunFolder;

void run_folder_clear(RunFolder *f);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunFolder, run_folder_clear)

/* Whether DIR can become a run folder (before a run is spent on it): it holds no run, and the
 * nearest folder of its path that exists is one this user can write. */
gboolean run_folder_check(const char *dir, GError **error);
/* Makes DIR (and its parents) and writes the folder; refuses a DIR that holds a run already. */
gboolean run_folder_write(const char *dir, const RunFolder *f, GError **error);
/* Reads DIR; FALSE with an error naming the file when one is missing, malformed or edited. */
gboolean run_folder_read(const char *dir, RunFolder *f, GError **error);
/* The report file's name for a format ("report.txt", ...). */
const char *run_folder_report_name(const char *format);

#endif
