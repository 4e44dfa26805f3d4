/* The step-through page's pipeline panel (see trace_html.h): each core's loads in flight, from
 * issue until they retire or are squashed (with their value once performed), and its store
 * buffer's entries, from the store's retirement until it wrote its cache line.  The cores
 * report these as bookkeeping events (CORE_TRACE_LOAD_ISSUE ... CORE_TRACE_SB_DRAIN); each
 * record keeps the steps of the page it spans, so that the script only filters. */
#include <stdlib.h>
#include "sim/trace/trace_html_ops.h"

typedef struct {
    guint col;                   /* the thread's column on the page */
    gboolean store;              /* a store-buffer entry (else a load) */
    uint64_t seq;
    int32_t pc;
    uint64_t addr, value;
    gboolean performed;          /* a load that has its value */
    guint s0, sp, s1;            /* steps: from, performed (loads), until (G_MAXUINT: open) */
    char end;                    /* 'r' retired, 'x' squashed, 'w' written (stores), 0: open */
} HtmlOp;

struct HtmlOps {
    GArray *ops;                 /* HtmlOp */
};

HtmlOps *html_ops_new(void)
{
    HtmlOps *o = g_new0(HtmlOps, 1);
    o->ops = g_array_new(FALSE, FALSE, sizeof(HtmlOp));
    return o;
}

void html_ops_free(HtmlOps *o)
{
    if (!o)
        return;
    g_array_free(o->ops, TRUE);
    g_free(o);
}

/* The open record of (col, seq), or NULL.  Open records are few (a ROB's loads, a store
 * buffer), and the youngest are last: search from the end, stopping at the closed. */
static HtmlOp *open_op(HtmlOps *o, guint col, uint64_t seq, gboolean store)
{
    for (guint i = o->ops->len; i-- > 0;) {
        HtmlOp *op = &g_array_index(o->ops, HtmlOp, i);
        if (op->col == col && op->seq == seq && op->store == store && !op->end)
            return op;
    }
    return NULL;
}

void html_ops_event(HtmlOps *o, guint col, const CoreTraceEvent *pe, guint at)
{
    HtmlOp *op;
    switch (pe->kind) {
    case CORE_TRACE_LOAD_ISSUE:
    case CORE_TRACE_SB_COMMIT: {
        gboolean store = pe->kind == CORE_TRACE_SB_COMMIT;
        HtmlOp n = { col, store, pe->seq, pe->pc, pe->addr, pe->value, FALSE, at, G_MAXUINT, G_MAXUINT, 0 };
        g_array_append_val(o->ops, n);
        break;
    }
    case CORE_TRACE_LOAD_PERFORM:
        if (!(op = open_op(o, col, pe->seq, FALSE))) { /* forwarded from the store buffer: never issued */
            HtmlOp n = { col, FALSE, pe->seq, pe->pc, pe->addr, 0, FALSE, at, G_MAXUINT, G_MAXUINT, 0 };
            g_array_append_val(o->ops, n);
            op = &g_array_index(o->ops, HtmlOp, o->ops->len - 1);
        }
        op->performed = TRUE;
        op->value = pe->value;
        op->sp = at;
        break;
    case CORE_TRACE_RETIRE:
        if ((op = open_op(o, col, pe->seq, FALSE))) {
            op->end = 'r';
            op->s1 = at;
        }
        break;
    case CORE_TRACE_SB_DRAIN:
        if ((op = open_op(o, col, pe->seq, TRUE))) {
            op->end = 'w';
            op->s1 = at;
        }
        break;
    case CORE_TRACE_SQUASH:
        for (guint i = o->ops->len; i-- > 0;) {
            op = &g_array_index(o->ops, HtmlOp, i);
            if (op->col == col && !op->store && !op->end && op->seq >= pe->seq) {
                op->end = 'x';
                op->s1 = at;
            }
        }
        break;
    default:
        break;
    }
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void html_ops_json(JsonBuilder *b, const HtmlOps *o, const TraceContext *ctx, const GArray *lines, guint last_step)
{
    json_builder_set_member_name(b, "ops");
    json_builder_begin_array(b);
    for (guint i = 0; i < o->ops->len; i++) {
        const HtmlOp *op = &g_array_index(o->ops, HtmlOp, i);
        uint64_t line = trace_names_line_of(ctx->names, op->addr);
        if (op->s0 > last_step || !bsearch(&line, lines->data, lines->len, sizeof(uint64_t), u64_cmp))
            continue; /* after the page's last step, or on a line not traced */
        g_autofree char *var = trace_names_addr(ctx->names, op->addr);
        json_builder_begin_array(b);
        json_builder_add_int_value(b, op->col);
        json_builder_add_string_value(b, op->store ? "s" : "l");
        json_builder_add_int_value(b, op->pc);
        json_builder_add_string_value(b, var);
        if (op->performed || op->store)
            json_builder_add_int_value(b, (gint64)op->value);
        else
            json_builder_add_null_value(b);
        json_builder_add_int_value(b, op->s0);
        json_builder_add_int_value(b, op->sp == G_MAXUINT ? -1 : (gint64)op->sp);
        json_builder_add_int_value(b, op->s1 == G_MAXUINT ? -1 : (gint64)op->s1);
        char end[2] = { op->end, 0 };
        json_builder_add_string_value(b, end);
        json_builder_end_array(b);
    }
    json_builder_end_array(b);
}
