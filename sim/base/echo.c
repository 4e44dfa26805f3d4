/* Clipping echoed tokens (see echo.h). */
#include <string.h>
#include "sim/base/echo.h"

char *echo_clip_len(const char *text, gsize len)
{
    /* Characters, not bytes: step over UTF-8 continuation bytes (anything else counts as one). */
    gsize i = 0, chars = 0;
    while (i < len && chars < ECHO_MAX_CHARS) {
        i++;
        while (i < len && ((guchar)text[i] & 0xc0) == 0x80)
            i++;
        chars++;
    }
    if (i >= len)
        return g_strndup(text, len);
    g_autofree char *head = g_strndup(text, i);
    return g_strconcat(head, "...", NULL);
}

char *echo_clip(const char *text)
{
    return echo_clip_len(text ? text : "", text ? strlen(text) : 0);
}

char *echo_clip_message(const char *msg)
{
    GString *out = g_string_new(NULL);
    const char *p = msg;
    while (*p) {
        gsize blank = strspn(p, " \t\n");
        g_string_append_len(out, p, (gssize)blank);
        p += blank;
        gsize run = strcspn(p, " \t\n");
        /* closing punctuation at the run's end stays, so that `x...` keeps its quote */
        gsize tail = 0;
        while (tail < run && tail < 3 && strchr("`'\")]:,;", p[run - 1 - tail]))
            tail++;
        g_autofree char *head = echo_clip_len(p, run - tail);
        g_string_append(out, head);
        g_string_append_len(out, p + run - tail, (gssize)tail);
        p += run;
    }
    return g_string_free(out, FALSE);
}
