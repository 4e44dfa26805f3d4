/* The result of a calibration: its names, lifetime and look-ups (see calibrate.h). */
#include <stdarg.h>
#include "sim/calibrate/calibrate.h"

G_DEFINE_QUARK(qsim-calibrate-error-quark, calib_error)

static const char *const calib_level_names[CALIB_LEVEL__N] = { "L1", "L2", "LLC", "memory" };
static const char *const calib_op_names[CALIB_OP__N] = { "load", "store", "cas" };

const char *calib_level_name(CalibLevel l) { return l < CALIB_LEVEL__N ? calib_level_names[l] : "?"; }
const char *calib_op_name(CalibC2cOp op) { return op < CALIB_OP__N ? calib_op_names[op] : "?"; }
CalibResult *calib_result_new(void)
{
    CalibResult *r = g_new0(CalibResult, 1);
    r->cpus = g_array_new(FALSE, FALSE, sizeof(guint));
    r->curve = g_array_new(FALSE, TRUE, sizeof(CalibChasePoint));
    r->c2c = g_array_new(FALSE, TRUE, sizeof(CalibC2cRow));
    r->notes = g_ptr_array_new_with_free_func(g_free);
    r->host.topo = g_array_new(FALSE, TRUE, sizeof(CalibCpuTopo));
    return r;
}

void calib_result_free(CalibResult *r)
{
    if (!r)
        return;
    calib_host_clear(&r->host);
    g_array_free(r->cpus, TRUE);
    g_array_free(r->curve, TRUE);
    g_array_free(r->c2c, TRUE);
    g_ptr_array_free(r->notes, TRUE);
    g_free(r);
}

const CalibC2cRow *calib_result_c2c(const CalibResult *r, CalibPairClass pair, CalibC2cOp op, char state)
{
    for (guint i = 0; i < r->c2c->len; i++) {
        const CalibC2cRow *row = &g_array_index(r->c2c, CalibC2cRow, i);
        if (row->pair == pair && row->op == op && row->state == state && row->cycles.valid)
            return row;
    }
    return NULL;
}

void calib_result_note(CalibResult *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_ptr_array_add(r->notes, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}
