/* The known-cores table (see calib_known.h).  Each row's values and their sources are those of
 * the shipped config for that core (configs/NAME.yaml) and of PARAMETERS.md; the Zen 3 row
 * quotes AMD's optimization guide as LLVM's Znver3 model cites it. */
#include <string.h>
#include "sim/calibrate/calib_known.h"

const char *const calib_known_keys[] = {
    "protocol",
    "topology.ondie", "topology.ondie_hop_cycles", "topology.cross_socket",
    "core.fetch_width", "core.retire_width", "core.rob", "core.load_buffer", "core.store_buffer",
    "core.branch_mispredict_penalty", "core.machine_clear_penalty", "core.rollback", "core.atomics",
    NULL,
};

/* ---- Intel ---- */

#define INTEL_SOURCES                                                                              \
    "[AF-M] Agner Fog, The microarchitecture of Intel, AMD and VIA CPUs (2020-09-02)\n"            \
    "[TD]   Travis Downs, buffer-size table (2019)\n"                                               \
    "[LLVM] LLVM scheduling models (compiler cost models, not measurements)\n"                      \
    "[IOM]  Intel 64 and IA-32 Architectures Optimization Reference Manual\n"

static const CalibKnownValue nehalem_values[] = {
    { "protocol", "mesif", "[SOSP13] Table 1 (David, Guerraoui, Trigonakis, SOSP 2013)" },
    { "topology.ondie", "ring", "chosen: as configs/westmere-ex.yaml" },
    { "topology.ondie_hop_cycles", "1", "chosen: one ring stop per cycle, as later Intel rings" },
    { "core.fetch_width", "4", "[AF-M]" },
    { "core.retire_width", "4", "[AF-M]" },
    { "core.rob", "128", "[TD] (Nehalem; Westmere is its shrink)" },
    { "core.load_buffer", "48", "[TD] (Nehalem)" },
    { "core.store_buffer", "32", "[TD] (Nehalem)" },
    { "core.branch_mispredict_penalty", "17", "[AF-M] at least 17" },
    { "core.machine_clear_penalty", "17", "chosen: no public figure; a full refill like a mispredict" },
    { "core.rollback", "conservative", "[IOM] a snoop hit on an executed, unretired load clears the pipeline" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue sandybridge_values[] = {
    { "protocol", "mesif", "[AF-M] Intel's protocol since Nehalem" },
    { "topology.ondie", "ring", "chosen: Sandy Bridge joins cores and LLC slices by a ring" },
    { "topology.ondie_hop_cycles", "1", "chosen: one ring stop per cycle" },
    { "core.rob", "168", "[TD]" },
    { "core.load_buffer", "64", "[TD]" },
    { "core.store_buffer", "36", "[TD]" },
    { "core.rollback", "conservative", "[IOM] a snoop hit on an executed, unretired load clears the pipeline" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue haswell_values[] = {
    { "protocol", "mesif", "[AF-M] Intel's protocol since Nehalem" },
    { "topology.ondie", "ring", "[AT] two rings joined by switches on the 18-core die; modelled as one ring" },
    { "topology.ondie_hop_cycles", "1", "[AF-M] one ring stop per cycle" },
    { "topology.cross_socket", "directory", "[AT] Haswell-EP home snoop with directory bits in memory" },
    { "core.fetch_width", "4", "[AF-M] 4-wide rename/retire" },
    { "core.retire_width", "4", "[AF-M]" },
    { "core.rob", "192", "[TD]" },
    { "core.load_buffer", "72", "[TD]" },
    { "core.store_buffer", "42", "[TD]" },
    { "core.branch_mispredict_penalty", "16", "[LLVM] X86SchedHaswell.td 16; [AF-M] 15-20" },
    { "core.machine_clear_penalty", "16", "chosen: no public figure; a full refill like a mispredict" },
    { "core.rollback", "conservative", "[IOM] a snoop hit on an executed, unretired load clears the pipeline" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue skylake_client_values[] = {
    { "protocol", "mesif", "[AF-M] Intel's protocol since Nehalem" },
    { "topology.ondie", "ring", "chosen: client Skylake keeps the ring of the earlier client parts" },
    { "topology.ondie_hop_cycles", "1", "chosen: one ring stop per cycle" },
    { "core.rob", "224", "[TD]" },
    { "core.load_buffer", "72", "[TD]" },
    { "core.store_buffer", "56", "[TD]" },
    { "core.branch_mispredict_penalty", "14", "[LLVM] 14 (Skylake); [AF-M] 15-20" },
    { "core.machine_clear_penalty", "14", "chosen: no public figure; a full refill like a mispredict" },
    { "core.rollback", "conservative", "[IOM] a snoop hit on an executed, unretired load clears the pipeline" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue skylake_sp_values[] = {
    { "protocol", "mesif", "[AF-M] Intel's protocol since Nehalem" },
    { "topology.ondie", "mesh", "Skylake-SP joins cores and LLC slices by a mesh (as configs/skylake-sp.yaml)" },
    { "topology.ondie_hop_cycles", "1", "chosen: one mesh hop per cycle" },
    { "topology.cross_socket", "directory", "chosen: as configs/skylake-sp.yaml" },
    { "core.rob", "224", "[TD] (Skylake client; SP assumed the same core)" },
    { "core.load_buffer", "72", "[TD]" },
    { "core.store_buffer", "56", "[TD]" },
    { "core.branch_mispredict_penalty", "14", "[LLVM] X86SchedSkylakeServer.td 14; [AF-M] 15-20" },
    { "core.machine_clear_penalty", "14", "chosen: no public figure; a full refill like a mispredict" },
    { "core.rollback", "conservative", "[IOM] a snoop hit on an executed, unretired load clears the pipeline" },
    { NULL, NULL, NULL },
};

/* ---- AMD ---- */

static const CalibKnownValue k10_values[] = {
    { "protocol", "moesi", "[SOSP13] Table 1" },
    { "topology.ondie", "crossbar", "[AF-M] K10 system request queue and crossbar" },
    { "topology.ondie_hop_cycles", "0", "chosen: a crossbar has no hops" },
    { "topology.cross_socket", "directory", "[SOSP13] the probe filter records the owner" },
    { "core.fetch_width", "3", "[AF-M] K10 is 3-wide" },
    { "core.retire_width", "3", "[AF-M]" },
    { "core.rob", "72", "[AF-M] K10 reorder buffer: 72 macro-ops" },
    { "core.load_buffer", "32", "chosen: K10 LS1+LS2 queues (12 + 32 entries) [AF-M], approximated" },
    { "core.store_buffer", "20", "chosen: no separate public figure" },
    { "core.branch_mispredict_penalty", "12", "[AF-M] K10: 12 cycles" },
    { "core.machine_clear_penalty", "12", "chosen: like a mispredict" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue zen3_values[] = {
    { "protocol", "moesi", "[APM] vol. 1: AMD64 implementations keep caches coherent with the five-state MOESI protocol" },
    { "topology.ondie", "crossbar", "chosen: no public hop figure for the core complex's L3 network; "
                                    "0-cycle hops put the whole measured LLC latency in llc.latency" },
    { "topology.ondie_hop_cycles", "0", "chosen: see topology.ondie" },
    { "core.fetch_width", "6", "[SOG19h] 2.9.6: dispatch of up to 6 macro ops per cycle" },
    { "core.retire_width", "8", "[SOG19h] 2.10.3: retire of up to 8 macro ops per cycle" },
    { "core.rob", "256", "[SOG19h] 2.10.3: 256 macro ops in flight (non-SMT)" },
    { "core.load_buffer", "72", "[SOG19h] 2.12: up to 72 out-of-order loads" },
    { "core.store_buffer", "64", "[SOG19h] 2.12: a 64-entry store queue" },
    { "core.branch_mispredict_penalty", "13", "[SOG19h] 2.8: 11 to 18 cycles, 13 in the common case" },
    { "core.machine_clear_penalty", "13", "chosen: no public figure; a refill like a mispredict" },
    { "core.rollback", "conservative", "chosen: x86 ordering; AMD publishes no figure for the mechanism" },
    { NULL, NULL, NULL },
};

/* ---- Arm ---- */

static const CalibKnownValue neoverse_n1_values[] = {
    { "protocol", "mesi", "chosen: CMN-600 runs a MESI-like CHI protocol" },
    { "topology.ondie", "mesh", "CMN-600 mesh (as configs/neoverse-n1.yaml)" },
    { "topology.ondie_hop_cycles", "2", "chosen: CMN-600 crosspoint hop" },
    { "core.fetch_width", "4", "[LLVM] AArch64SchedNeoverseN1.td, 4-wide decode" },
    { "core.retire_width", "4", "[LLVM]" },
    { "core.rob", "128", "[LLVM] 128; [TD] ~124 measured" },
    { "core.load_buffer", "62", "[TD] ~62" },
    { "core.store_buffer", "40", "[TD] ~40" },
    { "core.branch_mispredict_penalty", "11", "[LLVM]" },
    { "core.machine_clear_penalty", "11", "chosen: like a mispredict; arm64 takes no ordering rollback anyway" },
    { "core.rollback", "none", "arm64 allows load-load reordering" },
    { "core.atomics", "lse-near", "[A76] Cortex-A76 TRM: atomics on a unique line in L1 run near" },
    { NULL, NULL, NULL },
};

static const CalibKnownValue thunderx_values[] = {
    { "protocol", "mesi", "chosen: no public description of the protocol" },
    { "topology.ondie", "crossbar", "[CN88] cores reach the L2 through a crossbar" },
    { "topology.ondie_hop_cycles", "0", "chosen: a crossbar has no hops" },
    { "core.fetch_width", "2", "[LLVM] AArch64SchedThunderX.td: 2-issue" },
    { "core.retire_width", "2", "[LLVM]" },
    { "core.rob", "8", "chosen: an in-order core, modelled as a very small window" },
    { "core.load_buffer", "4", "chosen" },
    { "core.store_buffer", "8", "chosen" },
    { "core.branch_mispredict_penalty", "8", "[LLVM]" },
    { "core.machine_clear_penalty", "8", "chosen" },
    { "core.rollback", "none", "arm64 allows load-load reordering" },
    { "core.atomics", "llsc", "ARMv8.0 exclusives (LSE came with ThunderX2)" },
    { NULL, NULL, NULL },
};

const CalibKnownCore calib_known_cores[] = {
    { "Nehalem/Westmere", ARCH_X86, "GenuineIntel", 6,
      { { 0x1a, 0x1a }, { 0x1e, 0x1f }, { 0x2e, 0x2e }, { 0x25, 0x25 }, { 0x2c, 0x2c }, { 0x2f, 0x2f } }, 6,
      "[SOSP13] T. David, R. Guerraoui, V. Trigonakis, SOSP 2013\n" INTEL_SOURCES, nehalem_values },
    { "Sandy Bridge", ARCH_X86, "GenuineIntel", 6, { { 0x2a, 0x2a }, { 0x2d, 0x2d } }, 2,
      INTEL_SOURCES, sandybridge_values },
    { "Haswell", ARCH_X86, "GenuineIntel", 6, { { 0x3c, 0x3c }, { 0x3f, 0x3f }, { 0x45, 0x46 } }, 3,
      INTEL_SOURCES "[AT]   AnandTech, Haswell-EP review (2014)\n", haswell_values },
    { "Skylake (client)", ARCH_X86, "GenuineIntel", 6,
      { { 0x4e, 0x4e }, { 0x5e, 0x5e }, { 0x8e, 0x8e }, { 0x9e, 0x9e } }, 4, INTEL_SOURCES,
      skylake_client_values },
    { "Skylake-SP / Cascade Lake", ARCH_X86, "GenuineIntel", 6, { { 0x55, 0x55 } }, 1, INTEL_SOURCES,
      skylake_sp_values },
    { "AMD K10 (Magny-Cours)", ARCH_X86, "AuthenticAMD", 0x10, { { 0x00, 0xff } }, 1,
      "[SOSP13] T. David, R. Guerraoui, V. Trigonakis, SOSP 2013\n"
      "[AF-M] Agner Fog, The microarchitecture of Intel, AMD and VIA CPUs (2020-09-02)\n",
      k10_values },
    { "AMD Zen 3", ARCH_X86, "AuthenticAMD", 0x19, { { 0x00, 0x0f }, { 0x20, 0x2f }, { 0x40, 0x5f } }, 3,
      "[SOG19h] AMD, Software Optimization Guide for AMD Family 19h Processors, pub. 56665 (2020),\n"
      "         as quoted in LLVM's X86ScheduleZnver3.td\n"
      "[APM]    AMD64 Architecture Programmer's Manual, vol. 1 (pub. 24592), \"Cache Coherency and MOESI\"\n",
      zen3_values },
    { "Arm Neoverse N1", ARCH_ARM64, "0x41", 8, { { 0xd0c, 0xd0c } }, 1,
      "[LLVM] AArch64SchedNeoverseN1.td (a compiler cost model)\n"
      "[TD]   Travis Downs, measured buffer sizes\n"
      "[A76]  Arm Cortex-A76 Technical Reference Manual\n",
      neoverse_n1_values },
    { "Cavium ThunderX (T88)", ARCH_ARM64, "0x43", 8, { { 0x0a1, 0x0a1 } }, 1,
      "[LLVM] AArch64SchedThunderX.td (a compiler cost model)\n"
      "[CN88] Cavium ThunderX CN88XX product brief\n",
      thunderx_values },
};
const guint calib_known_cores_len = G_N_ELEMENTS(calib_known_cores);

const CalibKnownCore *calib_known_lookup(Arch arch, const char *vendor, guint family, guint model)
{
    for (guint i = 0; i < calib_known_cores_len; i++) {
        const CalibKnownCore *c = &calib_known_cores[i];
        if (c->arch != arch || c->family != family || !vendor || g_ascii_strcasecmp(c->vendor, vendor))
            continue;
        for (guint r = 0; r < c->n_models; r++)
            if (model >= c->models[r].lo && model <= c->models[r].hi)
                return c;
    }
    return NULL;
}

const CalibKnownValue *calib_known_value(const CalibKnownCore *c, const char *key)
{
    for (const CalibKnownValue *v = c ? c->values : NULL; v && v->key; v++)
        if (!strcmp(v->key, key))
            return v;
    return NULL;
}
