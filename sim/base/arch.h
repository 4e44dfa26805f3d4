/* The two architectures the ISA runs as.  The ISA decides what each op means on each (x86: every
 * atomic a LOCK'd full barrier, `pause` PAUSE; arm64: LDAR/STLR, LSE or LL/SC, YIELD, WFE), and
 * a machine config names one.  This header includes nothing, so the config may use it. */
#ifndef QSIM_ARCH_H
#define QSIM_ARCH_H

#include <glib.h>

typedef enum { ARCH_X86, ARCH_ARM64 } Arch;
#define ARCH__N 2

/* How a machine does its atomic read-modify-writes.  x86: always LOCK-prefixed.  arm64, per
 * config (core.atomics): LL/SC loops of LDAXR/STLXR (ARMv8.0), or LSE single instructions
 * (ARMv8.1 CASAL, LDADDAL, ...; lse-near and lse-far differ in timing only, not in code). */
typedef enum { ARCH_ATOMICS_LOCKED, ARCH_ATOMICS_LLSC, ARCH_ATOMICS_LSE } ArchAtomics;
#define ARCH_ATOMICS__N 3

/* What a program is assembled for: conditional assembly (`.if arch=arm64`, `.if atomics=lse`)
 * selects on both, and `with` placements must fit its cache line.  Invariant: atomics is LOCKED
 * on x86 and LLSC or LSE on arm64. */
typedef struct {
    Arch arch;
    ArchAtomics atomics;
    guint line_size;      /* bytes; 0: the assembler's default (ASM_LINE_SIZE, a host's 64) */
} ArchTarget;

/* "x86" or "arm64": the spelling of configs, options and reports. */
const char *arch_name(Arch a);
/* The other one: where an op that is missing on `a` is found. */
static inline Arch arch_other(Arch a) { return a == ARCH_X86 ? ARCH_ARM64 : ARCH_X86; }
/* Parses `s` ("x86" or "arm64"; NULL means x86) for option `option` ("--arch"). */
gboolean arch_parse(const char *s, const char *option, Arch *out, GError **error);

/* "locked", "llsc" or "lse": the spelling of `.if atomics=` and of --atomics. */
const char *arch_atomics_name(ArchAtomics k);
/* Whether `a` has atomics of kind `k` (x86: locked; arm64: llsc or lse). */
gboolean arch_atomics_on(Arch a, ArchAtomics k);
/* `a` with its default atomics: x86 locked, arm64 llsc (the default of core.atomics). */
ArchTarget arch_target(Arch a);
/* "x86" or "arm64 (llsc)": a target for people. */
char *arch_target_describe(ArchTarget t);
/* The target of options --arch ARCH (`arch_s`; NULL: x86) and --atomics KIND (`atomics_s`;
 * NULL: the arch's default), or FALSE with an error naming the option. */
gboolean arch_target_parse(const char *arch_s, const char *atomics_s, ArchTarget *out, GError **error);

#endif
