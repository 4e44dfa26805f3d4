/* What the live page asks `qsim serve` for, checked before anything runs: a machine (a teaching
 * config, its protocol, cores and hardware threads per core) and either the accesses so far (a
 * `--script` line) or a scenario to start from.  Everything a request names is checked against
 * a closed list or a range, so no request can name a file, a path or another option; the run
 * itself is `qsim run` with the options serve_request_argv makes (sim/serve/serve_run.h). */
#ifndef QSIM_SERVE_REQUEST_H
#define QSIM_SERVE_REQUEST_H

#include <glib.h>

/* The longest query value a request may carry (a script of ACCESS_SCRIPT_MAX accesses fits). */
#define SERVE_VALUE_MAX 16384
#define SERVE_CORES_MIN 2
#define SERVE_CORES_MAX 16

typedef struct {
    char *config;        /* "teaching" or "teaching-bus" */
    char *protocol;      /* "msi", ...; NULL: the config's */
    guint cores;         /* cores per socket; 0: the config's */
    guint threads;       /* hardware threads per core; 0: the config's */
    char *script;        /* the accesses, as one `--script` line, or NULL with a scenario */
    char *scenario;      /* a scenario button's name (serve_scenarios), or NULL */
    char *fault;         /* the fault planted (coherence/protocol_fault.h), or NULL */
} ServeRequest;

/* A scenario button: what it runs, from a cold machine with seed 1, so it always starts from
 * the same state. */
typedef struct {
    const char *name;    /* "false-sharing" */
    const char *label;   /* the button's words */
    const char *const *args; /* the `qsim run` options it adds, NULL-terminated */
} ServeScenario;
extern const ServeScenario serve_scenarios[];

/* The teaching configs a page may pick, NULL-terminated. */
extern const char *const serve_configs[];

/* The request in `query` (name -> value, as a URL's query decodes); `fault` is the server's
 * (a request cannot choose it: the class is to find it).  NULL with a G_OPTION_ERROR whose
 * message says what is wrong, for people. */
ServeRequest *serve_request_parse(GHashTable *query, const char *fault, GError **error);
void serve_request_free(ServeRequest *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ServeRequest, serve_request_free)

/* `qsim run`'s arguments for the request (after the program's name and "run"), writing the page
 * to `page`; NULL-terminated, caller frees (g_strfreev). */
char **serve_request_argv(const ServeRequest *r, const char *page);
/* The same run as a command line for people to paste (without the page, the format and the
 * planted fault, which the class is to find), with the script quoted for a POSIX shell. */
char *serve_request_command(const ServeRequest *r);

#endif
