/* `qsim asm FILE`: assembles a lock file and prints the listing, or every error.  A C lock
 * (FILE.c) is compiled and translated first (sim/cfront/): the listing's positions are its C
 * lines, and --translated prints the ISA text the translation made. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/workload/harness.h"
#include "sim/workload/lock_find.h"
#include "cores/isa/asm.h"

int cmd_asm(int argc, char **argv)
{
    g_autofree char *arch_s = NULL, *atomics_s = NULL;
    gint threads = 2;
    gboolean with_harness = FALSE, translated = FALSE;
    g_auto(CcFlags) cc = { 0 };
    GOptionEntry entries[] = {
        { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_s, "target architecture: x86 (default) or arm64", "ARCH" },
        { "atomics", 0, 0, G_OPTION_ARG_STRING, &atomics_s, "arm64 atomics for `.if atomics=`: llsc (default) or lse", "KIND" },
        { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "threads for the memory layout shown (default 2)", "N" },
        { "harness", 0, 0, G_OPTION_ARG_NONE, &with_harness, "assemble together with the workload harness", NULL },
        { "translated", 0, 0, G_OPTION_ARG_NONE, &translated,
          "a C lock (FILE.c): print the ISA text it translates into", NULL },
        CC_FLAGS_ENTRIES(&cc),
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, "FILE",
                           "Assemble an ISA source file (the ISA: " QSIM_DOC("isa.md") ") and print the listing:\n"
                                      "each pc with its source position and decoded op, the labels,\n"
                                      "and the memory layout.  Errors print as file:line:col: message.\n"
                                      "A lock in C (FILE.c, x86-64: " QSIM_DOC("c-locks.md") ") is compiled with GCC\n"
                                      "and translated first; each op's position is then its C line.",
                           entries, (const CliIntRange[]){ { "threads", 1, 1024 }, { NULL } }))
        return QSIM_EXIT_USAGE;
    if (argc != 2) {
        cli_eprintf("qsim asm: name one source file (try `qsim asm --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    ArchTarget target;
    if (!arch_target_parse(arch_s, atomics_s, &target, &error) || !cc_flags_apply(&cc, (const char *const *)&argv[1], 1, &error))
        return cli_fail(error);
    g_autofree char *text = NULL;
    if (!lock_read(argv[1], target, &text, &error))
        return cli_fail(error);
    if (translated) {
        fputs(text, stdout);
        return QSIM_EXIT_OK;
    }
    HarnessOptions h;
    harness_options_init(&h);
    AsmSource alone[] = { { argv[1], text, TRUE } };
    g_autoptr(IsaProgram) p = with_harness ? harness_assemble(argv[1], text, &h, target, NULL, &error)
                                           : asm_assemble_sources(alone, 1, target, &error);
    if (!p) {
        cli_eprintf("%s\n", error->message);
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *listing = asm_listing(p, target, (guint)threads);
    fputs(listing, stdout);
    return QSIM_EXIT_OK;
}
