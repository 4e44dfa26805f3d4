/* Coherence scenarios as scripts (see coh_script.h). */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "tests/coh_script.h"

typedef enum { OP_LD, OP_ST, OP_XCHG, OP_FAR, OP_EVICT } ScriptOp;

typedef struct {
    CohRig *r;
    guint64 seq;            /* operations started: their stores' values */
    guint64 issued;         /* bit c: core c started an access this step */
} Script;

static const char *const op_names[] = { "ld", "st", "xchg", "far", "evict" };

static void script_start(void *obj, uint64_t arg)
{
    Script *s = obj;
    guint core = (guint)(arg & 0xff);
    ScriptOp op = (ScriptOp)(arg >> 8);
    s->seq++;
    if (op == OP_EVICT) {
        memsys_evict(s->r->ms, core, SCRIPT_ADDR);
        return;
    }
    MemRequest q = { .addr = SCRIPT_ADDR, .size = 8, .value = 1000 + s->seq, .tag = s->seq };
    if (op == OP_LD)
        q.kind = MEM_LOAD;
    else if (op == OP_ST)
        q.kind = MEM_STORE;
    else {
        q.kind = MEM_RMW;
        q.rmw = op == OP_FAR ? RMW_ADD : RMW_XCHG;
        q.far = op == OP_FAR;
        q.hold_cycles = op == OP_XCHG ? 15 : 0;
    }
    s->r->got[core] = FALSE;
    s->issued |= 1ull << core;
    memsys_issue(s->r->ms, core, &q);
}

/* Parses "cN.OP[@K]". */
static void parse_op(const char *text, guint *core, ScriptOp *op, guint *at)
{
    guint c = 0, k = 0;
    char name[8] = "";
    int n = 0;
    ck_assert_msg(sscanf(text, "c%u.%7[a-z]%n", &c, name, &n) == 2, "bad script operation '%s'", text);
    if (text[n] == '@')
        ck_assert_msg(sscanf(text + n + 1, "%u", &k) == 1, "bad offset in '%s'", text);
    guint i = 0;
    while (i < G_N_ELEMENTS(op_names) && strcmp(op_names[i], name))
        i++;
    ck_assert_msg(i < G_N_ELEMENTS(op_names), "unknown operation '%s'", text);
    *core = c;
    *op = (ScriptOp)i;
    *at = k;
}

void script_run(CohRig *r, const char *script)
{
    Script s = { r, 0, 0 };
    ck_assert_uint_le(r->ncores, 64);
    g_auto(GStrv) steps = g_strsplit(script, " ", -1);
    for (guint i = 0; steps[i]; i++) {
        if (!*steps[i])
            continue;
        g_auto(GStrv) ops = g_strsplit(steps[i], ",", -1);
        guint n = 0;
        s.issued = 0;
        for (guint k = 0; ops[k]; k++, n++) {
            guint core, at;
            ScriptOp op;
            parse_op(ops[k], &core, &op, &at);
            ck_assert_uint_lt(core, r->ncores);
            engine_schedule(r->e, at, script_start, &s, (uint64_t)core | ((uint64_t)op << 8));
        }
        /* the step is over when nothing is left to do: every access done, every write-back in */
        while (engine_step(r->e))
            ;
        for (guint c = 0; c < r->ncores; c++)
            ck_assert_msg(!((s.issued >> c) & 1) || r->got[c], "'%s': an access of core %u in step %u never ended",
                          script, c, i + 1);
        ck_assert_msg(n > 0, "empty step in '%s'", script);
    }
    rig_assert_ok(r);
}

guint64 script_row_fired(CohRig *r, gboolean dir, const char *row)
{
    const CohProtocol *p = memsys_protocol(r->ms);
    const CohRow *rows = dir ? p->dir : p->cache;
    guint n = dir ? p->n_dir : p->n_cache;
    const guint64 *fired = dir ? memsys_dir_rows_fired(r->ms) : memsys_cache_rows_fired(r->ms);
    for (guint i = 0; i < n; i++) {
        g_autofree char *t = coh_row_text(&rows[i], dir);
        if (!strcmp(t, row))
            return fired[i];
    }
    ck_abort_msg("%s has no %s row '%s'", p->name, dir ? "directory" : "cache", row);
    return 0;
}
