/* Fuzz target: a run folder, as `qsim run --replay` reads it (run folder tampering: a kept
 * run's files damaged or edited).  The bytes are the folder's files, split at lines that hold
 * only `%%`: run.json, the report (written as report.txt, report.json and report.csv, whichever
 * run.json names), config.yaml, then lock.qs (a part not given is a file not there).  They are
 * written to a fresh folder and read as a replay reads them; what the read accepts must be
 * written as a folder again and read back the same, file for file. */
#include <string.h>
#include <glib/gstdio.h>
#include "tests/fuzz/fuzz.h"
#include "sim/report/run_folder.h"

/* Each part's files: the report's under every name a format gives it. */
static const char *const part_files[][3] = {
    { "run.json" }, { "report.txt", "report.json", "report.csv" }, { "config.yaml" }, { "lock.qs" },
};

/* Part k of the input into the folder `ctx`, under each of its names. */
static void write_part(void *ctx, guint part, const uint8_t *data, size_t len)
{
    for (guint k = 0; k < G_N_ELEMENTS(part_files[part]) && part_files[part][k]; k++) {
        g_autofree char *path = g_build_filename((const char *)ctx, part_files[part][k], NULL);
        FUZZ_ASSERT(g_file_set_contents(path, (const char *)data, (gssize)len, NULL), "%s", path);
    }
}

/* What the read accepted, kept again in `out` by the writer `--out` uses, reads back equal. */
static void check_rewritten(const RunFolder *f, const char *out)
{
    g_autoptr(GError) error = NULL;
    FUZZ_ASSERT(run_folder_write(out, f, FALSE, &error), "an accepted folder does not write: %s", error->message);
    g_auto(RunFolder) back = { 0 };
    FUZZ_ASSERT(run_folder_read(out, &back, &error), "a written folder does not read back: %s", error->message);
    FUZZ_ASSERT(g_strv_equal((const char *const *)f->argv, (const char *const *)back.argv), "argv changed");
    FUZZ_ASSERT(!strcmp(f->format, back.format), "format %s became %s", f->format, back.format);
    FUZZ_ASSERT(f->report_len == back.report_len && !memcmp(f->report, back.report, f->report_len),
                "the report changed");
    FUZZ_ASSERT(!strcmp(f->config_yaml, back.config_yaml) && !strcmp(f->lock_text, back.lock_text),
                "the config or lock changed");
    FUZZ_ASSERT(json_object_equal(f->provenance, back.provenance), "the provenance changed");
    /* a second --out into it is refused: it holds a run now */
    FUZZ_ASSERT(!run_folder_check(out, FALSE, NULL), "a folder holding a run was taken again");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    g_autofree char *dir = g_dir_make_tmp("qsim-fuzz-run-folder-XXXXXX", NULL);
    FUZZ_ASSERT(dir, "no temporary folder");
    g_autofree char *in = g_build_filename(dir, "in", NULL), *out = g_build_filename(dir, "out", NULL);
    FUZZ_ASSERT(g_mkdir(in, 0777) == 0, "%s", in);
    fuzz_split_parts(data, size, G_N_ELEMENTS(part_files), write_part, in);
    g_auto(RunFolder) f = { 0 };
    g_autoptr(GError) error = NULL;
    if (run_folder_read(in, &f, &error))
        check_rewritten(&f, out);
    else
        FUZZ_ASSERT(error && *error->message, "a read refused without a message");
    fuzz_remove_tree(dir);
    return 0;
}
