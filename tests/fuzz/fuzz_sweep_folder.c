/* Fuzz target: a sweep results folder, as `qsim sweep --merge` reads it (sweep folder
 * corruption: a shard's files damaged or edited).  The bytes are the folder's files, split at
 * lines that hold only `%%`: sweep.json, results.jsonl, then host-times.jsonl (a part not
 * given is a file not there).  They are written to a fresh folder and merged into another;
 * what a merge accepts must read back, merge again unchanged, and aggregate. */
#include <string.h>
#include <glib/gstdio.h>
#include "tests/fuzz/fuzz.h"
#include "sim/sweep/sweep.h"

static const char *const part_files[] = { "sweep.json", "results.jsonl", SWEEP_HOST_TIMES };

/* Part k of the input into the folder `ctx`. */
static void write_part(void *ctx, guint part, const uint8_t *data, size_t len)
{
    g_autofree char *path = g_build_filename((const char *)ctx, part_files[part], NULL);
    FUZZ_ASSERT(g_file_set_contents(path, (const char *)data, (gssize)len, NULL), "%s", path);
}

static char *slurp(const char *dir, const char *name)
{
    g_autofree char *p = g_build_filename(dir, name, NULL);
    char *text = NULL;
    FUZZ_ASSERT(g_file_get_contents(p, &text, NULL, NULL), "%s was not written", p);
    return text;
}

/* What a merge accepted: its rows and sweep.json read back, and a merge of the merged folder
 * into itself (a replot) changes no byte. */
static void check_merged(const char *out, const SweepMeta *meta, guint missing)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename(out, "results.jsonl", NULL);
    g_autoptr(GPtrArray) rows = sweep_rows_read(path, NULL, &error);
    FUZZ_ASSERT(rows, "the merged rows do not read back: %s", error->message);
    FUZZ_ASSERT(rows->len + missing == meta->npoints, "%u rows and %u missing of %u points", rows->len, missing,
                meta->npoints);
    g_autofree char *before = slurp(out, "results.jsonl"), *json_before = slurp(out, "sweep.json");
    const char *self[] = { out, NULL };
    guint again = 0;
    SweepMeta m2 = { 0 };
    FUZZ_ASSERT(sweep_merge(self, out, FALSE, &again, &m2, &error), "the merged folder does not merge: %s",
                error->message);
    FUZZ_ASSERT(again == missing && !strcmp(m2.fingerprint, meta->fingerprint), "a replot changed the sweep");
    sweep_meta_clear(&m2);
    g_autofree char *after = slurp(out, "results.jsonl"), *json_after = slurp(out, "sweep.json");
    FUZZ_ASSERT(!strcmp(before, after) && !strcmp(json_before, json_after), "a replot changed the files");
    guint groups = 0;
    if (!sweep_aggregate(out, &groups, &error))
        FUZZ_ASSERT(error && *error->message, "aggregate failed without a message");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    g_autofree char *dir = g_dir_make_tmp("qsim-fuzz-folder-XXXXXX", NULL);
    FUZZ_ASSERT(dir, "no temporary folder");
    g_autofree char *in = g_build_filename(dir, "in", NULL), *out = g_build_filename(dir, "out", NULL);
    FUZZ_ASSERT(g_mkdir(in, 0777) == 0, "%s", in);
    fuzz_split_parts(data, size, G_N_ELEMENTS(part_files), write_part, in);
    const char *dirs[] = { in, NULL };
    guint missing = 0;
    SweepMeta meta = { 0 };
    g_autoptr(GError) error = NULL;
    if (sweep_merge(dirs, out, FALSE, &missing, &meta, &error)) {
        check_merged(out, &meta, missing);
        sweep_meta_clear(&meta);
    } else {
        FUZZ_ASSERT(error && *error->message, "a merge refused without a message");
    }
    fuzz_remove_tree(dir);
    return 0;
}
