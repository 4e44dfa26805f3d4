#include "tests/isa_builder.h"
#include "cores/isa/isa_exec.h"

IsaProgram *tb_program(const char *filename)
{
    return isa_program_new(filename);
}

int tb_sym(IsaProgram *p, const char *name, IsaSymScope scope, uint32_t size, gboolean own_line,
           int32_t with)
{
    IsaSym *s = g_new0(IsaSym, 1);
    s->name = g_strdup(name);
    s->scope = scope;
    s->size = size;
    s->align = size >= 8 ? 8 : size;
    s->own_line = own_line;
    s->with = with;
    g_ptr_array_add(p->syms, s);
    return (int)p->syms->len - 1;
}

void tb_entry(IsaProgram *p, const char *name)
{
    IsaEntry e = { g_strdup(name), (int32_t)p->insns->len };
    g_array_append_val(p->entries, e);
}

IsaInsn *tb_op(IsaProgram *p, IsaOp op)
{
    IsaInsn in = { 0 };
    in.op = op;
    in.size = 8;
    in.rd = in.rt = ISA_NO_REG;
    in.a.reg = in.b.reg = ISA_NO_REG;
    in.mem.sym = -1;
    in.mem.base = ISA_NO_REG;
    in.target = -1;
    in.line = p->insns->len + 1;
    in.col = 5;
    g_array_append_val(p->insns, in);
    return &g_array_index(p->insns, IsaInsn, p->insns->len - 1);
}

IsaSrc tb_r(int reg)
{
    return (IsaSrc){ (int8_t)reg, 0 };
}

IsaSrc tb_i(int64_t imm)
{
    return (IsaSrc){ ISA_NO_REG, imm };
}

IsaMem tb_m(int sym, int64_t offset)
{
    return (IsaMem){ sym, ISA_NO_REG, offset };
}

IsaProgram *tb_random_program(GRand *r, guint nthreads, guint min_ops, guint max_ops, TbRandomOp random_op)
{
    IsaProgram *p = tb_program("random.qs");
    tb_sym(p, "a", SYM_SHARED, 8, TRUE, -1);
    tb_sym(p, "b", SYM_SHARED, 8, FALSE, 0);
    tb_sym(p, "c", SYM_SHARED, 8, TRUE, -1);
    tb_entry(p, "main");
    for (guint t = 0; t < nthreads; t++) {
        IsaInsn *b = tb_op(p, OP_BR);
        b->cond = COND_EQ;
        b->a = tb_r(ISA_REG_TID);
        b->b = tb_i(t);
    }
    tb_op(p, OP_HALT);
    for (guint t = 0; t < nthreads; t++) {
        g_array_index(p->insns, IsaInsn, t).target = (int32_t)p->insns->len;
        guint nops = (guint)g_rand_int_range(r, (gint32)min_ops, (gint32)max_ops);
        for (guint k = 0; k < nops; k++)
            random_op(r, p, nops - k);
        tb_op(p, OP_HALT);
    }
    return p;
}
