/* The fake memory system used by the core tests (see fake_memory.h). */
#include <string.h>
#include "tests/fake_memory.h"
#include "cores/isa/isa_exec.h"

typedef struct {
    guint64 holders;       /* bit per core */
    int owner;             /* core with the line in M, or -1 */
    Cycle held_until;      /* locked atomic: snoops wait until then */
    int held_by;
} FakeLine;

typedef struct {
    FakeMemory *fm;
    guint core;
    MemRequest r;
    Cycle issued;
    gboolean hit;
} Pending;

struct FakeMemory {
    Engine *e;
    const QsimConfig *cfg;
    uint64_t base, size;
    guint8 *bytes;
    FakeLine *lines;
    guint ncores;
    Cycle miss;
    PortClient client[64];
    void *core_obj[64];
    guint64 invalidations, held, reqs[3];
};

static FakeLine *line_of(FakeMemory *fm, uint64_t addr)
{
    g_assert(addr >= fm->base && addr < fm->base + fm->size);
    return &fm->lines[(addr - fm->base) / (uint64_t)fm->cfg->line_size];
}

static uint64_t line_addr(FakeMemory *fm, uint64_t addr)
{
    return addr & ~(uint64_t)(fm->cfg->line_size - 1);
}

static uint64_t rd(FakeMemory *fm, uint64_t addr, unsigned size)
{
    g_assert(addr >= fm->base && addr + size <= fm->base + fm->size);
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)fm->bytes[addr - fm->base + i] << (8 * i);
    return v;
}

static void wr(FakeMemory *fm, uint64_t addr, unsigned size, uint64_t v)
{
    g_assert(addr >= fm->base && addr + size <= fm->base + fm->size);
    for (unsigned i = 0; i < size; i++)
        fm->bytes[addr - fm->base + i] = (guint8)(v >> (8 * i));
}

static gboolean has_permission(const FakeLine *l, guint core, MemKind k)
{
    return k == MEM_LOAD ? (l->holders >> core) & 1 : l->owner == (int)core;
}

/* Takes every other core's copy away (all copies when `all`). */
static void invalidate_others(FakeMemory *fm, FakeLine *l, uint64_t addr, guint core, gboolean all)
{
    for (guint h = 0; h < fm->ncores; h++) {
        if (!((l->holders >> h) & 1) || (h == core && !all))
            continue;
        fm->invalidations++;
        fm->client[h].line_lost(fm->core_obj[h], line_addr(fm, addr), LINE_INVALIDATED);
    }
    l->holders = all ? 0 : 1ULL << core;
    l->owner = all ? -1 : (int)core;
}

static uint64_t apply_rmw(const MemRequest *r, uint64_t old, gboolean *write)
{
    *write = TRUE;
    switch (r->rmw) {
    case RMW_CAS:
        *write = old == isa_truncate(r->expected, r->size);
        return r->value;
    case RMW_XCHG: return r->value;
    case RMW_ADD: return old + r->value;
    case RMW_OR: return old | r->value;
    case RMW_AND: return old & r->value;
    }
    g_assert_not_reached();
}

