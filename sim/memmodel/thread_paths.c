/* A thread's paths (see thread_paths.h): the ISA run forward with concrete values and taint,
 * splitting at every choice.  Each op's events and dependencies follow herd's instruction
 * semantics (herdtools7 herd/AArch64Sem.ml, eventsMonad.ml, event.ml):
 *
 *   ld          R; the result depends on R and on whatever reached R (its address, and the
 *               last po-earlier write to the location: lmrs)
 *   st          W; address and data inputs
 *   xchg        R, W (amo); the write's data is the register alone (SWP)
 *   fadd/for/fand  R, W (amo); the write's data is the register and the value read (LDADD...)
 *   cas         success: R, W; Rs comes either from the Rs register (selected by the compare,
 *               a pick) or from memory, two candidates as in herd (DataFromRRs, DataFromRx);
 *               failure: R, with or without a write of the value read back (ARMv8 only);
 *               the compare's inputs select the write (iico_ctrl: pick-data, pick-basic)
 *   ldx / stx   R / W exclusive; a stx may fail, or succeed when this thread's last ldx was
 *               to its location (the pair is lxsx)
 *   fence       F of its kind (ISA_MM_ISB: ISB)
 *   br          a conditional branch: its inputs reach every later event (ctrl)
 *   and with ISA_MM_SELECT: half of a CSEL: a's dependencies pass when the mask b selects
 *               a, b's pass as a pick
 *
 * Annotations: ld.acq is A, or Q with ISA_MM_ACQ_PC; st.rel is L; an atomic's .acq/.rel go on
 * its read/write; ISA_MM_NORET marks the read NoRet. */
#include <string.h>
#include "sim/memmodel/thread_paths.h"
#include "cores/isa/isa_exec.h"
#include "sim/memmodel/insn_events.h"

#define MM_MAX_PATHS 65536

typedef struct {
    const MmProblem *p;
    guint tid;
    GArray *const *values;
    GPtrArray *out;
    guint64 *cut, *dropped;
    GError **error;
} PathCtx;

typedef struct {
    int32_t pc;
    guint instance;            /* instructions run so far */
    guint back_jumps;
    int monitor;               /* the event of the armed ldx, or -1 */
    uint64_t regs[ISA_NREG_SLOTS];
    uint64_t t[ISA_NREG_SLOTS], pt[ISA_NREG_SLOTS];
    uint64_t ctrl_t, ctrl_p;
    guint nev;
    MmPathEvent ev[MM_MAX_PATH_EVENTS];
    uint64_t reach_t[MM_MAX_PATH_EVENTS];   /* reads reaching event i through dtrm */
} PathState;

/* Event i of the path, as a member of a dependency set. */
static inline uint64_t path_bit(guint i) { return (uint64_t)1 << i; }

void mm_path_free(MmPath *p)
{
    if (!p)
        return;
    g_free(p->ev);
    g_free(p);
}

static const IsaInsn *insn_at(const PathCtx *c, int32_t pc)
{
    const GArray *insns = c->p->prog->insns;
    return pc >= 0 && (guint)pc < insns->len ? &g_array_index(insns, IsaInsn, pc) : NULL;
}

static gboolean unsupported(const PathCtx *c, const IsaInsn *in, const char *why)
{
    g_autofree char *pos = isa_insn_pos(c->p->prog, in);
    g_set_error(c->error, MM_ERROR, MM_ERROR_UNSUPPORTED, "%s: %s: %s", pos, isa_op_info[in->op].name, why);
    return FALSE;
}

/* A source operand's value, and the reads reaching it through data (t) and at all (p). */
static uint64_t src_value(const PathState *s, IsaSrc a) { return isa_src(&a, s->regs); }
static uint64_t src_t(const PathState *s, IsaSrc a) { return a.reg == ISA_NO_REG ? 0 : s->t[a.reg]; }
static uint64_t src_p(const PathState *s, IsaSrc a) { return a.reg == ISA_NO_REG ? 0 : s->pt[a.reg]; }

