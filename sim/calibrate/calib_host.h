/* What `qsim calibrate` reads about the host rather than measures: the CPU model
 * (/proc/cpuinfo), caches and topology (sysfs), and whether it runs under a hypervisor. */
#ifndef QSIM_CALIB_HOST_H
#define QSIM_CALIB_HOST_H

#include <glib.h>
#include "sim/base/arch.h"

/* One cache level as sysfs shows it for the measuring CPU; 0 for what is not visible. */
typedef struct {
    gint64 size, ways, line;   /* bytes, ways, bytes */
    gboolean visible;          /* present in sysfs */
    gboolean shared;           /* shared with CPUs other than the measuring core's SMT siblings */
} CalibCache;

typedef enum { CALIB_CACHE_L1, CALIB_CACHE_L2, CALIB_CACHE_LLC, CALIB_CACHE__N } CalibCacheLevel;

/* Where one CPU sits: ids are the smallest CPU of its group, -1 where sysfs does not say. */
typedef struct {
    guint cpu;
    gint package;    /* physical_package_id */
    gint core;       /* first CPU of its SMT siblings */
    gint llc;        /* first CPU sharing its last-level cache */
} CalibCpuTopo;

/* How two CPUs are related, nearest first (ccbench's distances). */
typedef enum {
    CALIB_PAIR_SMT,          /* SMT siblings of one core */
    CALIB_PAIR_SAME_LLC,     /* two cores sharing the last-level cache (a core complex, a die) */
    CALIB_PAIR_SAME_SOCKET,  /* one package, different last-level caches */
    CALIB_PAIR_OTHER_SOCKET,
    CALIB_PAIR__N
} CalibPairClass;
const char *calib_pair_name(CalibPairClass c);     /* "same-llc" */
const char *calib_pair_meaning(CalibPairClass c);  /* "two cores sharing the last-level cache" */

/* The host.  Invariant: the counts describe the online CPUs, not only the allowed ones. */
typedef struct {
    Arch arch;
    char *model_name;          /* "model name", or built from the ids (arm64 often has none) */
    char *vendor;              /* x86 vendor_id ("GenuineIntel"); arm64 "CPU implementer" (0x41) */
    guint family, model, stepping;  /* x86 CPUID; arm64: architecture, "CPU part", "CPU variant" */
    gboolean vm;               /* under a hypervisor */
    char *vm_evidence;         /* what said so ("CPUID hypervisor bit, vendor KVMKVMKVM") */
    guint online_cpus, packages, llc_domains, cores, cores_per_llc, threads_per_core;
    CalibCache cache[CALIB_CACHE__N];
    char *thp;                 /* transparent huge pages mode: always, madvise, never; NULL unknown */
    double loadavg;            /* the 1-minute load average when probed */
    GArray *topo;              /* CalibCpuTopo, online CPUs ascending */
} CalibHost;

/* Fills h from /proc and /sys under `root` ("" for the real ones); `cpu` is the measuring CPU,
 * whose caches are read.  Missing files leave fields unknown rather than failing. */
void calib_host_probe(CalibHost *h, const char *root, guint cpu);
/* Fills the identity fields (model name, vendor, family, model, stepping, the x86 hypervisor
 * flag) from /proc/cpuinfo text for `arch`. */
void calib_host_parse_cpuinfo(CalibHost *h, Arch arch, const char *text);
void calib_host_clear(CalibHost *h);
/* "AMD EPYC (AuthenticAMD family 0x19 model 0x01 stepping 1)", or the arm64 ids. */
char *calib_host_cpu_text(const CalibHost *h);
/* Where online CPU `cpu` sits, or NULL when sysfs did not show it. */
const CalibCpuTopo *calib_host_cpu(const CalibHost *h, guint cpu);
/* The relation of two online CPUs (unknown sysfs ids count as "same"). */
CalibPairClass calib_host_pair_class(const CalibHost *h, guint a, guint b);

#endif
