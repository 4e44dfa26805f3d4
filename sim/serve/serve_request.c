/* Checking a live page's request (see serve_request.h). */
#include <string.h>
#include "sim/serve/serve_request.h"
#include "sim/workload/access_script.h"
#include "sim/base/echo.h"

const char *const serve_configs[] = { "teaching", "teaching-bus", NULL };

/* On a bus only msi and mesi run (coherence/protocol.c); the config check says so if asked. */
static const char *const protocols[] = { "msi", "mesi", "moesi", "mesif", NULL };

static const char *const false_sharing[] = { "--scenario", "false-sharing", "--threads", "2", "--iterations", "2", NULL };
static const char *const ping_pong[] = { "--scenario", "ping-pong", "--threads", "2", "--iterations", "2", NULL };
static const char *const producer_consumer[] = { "--scenario", "producer-consumer", "--threads", "2", "--iterations",
                                                 "2", NULL };
static const char *const ttas[] = { "--lock", "ttas", "--threads", "2", "--iterations", "2", NULL };
const ServeScenario serve_scenarios[] = {
    { "false-sharing", "false sharing", false_sharing },
    { "ping-pong", "ping-pong", ping_pong },
    { "producer-consumer", "producer-consumer", producer_consumer },
    { "ttas", "a TTAS lock", ttas },
    { NULL, NULL, NULL },
};

void serve_request_free(ServeRequest *r)
{
    if (!r)
        return;
    g_free(r->config);
    g_free(r->protocol);
    g_free(r->script);
    g_free(r->scenario);
    g_free(r->fault);
    g_free(r);
}

static gboolean bad(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean bad(GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *m = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, m);
    return FALSE;
}

static gboolean in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return TRUE;
    return FALSE;
}

/* A whole number in [lo, hi], or 0 when absent (the config's). */
static gboolean get_count(GHashTable *q, const char *key, guint lo, guint hi, guint *out, GError **error)
{
    const char *v = g_hash_table_lookup(q, key);
    *out = 0;
    if (!v || !*v)
        return TRUE;
    guint64 n;
    if (!g_ascii_string_to_unsigned(v, 10, lo, hi, &n, NULL)) {
        g_autofree char *said = echo_clip(v);
        return bad(error, "%s=%s: give a whole number from %u to %u", key, said, lo, hi);
    }
    *out = (guint)n;
    return TRUE;
}

static const char *const keys[] = { "config", "protocol", "cores", "threads", "script", "scenario", NULL };

ServeRequest *serve_request_parse(GHashTable *query, const char *fault, GError **error)
{
    g_autoptr(ServeRequest) r = g_new0(ServeRequest, 1);
    if (query) {
        GHashTableIter it;
        gpointer k, v;
        g_hash_table_iter_init(&it, query);
        while (g_hash_table_iter_next(&it, &k, &v)) {
            if (!g_utf8_validate(k, -1, NULL) || !in_list(keys, k)) {
                g_autofree char *list = g_strjoinv(", ", (char **)keys);
                g_autofree char *said = g_utf8_validate(k, -1, NULL) ? echo_clip(k) : g_strdup("a name that is not UTF-8");
                bad(error, "%s: not a parameter of a run (the parameters: %s)", said, list);
                return NULL;
            }
            if (strlen(v) > SERVE_VALUE_MAX || !g_utf8_validate(v, -1, NULL)) {
                bad(error, "%s: its value is not UTF-8 text of at most %d bytes", (char *)k, SERVE_VALUE_MAX);
                return NULL;
            }
        }
    }
    const char *config = query ? g_hash_table_lookup(query, "config") : NULL;
    if (!config || !*config)
        config = serve_configs[0];
    if (!in_list(serve_configs, config)) {
        g_autofree char *list = g_strjoinv(", ", (char **)serve_configs);
        g_autofree char *said = echo_clip(config);
        bad(error, "config=%s: the page runs the teaching configs (%s)", said, list);
        return NULL;
    }
    r->config = g_strdup(config);
    const char *protocol = query ? g_hash_table_lookup(query, "protocol") : NULL;
    if (protocol && *protocol) {
        if (!in_list(protocols, protocol)) {
            g_autofree char *list = g_strjoinv(", ", (char **)protocols);
            g_autofree char *said = echo_clip(protocol);
            bad(error, "protocol=%s: not a protocol (the protocols: %s)", said, list);
            return NULL;
        }
        r->protocol = g_strdup(protocol);
    }
    GHashTable *q = query ? query : NULL;
    if (q && (!get_count(q, "cores", SERVE_CORES_MIN, SERVE_CORES_MAX, &r->cores, error) ||
              !get_count(q, "threads", 1, 2, &r->threads, error)))
        return NULL;
    const char *script = q ? g_hash_table_lookup(q, "script") : NULL;
    const char *scenario = q ? g_hash_table_lookup(q, "scenario") : NULL;
    if (scenario && *scenario) {
        if (script && *script) {
            bad(error, "a run is a script or a scenario, not both");
            return NULL;
        }
        for (const ServeScenario *s = serve_scenarios; s->name; s++)
            if (!strcmp(s->name, scenario))
                r->scenario = g_strdup(scenario);
        if (!r->scenario) {
            g_autofree char *said = echo_clip(scenario);
            bad(error, "scenario=%s: not one of the page's scenarios (false-sharing, ping-pong, producer-consumer, "
                       "ttas)", said);
            return NULL;
        }
    } else {
        if (!script || !*script) {
            bad(error, "no accesses: give script=ACCESSES (e.g. 0:ld x, 1:st x=5) or scenario=NAME");
            return NULL;
        }
        /* parsed here for its errors (at their columns); the run parses the same line again */
        g_autoptr(AccessScript) s = access_script_parse("--script", script, error);
        if (!s)
            return NULL;
        /* every access is on its own line in what the run is given: one text, a `:` in each, so
         * it can never be taken for a file's name */
        GString *line = g_string_new(NULL);
        for (guint i = 0; i < s->accesses->len; i++)
            g_string_append_printf(line, "%s%s", i ? ", " : "", g_array_index(s->accesses, ScriptAccess, i).text);
        r->script = g_string_free(line, FALSE);
    }
    r->fault = g_strdup(fault);
    return g_steal_pointer(&r);
}

