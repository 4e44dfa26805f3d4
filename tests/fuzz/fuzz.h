/* Fuzz targets (tests/fuzz/README.md): each file defines LLVMFuzzerTestOneInput for one input
 * format, fed bytes as a user's file would be: through the checks the file reader makes (the
 * size limit, no NUL byte), then to the parser, then to what uses its result.  Built with
 * libFuzzer by `make fuzz`, and run over the corpus by a plain driver in `make check`. */
#ifndef QSIM_FUZZ_H
#define QSIM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>
#include <glib/gstdio.h>
#include "sim/base/input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes as a NUL-terminated text, or NULL where the file reader would refuse them (too
 * big for `kind`, a NUL byte), as qsim would. */
static inline char *fuzz_text(const uint8_t *data, size_t size, InputKind kind)
{
    if (!input_text_check((const char *)data, size, "<fuzz>", kind, NULL))
        return NULL;
    return g_strndup((const char *)data, size);
}

/* A property every input must keep (an oracle beyond "does not crash"): abort with why. */
#define FUZZ_ASSERT(cond, ...)                                                    \
    do {                                                                          \
        if (!(cond)) {                                                            \
            fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                         \
            fputc('\n', stderr);                                                  \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* The input as a stream of choices (targets that build a program or a run from bytes); past its
 * end every choice is 0. */
typedef struct {
    const uint8_t *p;
    size_t n;
} FuzzBytes;

/* The next choice, 0..n-1. */
static inline guint fuzz_pick(FuzzBytes *in, guint n)
{
    if (!in->n)
        return 0;
    in->p++;
    in->n--;
    return in->p[-1] % n;
}

/* The input cut into parts at lines that are exactly `%%` (targets that make a folder of files
 * from one input): part k, its bytes and length, handed to `put`; at most `parts` of them. */
static inline void fuzz_split_parts(const uint8_t *data, size_t size, guint parts,
                                    void (*put)(void *ctx, guint part, const uint8_t *bytes, size_t len), void *ctx)
{
    size_t start = 0;
    guint part = 0;
    for (size_t i = 0; i <= size && part < parts; i++) {
        gboolean line_start = i == 0 || data[i - 1] == '\n';
        gboolean sep = i == size || (line_start && size - i >= 2 && data[i] == '%' && data[i + 1] == '%' &&
                                     (size - i == 2 || data[i + 2] == '\n'));
        if (!sep)
            continue;
        put(ctx, part++, data + start, i - start);
        start = i + 3;
        i += 2;
    }
}

/* Removes the folder `dir` and everything below it. */
static inline void fuzz_remove_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, name, NULL);
        if (g_file_test(p, G_FILE_TEST_IS_DIR))
            fuzz_remove_tree(p);
        else
            g_unlink(p);
        g_free(p);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
}

#endif
