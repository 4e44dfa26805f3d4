/* `qsim protocol`: a protocol's tables, state diagram and trace legend (sim/trace/protocol_doc.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "sim/cli/commands.h"
#include "sim/trace/protocol_doc.h"
#include "sim/base/config.h"

/* Writes `text` to `path`; a .svg or .png path gets the DOT rendered by Graphviz's dot. */
static int write_output(const char *path, const char *text, gboolean dot, GError **error)
{
    const char *ext = strrchr(path, '.');
    gboolean render = dot && ext && (!strcmp(ext, ".svg") || !strcmp(ext, ".png"));
    if (!render)
        return g_file_set_contents(path, text, -1, error) ? QSIM_EXIT_OK : QSIM_EXIT_USAGE;
    g_autofree char *dot_bin = g_find_program_in_path("dot");
    if (!dot_bin) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "rendering %s needs Graphviz's `dot` (Debian: apt-get install graphviz); "
                    "`--format dot` prints the DOT text without it", path);
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *tmp = NULL;
    int fd = g_file_open_tmp("qsim-protocol-XXXXXX.dot", &tmp, error);
    if (fd < 0)
        return QSIM_EXIT_USAGE;
    close(fd);
    if (!g_file_set_contents(tmp, text, -1, error))
        return QSIM_EXIT_USAGE;
    g_autofree char *type = g_strdup_printf("-T%s", ext + 1);
    const char *argv[] = { dot_bin, type, "-o", path, tmp, NULL };
    g_autofree char *err = NULL;
    int status = 0;
    gboolean ran = g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                                &status, error);
    g_unlink(tmp);
    if (!ran)
        return QSIM_EXIT_USAGE;
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "dot failed on %s: %s", path, err ? err : "");
        return QSIM_EXIT_FAILED;
    }
    return QSIM_EXIT_OK;
}

int cmd_protocol(int argc, char **argv)
{
    g_autofree char *format = NULL, *config = NULL, *output = NULL;
    gboolean transient = FALSE, legend = FALSE;
    GOptionEntry entries[] = {
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), markdown, csv, or dot (the state diagram)", "FORMAT" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "The protocol of this machine config", "CFG" },
        { "transient", 0, 0, G_OPTION_ARG_NONE, &transient, "dot: draw every state, transient ones too, and each row between them", NULL },
        { "legend", 0, 0, G_OPTION_ARG_NONE, &legend, "How to read `qsim run --trace`: every state, event, message and action in words", NULL },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE; with --format dot, FILE.svg or FILE.png is rendered by Graphviz's dot", "FILE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, "[msi|mesi|moesi|mesif|msi-bus|mesi-bus]",
                           "Print a coherence protocol's cache and directory tables as the Primer lays them\n"
                           "out (a row per state, a column per event, each cell actions/next state), with\n"
                           "every row in words; or its state diagram as Graphviz DOT; or the legend of\n"
                           "`qsim run --trace`.  Default: mesi.  msi-bus and mesi-bus are the snooping\n"
                           "tables a config with topology.interconnect: bus runs (a cache and the memory).",
                           entries, NULL))
        return QSIM_EXIT_USAGE;
    if (argc > 2 || (argc == 2 && config)) {
        cli_eprintf("qsim protocol: name one protocol, or a --config (try `qsim protocol --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    if (output && !cli_output_path_ok("--output", output))
        return QSIM_EXIT_USAGE;
    g_autoptr(GError) error = NULL;
    ProtoDocFormat f = PROTO_DOC_TEXT;
    if (format && !protocol_doc_format_parse(format, &f, &error))
        return cli_fail(error);
    const char *name = argc == 2 ? argv[1] : "mesi";
    if (config) {
        QsimConfig *cfg = config_load(config, NULL, &error);
        if (!cfg)
            return cli_fail(error);
        const CohProtocol *cp = coh_protocol_select(cfg); /* its protocol on its interconnect */
        name = cp ? cp->name : "mesi";
        config_free(cfg);
    }
    const CohProtocol *p = protocol_doc_find(name, &error);
    if (!p)
        return cli_fail(error);
    if (legend && (f == PROTO_DOC_CSV || f == PROTO_DOC_DOT)) {
        cli_eprintf("qsim protocol: --legend comes as text or markdown\n");
        return QSIM_EXIT_USAGE;
    }
    if (transient && f != PROTO_DOC_DOT) {
        cli_eprintf("qsim protocol: --transient is for --format dot (the tables always show every state)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *text = legend ? protocol_doc_legend(p, f)
                            : f == PROTO_DOC_DOT ? protocol_doc_dot(p, transient) : protocol_doc_tables(p, f);
    if (!output) {
        fputs(text, stdout);
        return QSIM_EXIT_OK;
    }
    int rc = write_output(output, text, f == PROTO_DOC_DOT, &error);
    if (rc != QSIM_EXIT_OK)
        cli_eprintf("qsim protocol: %s\n", error->message);
    return rc;
}
