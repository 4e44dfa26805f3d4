/* The config schema: every key qsim reads, defined once.  The loader, `--set`, `qsim config`
 * and docs/config.md are all driven by this table.  Rows are grouped by section, in the order
 * `qsim config` prints them.  Defaults are generic (an x86 server core of the Haswell era) and
 * every shipped config overrides the ones its machine differs in, with sources. */
#include <stddef.h>
#include <string.h>
#include "sim/base/config.h"

#define OFF(field) offsetof(QsimConfig, field)
#define NOMAX 1e18
/* Which machines a key means something on (`qsim config` comments out the others). */
#define ANY_ARCH 0
#define X86_ONLY CFG_ARCH(ARCH_X86)
#define ARM64_ONLY CFG_ARCH(ARCH_ARM64)

static const char *const arch_choices[] = { "x86", "arm64", NULL };
static const char *const proto_choices[] = { "mesi", "moesi", "mesif", "msi", NULL };
static const char *const rollback_choices[] = { "conservative", "precise", "none", NULL };
static const char *const issue_choices[] = { "out-of-order", "in-order", NULL };
static const char *const atomics_choices[] = { "llsc", "lse-near", "lse-far", NULL };
static const char *const links_choices[] = { "full", "ring", "twisted-hypercube", "mcm-pairs", NULL };
static const char *const ondie_choices[] = { "ring", "mesh", "crossbar", NULL };
static const char *const xsock_choices[] = { "broadcast", "directory", "probe-filter", NULL };
static const char *const snoop_acts_choices[] = { "arrival", "lookup", NULL };
static const char *const home_choices[] = { "interleave", "first-touch", NULL };
static const char *const interconnect_choices[] = { "directory", "bus", NULL };
static const char *const smt_choices[] = { "partitioned", "shared", "replicated", NULL }; /* SmtSharing order */

