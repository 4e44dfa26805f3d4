/* Fuzz target: a lock source, assembled for each target (x86; arm64 with LL/SC; arm64 with LSE
 * and 16-byte lines), alone and with the workload harness; what assembles is listed. */
#include "tests/fuzz/fuzz.h"
#include "cores/isa/asm.h"
#include "sim/workload/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *text = fuzz_text(data, size, INPUT_LOCK);
    if (!text)
        return 0;
    static char *harness;
    if (!harness) {
        HarnessOptions h;
        harness_options_init(&h);
        harness = harness_source(&h);
    }
    static const ArchTarget targets[] = {
        { ARCH_X86, ARCH_ATOMICS_LOCKED, 0 },
        { ARCH_ARM64, ARCH_ATOMICS_LLSC, 0 },
        { ARCH_ARM64, ARCH_ATOMICS_LSE, 16 },
    };
    for (guint t = 0; t < G_N_ELEMENTS(targets); t++) {
        /* the lock alone on the arm64 LL/SC target, with the harness on the others */
        AsmSource src[] = { { "fuzz.qs", text, TRUE }, { "<harness>", harness, FALSE } };
        g_autoptr(GError) error = NULL;
        g_autoptr(IsaProgram) p = asm_assemble_sources(src, t == 1 ? 1 : 2, targets[t], &error);
        FUZZ_ASSERT(p || (error && *error->message), "no program and no error");
        if (!p)
            continue;
        g_autofree char *listing = asm_listing(p, targets[t], 3);
        FUZZ_ASSERT(listing && *listing, "empty listing");
    }
    return 0;
}
