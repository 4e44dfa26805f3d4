/* `qsim serve`: the live page (sim/serve/serve.h).  "serve" because that is all the command
 * does: it serves a page on this machine's loopback address until stopped, as `python3 -m
 * http.server` or `jekyll serve` do; the page is where the work happens. */
#include <stdio.h>
#include <glib-unix.h>
#include "sim/cli/commands.h"
#include "sim/serve/serve.h"

static gboolean on_signal(gpointer loop)
{
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int cmd_serve(int argc, char **argv)
{
    gint64 port = 8642;
    g_autofree char *fault = NULL;
    GOptionEntry entries[] = {
        { "port", 'p', 0, G_OPTION_ARG_INT64, &port, "the port on 127.0.0.1 (default 8642; 0: any free one, printed)",
          "N" },
        { "fault", 0, 0, G_OPTION_ARG_STRING, &fault, "plant a fault in every run's protocol table for the class to "
          "find: missing-inv, wrong-next or dropped-ack (the page shows the invariant checker's complaint)", "NAME" },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    if (!cli_parse_command(&argc, &argv, "",
                           "Serve the live page on this machine (127.0.0.1 only) until stopped (Ctrl-C):\n"
                           "pick a teaching machine, issue loads, stores and atomics by clicking, and watch\n"
                           "each one run through the step-through page's drawing, table and words; undo,\n"
                           "step back, and keep the session as a --script line or a link.  The accesses run\n"
                           "in qsim, as `qsim run --script` runs them.  The first line printed is the page's\n"
                           "address (" QSIM_DOC("teaching.md") ", \"Teaching with the live page\").\n"
                           "Called serve because that is all it does, as `python3 -m http.server` does:\n"
                           "it serves a page until stopped; the work happens on the page.",
                           entries, (const CliIntRange[]){ { "port", 0, 65535 }, { NULL } }))
        return QSIM_EXIT_USAGE;
    if (argc != 1) {
        cli_eprintf("qsim serve: no arguments, only options (try `qsim serve --help`)\n");
        return QSIM_EXIT_USAGE;
    }
    g_autoptr(GError) error = NULL;
    g_autofree char *self = g_file_read_link("/proc/self/exe", &error);
    if (!self)
        return cli_fail(error);
    ServeOptions o = { .port = (guint)port, .fault = fault, .qsim = self };
    Server *s = serve_start(&o, &error);
    if (!s)
        return cli_fail(error);
    printf("qsim serve: http://127.0.0.1:%u/%s\n", serve_port(s),
           fault ? "  (a fault is planted: the class is to find it)" : "");
    fflush(stdout);
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_unix_signal_add(SIGINT, on_signal, loop);
    g_unix_signal_add(SIGTERM, on_signal, loop);
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    serve_stop(s);
    return QSIM_EXIT_OK;
}