static void set_reg(PathState *s, int rd, uint64_t v, uint64_t t, uint64_t pt)
{
    if (rd < 0 || rd >= ISA_NREGS)
        return;
    s->regs[rd] = v;
    s->t[rd] = t;
    s->pt[rd] = pt;
}

/* The location an instruction's memory operand names, or -1. */
static int location_of(const PathCtx *c, const PathState *s, const IsaInsn *in)
{
    uint64_t a = isa_address(&in->mem, c->p->layout, c->tid, s->regs);
    for (guint l = 0; l < c->p->nlocs; l++)
        if (c->p->locs[l].addr == a)
            return (int)l;
    return -1;
}

/* Appends an event at the current instruction: its index, or -1 (error set). */
static int add_event(const PathCtx *c, PathState *s, const IsaInsn *in, MmKind kind, int loc, uint64_t value,
                     guint32 flags)
{
    if (s->nev >= MM_MAX_PATH_EVENTS) {
        g_set_error(c->error, MM_ERROR, MM_ERROR_TOO_BIG, "thread %u has more than %d memory events", c->tid,
                    MM_MAX_PATH_EVENTS);
        return -1;
    }
    MmPathEvent *e = &s->ev[s->nev];
    memset(e, 0, sizeof *e);
    e->ev.kind = kind;
    e->ev.thread = (int)c->tid;
    e->ev.instance = s->instance;
    e->ev.loc = loc;
    e->ev.value = kind == MM_FENCE ? 0 : isa_truncate(value, in->size);
    e->ev.size = in->size;
    e->ev.flags = flags;
    e->ev.pc = s->pc;
    e->ctrl_t = s->ctrl_t;
    e->ctrl_p = s->ctrl_p;
    e->pair = -1;
    if (kind != MM_FENCE && in->mem.base != ISA_NO_REG) {
        e->addr_t = s->t[in->mem.base];
        e->addr_p = s->pt[in->mem.base];
    }
    s->reach_t[s->nev] = e->addr_t;
    e->reach_p = e->addr_p;
    return (int)s->nev++;
}

/* A read: it is reached by what reaches the last po-earlier write to its location (lmrs). */
static int read_event(const PathCtx *c, PathState *s, const IsaInsn *in, int loc, uint64_t v, guint32 flags)
{
    int r = add_event(c, s, in, MM_READ, loc, v, flags);
    if (r < 0)
        return -1;
    for (int w = r - 1; w >= 0; w--) {
        const MmPathEvent *e = &s->ev[w];
        if (e->ev.kind == MM_WRITE && e->ev.loc == loc && e->ev.instance != s->instance) {
            s->reach_t[r] |= s->reach_t[w];
            s->ev[r].reach_p |= e->reach_p;
            break;
        }
    }
    return r;
}

/* A write with data inputs (t, p) and what else reaches it (through data: rt, rp). */
static int write_event(const PathCtx *c, PathState *s, const IsaInsn *in, int loc, uint64_t v, guint32 flags,
                       uint64_t data_t, uint64_t data_p, uint64_t rt, uint64_t rp)
{
    int w = add_event(c, s, in, MM_WRITE, loc, v, flags);
    if (w < 0)
        return -1;
    MmPathEvent *e = &s->ev[w];
    e->data_t = data_t;
    e->data_p = data_p;
    s->reach_t[w] |= data_t | rt;
    e->reach_p |= data_p | rp;
    return w;
}

static void pair(PathState *s, int r, int w, gboolean amo)
{
    s->ev[r].pair = w;
    s->ev[w].pair = r;
    s->ev[r].amo = s->ev[w].amo = amo;
}

static gboolean run(const PathCtx *c, PathState *s);

/* Continues a copy of s after the current instruction. */
static gboolean next(const PathCtx *c, PathState *s)
{
    s->pc++;
    s->instance++;
    return run(c, s);
}

