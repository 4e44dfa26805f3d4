/* Fuzz target: a sweep file (YAML): axes, ranges, exclude, the cross product. */
#include "tests/fuzz/fuzz.h"
#include "sim/sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_SWEEP);
    if (!text)
        return 0;
    g_autoptr(GError) error = NULL;
    g_autoptr(Sweep) s = sweep_load_string(text, "fuzz.yaml", &error);
    FUZZ_ASSERT(s || (error && *error->message), "no sweep and no error");
    if (!s)
        return 0;
    FUZZ_ASSERT(s->npoints > 0 && s->points->len == s->npoints * s->axes->len, "%u points", s->npoints);
    g_autofree char *first = sweep_point_key(s, 0), *last = sweep_point_key(s, s->npoints - 1);
    FUZZ_ASSERT(*first && *last, "a point without a key");
    return 0;
}
