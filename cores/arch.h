/* The two architectures the ISA runs as.  The ISA decides what each op means on each (x86: every
 * atomic a LOCK'd full barrier, `pause` PAUSE; arm64: LDAR/STLR, LSE or LL/SC, YIELD, WFE), and
 * a machine config names one.  This header includes nothing, so the config may use it. */
#ifndef QSIM_ARCH_H
#define QSIM_ARCH_H

#include <glib.h>

typedef enum { ARCH_X86, ARCH_ARM64 } Arch;
#define ARCH__N 2

/* "x86" or "arm64": the spelling of configs, options and reports. */
const char *arch_name(Arch a);
/* The other one: where an op that is missing on `a` is found. */
static inline Arch arch_other(Arch a) { return a == ARCH_X86 ? ARCH_ARM64 : ARCH_X86; }
/* Parses `s` ("x86" or "arm64"; NULL means x86) for option `option` ("--arch"). */
gboolean arch_parse(const char *s, const char *option, Arch *out, GError **error);

#endif