/* The options both forms share: the machine, and what runs on it (the fault only where asked:
 * the command the page shows leaves it out, since the class is to find it). */
static void machine_args(const ServeRequest *r, GPtrArray *a, gboolean with_fault)
{
    g_ptr_array_add(a, g_strdup("--config"));
    g_ptr_array_add(a, g_strdup(r->config));
    if (r->protocol)
        g_ptr_array_add(a, g_strdup_printf("--set=protocol=%s", r->protocol));
    if (r->cores)
        g_ptr_array_add(a, g_strdup_printf("--set=topology.cores_per_socket=%u", r->cores));
    if (r->threads)
        g_ptr_array_add(a, g_strdup_printf("--set=topology.threads_per_core=%u", r->threads));
    if (r->scenario) {
        for (const ServeScenario *s = serve_scenarios; s->name; s++)
            if (!strcmp(s->name, r->scenario))
                for (const char *const *p = s->args; *p; p++)
                    g_ptr_array_add(a, g_strdup(*p));
    } else {
        g_ptr_array_add(a, g_strdup("--script"));
        g_ptr_array_add(a, g_strdup(r->script));
        if (r->fault && with_fault) {
            g_ptr_array_add(a, g_strdup("--fault"));
            g_ptr_array_add(a, g_strdup(r->fault));
        }
    }
}

char **serve_request_argv(const ServeRequest *r, const char *page)
{
    GPtrArray *a = g_ptr_array_new();
    machine_args(r, a, TRUE);
    /* the checker always watches: a fault's complaint, or none */
    if (!r->scenario && !r->fault)
        g_ptr_array_add(a, g_strdup("--check"));
    g_ptr_array_add(a, g_strdup("--format=json"));
    if (r->scenario)
        g_ptr_array_add(a, g_strdup("--no-host-time"));
    g_ptr_array_add(a, g_strdup("--trace-html"));
    g_ptr_array_add(a, g_strdup(page));
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

char *serve_request_command(const ServeRequest *r)
{
    g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(a, g_strdup("qsim run"));
    machine_args(r, a, FALSE);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < a->len; i++) {
        const char *w = a->pdata[i];
        if (s->len)
            g_string_append_c(s, ' ');
        /* only the script has characters a shell would act on (spaces, `=` is harmless) */
        if (i && strpbrk(w, " ,;#'")) {
            g_autofree char *q = g_shell_quote(w);
            g_string_append(s, q);
        } else
            g_string_append(s, w);
    }
    return g_string_free(s, FALSE);
}