const CfgKey qsim_config_schema[] = {
    /* path, type, offset, default, min, max, choices, unit, doc, the archs it applies to */
    { "name", CFG_STRING, OFF(name), NULL, 0, 0, NULL, NULL,
      "Short name of the machine model, as printed in reports.", ANY_ARCH },
    { "description", CFG_STRING, OFF(description), "\"\"", 0, 0, NULL, NULL,
      "One line describing the machine.", ANY_ARCH },
    { "arch", CFG_ENUM, OFF(arch), NULL, 0, 0, arch_choices, NULL,
      "Instruction-set architecture: decides memory ordering and how each ISA op behaves.", ANY_ARCH },
    { "protocol", CFG_ENUM, OFF(protocol), "mesi", 0, 0, proto_choices, NULL,
      "Cache-coherence protocol: mesi, moesi, mesif (MESI with Intel's F state per socket), or msi "
      "(no E: a lone reader gets S, so its first store needs an upgrade; Sorin, Hill and Wood, A "
      "Primer on Memory Consistency and Cache Coherence, Tables 8.1-8.2, and on a bus Tables "
      "7.5-7.6).  A bus runs msi or mesi.", ANY_ARCH },
    { "line_size", CFG_SIZE, OFF(line_size), "64", 16, 4096, NULL, "bytes",
      "Cache line size, the same at every level (a power of two).", ANY_ARCH },
    { "frequency_ghz", CFG_DOUBLE, OFF(frequency_ghz), "2.3", 0.1, 10, NULL, "GHz",
      "Core clock, used only to convert cycles to nanoseconds in reports.", ANY_ARCH },

    { "topology.sockets", CFG_INT, OFF(topology.sockets), NULL, 1, 64, NULL, NULL,
      "Number of sockets (or dies with their own LLC).", ANY_ARCH },
    { "topology.cores_per_socket", CFG_INT, OFF(topology.cores_per_socket), NULL, 1, 256, NULL, NULL,
      "Cores per socket.", ANY_ARCH },
    { "topology.threads_per_core", CFG_INT, OFF(topology.threads_per_core), "1", 1, 2, NULL, NULL,
      "Hardware threads per core (SMT; Intel's Hyper-Threading): the threads of a core share its L1 "
      "and L2 and are one agent to the coherence protocol, and share its pipeline as the smt.* keys "
      "say.  Logical CPUs are numbered as Linux numbers them: CPU c is thread c / cores of core c mod "
      "cores.  --placement fill and spread use each core's first thread only; smt fills siblings "
      "first.", ANY_ARCH },
    { "topology.socket_links", CFG_ENUM, OFF(topology.socket_links), "full", 0, 0, links_choices, NULL,
      "How sockets are joined: full (every pair one hop), ring, twisted-hypercube (8 sockets, at "
      "most 2 hops), mcm-pairs (two dies per package: package_hop_cycles between them).", ANY_ARCH },
    { "topology.socket_hop_cycles", CFG_INT, OFF(topology.socket_hop_cycles), "60", 0, 100000, NULL, "cycles",
      "One hop between sockets, one way.", ANY_ARCH },
    { "topology.package_hop_cycles", CFG_INT, OFF(topology.package_hop_cycles), "40", 0, 100000, NULL, "cycles",
      "One hop between the two dies of a package (mcm-pairs only), one way.", ANY_ARCH },
    { "topology.ondie", CFG_ENUM, OFF(topology.ondie), "ring", 0, 0, ondie_choices, NULL,
      "On-die network between cores and LLC slices.", ANY_ARCH },
    { "topology.ondie_hop_cycles", CFG_INT, OFF(topology.ondie_hop_cycles), "1", 0, 1000, NULL, "cycles",
      "One on-die hop (ring stop or mesh link), one way.", ANY_ARCH },
    { "topology.snoop_response_cycles", CFG_INT, OFF(topology.snoop_response_cycles), "20", 0, 10000, NULL, "cycles",
      "A core's private caches answering a snoop: from a forwarded request or invalidation "
      "reaching them to the answer leaving (an invalidation ack, or the start of a data "
      "transfer).  Every Fwd-GetS, Fwd-GetM and Inv pays it.", ANY_ARCH },
    { "topology.snoop_data_cycles", CFG_INT, OFF(topology.snoop_data_cycles), "0", 0, 10000, NULL, "cycles",
      "More, when the answer carries a dirty line (M or O) read out of the private caches; a clean "
      "line's answer (E, or an ack) does not pay it.", ANY_ARCH },
    { "topology.snoop_acts", CFG_ENUM, OFF(topology.snoop_acts), "arrival", 0, 0, snoop_acts_choices, NULL,
      "When a Fwd-GetS, Fwd-GetM or Inv changes the line in the private caches it reaches: on "
      "arrival (the line is downgraded, and a forward's data copied, as the snoop enters them; "
      "the answer leaves snoop_response_cycles later), or lookup (the line stays the holder's, "
      "writable if it was, until snoop_response_cycles have looked it up; then it changes and the "
      "answer leaves at once, a forward carrying the data as it is then).  The total latency is the "
      "same; what differs is which of the holder's own stores a forward's data carries and how "
      "long a sharer's stale copy stays readable.", ANY_ARCH },
    { "topology.cross_socket", CFG_ENUM, OFF(topology.cross_socket), "directory", 0, 0, xsock_choices, NULL,
      "Cross-socket coherence: broadcast (the home snoops every other socket and waits for every "
      "answer), directory (the home records every holder and sends directed messages), or "
      "probe-filter (AMD HT Assist: the home records the owner and a single sharer, not a set of "
      "them, so a write to a line with several sharers or an owner and sharers broadcasts its "
      "invalidations to every socket and waits for every answer).", ANY_ARCH },
    { "topology.interconnect", CFG_ENUM, OFF(topology.interconnect), "directory", 0, 0, interconnect_choices, NULL,
      "How coherence requests travel: directory (point to point to the line's home, which "
      "serialises them and forwards them to the holders it records), or bus (the Primer's simple "
      "snooping system, Sorin, Hill and Wood ch. 7.2.2: one atomic bus, each request broadcast to "
      "every cache and the memory in the order the arbiter grants them, each cache answering from "
      "its own state, no directory; one transaction on the bus at a time).  A bus joins the cores "
      "of one socket (topology.sockets: 1); its timing is the bus.* keys, and the on-die network "
      "keys do not apply to it.", ANY_ARCH },

    { "bus.address_cycles", CFG_INT, OFF(bus.address_cycles), "10", 1, 10000, NULL, "cycles",
      "topology.interconnect bus: the arbitration and address phase of a transaction, from the "
      "cycle after a cache asks for the bus (or after the previous transaction's data phase) to "
      "every cache and the memory seeing the request.  The default is chosen for teaching (a round "
      "number), not measured on a machine.", ANY_ARCH },
    { "bus.data_cycles", CFG_INT, OFF(bus.data_cycles), "10", 1, 10000, NULL, "cycles",
      "topology.interconnect bus: the data phase, once the responder has the line (memory after "
      "memory.latency, or llc.latency when the LLC holds it; a cache after "
      "topology.snoop_response_cycles, plus snoop_data_cycles for dirty data).  A load miss takes "
      "address_cycles + the responder's time + data_cycles.  The default is chosen for teaching, "
      "not measured.", ANY_ARCH },

    { "core.issue", CFG_ENUM, OFF(core.issue), "out-of-order", 0, 0, issue_choices, NULL,
      "How ops start: out-of-order (as soon as their operands are ready, within the window) or "
      "in-order (in program order, fetch_width per cycle, each waiting until every older op has "
      "completed or started with it this cycle; an outstanding load blocks every younger op).", ANY_ARCH },
    { "core.fetch_width", CFG_INT, OFF(core.fetch_width), "4", 1, 16, NULL, "ops/cycle",
      "Ops fetched and dispatched per cycle.", ANY_ARCH },
    { "core.retire_width", CFG_INT, OFF(core.retire_width), "4", 1, 16, NULL, "ops/cycle",
      "Ops retired per cycle.", ANY_ARCH },
    { "core.rob", CFG_INT, OFF(core.rob), "192", 1, 4096, NULL, "entries",
      "Reorder buffer entries.", ANY_ARCH },
    { "core.load_buffer", CFG_INT, OFF(core.load_buffer), "72", 1, 1024, NULL, "entries",
      "Load buffer entries (a load holds one from dispatch to retirement).", ANY_ARCH },
    { "core.store_buffer", CFG_INT, OFF(core.store_buffer), "42", 1, 1024, NULL, "entries",
      "Store buffer entries (a store holds one from dispatch until it drains to the L1).", ANY_ARCH },
    { "core.branch_mispredict_penalty", CFG_INT, OFF(core.branch_mispredict_penalty), "16", 0, 1000, NULL, "cycles",
      "Cycles before fetch resumes after a mispredicted branch resolves.", ANY_ARCH },
    { "core.machine_clear_penalty", CFG_INT, OFF(core.machine_clear_penalty), "16", 0, 10000, NULL, "cycles",
      "Pipeline refill after a memory-ordering machine clear; the re-execution of squashed ops "
      "is modelled separately by running them again.", ANY_ARCH },
    { "core.rollback", CFG_ENUM, OFF(core.rollback), "conservative", 0, 0, rollback_choices, NULL,
      "x86 load-ordering rollback: conservative (any snoop hit on an executed, unretired load), "
      "precise (only when an older load had not completed), none (what-if).", X86_ONLY },
    { "core.pause_cycles", CFG_INT, OFF(core.pause_cycles), "9", 0, 100000, NULL, "cycles",
      "How long PAUSE (arm64: YIELD) holds back younger ops.", ANY_ARCH },
    { "core.locked_rmw_cycles", CFG_INT, OFF(core.locked_rmw_cycles), "19", 0, 10000, NULL, "cycles",
      "An atomic read-modify-write performed in the L1 -- x86 LOCK'd ops (cmpxchg, xadd, xchg), arm64 "
      "LSE atomics with core.atomics lse-near -- back to back on a hot line (the line in M): its "
      "throughput, as instruction tables give it.  When the line must be fetched, the memory "
      "system's time replaces the L1 part of it (the op completes locked_rmw_cycles - l1.latency "
      "- 1 after the line arrives).", ANY_ARCH },
    { "core.lock_hold_cycles", CFG_INT, OFF(core.lock_hold_cycles), "15", 0, 10000, NULL, "cycles",
      "x86 cache locking: cycles a LOCK'd RMW keeps its line against snoops after reading it "
      "(from the load-lock to the store-unlock); a snoop arriving then waits.", X86_ONLY },
    { "core.mfence_cycles", CFG_INT, OFF(core.mfence_cycles), "33", 0, 10000, NULL, "cycles",
      "Cost of a full fence once older stores have drained.", ANY_ARCH },
    { "core.lfence_cycles", CFG_INT, OFF(core.lfence_cycles), "4", 0, 10000, NULL, "cycles",
      "Cost of a load fence.", ANY_ARCH },
    { "core.sfence_cycles", CFG_INT, OFF(core.sfence_cycles), "5", 0, 10000, NULL, "cycles",
      "Cost of a store fence.", ANY_ARCH },
    { "core.atomics", CFG_ENUM, OFF(core.atomics), "llsc", 0, 0, atomics_choices, NULL,
      "arm64 atomics: llsc (LDAXR/STLXR loops), lse-near (in the L1, line in M), lse-far (at the home).", ARM64_ONLY },
    { "core.wfe_timeout", CFG_INT, OFF(core.wfe_timeout), "0", 0, 1e12, NULL, "cycles",
      "arm64 WFE wakes after this many cycles without an event (0: never; the event stream is off).", ARM64_ONLY },

    /* The structures of a core its hardware threads share (topology.threads_per_core 2).  The
     * defaults are Intel's since Sandy Bridge (Intel 64 and IA-32 Architectures Optimization
     * Reference Manual, 248966, on Intel Hyper-Threading Technology): the ROB, load and store
     * buffers statically partitioned, the scheduler and the caches competitively shared, the
     * branch predictor shared. */
    { "smt.rob", CFG_ENUM, OFF(smt.rob), "partitioned", 0, 0, smt_choices, NULL,
      "How the hardware threads of a core share its ROB: partitioned (half each while both run; all "
      "of it to a thread whose sibling has halted or is idle in the OS model, not one that pauses), "
      "shared (together at most core.rob), replicated (core.rob each).  Only with "
      "topology.threads_per_core 2.", ANY_ARCH },
    { "smt.load_buffer", CFG_ENUM, OFF(smt.load_buffer), "partitioned", 0, 0, smt_choices, NULL,
      "The same for the load buffer (core.load_buffer).", ANY_ARCH },
    { "smt.store_buffer", CFG_ENUM, OFF(smt.store_buffer), "partitioned", 0, 0, smt_choices, NULL,
      "The same for the store buffer (core.store_buffer).  Each thread's stores are its own: no "
      "store-to-load forwarding between threads, whatever the setting (Linux "
      "Documentation/arch/x86/mds.rst: store buffers are partitioned between the threads and "
      "repartitioned when one goes idle).", ANY_ARCH },
    { "smt.fetch_queue", CFG_ENUM, OFF(smt.fetch_queue), "partitioned", 0, 0, smt_choices, NULL,
      "The same for the fetch queue between fetch and dispatch (2 x core.fetch_width ops), which "
      "stands for the decoded-op queue.", ANY_ARCH },
    { "smt.branch_predictor", CFG_ENUM, OFF(smt.branch_predictor), "shared", 0, 0, smt_choices, NULL,
      "The branch predictor's counters: shared (the threads train one table) or replicated (a table "
      "each); a per-pc table has nothing to partition.  The return-address stack is each "
      "thread's own.", ANY_ARCH },

    { "l1.size", CFG_SIZE, OFF(l1.size), "32KiB", 1024, 1e9, NULL, "bytes", "Private L1 data cache size.", ANY_ARCH },
    { "l1.ways", CFG_INT, OFF(l1.ways), "8", 1, 64, NULL, NULL, "L1 associativity.", ANY_ARCH },
    { "l1.latency", CFG_INT, OFF(l1.latency), "4", 1, 1000, NULL, "cycles", "L1 hit, load-to-use.", ANY_ARCH },
    { "l1.store_cycles", CFG_INT, OFF(l1.store_cycles), "1", 1, 1000, NULL, "cycles",
      "A store from the store buffer committing into the L1 on a hit (a write returns no data: "
      "Intel's and Arm's L1s take a store a cycle).", ANY_ARCH },
    { "l2.enabled", CFG_BOOL, OFF(l2_enabled), "true", 0, 0, NULL, NULL, "Whether cores have a private L2.", ANY_ARCH },
    { "l2.size", CFG_SIZE, OFF(l2.size), "256KiB", 1024, 1e10, NULL, "bytes", "Private L2 size.", ANY_ARCH },
    { "l2.ways", CFG_INT, OFF(l2.ways), "8", 1, 64, NULL, NULL, "L2 associativity.", ANY_ARCH },
    { "l2.latency", CFG_INT, OFF(l2.latency), "12", 1, 1000, NULL, "cycles", "L2 hit, load-to-use.", ANY_ARCH },
    { "llc.size", CFG_SIZE, OFF(llc.size), "2.5MiB", 1024, 1e11, NULL, "bytes",
      "Shared last-level cache per socket (inclusive), all slices together.", ANY_ARCH },
    { "llc.ways", CFG_INT, OFF(llc.ways), "20", 1, 64, NULL, NULL, "LLC associativity.", ANY_ARCH },
    { "llc.latency", CFG_INT, OFF(llc.latency), "36", 1, 10000, NULL, "cycles",
      "LLC hit: the slice's own lookup; the on-die way to the line's slice and back is added "
      "(so a measured load-to-use figure, an average over slices, is this plus the mean round trip).", ANY_ARCH },
    { "llc.slices", CFG_INT, OFF(llc_slices), "0", 0, 256, NULL, NULL,
      "LLC slices per socket, lines interleaved across them (0: one per core).", ANY_ARCH },
    { "memory.latency", CFG_INT, OFF(memory.latency), "200", 1, 100000, NULL, "cycles",
      "Load from local DRAM, load-to-use.", ANY_ARCH },
    { "memory.home", CFG_ENUM, OFF(memory.home), "interleave", 0, 0, home_choices, NULL,
      "A line's home socket (its memory and directory): interleave (line i on socket i mod "
      "sockets) or first-touch (the socket of the first core to access it, as Linux's default "
      "local allocation).", ANY_ARCH },
    /* The OS model's defaults are chosen for a 2.3 GHz Haswell-era x86 server running Linux
     * 4.x (before the 2018 page-table isolation); configs override them with their sources. */
    { "os.syscall_cycles", CFG_INT, OFF(os.syscall_cycles), "300", 0, 1e9, NULL, "cycles",
      "System call entry plus exit (half paid on the way in, half on the way out): a null "
      "system call's round trip.", ANY_ARCH },
    { "os.futex_key_cycles", CFG_INT, OFF(os.futex_key_cycles), "300", 0, 1e9, NULL, "cycles",
      "futex_wait and futex_wake: kernel work before the hash bucket's lock (the futex key, "
      "the hash).  The bucket's waiter count and lock are a real cache line beside it.", ANY_ARCH },
    { "os.futex_hold_cycles", CFG_INT, OFF(os.futex_hold_cycles), "150", 0, 1e9, NULL, "cycles",
      "Work done holding the hash-bucket lock (compare the word, queue or dequeue waiters): "
      "how long the lock line stays taken.", ANY_ARCH },
    { "os.futex_wake_cycles", CFG_INT, OFF(os.futex_wake_cycles), "600", 0, 1e9, NULL, "cycles",
      "futex_wake, after the bucket's lock: try_to_wake_up per thread woken (choose its core, "
      "queue it, send the IPI).", ANY_ARCH },
    { "os.wakeup_cycles", CFG_INT, OFF(os.wakeup_cycles), "4600", 0, 1e10, NULL, "cycles",
      "A thread woken onto an idle core runs this much later: the IPI, the core's exit from its "
      "idle state, the scheduler.", ANY_ARCH },
    { "os.context_switch_cycles", CFG_INT, OFF(os.context_switch_cycles), "2000", 0, 1e10, NULL, "cycles",
      "A busy core switching from one thread to the next (schedule, switch_to; threads of one "
      "process share the address space).", ANY_ARCH },
    { "os.sched_latency_cycles", CFG_INT, OFF(os.sched_latency_cycles), "55200000", 1, 1e13, NULL, "cycles",
      "CFS sched_latency: a core's runnable threads each get this divided by their number as a "
      "time slice, round-robin (but see min_granularity_cycles).", ANY_ARCH },
    { "os.min_granularity_cycles", CFG_INT, OFF(os.min_granularity_cycles), "6900000", 1, 1e13, NULL, "cycles",
      "CFS sched_min_granularity: the shortest time slice.", ANY_ARCH },
    { "os.migration", CFG_BOOL, OFF(os.migration), "true", 0, 0, NULL, NULL,
      "Whether threads may change cores: a woken thread goes to an idle core of its old core's "
      "socket (or the waker's) when its own is busy, and a core left idle takes a waiting "
      "thread from another core's run queue.  false: every thread stays on its first core.", ANY_ARCH },
    { "run.stall_cycles", CFG_INT, OFF(run.stall_cycles), "1000000", 1000, 1e12, NULL, "cycles",
      "A run with no retirement on any core for this long has stalled: it ends with exit 1.", ANY_ARCH },
    { "run.trace_limit", CFG_SIZE, OFF(run.trace_limit), "256MiB", 4096, 1099511627776.0, NULL, "bytes",
      "The most a trace may write (--trace, --trace-out; --trace-html's page): one that reaches it "
      "writes no more and the run fails, saying at which cycle.", ANY_ARCH },
};

const guint qsim_config_schema_len = G_N_ELEMENTS(qsim_config_schema);

const CfgKey *config_schema_find(const char *path)
{
    for (guint i = 0; i < qsim_config_schema_len; i++)
        if (!strcmp(qsim_config_schema[i].path, path))
            return &qsim_config_schema[i];
    return NULL;
}
