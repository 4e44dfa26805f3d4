/* Test helper: a report's members by dotted path ("coherence.lock_line.rfo", "per_thread.2.core"),
 * each one a failure of the test when the report lacks it or holds another kind of value there:
 * never a 0 that an absent key would read as (json-glib's getters return 0 with a warning). */
#ifndef QSIM_TEST_REPORT_KEYS_H
#define QSIM_TEST_REPORT_KEYS_H

#include <json-glib/json-glib.h>

/* The member at `path` below `o` (objects by name, arrays by index); fails the test if absent. */
JsonNode *report_key(JsonObject *o, const char *path);
/* As report_key, its value, failing the test unless it is an integer, a number (an integer
 * too), a string, a boolean, an object or an array. */
gint64 report_key_int(JsonObject *o, const char *path);
double report_key_double(JsonObject *o, const char *path);
const char *report_key_string(JsonObject *o, const char *path);
gboolean report_key_bool(JsonObject *o, const char *path);
JsonObject *report_key_object(JsonObject *o, const char *path);
JsonArray *report_key_array(JsonObject *o, const char *path);

#endif