static void perform(void *obj, uint64_t arg G_GNUC_UNUSED)
{
    Pending *p = obj;
    FakeMemory *fm = p->fm;
    Cycle now = engine_now(fm->e);
    const MemRequest *r = &p->r;
    FakeLine *l = line_of(fm, r->addr);
    if (l->held_until > now && l->held_by != (int)p->core) {
        fm->held++;
        engine_schedule_at(fm->e, l->held_until, perform, p, 0);
        return;
    }
    if (p->hit && !has_permission(l, p->core, r->kind)) {
        /* Lost the line while the hit was in flight: it becomes a miss. */
        p->hit = FALSE;
        engine_schedule(fm->e, fm->miss - MIN(fm->miss, (Cycle)fm->cfg->l1.latency), perform, p, 0);
        return;
    }
    MemResponse resp = { .tag = r->tag, .source = p->hit ? MEM_SRC_L1 : MEM_SRC_LLC,
                         .issued = p->issued, .done = now };
    uint64_t old = rd(fm, r->addr, r->size);
    resp.value = old;
    switch (r->kind) {
    case MEM_LOAD:
        if (l->owner >= 0 && l->owner != (int)p->core) {
            fm->client[l->owner].line_lost(fm->core_obj[l->owner], line_addr(fm, r->addr),
                                           LINE_DOWNGRADED);
            l->owner = -1;
        }
        l->holders |= 1ULL << p->core;
        break;
    case MEM_STORE:
        invalidate_others(fm, l, r->addr, p->core, FALSE);
        wr(fm, r->addr, r->size, r->value);
        break;
    case MEM_RMW: {
        /* A failing CAS still takes the line in M (x86 LOCK CMPXCHG always writes). */
        invalidate_others(fm, l, r->addr, p->core, r->far);
        gboolean write;
        uint64_t nv = apply_rmw(r, old, &write);
        if (write)
            wr(fm, r->addr, r->size, isa_truncate(nv, r->size));
        if (r->far)
            resp.source = MEM_SRC_HOME_ATOMIC;
        if (r->hold_cycles) {
            l->held_until = now + r->hold_cycles;
            l->held_by = (int)p->core;
        }
        break;
    }
    }
    guint core = p->core;
    g_free(p);
    fm->client[core].done(fm->core_obj[core], &resp);
}

static void fm_issue(void *ms, guint core, const MemRequest *r)
{
    FakeMemory *fm = ms;
    Pending *p = g_new0(Pending, 1);
    p->fm = fm;
    p->core = core;
    p->r = *r;
    p->issued = engine_now(fm->e);
    fm->reqs[r->kind]++;
    p->hit = !r->far && has_permission(line_of(fm, r->addr), core, r->kind);
    engine_schedule(fm->e, p->hit ? (Cycle)fm->cfg->l1.latency : fm->miss, perform, p, 0);
}

static void fm_attach(void *ms, guint core, const PortClient *c, void *core_obj)
{
    FakeMemory *fm = ms;
    g_assert(core < fm->ncores);
    fm->client[core] = *c;
    fm->core_obj[core] = core_obj;
}

static uint64_t fm_peek(void *ms, uint64_t addr, unsigned size) { return rd(ms, addr, size); }
static void fm_poke(void *ms, uint64_t addr, unsigned size, uint64_t v) { wr(ms, addr, size, v); }

const MemSystemOps fake_memory_ops = { fm_issue, fm_attach, fm_peek, fm_poke, NULL, NULL };

FakeMemory *fake_memory_new(Engine *e, const QsimConfig *cfg, uint64_t base, uint64_t size,
                            guint ncores, Cycle miss_latency)
{
    g_assert(ncores <= 64);
    FakeMemory *fm = g_new0(FakeMemory, 1);
    fm->e = e;
    fm->cfg = cfg;
    fm->base = base;
    fm->size = size;
    fm->bytes = g_new0(guint8, size);
    guint nlines = (guint)((size + cfg->line_size - 1) / cfg->line_size);
    fm->lines = g_new0(FakeLine, nlines);
    for (guint i = 0; i < nlines; i++)
        fm->lines[i].owner = fm->lines[i].held_by = -1;
    fm->ncores = ncores;
    fm->miss = miss_latency;
    return fm;
}

void fake_memory_free(FakeMemory *fm)
{
    if (!fm)
        return;
    g_free(fm->bytes);
    g_free(fm->lines);
    g_free(fm);
}

guint64 fake_memory_invalidations(const FakeMemory *fm) { return fm->invalidations; }
guint64 fake_memory_snoops_held(const FakeMemory *fm) { return fm->held; }
guint64 fake_memory_requests(const FakeMemory *fm, MemKind k) { return fm->reqs[k]; }

gboolean fake_memory_holds(const FakeMemory *fm, guint core, uint64_t addr)
{
    return (line_of((FakeMemory *)fm, addr)->holders >> core) & 1;
}

gboolean fake_memory_owns(const FakeMemory *fm, guint core, uint64_t addr)
{
    return line_of((FakeMemory *)fm, addr)->owner == (int)core;
}
