/* The native translator: IsaProgram -> C (see native_c.h for the mapping). */
#include <inttypes.h>
#include <string.h>
#include "cores/isa/asm.h"
#include "cores/isa/isa_exec.h"
#include "cores/isa/isa_fault.h"
#include "locks/native/native_abi.h"
#include "locks/native/native_host.h"
#include "locks/native/native_c.h"

/* ------------------------------------------------------------------------------------------ */
/* Names and operands                                                                         */
/* ------------------------------------------------------------------------------------------ */

char *native_c_ident(const char *name)
{
    char *s = g_strdup(name && *name ? name : "_");
    for (char *c = s; *c; c++)
        if (!g_ascii_isalnum(*c) && *c != '_')
            *c = '_';
    return s;
}

char *native_lock_name_from_path(const char *path)
{
    char *base = g_path_get_basename(path ? path : "program");
    if (g_str_has_suffix(base, ".qs"))
        base[strlen(base) - 3] = '\0';
    return base;
}

typedef struct {
    const IsaProgram *p;
    Arch arch;
    const char *file;       /* the program's name, for messages about it as a whole */
    GString *out;
    gboolean calls;         /* the program has `call`: entries keep a return stack */
} Tr;

static const IsaInsn *insn_at(const IsaProgram *p, guint pc)
{
    return &g_array_index(p->insns, IsaInsn, pc);
}

static gboolean fail_at(Tr *tr, const IsaInsn *in, GError **error, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);
static gboolean fail_at(Tr *tr, const IsaInsn *in, GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_autofree char *pos = asm_format_pos(tr->p, in);
    g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_UNSUPPORTED, "%s: %s", pos, msg);
    return FALSE;
}

/* A register as a C expression: r0..r63 are locals, tid and nthreads constants. */
static const char *reg_name(int r)
{
    static const char *const names[ISA_NREG_SLOTS] = {
        "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13",
        "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26",
        "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39",
        "r40", "r41", "r42", "r43", "r44", "r45", "r46", "r47", "r48", "r49", "r50", "r51", "r52",
        "r53", "r54", "r55", "r56", "r57", "r58", "r59", "r60", "r61", "r62", "r63", "TID", "NT",
    };
    g_assert(r >= 0 && r < ISA_NREG_SLOTS);
    return names[r];
}

static char *imm_text(int64_t v)
{
    /* Negative immediates are written as the complement so that INT64_MIN needs no care. */
    if (v >= 0)
        return g_strdup_printf("UINT64_C(%" PRId64 ")", v);
    return g_strdup_printf("~UINT64_C(%" PRIu64 ")", ~(uint64_t)v);
}

static char *src_text(const IsaSrc *s)
{
    return s->reg == ISA_NO_REG ? imm_text(s->imm) : g_strdup(reg_name(s->reg));
}

/* The address of a memory operand, as a uint64_t expression. */
static char *addr_text(const IsaMem *m)
{
    GString *g = g_string_new(NULL);
    if (m->sym >= 0)
        g_string_append_printf(g, "M[%d]", m->sym);
    if (m->base != ISA_NO_REG)
        g_string_append_printf(g, "%s%s", g->len ? " + " : "", reg_name(m->base));
    if (m->offset || !g->len) {
        g_autofree char *off = imm_text(m->offset);
        g_string_append_printf(g, "%s%s", g->len ? " + " : "", off);
    }
    return g_string_free(g, FALSE);
}

static const char *ctype(unsigned size)
{
    switch (size) {
    case 1: return "uint8_t";
    case 2: return "uint16_t";
    case 4: return "uint32_t";
    default: return "uint64_t";
    }
}

/* The __atomic ordering of an op: the ISA's on arm64; on x86 every atomic read-modify-write is
 * LOCK-prefixed, a full barrier, so it is SEQ_CST (plain loads and stores keep their ordering,
 * which compiles to plain MOVs there anyway). */
static const char *order_text(const Tr *tr, const IsaInsn *in)
{
    if (tr->arch == ARCH_X86 && isa_op_info[in->op].is_atomic)
        return "__ATOMIC_SEQ_CST";
    switch (in->order) {
    case ORD_ACQ: return "__ATOMIC_ACQUIRE";
    case ORD_REL: return "__ATOMIC_RELEASE";
    case ORD_ACQREL: return "__ATOMIC_ACQ_REL";
    default: return "__ATOMIC_RELAXED";
    }
}

