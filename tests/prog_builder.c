/* The test-only program builder (see prog_builder.h). */
#include <string.h>
#include "tests/prog_builder.h"
#include "cores/isa/isa_exec.h"

struct ProgBuilder {
    IsaProgram *p;
    GHashTable *labels;      /* name -> pc + 1 */
    GPtrArray *fixups;       /* label name per insn (NULL: none), indexed by pc */
};

ProgBuilder *pb_new(void)
{
    ProgBuilder *b = g_new0(ProgBuilder, 1);
    b->p = isa_program_new("test");
    b->labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    b->fixups = g_ptr_array_new_with_free_func(g_free);
    return b;
}

static int add_sym(ProgBuilder *b, const char *name, uint32_t size, gboolean own_line,
                   int64_t init, IsaSymScope scope)
{
    IsaSym *s = g_new0(IsaSym, 1);
    s->name = g_strdup(name);
    s->scope = scope;
    s->size = size;
    s->align = MIN(size, 8u);
    s->own_line = own_line;
    s->with = -1;
    s->init = init;
    g_ptr_array_add(b->p->syms, s);
    return (int)b->p->syms->len - 1;
}

int pb_shared(ProgBuilder *b, const char *name, uint32_t size, gboolean own_line, int64_t init)
{
    return add_sym(b, name, size, own_line, init, SYM_SHARED);
}

int pb_per_thread(ProgBuilder *b, const char *name, uint32_t size, gboolean own_line)
{
    return add_sym(b, name, size, own_line, 0, SYM_PER_THREAD);
}

void pb_label(ProgBuilder *b, const char *name)
{
    g_hash_table_insert(b->labels, g_strdup(name), GINT_TO_POINTER(b->p->insns->len + 1));
}

void pb_entry(ProgBuilder *b, const char *name)
{
    pb_label(b, name);
    IsaEntry e = { g_strdup(name), (int32_t)b->p->insns->len };
    g_array_append_val(b->p->entries, e);
}

IsaInsn *pb_op(ProgBuilder *b, IsaOp op)
{
    IsaInsn in = { .op = op, .size = 8, .rd = ISA_NO_REG, .rt = ISA_NO_REG, .a = I(0), .b = I(0),
                   .mem = { .sym = -1, .base = ISA_NO_REG }, .target = -1,
                   .line = b->p->insns->len + 1 };
    g_array_append_val(b->p->insns, in);
    g_ptr_array_add(b->fixups, NULL);
    return &g_array_index(b->p->insns, IsaInsn, b->p->insns->len - 1);
}

static int sym_index(ProgBuilder *b, const char *sym)
{
    int s = isa_program_find_sym(b->p, sym);
    g_assert(s >= 0);
    return s;
}

IsaInsn *pb_alu(ProgBuilder *b, IsaOp op, int rd, IsaSrc a, IsaSrc bsrc)
{
    IsaInsn *in = pb_op(b, op);
    in->rd = (int8_t)rd;
    in->a = a;
    in->b = bsrc;
    return in;
}

IsaInsn *pb_ld(ProgBuilder *b, int rd, const char *sym, int64_t off)
{
    int s = sym_index(b, sym);
    IsaInsn *in = pb_op(b, OP_LD);
    in->rd = (int8_t)rd;
    in->mem.sym = s;
    in->mem.offset = off;
    return in;
}

IsaInsn *pb_ldr(ProgBuilder *b, int rd, int base, int64_t off)
{
    IsaInsn *in = pb_op(b, OP_LD);
    in->rd = (int8_t)rd;
    in->mem.base = (int8_t)base;
    in->mem.offset = off;
    return in;
}

IsaInsn *pb_st(ProgBuilder *b, const char *sym, int64_t off, IsaSrc a)
{
    int s = sym_index(b, sym);
    IsaInsn *in = pb_op(b, OP_ST);
    in->mem.sym = s;
    in->mem.offset = off;
    in->a = a;
    return in;
}

IsaInsn *pb_atomic(ProgBuilder *b, IsaOp op, int rd, const char *sym, IsaSrc a, IsaSrc bsrc)
{
    int s = sym_index(b, sym);
    IsaInsn *in = pb_alu(b, op, rd, a, bsrc);
    in->mem.sym = s;
    return in;
}

IsaInsn *pb_ldx(ProgBuilder *b, int rd, const char *sym)
{
    IsaInsn *in = pb_ld(b, rd, sym, 0);
    in->op = OP_LDX;
    return in;
}

IsaInsn *pb_stx(ProgBuilder *b, int rd, const char *sym, IsaSrc a)
{
    return pb_atomic(b, OP_STX, rd, sym, a, I(0));
}

static void fixup(ProgBuilder *b, const char *label)
{
    g_free(b->fixups->pdata[b->fixups->len - 1]);
    b->fixups->pdata[b->fixups->len - 1] = g_strdup(label);
}

IsaInsn *pb_br(ProgBuilder *b, IsaCond cond, IsaSrc a, IsaSrc bsrc, const char *label)
{
    IsaInsn *in = pb_op(b, OP_BR);
    in->cond = cond;
    in->a = a;
    in->b = bsrc;
    fixup(b, label);
    return in;
}

IsaInsn *pb_jmp(ProgBuilder *b, IsaOp op, const char *label)
{
    IsaInsn *in = pb_op(b, op);
    fixup(b, label);
    return in;
}

IsaInsn *pb_fence(ProgBuilder *b, IsaFence kind)
{
    IsaInsn *in = pb_op(b, OP_FENCE);
    in->fence = kind;
    return in;
}

IsaInsn *pb_n(ProgBuilder *b, IsaOp op, int64_t n)
{
    IsaInsn *in = pb_op(b, op);
    in->n = n;
    return in;
}

IsaProgram *pb_finish(ProgBuilder *b)
{
    for (guint pc = 0; pc < b->fixups->len; pc++) {
        const char *l = b->fixups->pdata[pc];
        if (!l)
            continue;
        gpointer v = g_hash_table_lookup(b->labels, l);
        g_assert(v);
        g_array_index(b->p->insns, IsaInsn, pc).target = GPOINTER_TO_INT(v) - 1;
    }
    IsaProgram *p = b->p;
    g_hash_table_unref(b->labels);
    g_ptr_array_free(b->fixups, TRUE);
    g_free(b);
    return p;
}

void pb_program_free(IsaProgram *p) { isa_program_free(p); }
