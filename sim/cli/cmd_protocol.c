/* `qsim protocol`: a protocol's tables, state diagram and trace legend (sim/trace/protocol_doc.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include "sim/cli/commands.h"
#include "sim/base/output_file.h"
#include "sim/trace/protocol_doc.h"
#include "sim/base/config.h"

/* The DOT `text` rendered by Graphviz's dot as `type` ("svg", "png"), found on $PATH when it
 * is needed; NULL with an error saying what to install when it is not there. */
static GBytes *render(const char *text, const char *type, GError **error)
{
    g_autofree char *dot_bin = g_find_program_in_path("dot");
    if (!dot_bin) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                    "%s output needs Graphviz's `dot` on $PATH (Debian: apt-get install graphviz); "
                    "`--format dot` prints the DOT text without it", type);
        return NULL;
    }
    g_autofree char *tmp = NULL;
    int fd = g_file_open_tmp("qsim-protocol-XXXXXX.dot", &tmp, error);
    if (fd < 0)
        return NULL;
    close(fd);
    if (!g_file_set_contents(tmp, text, -1, error)) {
        g_unlink(tmp);
        return NULL;
    }
    g_autofree char *flag = g_strdup_printf("-T%s", type);
    const char *argv[] = { dot_bin, flag, tmp, NULL };
    g_autofree char *out = NULL, *err = NULL;
    gsize len = 0;
    int status = 0;
    /* dot's output is binary for png: read it as bytes, not as a string */
    GPid pid;
    gint out_fd, err_fd;
    gboolean ran = g_spawn_async_with_pipes(NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                            NULL, &out_fd, &err_fd, error);
    if (!ran) {
        g_unlink(tmp);
        return NULL;
    }
    g_autoptr(GIOChannel) oc = g_io_channel_unix_new(out_fd), ec = g_io_channel_unix_new(err_fd);
    g_io_channel_set_encoding(oc, NULL, NULL);
    g_io_channel_set_close_on_unref(oc, TRUE);
    g_io_channel_set_close_on_unref(ec, TRUE);
    g_io_channel_read_to_end(oc, &out, &len, NULL);
    g_io_channel_read_to_end(ec, &err, NULL, NULL);
    waitpid(pid, &status, 0);
    g_spawn_close_pid(pid);
    g_unlink(tmp);
    if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED, "dot -T%s failed: %s", type, err ? err : "");
        return NULL;
    }
    return g_bytes_new_take(g_steal_pointer(&out), len);
}

/* Writes `text` (rendered as `type` when not NULL) to `path`, or to stdout. */
static int write_output(const char *path, const char *text, const char *type, GError **error)
{
    g_autoptr(GBytes) bytes = type ? render(text, type, error) : g_bytes_new_static(text, strlen(text));
    if (!bytes)
        return QSIM_EXIT_USAGE;
    gsize len;
    const char *data = g_bytes_get_data(bytes, &len);
    if (!path)
        return fwrite(data, 1, len, stdout) == len ? QSIM_EXIT_OK : QSIM_EXIT_FAILED;
    if (output_file_write(path, OUTPUT_TRUNCATE, data, len, error))
        return QSIM_EXIT_OK;
    g_prefix_error(error, "--output ");
    return QSIM_EXIT_USAGE;
}

/* MESIF is the MESI tables with F kept at the home: its pages are the tables and its part in
 * words; a diagram or CSV would show MESI's states only, so they are refused with what to use. */
#define MESIF_NO_DIAGRAM                                                                                  \
    "mesif: its F state is kept per socket at the home, beside the directory, not in the tables' states, so " \
    "a diagram or CSV of them is MESI's: use `qsim protocol mesif` (text or markdown: the MESI tables and "  \
    "what each directory row does with F), or `qsim protocol mesi --format dot` for the states"