/* A failing CAS only loads: it cannot have release semantics (a C11 rule). */
static const char *cas_fail_order_text(const Tr *tr, const IsaInsn *in)
{
    if (tr->arch == ARCH_X86)
        return "__ATOMIC_SEQ_CST";
    switch (in->order) {
    case ORD_ACQ: case ORD_ACQREL: return "__ATOMIC_ACQUIRE";
    default: return "__ATOMIC_RELAXED";
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Checks and analysis                                                                        */
/* ------------------------------------------------------------------------------------------ */

static gboolean check_reg(Tr *tr, const IsaInsn *in, int r, gboolean dest, GError **error)
{
    if (r == ISA_NO_REG)
        return TRUE;
    if (r < 0 || r >= (dest ? ISA_NREGS : ISA_NREG_SLOTS))
        return fail_at(tr, in, error, "register %d cannot be %s", r, dest ? "written" : "read");
    return TRUE;
}

static gboolean check_insn(Tr *tr, guint pc, GError **error)
{
    const IsaInsn *in = insn_at(tr->p, pc);
    if ((guint)in->op >= OP__COUNT)
        return fail_at(tr, in, error, "unknown op %d", in->op);
    const IsaOpInfo *info = &isa_op_info[in->op];
    if (!isa_op_on_arch(in->op, tr->arch))
        return fail_at(tr, in, error, "`%s` cannot run natively on an %s host (%s only)", info->name,
                       arch_name(tr->arch), arch_name(arch_other(tr->arch)));
    if ((info->is_load || info->is_store) &&
        in->size != 1 && in->size != 2 && in->size != 4 && in->size != 8)
        return fail_at(tr, in, error, "`%s` of %u bytes (1, 2, 4 or 8)", info->name, in->size);
    if (info->is_load || info->is_store) {
        if (in->mem.sym >= (int32_t)tr->p->syms->len)
            return fail_at(tr, in, error, "symbol %d does not exist", in->mem.sym);
    }
    if (in->op == OP_LA && (in->target < 0 || in->target >= (int32_t)tr->p->syms->len))
        return fail_at(tr, in, error, "symbol %d does not exist", in->target);
    if (isa_op_has_label(in->op) &&
        (in->target < 0 || in->target > (int32_t)tr->p->insns->len))
        return fail_at(tr, in, error, "jump target %d is outside the program", in->target);
    if (in->op == OP_WORK && in->n < 0)
        return fail_at(tr, in, error, "work %" PRId64 ": the count must not be negative", in->n);
    return check_reg(tr, in, in->rd, TRUE, error) && check_reg(tr, in, in->rt, FALSE, error) &&
           check_reg(tr, in, in->a.reg, FALSE, error) && check_reg(tr, in, in->b.reg, FALSE, error) &&
           check_reg(tr, in, in->mem.base, FALSE, error);
}

typedef struct {
    gboolean *label;        /* [pc]: some branch, call or return lands here */
    IsaRegMask reads, writes; /* bit r: register r is read / written somewhere */
    gboolean calls;
} Analysis;

static void note_read(Analysis *a, int r)
{
    a->reads |= isa_reg_bit(r);
}

static void analyse(const IsaProgram *p, Analysis *a)
{
    guint n = p->insns->len;
    a->label = g_new0(gboolean, n + 1);
    for (guint pc = 0; pc < n; pc++) {
        const IsaInsn *in = insn_at(p, pc);
        if (isa_op_has_label(in->op))
            a->label[in->target] = TRUE;
        if (in->op == OP_CALL) {
            a->label[pc + 1] = TRUE;
            a->calls = TRUE;
        }
        note_read(a, in->a.reg);
        note_read(a, in->b.reg);
        note_read(a, in->rt);
        note_read(a, in->mem.base);
        a->writes |= isa_reg_bit(in->rd);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* One instruction                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Where a result goes: its register, or a scratch when the program discards it. */
static const char *dest(const IsaInsn *in)
{
    return in->rd == ISA_NO_REG ? "qn_discard" : reg_name(in->rd);
}

static const char *alu_op_text(IsaOp op)
{
    switch (op) {
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_AND: return "&";
    case OP_OR: return "|";
    case OP_XOR: return "^";
    case OP_SHL: return "<<";
    case OP_SHR: return ">>";
    case OP_MUL: return "*";
    default: return NULL;
    }
}

static const char *cond_text(IsaCond c)
{
    /* LT/GE compare as signed: the caller casts the operands. */
    switch (c) {
    case COND_EQ: return "==";
    case COND_NE: return "!=";
    case COND_LT: case COND_LTU: return "<";
    case COND_GE: case COND_GEU: default: return ">=";
    }
}

/* Inline asm of a barrier-like op on the host (NULL: none). */
static const char *asm_text(const Tr *tr, const IsaInsn *in)
{
    gboolean x86 = tr->arch == ARCH_X86;
    switch (in->op) {
    case OP_FENCE:
        if (in->fence == FENCE_LOAD)
            return x86 ? "lfence" : "dmb ishld";
        if (in->fence == FENCE_STORE)
            return x86 ? "sfence" : "dmb ishst";
        return x86 ? "mfence" : "dmb ish";
    case OP_PAUSE: return x86 ? "pause" : "yield";
    case OP_WFE: return "wfe";
    case OP_SEV: return "sev";
    case OP_SEVL: return "sevl";
    default: return NULL;
    }
}

/* arm64 exclusive access mnemonics: size suffix and register width. */
static const char *ex_suffix(unsigned size)
{
    return size == 1 ? "b" : size == 2 ? "h" : "";
}

/* Whether an access is good whatever the registers hold: a variable at a constant offset (the
 * assembler keeps it inside the variable) that is aligned for the access. */
static gboolean access_proven(const Tr *tr, const IsaInsn *in)
{
    if (in->mem.base != ISA_NO_REG || in->mem.sym < 0)
        return FALSE;
    const IsaSym *sym = tr->p->syms->pdata[in->mem.sym];
    return MAX(sym->align, 1u) % in->size == 0 && (uint64_t)in->mem.offset % in->size == 0 && in->mem.offset >= 0 &&
           (uint64_t)in->mem.offset + in->size <= sym->size;
}

/* One instruction's operands as C text, for the emitters below. */
typedef struct {
    const IsaInsn *in;
    guint pc;
    const char *a, *b;      /* the source operands */
    const char *addr;       /* the memory operand's address (memory ops) */
    const char *ty;         /* the C type of the access */
    const char *ord;        /* its __atomic ordering */
} Em;

/* mov and the ALU ops. */
static void emit_alu(GString *o, const Em *e)
{
    const IsaInsn *in = e->in;
    gboolean shift = in->op == OP_SHL || in->op == OP_SHR;
    const char *d = dest(in), *a = e->a, *b = e->b;
    if (in->op == OP_MOV)
        g_string_append_printf(o, "    %s = %s;\n", d, a);
    /* The ops added for translated code, by isa_alu's definitions (C leaves their edge cases
     * undefined: shifts by 64 or more, division by 0, INT64_MIN / -1). */
    else if (in->op == OP_SAR)
        g_string_append_printf(o, "    %s = (uint64_t)((int64_t)%s >> (%s >= 64 ? 63 : %s));\n", d, a, b, b);
    else if (in->op == OP_SEXT)
        g_string_append_printf(o, "    %s = %s == 0 || %s >= 64 ? %s : (uint64_t)((int64_t)(%s << (64 - %s)) >> (64 - %s));\n",
                               d, b, b, a, a, b, b);
    else if (in->op == OP_DIV)     /* by -1: the negation, wrapping (INT64_MIN stays) */
        g_string_append_printf(o, "    %s = %s == 0 ? 0 : (int64_t)%s == -1 ? (uint64_t)0 - %s : (uint64_t)((int64_t)%s / (int64_t)%s);\n",
                               d, b, b, a, a, b);
    else if (in->op == OP_REM)
        g_string_append_printf(o, "    %s = %s == 0 ? %s : (int64_t)%s == -1 ? 0 : (uint64_t)((int64_t)%s %% (int64_t)%s);\n",
                               d, b, a, b, a, b);
    else if (in->op == OP_DIVU || in->op == OP_REMU)
        g_string_append_printf(o, "    %s = %s == 0 ? %s : %s %s %s;\n", d, b, in->op == OP_DIVU ? "0" : a, a,
                               in->op == OP_DIVU ? "/" : "%", b);
    else if (in->op >= OP_SEQ && in->op <= OP_SGEU) {
        static const IsaCond conds[] = { COND_EQ, COND_NE, COND_LT, COND_GE, COND_LTU, COND_GEU };
        IsaCond c = conds[in->op - OP_SEQ];
        const char *cast = c == COND_LT || c == COND_GE ? "(int64_t)" : "";
        g_string_append_printf(o, "    %s = (uint64_t)(%s%s %s %s%s);\n", d, cast, a, cond_text(c), cast, b);
    }
    /* The ISA defines shifts by 64 or more as 0 (isa_alu); C leaves them undefined. */
    else if (shift && in->b.reg == ISA_NO_REG && (uint64_t)in->b.imm >= 64)
        g_string_append_printf(o, "    %s = 0;\n", dest(in));
    else if (shift && in->b.reg != ISA_NO_REG)
        g_string_append_printf(o, "    %s = %s >= 64 ? 0 : %s %s %s;\n", dest(in), e->b, e->a,
                               alu_op_text(in->op), e->b);
    else
        g_string_append_printf(o, "    %s = %s %s %s;\n", dest(in), e->a, alu_op_text(in->op), e->b);
}

static void emit_la(GString *o, const Em *e, gboolean *uses_done)
{
    const IsaInsn *in = e->in;
    if (in->rt == ISA_NO_REG) {
        g_string_append_printf(o, "    %s = M[%d];\n", dest(in), in->target);
        return;
    }
    g_string_append_printf(o, "    if (qn_no_thread(t, %s, %u)) goto done;\n", reg_name(in->rt), e->pc);
    g_string_append_printf(o, "    %s = t->addr[%d * NT + %s];\n", dest(in), in->target, reg_name(in->rt));
    *uses_done = TRUE;
}

/* The read-modify-writes as __atomic builtins. */
static void emit_rmw(GString *o, const Tr *tr, const Em *e)
{
    const IsaInsn *in = e->in;
    const char *ty = e->ty;
    if (in->op == OP_CAS) {
        g_string_append_printf(o,
                               "    { %s e = (%s)%s; __atomic_compare_exchange_n((%s *)(uintptr_t)(%s), "
                               "&e, (%s)%s, 0, %s, %s); %s = e; }\n",
                               ty, ty, e->a, ty, e->addr, ty, e->b, e->ord, cas_fail_order_text(tr, in), dest(in));
        return;
    }
    const char *fn = in->op == OP_XCHG ? "__atomic_exchange_n"
                     : in->op == OP_FADD ? "__atomic_fetch_add"
                     : in->op == OP_FOR ? "__atomic_fetch_or" : "__atomic_fetch_and";
    g_string_append_printf(o, "    %s = %s((%s *)(uintptr_t)(%s), (%s)%s, %s);\n", dest(in), fn, ty,
                           e->addr, ty, e->a, e->ord);
}

/* ldx and stx: arm64 only (checked), as inline LDXR/LDAXR and STXR/STLXR; a load's result is
 * zero-extended by the W form. */
static void emit_exclusive(GString *o, const Em *e)
{
    const IsaInsn *in = e->in;
    if (in->op == OP_LDX)
        g_string_append_printf(o,
                               "    { uint64_t v; __asm__ __volatile__(\"%s%s %%%s0, [%%1]\" : \"=r\"(v) "
                               ": \"r\"((uintptr_t)(%s)) : \"memory\"); %s = v; }\n",
                               in->order == ORD_ACQ || in->order == ORD_ACQREL ? "ldaxr" : "ldxr",
                               ex_suffix(in->size), in->size == 8 ? "x" : "w", e->addr, dest(in));
    else
        g_string_append_printf(o,
                               "    { uint32_t s; __asm__ __volatile__(\"%s%s %%w0, %%%s2, [%%1]\" : "
                               "\"=&r\"(s) : \"r\"((uintptr_t)(%s)), \"r\"((uint64_t)%s) : \"memory\"); "
                               "%s = s; }\n",
                               in->order == ORD_REL || in->order == ORD_ACQREL ? "stlxr" : "stxr",
                               ex_suffix(in->size), in->size == 8 ? "x" : "w", e->addr, e->a, dest(in));
}

static void emit_branch(GString *o, const Em *e)
{
    const IsaInsn *in = e->in;
    if (in->cond == COND_LT || in->cond == COND_GE)
        g_string_append_printf(o, "    if ((int64_t)%s %s (int64_t)%s) goto L%d;\n", e->a,
                               cond_text(in->cond), e->b, in->target);
    else
        g_string_append_printf(o, "    if (%s %s %s) goto L%d;\n", e->a, cond_text(in->cond), e->b,
                               in->target);
}

/* call pushes the label after it on the entry's return stack; ret at depth 0 returns from the
 * entry point to the runner. */
static void emit_call_ret(GString *o, const Tr *tr, const Em *e)
{
    const IsaInsn *in = e->in;
    if (in->op == OP_RET) {
        if (tr->calls)
            g_string_append(o, "    if (sp == 0) goto done;\n    goto *rs[--sp];\n");
        else
            g_string_append(o, "    goto done;\n");
        return;
    }
    g_autofree char *pos = asm_format_pos(tr->p, in);
    g_autofree char *pos_c = g_strescape(pos, NULL);
    /* The words of every back end (cores/isa/isa_fault.c), at the interpreter's depth. */
    G_STATIC_ASSERT(QN_RSTACK == ISA_CALL_DEPTH);
    g_autofree char *why = isa_fault_describe(tr->p, NULL, ISA_FAULT_CALL_DEPTH, 0, 0);
    g_string_append_printf(o,
                           "    if (sp == %d) { t->fault = \"%s: %s\"; goto done; }\n"
                           "    rs[sp++] = &&L%u;\n    goto L%d;\n",
                           QN_RSTACK, pos_c, why, e->pc + 1, in->target);
}

static void emit_insn(Tr *tr, guint pc, gboolean *uses_done)
{
    const IsaInsn *in = insn_at(tr->p, pc);
    GString *o = tr->out;
    g_autofree char *a = src_text(&in->a);
    g_autofree char *b = src_text(&in->b);
    g_autofree char *addr = NULL;
    if (isa_op_info[in->op].is_load || isa_op_info[in->op].is_store) {
        addr = addr_text(&in->mem);
        if (!access_proven(tr, in)) {
            /* Judged before it is made, as the model judges it: a fault ends the entry call. */
            g_string_append_printf(o, "    qa = %s;\n    if (qn_bad(t, qa, %u, %u)) goto done;\n", addr, in->size, pc);
            g_free(addr);
            addr = g_strdup("qa");
            *uses_done = TRUE;
        }
    }
    const Em e = { in, pc, a, b, addr, ctype(in->size), order_text(tr, in) };
    switch (in->op) {
    case OP_NOP:
        g_string_append(o, "    ;\n");
        break;
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_AND: case OP_OR: case OP_XOR: case OP_MUL:
    case OP_SHL: case OP_SHR:
    case OP_SAR: case OP_SEXT: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU: case OP_SEQ: case OP_SNE:
    case OP_SLT: case OP_SGE: case OP_SLTU: case OP_SGEU:
        emit_alu(o, &e);
        break;
    case OP_LA:
        emit_la(o, &e, uses_done);
        break;
    case OP_LD:
        g_string_append_printf(o, "    %s = __atomic_load_n((%s *)(uintptr_t)(%s), %s);\n", dest(in),
                               e.ty, addr, e.ord);
        break;
    case OP_ST:
        g_string_append_printf(o, "    __atomic_store_n((%s *)(uintptr_t)(%s), (%s)%s, %s);\n", e.ty,
                               addr, e.ty, a, e.ord);
        break;
    case OP_LDX: case OP_STX:
        emit_exclusive(o, &e);
        break;
    case OP_FENCE: case OP_WFE: case OP_SEV: case OP_SEVL:
        /* The "memory" clobber keeps the compiler from moving memory accesses across. */
        g_string_append_printf(o, "    __asm__ __volatile__(\"%s\" ::: \"memory\");\n", asm_text(tr, in));
        break;
    case OP_PAUSE:
        g_string_append_printf(o, "    __asm__ __volatile__(\"%s\");\n", asm_text(tr, in));
        break;
    case OP_BR:
        emit_branch(o, &e);
        break;
    case OP_JMP:
        g_string_append_printf(o, "    goto L%d;\n", in->target);
        break;
    case OP_CALL: case OP_RET:
        emit_call_ret(o, tr, &e);
        *uses_done = TRUE;
        break;
    case OP_WORK:
        g_string_append_printf(o, "    qn_work(UINT64_C(%" PRId64 "));\n", in->n);
        break;
    case OP_MARK:
        /* The runner's hook; nonzero ends the entry call (a fixed-time run's stop). */
        g_string_append_printf(o, "    if (t->mark(t, INT64_C(%" PRId64 "))) goto done;\n", in->n);
        *uses_done = TRUE;
        break;
    case OP_HALT:
        g_string_append_printf(o, "    t->halt_pc = %u;\n    goto done;\n", pc);
        *uses_done = TRUE;
        break;
    case OP_FUTEX_WAIT:
        g_string_append_printf(o, "    %s = qn_futex_wait((uint32_t *)(uintptr_t)(%s), (uint32_t)%s);\n", dest(in),
                               addr, a);
        break;
    case OP_FUTEX_WAKE:
        g_string_append_printf(o, "    %s = qn_futex_wake((uint32_t *)(uintptr_t)(%s), %s);\n", dest(in), addr, a);
        break;
    default:
        /* The read-modify-writes, as the op table names them. */
        g_assert(isa_op_is_rmw(in->op));
        emit_rmw(o, tr, &e);
        break;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Functions, descriptor, unit                                                                */
/* ------------------------------------------------------------------------------------------ */

/* Text for inside a C comment: a file name must not end it. */
static char *comment_safe(const char *s)
{
    g_auto(GStrv) parts = g_strsplit(s ? s : "", "*/", -1);
    return g_strjoinv("* /", parts);
}

static void emit_entry_fn(Tr *tr, const Analysis *an, const IsaEntry *e)
{
    GString *o = tr->out;
    g_autofree char *en = native_c_ident(e->name);
    const IsaProgram *p = tr->p;
    guint n = p->insns->len;
    g_autofree char *name_cm = comment_safe(e->name);
    g_string_append_printf(o, "/* entry `%s` */\nstatic void qn_entry_%s(QnThread *t)\n{\n", name_cm, en);
    g_string_append(o, "    const uint64_t *const M = t->mine;\n"
                       "    const uint64_t TID = t->tid, NT = t->nthreads;\n"
                       "    uint64_t qn_discard, qa;\n");
    IsaRegMask regs = an->reads | an->writes;
    for (int r = 0; r < ISA_NREGS; r++)
        if (regs & isa_reg_bit(r))
            g_string_append_printf(o, "    uint64_t r%d = t->regs[%d];\n", r, r);
    if (an->calls)
        g_string_append_printf(o, "    void *rs[%d];\n    unsigned sp = 0;\n", QN_RSTACK);
    g_string_append(o, "    (void)M; (void)TID; (void)NT; (void)qn_discard; (void)qa;\n");
    g_string_append_printf(o, "    goto L%d;\n", e->pc);
    gboolean uses_done = FALSE;
    for (guint pc = 0; pc <= n; pc++) {
        if (an->label[pc] || (gint)pc == e->pc)
            g_string_append_printf(o, "L%u:\n", pc);
        if (pc < n)
            emit_insn(tr, pc, &uses_done);
    }
    /* Falling off the end of the program ends the entry call, as `halt` does. */
    if (uses_done)
        g_string_append(o, "done:\n");
    for (int r = 0; r < ISA_NREGS; r++)
        if (an->writes & isa_reg_bit(r))
            g_string_append_printf(o, "    t->regs[%d] = r%d;\n", r, r);
    g_string_append(o, "    return;\n}\n\n");
}

static char *c_string(const char *s)
{
    g_autofree char *esc = g_strescape(s ? s : "", NULL);
    return g_strdup_printf("\"%s\"", esc);
}

gboolean native_translate_body(GString *out, const IsaProgram *p, Arch host_arch, const char *entry,
                               GError **error)
{
    Tr tr = { p, host_arch, p->filename ? p->filename : "<program>", out, FALSE };
    for (guint pc = 0; pc < p->insns->len; pc++)
        if (!check_insn(&tr, pc, error))
            return FALSE;
    /* The entries to emit: all, or the one asked for. */
    g_autoptr(GArray) entries = g_array_new(FALSE, FALSE, sizeof(IsaEntry));
    for (guint i = 0; i < p->entries->len; i++) {
        const IsaEntry *e = &g_array_index(p->entries, IsaEntry, i);
        if (entry && strcmp(e->name, entry))
            continue;
        if (e->pc < 0 || e->pc > (gint)p->insns->len) {
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID,
                        "%s: entry `%s` is outside the program", tr.file, e->name);
            return FALSE;
        }
        g_array_append_val(entries, *e);
    }
    if (!entries->len) {
        if (entry)
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID, "%s: the program has no entry `%s`",
                        tr.file, entry);
        else
            g_set_error(error, NATIVE_ERROR, NATIVE_ERROR_INVALID, "%s: the program has no entry points",
                        tr.file);
        return FALSE;
    }
    Analysis an = { 0 };
    analyse(p, &an);
    tr.calls = an.calls;
    g_autofree char *fname = c_string(tr.file);
    g_autofree char *file_cm = comment_safe(tr.file);
    g_string_append_printf(out, "/* ---- %s ---- */\n\n", file_cm);
    for (guint i = 0; i < entries->len; i++)
        emit_entry_fn(&tr, &an, &g_array_index(entries, IsaEntry, i));
    g_free(an.label);

    g_string_append(out, "static const QnEntry qn_entries[] = {\n");
    for (guint i = 0; i < entries->len; i++) {
        const IsaEntry *e = &g_array_index(entries, IsaEntry, i);
        g_autofree char *en = native_c_ident(e->name);
        g_autofree char *name = c_string(e->name);
        g_string_append_printf(out, "    { %s, qn_entry_%s },\n", name, en);
    }
    g_string_append_printf(out, "};\n\nconst QnProgram %s = {\n    %d, %s, %u, qn_entries,\n};\n",
                           QN_PROGRAM_SYMBOL, QN_ABI_VERSION, fname, entries->len);
    return TRUE;
}

/* The futex ops as Linux's futex(2), private to the process as glibc's mutexes use it. */
static const char futex_helpers[] =
    "#include <errno.h>\n"
    "#include <linux/futex.h>\n"
    "#include <sys/syscall.h>\n"
    "#include <unistd.h>\n"
    "/* futex_wait: 0 once woken (an interrupted wait too: the ISA's callers check the word and loop\n"
    " * again), 1 when the word was not the value (EAGAIN). */\n"
    "static inline uint64_t qn_futex_wait(uint32_t *w, uint32_t v)\n"
    "{\n"
    "    long r = syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, (void *)0, (void *)0, 0);\n"
    "    return r == -1 && errno == EAGAIN ? 1 : 0;\n"
    "}\n"
    "/* futex_wake: how many threads woke. */\n"
    "static inline uint64_t qn_futex_wake(uint32_t *w, uint64_t n)\n"
    "{\n"
    "    long r = syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, n > 0x7fffffff ? 0x7fffffff : (int)n, (void *)0,\n"
    "                     (void *)0, 0);\n"
    "    return r < 0 ? 0 : (uint64_t)r;\n"
    "}\n\n";

static gboolean has_syscalls(const IsaProgram *p)
{
    for (guint pc = 0; pc < p->insns->len; pc++)
        if (isa_op_info[insn_at(p, pc)->op].is_syscall)
            return TRUE;
    return FALSE;
}

char *native_translate_c(const IsaProgram *p, Arch host_arch, const char *entry, GError **error)
{
    g_autoptr(GString) out = g_string_new(NULL);
    g_autofree char *file_cm = comment_safe(p->filename ? p->filename : "<program>");
    g_string_append_printf(out,
                           "/* %s translated to C by qsim %s for an %s host. */\n"
                           "#include <stdint.h>\n%s\n\n",
                           file_cm, QSIM_VERSION,
                           host_arch == ARCH_X86 ? "x86-64" : "arm64", QN_ABI_TEXT);
    /* Only programs that make system calls get the helpers: others' text stays as it was. */
    if (has_syscalls(p))
        g_string_append(out, futex_helpers);
    if (!native_translate_body(out, p, host_arch, entry, error))
        return NULL;
    return g_string_free(g_steal_pointer(&out), FALSE);
}
