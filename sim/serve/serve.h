/* `qsim serve`: the live page.  A local HTTP server (libsoup 3, bound to 127.0.0.1 only) that
 * serves one page (sim/serve/serve_page.html) where a student picks a teaching machine and
 * issues accesses by clicking; the page sends the accesses so far, the server runs them as
 * `qsim run --script` does (sim/serve/serve_run.h) and answers with the run's report and its
 * step-through page, which the live page shows as it is.  The protocol runs only in qsim: the
 * page's script lays out answers and keeps the list of accesses, nothing more.
 *
 *   GET /          the page
 *   GET /run?...   a run (sim/serve/serve_request.h: config, protocol, cores, threads, script or
 *                  scenario): 200 and JSON, or 400 and a message saying what is wrong
 *   GET /about     JSON: the configs, protocols, scenarios, and whether a fault is planted
 *
 * A request the server cannot take (another path, another method, a bad parameter) gets its
 * status and a sentence; the server goes on serving. */
#ifndef QSIM_SERVE_H
#define QSIM_SERVE_H

#include <glib.h>

typedef struct {
    guint port;                /* 0: any free port */
    const char *fault;         /* planted in every run (coherence/protocol_fault.h), or NULL */
    const char *qsim;          /* the qsim that runs the requests (absolute path) */
} ServeOptions;

typedef struct Server Server;

/* Whether this qsim was built with libsoup (else serve_start says what to install). */
gboolean serve_available(void);
/* Listening on 127.0.0.1 when it returns (requests are served by the default main context);
 * NULL with an error when the port is taken or libsoup is missing. */
Server *serve_start(const ServeOptions *o, GError **error);
/* The port it listens on (the one chosen for port 0). */
guint serve_port(const Server *s);
void serve_stop(Server *s);

#endif
