/* Counting JSON nesting (see json_depth.h). */
#include "sim/base/json_depth.h"

gboolean json_depth_check(const char *text, gsize len, const char *name, guint line, gboolean per_line,
                          GError **error)
{
    guint depth = 0, col = 0;
    gboolean in_string = FALSE, escaped = FALSE;
    for (gsize i = 0; i < len; i++) {
        char c = text[i];
        col++;
        if (c == '\n') {
            line++;
            col = 0;
            if (per_line) {
                depth = 0;
                in_string = escaped = FALSE;
            }
        } else if (in_string) {
            if (escaped)
                escaped = FALSE;
            else if (c == '\\')
                escaped = TRUE;
            else if (c == '"')
                in_string = FALSE;
        } else if (c == '"') {
            in_string = TRUE;
        } else if (c == '[' || c == '{') {
            if (++depth > JSON_MAX_DEPTH) {
                g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u:%u: nested deeper than %u levels", name,
                            line, col, JSON_MAX_DEPTH);
                return FALSE;
            }
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return TRUE;
}
