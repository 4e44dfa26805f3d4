/* Provenance of a report (see provenance.h). */
#include <string.h>
#include "sim/report/provenance.h"
#include "sim/base/version.h"

char *provenance_sha256(const char *text)
{
    return g_compute_checksum_for_string(G_CHECKSUM_SHA256, text ? text : "", -1);
}

/* A word as typed, quoted only when a shell would split or expand it. */
static gboolean plain_word(const char *w)
{
    if (!*w)
        return FALSE;
    for (const char *p = w; *p; p++)
        if (!g_ascii_isalnum(*p) && !strchr("-_./=:,+@%", *p))
            return FALSE;
    return TRUE;
}

char *provenance_command_line(int argc, char **argv)
{
    GString *s = g_string_new("qsim");
    for (int i = 0; i < argc; i++) {
        g_autofree char *q = plain_word(argv[i]) ? g_strdup(argv[i]) : g_shell_quote(argv[i]);
        g_string_append_printf(s, " %s", q);
    }
    return g_string_free(s, FALSE);
}

static JsonObject *named_input(const char *name, const char *path, const char *text)
{
    JsonObject *o = json_object_new();
    json_object_set_string_member(o, "name", name ? name : "");
    if (path) {
        g_autofree char *abs = g_canonicalize_filename(path, NULL);
        json_object_set_string_member(o, "path", abs);
    }
    g_autofree char *sha = provenance_sha256(text);
    json_object_set_string_member(o, "sha256", sha);
    return o;
}

JsonObject *provenance_build(const ProvenanceInput *in)
{
    JsonObject *o = json_object_new();
    json_object_set_string_member(o, "qsim", qsim_version());
    json_object_set_string_member(o, "commit", qsim_commit());
    if (in->command)
        json_object_set_string_member(o, "command", in->command);
    if (in->config_name) {
        JsonObject *cfg = named_input(in->config_name, in->config_path, in->config_yaml);
        JsonArray *sets = json_array_new();
        for (guint i = 0; in->sets && in->sets[i]; i++)
            json_array_add_string_element(sets, in->sets[i]);
        json_object_set_array_member(cfg, "sets", sets);
        json_object_set_object_member(o, "config", cfg);
    }
    if (in->lock_name)
        json_object_set_object_member(o, "lock", named_input(in->lock_name, in->lock_path, in->lock_text));
    return o;
}

JsonObject *provenance_of_command(const char *command)
{
    ProvenanceInput in = { .command = command };
    return provenance_build(&in);
}
