/* Ranges in sweep files: parsing `A..B [step C]`, continuing `...`, counting before making. */
#include <errno.h>
#include <string.h>
#include "sim/sweep/sweep_range.h"
#include "sim/sweep/sweep.h"

gboolean sweep_parse_uint(const char *s, guint64 min, guint64 max, guint64 *out)
{
    char *end = NULL;
    errno = 0;
    if (!g_ascii_isdigit(*s))
        return FALSE;
    guint64 v = g_ascii_strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean sweep_is_ellipsis(const char *v) { return !strcmp(v, "..."); }

gboolean sweep_plain_uint(const char *v, guint64 *out)
{
    return sweep_parse_uint(v, 0, G_MAXUINT64, out);
}

gboolean sweep_parse_range(const char *v, gboolean *is_range, guint64 *from, guint64 *to, guint64 *step, char **why)
{
    *is_range = FALSE;
    const char *dots = strstr(v, "..");
    if (!dots || sweep_is_ellipsis(v))
        return TRUE;
    *is_range = TRUE;
    g_autofree char *a = g_strstrip(g_strndup(v, dots - v));
    g_autofree char *rest = g_strdup(dots + 2);
    g_strstrip(rest);
    g_autofree char *b = NULL, *c = NULL;
    char *sp = strpbrk(rest, " \t");
    if (sp) {
        b = g_strndup(rest, sp - rest);
        g_autofree char *tail = g_strstrip(g_strdup(sp));
        if (!g_str_has_prefix(tail, "step") || !g_ascii_isspace(tail[4])) {
            *why = g_strdup("a range is A..B or A..B step C");
            return FALSE;
        }
        c = g_strstrip(g_strdup(tail + 4));
    } else {
        b = g_strdup(rest);
    }
    *step = 1;
    if (!sweep_plain_uint(a, from) || !sweep_plain_uint(b, to) || (c && !sweep_plain_uint(c, step))) {
        *why = g_strdup("a range is A..B or A..B step C, with whole numbers");
        return FALSE;
    }
    if (*step == 0) {
        *why = g_strdup("the step must be at least 1");
        return FALSE;
    }
    if (*to < *from) {
        *why = g_strdup_printf("the range ends (%" G_GUINT64_FORMAT ") below where it starts", *to);
        return FALSE;
    }
    if ((*to - *from) / *step >= SWEEP_MAX_POINTS) {
        *why = g_strdup_printf("more than %u values", SWEEP_MAX_POINTS);
        return FALSE;
    }
    return TRUE;
}


static void value_item_clear(gpointer p) { g_free(((SweepValueItem *)p)->text); }

GArray *sweep_value_items_new(void)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(SweepValueItem));
    g_array_set_clear_func(a, value_item_clear);
    return a;
}

void sweep_value_item_add(GArray *out, yaml_node_t *node, char *text, guint64 from, guint64 to, guint64 step)
{
    SweepValueItem it = { node, text, from, to, step };
    g_array_append_val(out, it);
}

guint64 sweep_run_count(const SweepValueItem *it) { return (it->to - it->from) / it->step + 1; }

gboolean sweep_continue_progression(const guint64 *before, guint nbefore, guint64 end, guint64 have, GArray *out,
                                    yaml_node_t *node, char **why)
{
    if (nbefore < 2) {
        *why = g_strdup("`...` needs two or three numbers before it to show the progression, as in "
                        "[1, 2, 4, ..., 256] or [10, 20, ..., 100]");
        return FALSE;
    }
    const guint64 *t = before + nbefore - MIN(nbefore, 3u);
    guint n = MIN(nbefore, 3u);
    guint64 last = t[n - 1];
    gboolean arith = t[1] > t[0] && (n < 3 || t[2] - t[1] == t[1] - t[0]);
    guint64 step = t[1] - t[0], ratio = 0;
    if (!arith) {
        if (n == 3 && t[0] > 0 && t[1] % t[0] == 0 && t[1] / t[0] >= 2 && t[2] == t[1] * (t[1] / t[0]))
            ratio = t[1] / t[0];
        else {
            *why = g_strdup(n == 3 ? "the numbers before `...` have neither a constant step nor a constant ratio"
                                   : "the numbers before `...` must increase");
            return FALSE;
        }
    }
    if (end <= last) {
        *why = g_strdup_printf("`...` must be followed by a value past %" G_GUINT64_FORMAT, last);
        return FALSE;
    }
    /* Counted, not made: `...` up to 1e12 must not make a million strings first. */
    guint64 steps = ratio ? 0 : (end - last) / step;
    if (!ratio && have + steps > SWEEP_MAX_POINTS) {
        *why = g_strdup_printf("`...` up to %" G_GUINT64_FORMAT " would give the axis %" G_GUINT64_FORMAT
                               " values, more than the %u an axis may have", end, have + steps, SWEEP_MAX_POINTS);
        return FALSE;
    }
    guint64 v = ratio ? last : last + steps * step;   /* arithmetic: the last value not past `end` */
    while (ratio && v <= G_MAXUINT64 / ratio && v * ratio < end)
        v *= ratio;
    gboolean past = ratio ? v > G_MAXUINT64 / ratio : v > G_MAXUINT64 - step;   /* past 2^64 - 1 */
    guint64 next = past ? 0 : ratio ? v * ratio : v + step;
    if (v != end && (past || next != end)) {
        char after[32] = "a number past 2^64";
        if (!past)
            g_snprintf(after, sizeof after, "%" G_GUINT64_FORMAT, next);
        *why = g_strdup_printf("%" G_GUINT64_FORMAT " is not in the progression (it goes %" G_GUINT64_FORMAT ", %s)",
                               end, v, after);
        return FALSE;
    }
    /* The values between: `end` itself is the next one written. */
    if (!ratio && steps > 1)
        sweep_value_item_add(out, node, NULL, last + step, end - step, step);
    for (guint64 x = last * ratio; ratio && x < end; x *= ratio)
        sweep_value_item_add(out, node, g_strdup_printf("%" G_GUINT64_FORMAT, x), 0, 0, 0);
    return TRUE;
}

