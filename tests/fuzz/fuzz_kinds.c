/* Fuzz target: herd's kinds file (`NAME Allowed|Forbidden|Required` lines). */
#include "tests/fuzz/fuzz.h"
#include "sim/litmus/litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_KINDS);
    if (!text)
        return 0;
    g_autoptr(GError) error = NULL;
    GHashTable *kinds = litmus_kinds_parse(text, "kinds.txt", &error);
    FUZZ_ASSERT(kinds || (error && *error->message), "no kinds and no error");
    if (kinds)
        g_hash_table_destroy(kinds);
    return 0;
}
