/* Known cores: what `qsim calibrate` cannot measure from user space (buffer sizes, penalties,
 * the protocol, the on-die network) for the cores of the shipped configs and a few more, keyed by CPUID
 * vendor, family and model (arm64: implementer and part), each value with its public source.
 * The values and sources are those of the shipped configs (configs/NAME.yaml) and
 * PARAMETERS.md; a key a row lacks is written at the schema default, marked chosen. */
#ifndef QSIM_CALIB_KNOWN_H
#define QSIM_CALIB_KNOWN_H

#include <glib.h>
#include "sim/base/arch.h"

typedef struct {
    const char *key;      /* config path */
    const char *value;    /* YAML text */
    const char *source;   /* "[TD]", "chosen: ...", as the configs write it */
} CalibKnownValue;

typedef struct {
    guint lo, hi;         /* model (arm64: part) range, inclusive */
} CalibModelRange;

typedef struct {
    const char *name;             /* "Haswell" */
    Arch arch;
    const char *vendor;           /* x86 vendor_id; arm64 implementer as cpuinfo writes it */
    guint family;                 /* x86 family; arm64 architecture (8) */
    CalibModelRange models[6];
    guint n_models;
    const char *sources;          /* the key to the tags its values cite, one line each */
    const CalibKnownValue *values;/* NULL-key terminated */
} CalibKnownCore;

extern const CalibKnownCore calib_known_cores[];
extern const guint calib_known_cores_len;
/* The keys every row may set (and that an unknown core gets at the schema default). */
extern const char *const calib_known_keys[];

/* The row for a CPU, or NULL. */
const CalibKnownCore *calib_known_lookup(Arch arch, const char *vendor, guint family, guint model);
/* The row's value for key, or NULL. */
const CalibKnownValue *calib_known_value(const CalibKnownCore *c, const char *key);

#endif
