/* Fuzz target: a machine config (YAML).  A config that loads must print as YAML that loads back
 * to the same config (`qsim config` output is a config). */
#include "tests/fuzz/fuzz.h"
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
