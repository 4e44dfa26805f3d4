/* The coherence test rig (see coh_rig.h). */
#include <check.h>
#include <string.h>
#include "tests/coh_rig.h"

char *rig_yaml(guint sockets, guint cores_per_socket, const char *protocol)
{
    return g_strdup_printf(
        "name: rig\narch: x86\nprotocol: %s\nline_size: 64\n"
        "topology:\n  sockets: %u\n  cores_per_socket: %u\n  ondie: crossbar\n"
        "  ondie_hop_cycles: 0\n  snoop_response_cycles: 20\n  socket_hop_cycles: 100\n"
        "l1:\n  size: 4KiB\n  ways: 4\n  latency: 3\n"
        "l2:\n  enabled: false\n"
        "llc:\n  size: 64KiB\n  ways: 8\n  latency: 30\n"
        "memory:\n  latency: 150\n",
        protocol, sockets, cores_per_socket);
}

typedef struct {
    CohRig *r;
    guint id;
} RigCore;

static void on_done(void *obj, const MemResponse *resp)
{
    RigCore *c = obj;
    c->r->got[c->id] = TRUE;
    c->r->last[c->id] = *resp;
}

static void on_lost(void *obj, uint64_t line G_GNUC_UNUSED, LineLossCause cause)
{
    RigCore *c = obj;
    c->r->lost[c->id][cause]++;
}

CohRig *rig_new(const char *yaml, const char *const *sets)
{
    g_autoptr(GError) error = NULL;
    CohRig *r = g_new0(CohRig, 1);
    r->cfg = config_load_string(yaml, "rig.yaml", sets, &error);
    ck_assert_msg(r->cfg != NULL, "config: %s", error ? error->message : "?");
    r->e = engine_new(1);
    r->ms = memsys_new(r->cfg, r->e, &error);
    ck_assert_msg(r->ms != NULL, "memsys: %s", error ? error->message : "?");
    r->ncores = config_total_cores(r->cfg);
    ck_assert_uint_le(r->ncores, RIG_MAX_CORES);
    RigCore *cores = g_new0(RigCore, r->ncores);
    static const PortClient client = { on_done, on_lost, NULL, NULL };
    for (guint i = 0; i < r->ncores; i++) {
        cores[i] = (RigCore){ r, i };
        memsys_attach(r->ms, i, &client, &cores[i]);
    }
    r->clients = cores;
    memsys_set_check(r->ms, TRUE);
    return r;
}

void rig_free(CohRig *r)
{
    memsys_free(r->ms);
    engine_free(r->e);
    config_free(r->cfg);
    g_free(r->clients);
    g_free(r);
}

void rig_settle(CohRig *r)
{
    while (engine_step(r->e))
        ;
}

static Cycle rig_issue(CohRig *r, guint core, const MemRequest *req)
{
    r->got[core] = FALSE;
    Cycle t0 = engine_now(r->e);
    memsys_issue(r->ms, core, req);
    ck_assert(!r->got[core]); /* never from inside issue */
    while (!r->got[core])
        ck_assert_msg(engine_step(r->e), "access on core %u never completed", core);
    ck_assert_uint_eq(r->last[core].issued, t0);
    return r->last[core].done - t0;
}

Cycle rig_do(CohRig *r, guint core, MemKind kind, uint64_t addr, uint64_t value)
{
    MemRequest q = { .kind = kind, .addr = addr, .size = 8, .value = value, .tag = addr };
    return rig_issue(r, core, &q);
}

Cycle rig_rmw(CohRig *r, guint core, RmwKind op, uint64_t addr, uint64_t value, uint64_t expected,
              gboolean far, guint32 hold)
{
    MemRequest q = { .kind = MEM_RMW, .rmw = op, .addr = addr, .size = 8, .value = value,
                     .expected = expected, .far = far, .hold_cycles = hold, .tag = addr };
    return rig_issue(r, core, &q);
}

void rig_assert_ok(CohRig *r)
{
    g_autoptr(GError) error = NULL;
    gboolean ok = memsys_check_invariants(r->ms, &error);
    ck_assert_msg(ok, "invariants: %s", error ? error->message : "?");
}

guint64 rig_scaled(guint64 n)
{
    const char *s = g_getenv("QSIM_TEST_SCALE");
    return (s && !strcmp(s, "quick")) ? MAX(n / 20, 1) : n;
}
