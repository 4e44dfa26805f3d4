/* Fuzz target: a well-formed program generated from the op table (its names and operand
 * signatures, cores/isa/isa_ops.c), the input bytes choosing every op and operand, assembled for
 * x86 (teaching) or arm64 (neoverse-n1), then run single-threaded on the reference interpreter
 * and on the timing model.  One thread alone is deterministic on both, so they must agree
 * exactly: the same ending (halted, faulted at the same op for the same reason, or stuck in a
 * futex_wait nobody wakes), the same registers, and once halted the same memory.
 *
 * Control flow only goes forward (branches and jumps to later labels, calls into subroutines
 * placed after `halt`, which return), so every program ends; memory operands are mostly good
 * ([var+k], [var+reg] with a small reg, through registers la set) and sometimes not (an arbitrary
 * register as the address), so faults are compared too. */
#include <string.h>
#include "tests/fuzz/fuzz.h"
#include "coherence/memsys.h"
#include "cores/isa/asm.h"
#include "cores/isa/interp.h"
#include "cores/isa/isa_fault.h"
#include "sim/machine/machine.h"

#define MAIN_OPS 48
#define SUBS 2
#define SUB_OPS 6
#define CYCLE_LIMIT 5000000
#define STEP_LIMIT 100000
/* r0..r7 take results; r8 and r9 hold the addresses la gave them at the start, never written
 * again, so [r8+k] and [r9+k] stay good accesses. */
#define DEST_REGS 8


/* The variables: name, bytes. */
static const struct {
    const char *name;
    unsigned size;
} vars[] = { { "v0", 8 }, { "v1", 16 }, { "v2", 4 }, { "t0", 8 } };

static const char *const decls =
    ".shared v0 8 own_line init 5\n"
    ".shared v1 16 own_line init -1\n"
    ".shared v2 4 with v1\n"
    ".thread t0 8 own_line init 3\n";

static const int64_t imms[] = { 0, 1, 2, 3, -1, 7, 63, 64, 255, 0x7fffffff, -0x80000000LL, 0x10000 };

static gboolean fits(int64_t v, unsigned size)
{
    return size >= 8 || (v >= -((int64_t)1 << (8 * size - 1)) && v < ((int64_t)1 << (8 * size)));
}

static void put_src(FuzzBytes *in, GString *g, IsaOp op, unsigned size, gboolean second)
{
    static const char *const regs[] = { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "tid", "nthreads" };
    if (fuzz_pick(in, 3) == 0) {
        g_string_append(g, regs[fuzz_pick(in, G_N_ELEMENTS(regs))]);
        return;
    }
    int64_t v = imms[fuzz_pick(in, G_N_ELEMENTS(imms))];
    if ((op == OP_SHL || op == OP_SHR || op == OP_SAR) && second)
        v &= 63;
    if (op == OP_SEXT && second)
        v = 1 + (v & 63);   /* a width, 1..64 bits */
    if (!fits(v, size))
        v = 1;
    g_string_append_printf(g, "%" G_GINT64_FORMAT, v);
}

/* A memory operand for a `size`-byte access. */
static void put_mem(FuzzBytes *in, GString *g, unsigned size)
{
    guint var = fuzz_pick(in, G_N_ELEMENTS(vars));
    if (vars[var].size < size)
        var = 1; /* v1 holds any access */
    guint off = fuzz_pick(in, vars[var].size / size) * size;
    switch (fuzz_pick(in, 8)) {
    case 0:
        /* an arbitrary register as the address: mostly a fault */
        g_string_append_printf(g, "[r%u]", fuzz_pick(in, DEST_REGS));
        break;
    case 1:
        g_string_append_printf(g, "[r8+%u]", off % 8); /* v0, 8 bytes */
        break;
    case 2:
        g_string_append_printf(g, "[r9+%u]", fuzz_pick(in, 16 / size) * size); /* v1, 16 bytes */
        break;
    case 3:
        /* an index register: good while it holds a small multiple of the size */
        g_string_append_printf(g, "[%s+r%u]", vars[var].name, fuzz_pick(in, DEST_REGS));
        break;
    default:
        g_string_append_printf(g, "[%s+%u]", vars[var].name, off);
        break;
    }
}