/* The values a read of `loc` at `size` bytes may return, each once. */
static GArray *read_values(const PathCtx *c, int loc, guint size)
{
    const GArray *vs = c->values[loc];
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    for (guint i = 0; i < vs->len; i++) {
        uint64_t v = isa_truncate(g_array_index(vs, uint64_t, i), size);
        gboolean seen = FALSE;
        for (guint k = 0; k < out->len && !seen; k++)
            seen = g_array_index(out, uint64_t, k) == v;
        if (!seen)
            g_array_append_val(out, v);
    }
    return out;
}

static gboolean exec_load(const PathCtx *c, const PathState *s, const IsaInsn *in, int loc)
{
    g_autoptr(GArray) vs = read_values(c, loc, in->size);
    for (guint i = 0; i < vs->len; i++) {
        uint64_t v = g_array_index(vs, uint64_t, i);
        PathState n = *s;
        int r = read_event(c, &n, in, loc, v, mm_insn_read_flags(in));
        if (r < 0)
            return FALSE;
        if (in->op == OP_LDX)
            n.monitor = r;
        set_reg(&n, in->rd, v, path_bit((guint)r) | n.reach_t[r], path_bit((guint)r) | n.ev[r].reach_p);
        if (!next(c, &n))
            return FALSE;
    }
    return TRUE;
}

static gboolean exec_store(const PathCtx *c, PathState *s, const IsaInsn *in, int loc)
{
    if (write_event(c, s, in, loc, src_value(s, in->a), mm_insn_write_flags(in), src_t(s, in->a), src_p(s, in->a), 0, 0) < 0)
        return FALSE;
    return next(c, s);
}

/* xchg, fadd, for, fand: R then W; rd := the value read. */
static gboolean exec_amo(const PathCtx *c, const PathState *s, const IsaInsn *in, int loc)
{
    g_autoptr(GArray) vs = read_values(c, loc, in->size);
    uint64_t a = src_value(s, in->a), at = src_t(s, in->a), ap = src_p(s, in->a);
    for (guint i = 0; i < vs->len; i++) {
        uint64_t old = g_array_index(vs, uint64_t, i), nv;
        PathState n = *s;
        int r = read_event(c, &n, in, loc, old, mm_insn_read_flags(in));
        if (r < 0)
            return FALSE;
        uint64_t rt = path_bit((guint)r) | n.reach_t[r], rp = path_bit((guint)r) | n.ev[r].reach_p;
        isa_rmw(in->op, old, a, 0, &nv);
        /* SWP's write takes the register only; LDADD's computes from the value read too */
        gboolean from_mem = in->op != OP_XCHG;
        int w = write_event(c, &n, in, loc, nv, mm_insn_write_flags(in), at, ap, from_mem ? rt : 0, from_mem ? rp : 0);
        if (w < 0)
            return FALSE;
        pair(&n, r, w, TRUE);
        set_reg(&n, in->rd, old, rt, rp);
        if (!next(c, &n))
            return FALSE;
    }
    return TRUE;
}

/* How a CAS ends: herd's candidates for each outcome. */
typedef enum { CAS_OK_FROM_RS, CAS_OK_FROM_MEM, CAS_FAIL, CAS_FAIL_WRITEBACK } CasMode;

