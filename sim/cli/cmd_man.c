/* `qsim man`: the manual page qsim(1) in roff, made from the tables the program itself runs on:
 * the command table and each command's options (cli_describe_commands: the entries its --help
 * shows), the workload schema and the config schema.  `make` writes it to build/qsim.1 and
 * `make install` puts it in $(MANDIR)/man1, so the page cannot drift from the program. */
#include <stdio.h>
#include <string.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"

/* ---- roff ---- */

/* Text with roff's escapes: a backslash as \e, and a line that would start with a control
 * character made plain with \&.  `minus` also writes '-' as \- (options, which are typed). */
static void roff_text(GString *s, const char *text, gboolean minus)
{
    gboolean line_start = TRUE;
    for (const char *p = text; *p; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            g_string_append(s, "\\&");
        line_start = *p == '\n';
        if (*p == '\\')
            g_string_append(s, "\\e");
        else if (*p == '-' && minus)
            g_string_append(s, "\\-");
        else
            g_string_append_c(s, *p);
    }
}

/* A paragraph of prose: lines joined (roff fills them), then a newline. */
static void roff_para(GString *s, const char *text)
{
    g_autofree char *flat = g_strdup(text);
    g_strstrip(flat);
    roff_text(s, flat, FALSE);
    g_string_append_c(s, '\n');
}

/* An option's tag line: .TP then "\fB-c\fR, \fB--config\fR=\fICFG\fR". */
static void roff_option_tag(GString *s, char short_name, const char *long_name, const char *arg)
{
    g_string_append(s, ".TP\n");
    if (short_name)
        g_string_append_printf(s, "\\fB\\-%c\\fR, ", short_name);
    g_string_append(s, "\\fB\\-\\-");
    roff_text(s, long_name, TRUE);
    g_string_append(s, "\\fR");
    if (arg) {
        g_string_append(s, "=\\fI");
        roff_text(s, arg, FALSE);
        g_string_append(s, "\\fR");
    }
    g_string_append_c(s, '\n');
}

/* ---- the sections ---- */

static void section_commands(GString *s)
{
    g_autoptr(GPtrArray) docs = cli_describe_commands();
    g_string_append(s, ".SH COMMANDS\n");
    for (guint i = 0; i < docs->len; i++) {
        const CliCommandDoc *d = docs->pdata[i];
        g_string_append_printf(s, ".SS \"qsim %s", d->command->name);
        if (d->options->len)
            g_string_append(s, " [OPTION...]");
        if (*d->params) {
            g_string_append_c(s, ' ');
            roff_text(s, d->params, TRUE);
        }
        g_string_append(s, "\"\n");
        roff_para(s, d->command->summary);
        g_string_append(s, ".PP\n");
        roff_para(s, d->summary);
        for (guint j = 0; j < d->options->len; j++) {
            const CliOption *o = d->options->pdata[j];
            roff_option_tag(s, o->short_name, o->long_name, o->takes_arg ? (o->arg ? o->arg : "VALUE") : NULL);
            roff_para(s, o->help ? o->help : "");
        }
    }
}

static void section_workload(GString *s)
{
    g_string_append(s, ".SH WORKLOAD OPTIONS\n"
                       "The options that shape a run's workload, one table for every command that takes "
                       "them (and the axes of sweeps):\n");
    for (guint i = 0; i < workload_schema_len; i++) {
        const WorkloadKey *k = &workload_schema[i];
        g_autofree char *commands = workload_key_commands_text(k);
        g_autofree char *defaults = workload_key_defaults_text(k);
        g_autofree char *values = workload_key_values_text(k);
        g_autofree char *arg = workload_key_arg_text(k);
        roff_option_tag(s, k->short_flag, k->flag, arg);
        g_autofree char *text = g_strdup_printf("%s. Commands: %s. Default: %s. Values: %s.", k->help, commands,
                                                defaults, values);
        roff_para(s, text);
    }
}

static void section_config(GString *s)
{
    g_string_append(s, ".SH CONFIGURATION KEYS\n"
                       "A machine config is a YAML file; \\fB\\-\\-set\\fR \\fIkey.path\\fR=\\fIvalue\\fR "
                       "overrides any key.  Sizes take units (32KiB, 2.5MiB); latencies are core cycles.  "
                       "A key of one arch only is ignored on the other's machines.\n");
    for (guint i = 0; i < qsim_config_schema_len; i++) {
        const CfgKey *k = &qsim_config_schema[i];
        g_autofree char *range = config_key_range(k);
        g_autofree char *archs = config_key_archs_text(k, "only");
        g_string_append(s, ".TP\n\\fB");
        roff_text(s, k->path, FALSE);
        g_string_append(s, "\\fR\n");
        g_autofree char *text = g_strdup_printf("%s (%s; default %s%s%s; %s)", k->doc, config_key_type_name(k),
                                                k->def ? k->def : "none, required", *range ? "; " : "", range,
                                                archs);
        roff_para(s, text);
    }
}

