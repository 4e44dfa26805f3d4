/* `qsim calibrate [--out FILE] [--cpus LIST] [--quick]`: measures this machine and writes a
 * config of it (sim/calibrate/, docs/calibrate.md).  Progress, notes and the time it
 * took go to stderr; the config to --out or stdout. */
#include <stdio.h>
#include <string.h>
#include "locks/native/native_cpus.h"
#include "locks/native/native_tsc.h"
#include "sim/calibrate/calibrate.h"
#include "sim/cli/commands.h"
#include "sim/base/output_file.h"

static void show_progress(void *user G_GNUC_UNUSED, const char *what)
{
    cli_eprintf("qsim calibrate: %s\n", what);
}

int cmd_calibrate(int argc, char **argv)
{
    g_autofree char *out = NULL, *cpus = NULL;
    gboolean quick = FALSE, quiet = FALSE;
    GOptionEntry entries[] = {
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write the config here (default: stdout)", "FILE" },
        { "cpus", 0, 0, G_OPTION_ARG_STRING, &cpus,
          "CPUs to measure on, e.g. 0,2-5; the first runs the single-CPU measurements and times the others "
          "(default: the CPUs this process may run on)", "LIST" },
        { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "shrink every budget: rough values in about a second", NULL },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "do not print what is being measured", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Measure this machine with small pinned microbenchmarks (clock, load-to-use\n"
                           "latency by footprint, core-to-core latency per coherence state, locked\n"
                           "instructions, fences, PAUSE) and write a machine config of it. Every\n"
                           "measured value carries a comment: how, on which CPU, and its spread.\n"
                           "Takes under two minutes on a small machine (" QSIM_DOC("calibrate.md") ").",
                           entries, NULL))
        return QSIM_EXIT_USAGE;
    g_autoptr(GError) error = NULL;
    if (argc > 1) {
        g_set_error(&error, CALIB_ERROR, CALIB_ERROR_USAGE, "unexpected argument '%s'", argv[1]);
        return cli_fail(error);
    }
    if (out && !cli_output_file_ok("--out", out))
        return QSIM_EXIT_USAGE;
    g_autoptr(GArray) cpu_list = NULL;
    if (cpus && !native_parse_cpus(cpus, &cpu_list, &error))
        return cli_fail(error);

    CalibOptions o = { quick, cpu_list, quiet ? NULL : show_progress, NULL };
    guint64 t0 = native_now_ns();
    g_autoptr(CalibResult) r = calibrate_run(&o, &error);
    if (!r) {
        cli_eprintf("qsim calibrate: %s\n", error->message);
        return error->code == CALIB_ERROR_USAGE ? QSIM_EXIT_USAGE : QSIM_EXIT_FAILED;
    }
    double wall = (double)(native_now_ns() - t0) / 1e9;
    g_autofree char *yaml = calib_write_yaml(r, &error);
    if (!yaml) {
        cli_eprintf("qsim calibrate: %s\n", error->message);
        return QSIM_EXIT_FAILED;
    }
    /* What is written must load: a writer bug is reported here, not at the next run. */
    g_autoptr(QsimConfig) back = config_load_string(yaml, out ? out : "<calibrated>", NULL, &error);
    if (!back) {
        cli_eprintf("qsim calibrate: the config written does not load (a bug): %s\n", error->message);
        return QSIM_EXIT_FAILED;
    }
    if (r->host.vm)
        cli_eprintf("qsim calibrate: note: this host is a virtual machine (%s): the figures are the VM's, "
            "not the processor's (the file says so too)\n", r->host.vm_evidence);
    for (guint i = 0; i < r->notes->len; i++)
        cli_eprintf("qsim calibrate: note: %s\n", (const char *)r->notes->pdata[i]);
    if (out) {
        if (!output_file_write(out, OUTPUT_TRUNCATE, yaml, strlen(yaml), &error)) {
            g_prefix_error(&error, "--out ");
            return cli_fail(error);
        }
    } else {
        fputs(yaml, stdout);
    }
    cli_eprintf("qsim calibrate: measured in %.1f s%s%s\n", wall, out ? "; wrote " : "", out ? out : "");
    return QSIM_EXIT_OK;
}