/* The suffix of a memory op or fence (the kinds the assembler takes for it). */
static const char *suffix(FuzzBytes *in, IsaOp op)
{
    static const char *const loads[] = { "", ".acq" }, *const stores[] = { "", ".rel" },
                      *const rmws[] = { "", ".acq", ".rel", ".acqrel" }, *const fences[] = { "", ".full", ".load", ".store" };
    if (op == OP_FENCE)
        return fences[fuzz_pick(in, 4)];
    if (op == OP_LD || op == OP_LDX)
        return loads[fuzz_pick(in, 2)];
    if (op == OP_ST || op == OP_STX)
        return stores[fuzz_pick(in, 2)];
    return isa_op_is_rmw(op) ? rmws[fuzz_pick(in, 4)] : "";
}

/* `ldx` and `stx` only as a pair on one address and size, nothing between: where they differ,
 * or a store comes between, the interpreter (line granularity, own stores keep the monitor) and
 * the model (stx as a compare-and-swap on the ldx's address and value) disagree, and arm64
 * calls those cases implementation defined (the ISA does not yet say which it means). */
static gboolean put_exclusive_pair(FuzzBytes *in, GString *g)
{
    static const char *const sizes[] = { "8", "16", "32", "" };
    guint k = fuzz_pick(in, 4);
    GString *mem = g_string_new(NULL);
    put_mem(in, mem, 1u << k);
    guint rd = fuzz_pick(in, DEST_REGS);
    for (char r[4]; g_snprintf(r, sizeof r, "r%u", rd), strstr(mem->str, r);)
        rd = (rd + 1) % DEST_REGS; /* the ldx must not move the address its stx uses */
    g_string_append_printf(g, "    ldx%s%s r%u, %s\n", sizes[k], suffix(in, OP_LDX), rd, mem->str);
    g_string_append_printf(g, "    stx%s%s r%u, %s, ", sizes[k], suffix(in, OP_STX), fuzz_pick(in, DEST_REGS), mem->str);
    put_src(in, g, OP_STX, 1u << k, FALSE);
    g_string_append_c(g, '\n');
    g_string_free(mem, TRUE);
    return TRUE;
}

static const char *const cond_ops[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };

/* One op at position `at` of a block whose labels are PREFIX0..PREFIXlast: its text by the op
 * table's signature.  FALSE when the op cannot go here (the caller picks again). */
static gboolean put_op(FuzzBytes *in, GString *g, Arch arch, IsaOp op, const char *prefix, guint at, guint last,
                       gboolean in_sub)
{
    const IsaOpInfo *info = &isa_op_info[op];
    if (!isa_op_on_arch(op, arch) || (op == OP_RET && !in_sub) || (op == OP_CALL && in_sub))
        return FALSE;
    gboolean sized = (info->is_load || info->is_store) && !info->is_syscall;
    unsigned size = info->is_syscall ? 4 : sized ? 1u << fuzz_pick(in, 4) : 8;
    if (op == OP_WFE)
        g_string_append(g, "    sevl\n"); /* alone it would sleep for good */
    if (op == OP_LDX || op == OP_STX)
        return put_exclusive_pair(in, g);
    g_string_append(g, "    ");
    if (op == OP_BR)
        g_string_append(g, cond_ops[fuzz_pick(in, G_N_ELEMENTS(cond_ops))]);
    else
        g_string_append(g, info->name);
    if (sized && size != 8)
        g_string_append_printf(g, "%u", size * 8);
    g_string_append(g, suffix(in, op));
    guint nsrc = 0;
    for (const char *k = info->operands; *k; k++) {
        if (*k == 'R' && fuzz_pick(in, 3))
            continue;
        g_string_append(g, k == info->operands ? " " : ", ");
        switch (*k) {
        case 'D': g_string_append_printf(g, "r%u", fuzz_pick(in, DEST_REGS)); break;
        case 'S': put_src(in, g, op, sized || info->is_syscall ? size : 8, nsrc++ == 1); break;
        case 'M': put_mem(in, g, size); break;
        case 'Y': g_string_append(g, vars[fuzz_pick(in, G_N_ELEMENTS(vars))].name); break;
        case 'R': g_string_append(g, fuzz_pick(in, 2) ? "tid" : "r0"); break;
        case 'N': g_string_append_printf(g, "%u", op == OP_WORK ? fuzz_pick(in, 20) : fuzz_pick(in, 4)); break;
        case 'L':
            if (op == OP_CALL)
                g_string_append_printf(g, "sub%u", fuzz_pick(in, SUBS));
            else
                g_string_append_printf(g, "%s%u", prefix, at + 1 + fuzz_pick(in, last - at));
            break;
        }
    }
    g_string_append_c(g, '\n');
    return TRUE;
}