static gboolean exec_cas_mode(const PathCtx *c, const PathState *s, const IsaInsn *in, int loc, uint64_t old,
                              CasMode mode)
{
    PathState n = *s;
    int r = read_event(c, &n, in, loc, old, mm_insn_read_flags(in));
    if (r < 0)
        return FALSE;
    uint64_t rt = path_bit((guint)r) | n.reach_t[r], rp = path_bit((guint)r) | n.ev[r].reach_p;
    /* the compare reads Rs and the value read; it selects the write and (from Rs) the result */
    uint64_t br_p = src_p(&n, in->a) | rp;
    int w = -1;
    if (mode == CAS_OK_FROM_RS || mode == CAS_OK_FROM_MEM)
        w = write_event(c, &n, in, loc, src_value(&n, in->b), mm_insn_write_flags(in), src_t(&n, in->b),
                        src_p(&n, in->b) | src_p(&n, in->a), 0, br_p);
    else if (mode == CAS_FAIL_WRITEBACK)
        w = write_event(c, &n, in, loc, old, mm_insn_write_flags(in), 0, src_p(&n, in->a), rt, rp | br_p);
    if (mode != CAS_FAIL && w < 0)
        return FALSE;
    if (w >= 0)
        pair(&n, r, w, TRUE);
    if (mode == CAS_OK_FROM_RS)
        set_reg(&n, in->rd, old, src_t(&n, in->a), src_p(&n, in->a) | br_p);
    else
        set_reg(&n, in->rd, old, rt, rp);
    return next(c, &n);
}

static gboolean exec_cas(const PathCtx *c, const PathState *s, const IsaInsn *in, int loc)
{
    g_autoptr(GArray) vs = read_values(c, loc, in->size);
    gboolean arm = c->p->arch == ARCH_ARM64;
    uint64_t expect = isa_truncate(src_value(s, in->a), in->size);
    for (guint i = 0; i < vs->len; i++) {
        uint64_t old = g_array_index(vs, uint64_t, i);
        gboolean ok = old == expect;
        CasMode first = ok ? CAS_OK_FROM_MEM : CAS_FAIL;
        if (!exec_cas_mode(c, s, in, loc, old, first))
            return FALSE;
        if (arm && !exec_cas_mode(c, s, in, loc, old, ok ? CAS_OK_FROM_RS : CAS_FAIL_WRITEBACK))
            return FALSE;
    }
    return TRUE;
}

/* stx: may always fail; succeeds only paired with this thread's armed ldx of the location. */
static gboolean exec_stx(const PathCtx *c, const PathState *s, const IsaInsn *in, int loc)
{
    PathState n = *s;
    n.monitor = -1;
    set_reg(&n, in->rd, 1, 0, 0);
    if (!next(c, &n))
        return FALSE;
    if (s->monitor < 0 || s->ev[s->monitor].ev.loc != loc)
        return TRUE;
    n = *s;
    n.monitor = -1;
    int w = write_event(c, &n, in, loc, src_value(&n, in->a), mm_insn_write_flags(in), src_t(&n, in->a), src_p(&n, in->a), 0, 0);
    if (w < 0)
        return FALSE;
    pair(&n, s->monitor, w, FALSE);
    set_reg(&n, in->rd, 0, 0, 0);
    return next(c, &n);
}

static gboolean exec_memory(const PathCtx *c, PathState *s, const IsaInsn *in)
{
    int loc = location_of(c, s, in);
    if (loc < 0) {
        (*c->dropped)++;
        return TRUE;
    }
    switch (in->op) {
    case OP_LD:
    case OP_LDX: return exec_load(c, s, in, loc);
    case OP_ST: return exec_store(c, s, in, loc);
    case OP_STX: return exec_stx(c, s, in, loc);
    case OP_CAS: return exec_cas(c, s, in, loc);
    default: return exec_amo(c, s, in, loc);
    }
}

/* rd := a OP b; a CSEL's masking AND passes a's data only when it selects it. */
static void exec_alu(PathState *s, const IsaInsn *in)
{
    uint64_t a = src_value(s, in->a), b = src_value(s, in->b);
    uint64_t t = src_t(s, in->a) | src_t(s, in->b), pt = src_p(s, in->a) | src_p(s, in->b);
    if (in->op == OP_AND && (in->mm & ISA_MM_SELECT)) {
        t = b ? src_t(s, in->a) : 0;
        pt = b ? pt : src_p(s, in->b);
    }
    set_reg(s, in->rd, isa_alu(in->op, a, b), t, pt);
}