int cmd_protocol(int argc, char **argv)
{
    g_autofree char *format = NULL, *config = NULL, *output = NULL, *state = NULL;
    gboolean transient = FALSE, legend = FALSE;
    GOptionEntry entries[] = {
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), markdown, csv, dot (the state diagram), "
          "or svg and png (the diagram rendered by Graphviz's dot, found on $PATH)", "FORMAT" },
        { "config", 'c', 0, G_OPTION_ARG_STRING, &config, "The protocol of this machine config", "CFG" },
        { "transient", 0, 0, G_OPTION_ARG_NONE, &transient, "dot: draw every state, transient ones too, and each row "
          "between them (one wide diagram: for a slide, draw one stable state at a time with --state)", NULL },
        { "state", 0, 0, G_OPTION_ARG_STRING, &state, "dot, svg, png: one slide, 16:9: the cache's stable state S "
          "(or the directory's, dir:S) and the transient states it goes through, up to the stable states they end in",
          "S|dir:S" },
        { "legend", 0, 0, G_OPTION_ARG_NONE, &legend, "How to read `qsim run --trace`: every state, event, message and action in words", NULL },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE; with --format dot, FILE.svg or FILE.png is rendered by Graphviz's dot", "FILE" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, "[msi|mesi|moesi|mesif|msi-bus|mesi-bus]",
                           "Print a coherence protocol's cache and directory tables as the Primer lays them\n"
                           "out (a row per state, a column per event, each cell actions/next state), with\n"
                           "every row in words; or its state diagram as Graphviz DOT (or SVG, PNG), whole\n"
                           "or one stable state a slide; or the legend of `qsim run --trace`.  Default:\n"
                           "mesi.  msi-bus and mesi-bus are the snooping tables a config with\n"
                           "topology.interconnect: bus runs (a cache and the memory).  mesif runs the MESI\n"
                           "tables, with its F state at the home: its page says what each row does with F.",
                           entries, NULL))
        return QSIM_EXIT_USAGE;
    if (argc > 2 || (argc == 2 && config)) {
        cli_eprintf("qsim protocol: name one protocol, or a --config (try `qsim protocol --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    if (output && !cli_output_file_ok("--output", output))
        return QSIM_EXIT_USAGE;
    g_autoptr(GError) error = NULL;
    ProtoDocFormat f = PROTO_DOC_TEXT;
    const char *type = format && (!strcmp(format, "svg") || !strcmp(format, "png")) ? format : NULL;
    if (type)
        f = PROTO_DOC_DOT;
    else if (format && !protocol_doc_format_parse(format, &f, &error))
        return cli_fail(error);
    const char *name = argc == 2 ? argv[1] : "mesi";
    gboolean mesif = protocol_doc_is_mesif(name);
    if (config) {
        QsimConfig *cfg = config_load(config, NULL, &error);
        if (!cfg)
            return cli_fail(error);
        const CohProtocol *cp = coh_protocol_select(cfg); /* its protocol on its interconnect */
        name = cp ? cp->name : "mesi";
        mesif = cfg->protocol == PROTO_MESIF && cp && !cp->bus;
        config_free(cfg);
    }
    const CohProtocol *p = protocol_doc_find(name, &error);
    if (!p)
        return cli_fail(error);
    if (legend && (f == PROTO_DOC_CSV || f == PROTO_DOC_DOT)) {
        cli_eprintf("qsim protocol: --legend comes as text or markdown\n");
        return QSIM_EXIT_USAGE;
    }
    if ((transient || state) && f != PROTO_DOC_DOT) {
        cli_eprintf("qsim protocol: %s is for --format dot, svg or png (the tables always show every state)\n",
                    transient ? "--transient" : "--state");
        return QSIM_EXIT_USAGE;
    }
    if (mesif && !legend && (f == PROTO_DOC_CSV || f == PROTO_DOC_DOT)) {
        cli_eprintf("qsim protocol: %s\n", MESIF_NO_DIAGRAM);
        return QSIM_EXIT_USAGE;
    }
    g_autofree char *text = NULL;
    if (legend)
        text = protocol_doc_legend(p, f);
    else if (state && !(text = protocol_doc_dot_state(p, state, &error)))
        return cli_fail(error);
    else if (!state)
        text = f == PROTO_DOC_DOT ? protocol_doc_dot(p, transient)
               : mesif            ? protocol_doc_mesif(f)
                                  : protocol_doc_tables(p, f);
    /* -o FILE.svg / FILE.png with --format dot renders too, as it always has */
    const char *ext = output ? strrchr(output, '.') : NULL;
    if (!type && f == PROTO_DOC_DOT && ext && (!strcmp(ext, ".svg") || !strcmp(ext, ".png")))
        type = ext + 1;
    int rc = write_output(output, text, type, &error);
    if (rc != QSIM_EXIT_OK && error)
        cli_eprintf("qsim protocol: %s\n", error->message);
    return rc;
}
