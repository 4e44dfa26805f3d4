/* Fuzz target: a machine config (YAML).  A config that loads must print as YAML that loads back
 * to the same config (`qsim config` output is a config).
 *
 * Under libFuzzer, three mutations in four are structure-aware (tests/fuzz/config_mutate.h:
 * real keys from the schema table set to their boundaries and past them, in combinations);
 * the fourth is libFuzzer's own byte-level one, which finds what the schema does not say. */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/config_mutate.h"
#include "sim/base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_CONFIG);
    if (!text)
        return 0;
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) c = config_load_string(text, "fuzz.yaml", NULL, &error);
    FUZZ_ASSERT(c || (error && *error->message), "no config and no error");
    if (!c)
        return 0;
    g_autofree char *yaml = config_to_yaml(c);
    g_autoptr(GError) back_error = NULL;
    g_autoptr(QsimConfig) back = config_load_string(yaml, "printed.yaml", NULL, &back_error);
    FUZZ_ASSERT(back, "the printed config does not load: %s\n%s", back_error->message, yaml);
    FUZZ_ASSERT(config_equal(c, back), "the printed config loads differently:\n%s", yaml);
    return 0;
}

/* libFuzzer's byte-level mutator: absent (NULL) in the plain driver's build, which never
 * mutates. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (seed % 4 == 0 && LLVMFuzzerMutate)
        return LLVMFuzzerMutate(data, size, max_size);
    g_autofree char *text = g_strndup((const char *)data, size);
    g_autofree char *mutated = config_mutate(text, seed);
    size_t n = MIN(strlen(mutated), max_size);
    memcpy(data, mutated, n);
    return n;
}