/* A jump to `target`: FALSE when it is backward and the thread has used up its bound. */
static gboolean jump(const PathCtx *c, PathState *s, int32_t target)
{
    if (target <= s->pc && ++s->back_jumps > c->p->unroll) {
        (*c->cut)++;
        return FALSE;
    }
    s->pc = target;
    s->instance++;
    return TRUE;
}

static gboolean finish(const PathCtx *c, const PathState *s)
{
    if (c->out->len >= MM_MAX_PATHS) {
        g_set_error(c->error, MM_ERROR, MM_ERROR_TOO_BIG, "thread %u has more than %d paths", c->tid, MM_MAX_PATHS);
        return FALSE;
    }
    MmPath *path = g_new0(MmPath, 1);
    path->nev = s->nev;
    path->ev = g_memdup2(s->ev, sizeof(MmPathEvent) * s->nev);
    memcpy(path->regs, s->regs, sizeof path->regs);
    g_ptr_array_add(c->out, path);
    return TRUE;
}

/* Runs s to its halt (or to a choice, which runs each alternative on a copy). */
static gboolean run(const PathCtx *c, PathState *s)
{
    for (;;) {
        const IsaInsn *in = insn_at(c, s->pc);
        if (!in) {
            g_set_error(c->error, MM_ERROR, MM_ERROR_UNSUPPORTED, "thread %u ran off the program at pc %d", c->tid,
                        s->pc);
            return FALSE;
        }
        const IsaOpInfo *info = &isa_op_info[in->op];
        if ((info->is_load || info->is_store) && !info->is_syscall)
            return exec_memory(c, s, in);
        switch (in->op) {
        case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR:
        case OP_XOR: case OP_SHL: case OP_SHR: case OP_MUL:
        case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ: case OP_SNE:
        case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
            exec_alu(s, in);
            break;
        case OP_LA: {
            guint copy = in->rt == ISA_NO_REG ? c->tid : (guint)s->regs[in->rt];
            if (copy >= c->p->nthreads)
                return unsupported(c, in, "a thread copy that does not exist");
            set_reg(s, in->rd, isa_sym_addr(c->p->layout, (guint)in->target, copy), 0, 0);
            break;
        }
        case OP_FENCE:
            if (add_event(c, s, in, MM_FENCE, -1, 0, 0) < 0)
                return FALSE;
            s->ev[s->nev - 1].ev.fence = mm_insn_fence_kind(in);
            break;
        case OP_NOP: case OP_PAUSE: case OP_WORK: case OP_MARK:
            break;
        case OP_BR: {
            s->ctrl_t |= src_t(s, in->a) | src_t(s, in->b);
            s->ctrl_p |= src_p(s, in->a) | src_p(s, in->b);
            if (isa_cond(in->cond, src_value(s, in->a), src_value(s, in->b))) {
                if (!jump(c, s, in->target))
                    return TRUE;
                continue;
            }
            break;
        }
        case OP_JMP:
            if (!jump(c, s, in->target))
                return TRUE;
            continue;
        case OP_HALT:
            return finish(c, s);
        default:
            return unsupported(c, in, "not supported by the exhaustive models (litmus code uses none)");
        }
        s->pc++;
        s->instance++;
    }
}

gboolean mm_thread_paths(const MmProblem *p, guint tid, GArray *const *values, GPtrArray *out, guint64 *cut,
                         guint64 *dropped, GError **error)
{
    int entry = isa_program_find_entry(p->prog, "main");
    if (entry < 0) {
        g_set_error(error, MM_ERROR, MM_ERROR_UNSUPPORTED, "%s: no entry point main", p->prog->filename);
        return FALSE;
    }
    PathCtx c = { p, tid, values, out, cut, dropped, error };
    PathState *s = g_new0(PathState, 1);
    s->pc = g_array_index(p->prog->entries, IsaEntry, entry).pc;
    s->monitor = -1;
    s->regs[ISA_REG_TID] = tid;
    s->regs[ISA_REG_NTHREADS] = p->nthreads;
    gboolean ok = run(&c, s);
    g_free(s);
    return ok;
}
