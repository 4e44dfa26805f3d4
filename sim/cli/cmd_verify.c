/* `qsim verify`: runs a lock under many seeded interleavings on the reference interpreter and
 * says whether mutual exclusion, progress and completion held. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/verify.h"

int cmd_verify(int argc, char **argv)
{
    g_autofree char *lock = NULL, *lock_file = NULL, *arch_s = NULL, *data_s = NULL;
    gint threads = 2, seeds = 100, iterations = 3, readers = 0, cs_writes = 1;
    gint64 seed = -1;
    GOptionEntry entries[] = {
        { "lock", 0, 0, G_OPTION_ARG_STRING, &lock, "built-in lock (`qsim list locks`)", "NAME" },
        { "lock-file", 0, 0, G_OPTION_ARG_FILENAME, &lock_file, "a lock source file of your own", "PATH" },
        { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "threads (default 2)", "N" },
        { "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "interleavings to try, seeds 1..K (default 100)", "K" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "run this one seed only (to replay a failure)", "S" },
        { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "acquisitions per thread (default 3)", "I" },
        { "readers", 0, 0, G_OPTION_ARG_INT, &readers, "threads taking the read side (reader/writer locks)", "R" },
        { "cs-writes", 0, 0, G_OPTION_ARG_INT, &cs_writes, "extra words written per critical section (default 1)", "W" },
        { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_s, "x86 (default) or arm64: which ops are allowed", "ARCH" },
        { "data", 0, 0, G_OPTION_ARG_STRING, &data_s, "critical-section data: separate-line (default) or same-line", "WHERE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, NULL,
                           "Check a lock on the reference interpreter (sequentially consistent memory,\n"
                                      "seeded random interleavings): mutual exclusion, no deadlock or livelock,\n"
                                      "every thread finished.  Exit 0 when all held, 1 otherwise.",
                           entries))
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        fprintf(stderr, "qsim verify: unexpected argument `%s` (try `qsim verify --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    if (!lock == !lock_file) {
        fprintf(stderr, "qsim verify: name the lock with --lock NAME or --lock-file PATH (one of them)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    VerifyOptions o;
    verify_options_init(&o);
    if (!arch_parse(arch_s, "--arch", &o.arch, &error))
        return cli_fail(error);
    if (threads < 1 || threads > 256 || seeds < 1 || iterations < 1 || readers < 0 || readers > threads ||
        cs_writes < 0 || cs_writes > 64) {
        fprintf(stderr, "qsim verify: need 1 <= threads <= 256, seeds >= 1, iterations >= 1, "
                        "0 <= readers <= threads, 0 <= cs-writes <= 64\n");
        return QSIM_EXIT_USAGE;
    }
    if (data_s && strcmp(data_s, "same-line") && strcmp(data_s, "separate-line")) {
        fprintf(stderr, "qsim verify: --data must be same-line or separate-line, not `%s`\n", data_s);
        return QSIM_EXIT_USAGE;
    }
    o.harness.threads = (guint)threads;
    o.harness.iterations = (guint)iterations;
    o.harness.readers = (guint)readers;
    o.harness.cs_writes = (guint)cs_writes;
    o.harness.data = data_s && !strcmp(data_s, "same-line") ? HARNESS_SAME_LINE : HARNESS_SEPARATE_LINE;
    o.seeds = seed >= 0 ? 1 : (guint)seeds;
    o.first_seed = seed >= 0 ? (guint64)seed : 1;

    g_autofree char *path = lock_file ? g_strdup(lock_file) : verify_find_lock(lock, &error);
    if (!path)
        return cli_fail(error);
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, &error))
        return cli_fail(error);
    VerifyResult r;
    if (!verify_lock(path, text, &o, &r, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return QSIM_EXIT_USAGE;
    }
    const char *name = lock ? lock : lock_file;
    if (r.ok) {
        printf("%s: verified: %u seed%s, %d threads x %d iterations%s on %s: mutual exclusion held, "
               "no deadlock or livelock, every thread finished",
               name, r.runs, r.runs == 1 ? "" : "s", threads, iterations, readers ? " (with readers)" : "",
               arch_name(o.arch));
        if (readers)
            printf("; up to %" G_GUINT64_FORMAT " readers inside at once", r.max_readers);
        printf(" (%" G_GUINT64_FORMAT " steps)\n", r.steps);
    } else {
        printf("%s: FAILED with seed %" G_GUINT64_FORMAT " (after %u run%s): %s\n", name, r.failed_seed, r.runs,
               r.runs == 1 ? "" : "s", r.failure);
        printf("replay: qsim verify %s %s --threads %d --iterations %d --readers %d --arch %s --data %s --seed %"
               G_GUINT64_FORMAT "\n", lock ? "--lock" : "--lock-file", name, threads, iterations, readers,
               arch_name(o.arch), o.harness.data == HARNESS_SAME_LINE ? "same-line" : "separate-line",
               r.failed_seed);
    }
    gboolean held = r.ok;
    verify_result_clear(&r);
    return held ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}
