/* Clipping echoed tokens (see echo.h). */
#include <string.h>
#include "sim/base/echo.h"

/* The character at `p` (of `left` bytes), as a terminal may take it: a control character (C0,
 * DEL, C1 written in UTF-8, or a byte 0x80-0x9f outside UTF-8, C1 to an 8-bit terminal) is
 * written out as an escape, so that an ESC in a name cannot drive the terminal; other bytes
 * that are no UTF-8 stay as they are (the terminal shows them as it can).  Returns its length
 * in bytes. */
static gsize append_char(GString *out, const char *p, gsize left)
{
    guchar c = (guchar)*p;
    static const struct { char c; const char *esc; } named[] = { { '\n', "\\n" }, { '\t', "\\t" }, { '\r', "\\r" } };
    if (c < 0x20 || c == 0x7f) {
        for (guint i = 0; i < G_N_ELEMENTS(named); i++)
            if (named[i].c == (char)c) {
                g_string_append(out, named[i].esc);
                return 1;
            }
        g_string_append_printf(out, "\\x%02x", c);
        return 1;
    }
    if (c < 0x80) {
        g_string_append_c(out, (char)c);
        return 1;
    }
    gunichar u = g_utf8_get_char_validated(p, (gssize)left);
    if (u == (gunichar)-1 || u == (gunichar)-2) {
        if (c <= 0x9f)
            g_string_append_printf(out, "\\x%02x", c);
        else
            g_string_append_c(out, (char)c);
        return 1;
    }
    gsize len = (gsize)(g_utf8_next_char(p) - p);
    if (u >= 0x80 && u <= 0x9f)
        g_string_append_printf(out, "\\u%04x", u);
    else
        g_string_append_len(out, p, (gssize)len);
    return len;
}

char *echo_clip_len(const char *text, gsize len)
{
    /* Characters, not bytes: a UTF-8 character counts as one, as does each byte of anything else. */
    GString *out = g_string_new(NULL);
    gsize i = 0;
    for (guint chars = 0; i < len && chars < ECHO_MAX_CHARS; chars++)
        i += append_char(out, text + i, len - i);
    if (i < len)
        g_string_append(out, "...");
    return g_string_free(out, FALSE);
}

char *echo_clip(const char *text)
{
    return echo_clip_len(text ? text : "", text ? strlen(text) : 0);
}

/* How many bytes of closing punctuation end the run p[0..run), kept after a clipped token so
 * that `x...` keeps its quote (at most 3). */
static gsize closing_tail(const char *p, gsize run)
{
    gsize tail = 0;
    while (tail < run && tail < 3 && strchr("`'\")]:,;", p[run - 1 - tail]))
        tail++;
    return tail;
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
        gsize tail = closing_tail(p, run);
        g_autofree char *head = echo_clip_len(p, run - tail);
        g_string_append(out, head);
        g_string_append_len(out, p + run - tail, (gssize)tail);
        p += run;
    }
    return g_string_free(out, FALSE);
}

/* ---- a message and the words it may echo ---- */

/* Whether echo_clip would change `text`: too long, or a character it escapes. */
static gboolean needs_clip(const char *text)
{
    g_autofree char *c = echo_clip(text);
    return strcmp(c, text) != 0;
}

/* Whether `run` (of `len` bytes) is part of one of `words`. */
static gboolean inside_a_word(const char *run, gsize len, const char *const *words)
{
    g_autofree char *needle = g_strndup(run, len);
    for (guint i = 0; words && words[i]; i++)
        if (strstr(words[i], needle))
            return TRUE;
    return FALSE;
}

/* A stretch of the message between whole words: each run of more than ECHO_MAX_CHARS
 * non-blank characters that is part of a word (a piece of a value: one CPU of a --cpus list)
 * clipped; the rest as it is, with control characters other than newline and tab escaped. */
static void append_stretch(GString *out, const char *p, gsize len, const char *const *words)
{
    const char *end = p + len;
    while (p < end) {
        gsize blank = 0;
        while (p + blank < end && strchr(" \t\n", p[blank]))
            blank++;
        g_string_append_len(out, p, (gssize)blank);
        p += blank;
        gsize run = 0;
        while (p + run < end && !strchr(" \t\n", p[run]))
            run++;
        gsize lead = 0;
        while (lead < run && strchr("`'\"([", p[lead]))
            lead++;
        gsize tail = closing_tail(p + lead, run - lead);
        gsize core = run - lead - tail;
        if (core > ECHO_MAX_CHARS && inside_a_word(p + lead, core, words)) {
            g_autofree char *c = echo_clip_len(p + lead, core);
            g_string_append_len(out, p, (gssize)lead);
            g_string_append(out, c);
            g_string_append_len(out, p + lead + core, (gssize)tail);
        } else {
            for (gsize i = 0; i < run;)
                i += append_char(out, p + i, run - i);
        }
        p += run;
    }
}

static gint longer_first(gconstpointer a, gconstpointer b)
{
    gsize la = strlen(*(const char *const *)a), lb = strlen(*(const char *const *)b);
    return la < lb ? 1 : la > lb ? -1 : 0;
}

char *echo_clip_words(const char *msg, const char *const *words)
{
    /* The words to look for: the long ones, and those with a character to escape; the longest
     * first, so that a value is replaced whole before any piece of it. */
    g_autoptr(GPtrArray) find = g_ptr_array_new();
    for (guint i = 0; words && words[i]; i++)
        if (*words[i] && needs_clip(words[i]))
            g_ptr_array_add(find, (gpointer)words[i]);
    g_ptr_array_sort(find, longer_first);
    GString *out = g_string_new(NULL);
    const char *p = msg, *stretch = msg;
    while (*p) {
        const char *w = NULL;
        for (guint i = 0; i < find->len && !w; i++)
            if (!strncmp(p, find->pdata[i], strlen(find->pdata[i])))
                w = find->pdata[i];
        if (!w) {
            p++;
            continue;
        }
        append_stretch(out, stretch, (gsize)(p - stretch), words);
        g_autofree char *c = echo_clip(w);
        g_string_append(out, c);
        p += strlen(w);
        stretch = p;
    }
    append_stretch(out, stretch, (gsize)(p - stretch), words);
    return g_string_free(out, FALSE);
}
