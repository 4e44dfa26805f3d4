/* Reading a whole number (see whole_number.h). */
#include <errno.h>
#include <string.h>
#include "sim/base/whole_number.h"
#include "sim/base/echo.h"

gboolean whole_number_parse(const char *who, const char *text, guint64 min, guint64 max, guint64 *out,
                            GError **error)
{
    gboolean negative = text[0] == '-';
    const char *digits = text + negative;
    gsize n = strspn(digits, "0123456789");
    g_autofree char *shown = echo_clip(text);
    /* "-0" has a sign and no number below the range to be: not a whole number as written */
    if (n == 0 || digits[n] || (negative && strspn(digits, "0") == n)) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s: expected a whole number", who, shown);
        return FALSE;
    }
    if (n > 1 && digits[0] == '0') {
        const char *plain = digits + strspn(digits, "0");
        g_autofree char *plain_shown = echo_clip(*plain ? plain : "0");
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s %s: a number with a leading zero (numbers are decimal: write %s%s)", who, shown,
                    negative ? "-" : "", plain_shown);
        return FALSE;
    }
    errno = 0;
    guint64 v = g_ascii_strtoull(digits, NULL, 10);
    if (negative || errno == ERANGE || v < min || v > max) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s %s: out of range [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "]", who, shown, min, max);
        return FALSE;
    }
    *out = v;
    return TRUE;
}