/* A block of `n` ops, each labelled PREFIXi, then PREFIXn: and `end`. */
static void put_block(FuzzBytes *in, GString *g, Arch arch, const char *prefix, guint n, gboolean in_sub, const char *end)
{
    for (guint i = 0; i < n; i++) {
        g_string_append_printf(g, "%s%u:\n", prefix, i);
        while (!put_op(in, g, arch, (IsaOp)fuzz_pick(in, OP__COUNT), prefix, i, n, in_sub))
            ;
    }
    g_string_append_printf(g, "%s%u:\n    %s\n", prefix, n, end);
}

static char *generate(FuzzBytes *in, Arch arch)
{
    GString *g = g_string_new(decls);
    g_string_append(g, ".entry main\nmain:\n    la r8, v0\n    la r9, v1\n");
    put_block(in, g, arch, "m", 1 + fuzz_pick(in, MAIN_OPS), FALSE, "halt");
    for (guint s = 0; s < SUBS; s++) {
        g_string_append_printf(g, "sub%u:\n", s);
        g_autofree char *prefix = g_strdup_printf("s%u_", s);
        put_block(in, g, arch, prefix, fuzz_pick(in, SUB_OPS + 1), TRUE, "ret");
    }
    return g_string_free(g, FALSE);
}

/* How a run ended, in the terms both back ends share. */
typedef enum { END_HALTED, END_FAULT, END_STUCK, END_OTHER } Ending;

typedef struct {
    Ending end;
    int32_t pc;                 /* END_FAULT: the op that faulted */
    char *why;                  /* END_FAULT: isa_fault_describe's words */
    uint64_t regs[ISA_NREGS];
    GByteArray *mem;            /* the program's memory, END_HALTED only */
} Final;

static void final_clear(Final *f)
{
    g_free(f->why);
    if (f->mem)
        g_byte_array_unref(f->mem);
}

static void run_interp(const IsaProgram *p, uint32_t line_size, Final *f)
{
    InterpOptions o = { .threads = 1, .seed = 1, .max_steps = STEP_LIMIT, .line_size = line_size };
    g_autoptr(GError) error = NULL;
    g_autoptr(Interp) in = interp_new(p, &o, &error);
    FUZZ_ASSERT(in, "%s", error->message);
    InterpOutcome out = interp_run(in);
    const InterpThread *th = interp_thread(in, 0);
    f->end = out == INTERP_FINISHED ? END_HALTED : out == INTERP_FAULT ? END_FAULT
             : out == INTERP_DEADLOCK && th->state == THREAD_FUTEX ? END_STUCK : END_OTHER;
    FUZZ_ASSERT(f->end != END_OTHER, "the interpreter ended as %s", interp_outcome_name(out));
    f->pc = th->pc;
    f->why = g_strdup(th->fault);
    memcpy(f->regs, th->regs, sizeof f->regs);
    if (f->end != END_HALTED)
        return;
    const IsaLayout *l = interp_layout(in);
    f->mem = g_byte_array_new();
    for (uint64_t a = l->base; a < l->base + l->size; a++) {
        uint64_t v;
        FUZZ_ASSERT(interp_read(in, a, 1, &v), "0x%" G_GINT64_MODIFIER "x", a);
        guint8 b = (guint8)v;
        g_byte_array_append(f->mem, &b, 1);
    }
}

