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

#endif
