/* The real memory system (coherence/memsys.h) behind the machine's port: the one-line adapter
 * that MemSystemOps asks for, shared by every runner. */
#include "sim/machine/machine.h"
#include "coherence/memsys.h"

static void ms_issue(void *ms, guint core, const MemRequest *r) { memsys_issue(ms, core, r); }
static void ms_attach(void *ms, guint core, const PortClient *c, void *obj) { memsys_attach(ms, core, c, obj); }
static uint64_t ms_peek(void *ms, uint64_t addr, unsigned size) { return memsys_peek(ms, addr, size); }
static void ms_poke(void *ms, uint64_t addr, unsigned size, uint64_t v) { memsys_poke(ms, addr, size, v); }

static Cycle ms_longest_access(void *ms) { return memsys_longest_access(ms); }

const MemSystemOps machine_memsys_ops = { ms_issue, ms_attach, ms_peek, ms_poke, &memsys_fast_forward,
                                          ms_longest_access };
