/* `qsim verify`: runs a lock under many seeded interleavings on the reference interpreter and
 * says whether mutual exclusion, progress and completion held. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/input_file.h"
#include "sim/verify.h"
#include "sim/base/config.h"
#include "sim/lock_find.h"
#include "cores/isa/asm.h"

/* The command line that replays one seed: every workload option of verify, as run. */
static char *replay_line(const char *lock, const char *lock_file, const char *config, const VerifyOptions *o,
                         guint64 seed)
{
    GString *s = g_string_new("qsim verify");
    g_string_append_printf(s, " %s %s", lock ? "--lock" : "--lock-file", lock ? lock : lock_file);
    for (guint i = 0; o->lock_params && o->lock_params[i]; i++)
        g_string_append_printf(s, " --lock-param %s", o->lock_params[i]);
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        if (!(k->commands & WL_VERIFY))
            continue;
        g_autofree char *v = workload_value_text(k, &o->workload);
        g_string_append_printf(s, " --%s %s", k->flag, v);
    }
    if (config) {
        g_string_append_printf(s, " --config %s", config);
    } else {
        g_string_append_printf(s, " --arch %s", arch_name(o->target.arch));
        if (o->target.arch != ARCH_X86)
            g_string_append_printf(s, " --atomics %s", arch_atomics_name(o->target.atomics));
    }
    g_string_append_printf(s, " --seed %" G_GUINT64_FORMAT, seed);
    return g_string_free(s, FALSE);
}

/* What verify takes from a machine config: its architecture and atomics (which ops exist, how
 * they behave, which `.if` code is assembled) and its line size (the layout, and the exclusive
 * monitor's granule). */
static gboolean verify_options_from_config(VerifyOptions *o, const char *name, GError **error)
{
    g_autoptr(QsimConfig) c = config_load(name, NULL, error);
    if (!c)
        return FALSE;
    o->target = asm_target_for_config(c);
    o->line_size = (guint)c->line_size;
    return TRUE;
}

int cmd_verify(int argc, char **argv)
{
    g_autofree char *arch_s = NULL, *atomics_s = NULL, *config = NULL;
    g_auto(LockFlags) lf = { 0 };
    gint seeds = 100;
    gint64 seed = -1;
    VerifyOptions o;
    verify_options_init(&o);
    WorkloadFlags wf;
    workload_flags_init(&wf, &o.workload, WL_VERIFY);
    GOptionEntry what[LOCK_FLAGS_N + 1] = { { NULL } };
    lock_flags_entries(&lf, what);
    const GOptionEntry how[] = {
        { "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "interleavings to try, seeds 1..K (default 100)", "K" },
        { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "run this one seed only (to replay a failure)", "S" },
        { "arch", 0, 0, G_OPTION_ARG_STRING, &arch_s, "x86 (default) or arm64: which ops are allowed and which `.if arch=` code is assembled", "ARCH" },
        { "atomics", 0, 0, G_OPTION_ARG_STRING, &atomics_s, "arm64: llsc (default) or lse, for `.if atomics=` code", "KIND" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "take the arch, atomics and line size from machine config CFG (instead of --arch/--atomics)", "CFG" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    gboolean parsed = cli_parse_workload_command(
        &argc, &argv, NULL,
        "Check a lock on the reference interpreter (sequentially consistent memory,\n"
        "seeded random interleavings): mutual exclusion, no deadlock or livelock,\n"
        "every thread finished.  Exit 0 when all held, 1 otherwise.",
        what, &wf, how, (const CliIntRange[]){ { "seeds", 1, G_MAXINT }, { "seed", 0, G_MAXINT64 }, { NULL } });
    workload_flags_clear(&wf);
    if (!parsed)
        return QSIM_EXIT_USAGE;
    if (argc > 1) {
        cli_eprintf("qsim verify: unexpected argument `%s` (try `qsim verify --help`)\n", argv[1]);
        return QSIM_EXIT_USAGE;
    }
    const char *lock = lf.lock, *lock_file = lf.lock_file;
    if (!lock == !lock_file) {
        cli_eprintf("qsim verify: name the lock with --lock NAME or --lock-file PATH (one of them)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    if (config && (arch_s || atomics_s)) {
        cli_eprintf("qsim verify: --config gives the arch and atomics: give --config or --arch/--atomics, not both\n");
        return QSIM_EXIT_USAGE;
    }
    if (config ? !verify_options_from_config(&o, config, &error) : !arch_target_parse(arch_s, atomics_s, &o.target, &error)) {
        return cli_fail(error);
    }
    if (!workload_validate(&o.workload, WL_VERIFY, &error))
        return cli_fail(error);
    o.lock_params = (const char *const *)lf.params;
    o.seeds = seed >= 0 ? 1 : (guint)seeds;
    o.first_seed = seed >= 0 ? (guint64)seed : 1;

    g_autofree char *path = lock_file ? g_strdup(lock_file) : lock_find(lock, &error);
    if (!path)
        return cli_fail(error);
    g_autofree char *text = NULL;
    if (!input_file_read(path, INPUT_LOCK, &text, NULL, &error))
        return cli_fail(error);
    VerifyResult r;
    if (!verify_lock(path, text, &o, &r, &error)) {
        cli_eprintf("%s\n", error->message);
        return QSIM_EXIT_USAGE;
    }
    const char *name = lock ? lock : lock_file;
    const WorkloadOptions *w = &o.workload;
    g_autofree char *on = arch_target_describe(o.target);
    if (r.ok) {
        printf("%s: verified: %u seed%s, %u threads x %u iterations%s on %s: mutual exclusion held, "
               "no deadlock or livelock, every thread finished",
               name, r.runs, r.runs == 1 ? "" : "s", w->threads, w->iterations, w->readers ? " (with readers)" : "",
               on);
        if (w->readers)
            printf("; up to %" G_GUINT64_FORMAT " readers inside at once", r.max_readers);
        printf(" (%" G_GUINT64_FORMAT " steps)\n", r.steps);
    } else {
        g_autofree char *replay = replay_line(lock, lock_file, config, &o, r.failed_seed);
        printf("%s: FAILED with seed %" G_GUINT64_FORMAT " (after %u run%s): %s\n", name, r.failed_seed, r.runs,
               r.runs == 1 ? "" : "s", r.failure);
        printf("replay: %s\n", replay);
    }
    gboolean held = r.ok;
    verify_result_clear(&r);
    return held ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
}