/* What an installed qsim reads and where its files are. */
static const struct {
    const char *name;
    const char *doc;
} environment[] = {
    { "QSIM_CONFIG_PATH", "Colon-separated folders searched first for a config named by --config." },
    { "QSIM_LOCK_PATH", "Colon-separated folders searched first for a lock named by --lock or --vs." },
    { "XDG_CACHE_HOME", "qsim native caches its compiled programs under $XDG_CACHE_HOME/qsim "
                        "(default ~/.cache/qsim)." },
    { "CC", "The C compiler qsim native compiles lock programs with (default cc)." },
};

static void section_environment_files(GString *s)
{
    g_string_append(s, ".SH ENVIRONMENT\n");
    for (guint i = 0; i < G_N_ELEMENTS(environment); i++) {
        g_string_append_printf(s, ".TP\n.B %s\n", environment[i].name);
        roff_para(s, environment[i].doc);
    }
    g_string_append(s, ".SH FILES\n.TP\n");
    roff_text(s, QSIM_DATADIR "/configs", FALSE);
    g_string_append(s, "\nMachine configs (\\fBqsim list configs\\fR).\n.TP\n");
    roff_text(s, QSIM_DATADIR "/locks", FALSE);
    g_string_append(s, "\nLock sources (\\fBqsim list locks\\fR).\n.TP\n");
    roff_text(s, QSIM_DATADIR "/sweeps", FALSE);
    g_string_append(s, "\nExample sweep files.\n.TP\n");
    roff_text(s, QSIM_DOCDIR, FALSE);
    g_string_append(s, "\nThe documentation: isa.md (the instruction set and lock file format), verify.md (what "
                       "verified means, the models), report.md (every report key), counters.md, config.md, "
                       "workload.md, native.md, calibrate.md, validate-host.md, sweeps.md, litmus.md, "
                       "architecture.md.\n");
}

static char *man_page(void)
{
    GString *s = g_string_new(NULL);
    g_string_append(s, ".\\\" qsim(1): generated by `qsim man` from qsim's own tables; do not edit.\n"
                       ".TH QSIM 1 \"\" \"qsim " QSIM_VERSION "\" \"User Commands\"\n"
                       ".SH NAME\nqsim \\- cycle-level cache-coherence simulator for studying lock algorithms\n"
                       ".SH SYNOPSIS\n.B qsim\n.I COMMAND\n.RI [ OPTION ...]\n.br\n"
                       ".B qsim \\-\\-config\n.I CFG\n.B \\-\\-lock\n.I NAME\n.RI [ OPTION ...]\n"
                       ".SH DESCRIPTION\n"
                       "qsim models a multicore machine (x86 or arm64, described in a YAML config) as a "
                       "discrete-event system and runs lock algorithms, written once in a tiny instruction "
                       "set, on it: deterministically, with counters that say where the cycles went.  The "
                       "same lock source also runs natively on the host.  \\fBqsim \\-\\-config\\fR ... is "
                       "short for \\fBqsim run \\-\\-config\\fR ....  Every command has \\fB\\-\\-help\\fR.\n");
    section_commands(s);
    section_workload(s);
    section_config(s);
    section_environment_files(s);
    g_string_append(s, ".SH EXIT STATUS\n.TP\n0\nSuccess.\n.TP\n1\nA run failed: mutual exclusion was violated, "
                       "a run stalled, a verification or a litmus expectation failed.\n.TP\n2\nBad input: "
                       "an unknown option, config or lock, a file that does not parse (messages name "
                       "file:line:col).\n"
                       ".SH SEE ALSO\n.BR gnuplot (1),\n.BR herd7 (1)\n");
    return g_string_free(s, FALSE);
}

int cmd_man(int argc, char **argv)
{
    if (!cli_parse_command(&argc, &argv, "",
                           "Print the manual page qsim(1) in roff, made from qsim's own tables\n"
                           "(view it with `qsim man | man -l -`; `make install` installs it).",
                           NULL, NULL))
        return QSIM_EXIT_USAGE;
    if (argc != 1) {
        cli_eprintf("qsim man: takes no arguments\n");
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *page = man_page();
    fputs(page, stdout);
    return QSIM_EXIT_OK;
}
