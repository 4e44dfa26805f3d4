/* `qsim config NAME [--set k=v]...`: the effective config as loadable YAML.
 * `qsim config --reference`: the Markdown reference of every key (docs/config.md). */
#include <stdio.h>
#include "sim/cli/commands.h"
#include "sim/base/config.h"

int cmd_config(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    gboolean reference = FALSE;
    GOptionEntry entries[] = {
        { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override a config value (repeatable), e.g. --set core.pause_cycles=140", "KEY=VALUE" },
        { "reference", 0, 0, G_OPTION_ARG_NONE, &reference,
          "Print the reference of every config key (Markdown) instead", NULL },
        { NULL },
    };
    if (!cli_parse_command(&argc, &argv, "CFG",
                           "Print the effective config CFG (a path, or a name from `qsim list configs`, with or\n"
        "without .yaml): every key with defaults filled in, as YAML that qsim can load again\n"
        "(keys of the other arch as comments).",
                           entries, NULL))
        return QSIM_EXIT_USAGE;
    if (reference) {
        g_autofree char *md = config_reference_markdown();
        fputs(md, stdout);
        return QSIM_EXIT_OK;
    }
    if (argc != 2) {
        cli_eprintf("qsim config: name one config, e.g. `qsim config haswell`\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    g_autoptr(QsimConfig) c = config_load(argv[1], (const char *const *)sets, &error);
    if (!c)
        return cli_fail(error);
    g_autofree char *yaml = config_to_yaml(c);
    fputs(yaml, stdout);
    return QSIM_EXIT_OK;
}