static void run_model(const QsimConfig *cfg, const IsaProgram *p, Final *f)
{
    IsaLayout *l = isa_layout_new(p, 1, (uint32_t)cfg->line_size, INTERP_BASE);
    Engine *e = engine_new(1);
    g_autoptr(GError) error = NULL;
    MemSys *ms = memsys_new(cfg, e, &error);
    FUZZ_ASSERT(ms, "%s", error->message);
    memsys_set_check(ms, TRUE);
    Machine *m = machine_new(cfg, e, &machine_memsys_ops, ms, p, l, 1, NULL, &error);
    FUZZ_ASSERT(m, "%s", error->message);
    MachineOutcome out = machine_run(m, CYCLE_LIMIT);
    FUZZ_ASSERT(memsys_check_invariants(ms, &error), "%s", error->message);
    const Core *c = machine_core(m, 0);
    const CoreFault *cf = core_fault(c);
    f->end = out == MACHINE_DONE ? END_HALTED : out == MACHINE_FAULT ? END_FAULT
             : out == MACHINE_STALLED ? END_STUCK : END_OTHER;
    FUZZ_ASSERT(f->end != END_OTHER, "the model ended with outcome %d: %s", out, machine_stall_report(m));
    if (cf) {
        f->pc = cf->pc;
        f->why = isa_fault_describe(p, l, cf->kind, cf->addr, cf->size);
    }
    for (guint r = 0; r < ISA_NREGS; r++)
        f->regs[r] = core_reg(c, r);
    if (f->end == END_HALTED) {
        f->mem = g_byte_array_new();
        for (uint64_t a = l->base; a < l->base + l->size; a++) {
            guint8 b = (guint8)memsys_peek(ms, a, 1);
            g_byte_array_append(f->mem, &b, 1);
        }
    }
    machine_free(m);
    memsys_free(ms);
    engine_free(e);
    isa_layout_free(l);
}

static const char *const end_names[] = { "halted", "faulted", "stuck in futex_wait", "other" };

static void compare(const char *text, const Final *a, const Final *b)
{
    FUZZ_ASSERT(a->end == b->end, "interpreter %s (@%d %s), model %s (@%d %s)\n%s", end_names[a->end], a->pc,
                a->why ? a->why : "", end_names[b->end], b->pc, b->why ? b->why : "", text);
    if (a->end == END_STUCK)
        return; /* the interpreter has already set futex_wait's result for its waking; the model not */
    if (a->end == END_FAULT)
        FUZZ_ASSERT(a->pc == b->pc && !g_strcmp0(a->why, b->why), "interpreter faults at @%d: %s; model at @%d: %s\n%s",
                    a->pc, a->why, b->pc, b->why, text);
    for (guint r = 0; r < ISA_NREGS; r++)
        FUZZ_ASSERT(a->regs[r] == b->regs[r], "r%u: interpreter 0x%" G_GINT64_MODIFIER "x, model 0x%"
                    G_GINT64_MODIFIER "x (%s)\n%s", r, a->regs[r], b->regs[r], end_names[a->end], text);
    if (a->end != END_HALTED)
        return;
    FUZZ_ASSERT(a->mem->len == b->mem->len, "memory sizes %u, %u", a->mem->len, b->mem->len);
    for (guint i = 0; i < a->mem->len; i++)
        FUZZ_ASSERT(a->mem->data[i] == b->mem->data[i], "memory byte at 0x%x: interpreter 0x%02x, model 0x%02x\n%s",
                    INTERP_BASE + i, a->mem->data[i], b->mem->data[i], text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QsimConfig *configs[2];
    if (!configs[0]) {
        static const char *const names[] = { "teaching", "neoverse-n1" };
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
            g_autoptr(GError) error = NULL;
            configs[i] = config_load(names[i], NULL, &error);
            FUZZ_ASSERT(configs[i], "%s", error->message);
        }
    }
    FuzzBytes in = { data, size };
    const QsimConfig *cfg = configs[fuzz_pick(&in, G_N_ELEMENTS(configs))];
    g_autofree char *text = generate(&in, cfg->arch);
    AsmSource src = { "program.qs", text, TRUE };
    g_autoptr(GError) error = NULL;
    g_autoptr(IsaProgram) p = asm_assemble_sources(&src, 1, asm_target_for_config(cfg), &error);
    /* The generator writes only what the op table and the assembler's rules allow. */
    FUZZ_ASSERT(p, "%s\n%s", error->message, text);
    Final a = { 0 }, b = { 0 };
    run_interp(p, (uint32_t)cfg->line_size, &a);
    run_model(cfg, p, &b);
    compare(text, &a, &b);
    final_clear(&a);
    final_clear(&b);
    return 0;
}
