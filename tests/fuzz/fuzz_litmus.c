/* Fuzz target: a herd litmus test, parsed, translated to the ISA, and run a few times on the
 * sequentially consistent interpreter. */
#include "tests/fuzz/fuzz.h"
#include "sim/litmus/litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_LITMUS);
    if (!text)
        return 0;
    g_autoptr(GError) error = NULL;
    g_autoptr(LitmusTest) t = litmus_parse_string(text, "fuzz.litmus", &error);
    FUZZ_ASSERT(t || (error && *error->message), "no test and no error");
    if (!t)
        return 0;
    g_autoptr(LitmusProgram) p = litmus_translate(t, &error);
    FUZZ_ASSERT(p || (error && *error->message), "no program and no error");
    if (!p)
        return 0;
    g_autofree char *dump = litmus_program_dump(p);
    FUZZ_ASSERT(dump && *dump, "an empty program dump");
    g_autoptr(LitmusExecutor) sc = litmus_interp_executor_new();
    LitmusRunOptions o = { 3, 1 };
    g_autoptr(LitmusResult) r = litmus_run_test(t, p, sc, &o, &error);
    if (r) {
        g_autofree char *report = litmus_result_text(r);
        FUZZ_ASSERT(report && *report, "empty report");
    }
    return 0;
}
