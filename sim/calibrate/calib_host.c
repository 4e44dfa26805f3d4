/* The host as /proc/cpuinfo and sysfs describe it (see calib_host.h). */
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include "locks/native/native_cpus.h"
#include "sim/calibrate/calib_host.h"

static const struct {
    const char *name, *meaning;
} calib_pairs[CALIB_PAIR__N] = {
    [CALIB_PAIR_SMT] = { "smt", "SMT siblings of one core" },
    [CALIB_PAIR_SAME_LLC] = { "same-llc", "two cores sharing the last-level cache (one core complex or die)" },
    [CALIB_PAIR_SAME_SOCKET] = { "same-socket", "one package, different last-level caches" },
    [CALIB_PAIR_OTHER_SOCKET] = { "other-socket", "two packages" },
};

const char *calib_pair_name(CalibPairClass c) { return c < CALIB_PAIR__N ? calib_pairs[c].name : "?"; }
const char *calib_pair_meaning(CalibPairClass c) { return c < CALIB_PAIR__N ? calib_pairs[c].meaning : "?"; }

/* Files whose presence or text says "virtual machine", for hosts without the x86 CPUID bit
 * (arm64) or as a second opinion.  needle NULL: any content. */
static const struct {
    const char *path, *needle;
} calib_vm_markers[] = {
    { "/sys/hypervisor/type", NULL },
    { "/proc/device-tree/hypervisor/compatible", NULL },
    { "/sys/class/dmi/id/sys_vendor", "QEMU" },
    { "/sys/class/dmi/id/sys_vendor", "VMware" },
    { "/sys/class/dmi/id/sys_vendor", "innotek" },
    { "/sys/class/dmi/id/sys_vendor", "Xen" },
    { "/sys/class/dmi/id/product_name", "KVM" },
    { "/sys/class/dmi/id/product_name", "Virtual Machine" },
    { "/sys/class/dmi/id/product_name", "VirtualBox" },
    { "/sys/class/dmi/id/product_name", "HVM domU" },
    { "/sys/class/dmi/id/product_name", "Google Compute Engine" },
};

/* ======================================================================================
 * /proc/cpuinfo
 * ====================================================================================== */

/* The value of `key` in the first block of cpuinfo text, or NULL. */
static char *cpuinfo_value(const char *text, const char *key)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    gsize n = strlen(key);
    for (guint i = 0; lines[i]; i++) {
        const char *l = lines[i];
        if (strncmp(l, key, n) || (l[n] != ' ' && l[n] != '\t' && l[n] != ':'))
            continue;
        const char *colon = strchr(l + n, ':');
        if (!colon)
            continue;
        return g_strstrip(g_strdup(colon + 1));
    }
    return NULL;
}

static guint cpuinfo_uint(const char *text, const char *key)
{
    g_autofree char *v = cpuinfo_value(text, key);
    return v ? (guint)g_ascii_strtoull(v, NULL, 0) : 0;
}

void calib_host_parse_cpuinfo(CalibHost *h, Arch arch, const char *text)
{
    h->arch = arch;
    g_clear_pointer(&h->model_name, g_free);
    g_clear_pointer(&h->vendor, g_free);
    if (arch == ARCH_X86) {
        h->vendor = cpuinfo_value(text, "vendor_id");
        h->family = cpuinfo_uint(text, "cpu family");
        h->model = cpuinfo_uint(text, "model");
        h->stepping = cpuinfo_uint(text, "stepping");
        h->model_name = cpuinfo_value(text, "model name");
        g_autofree char *flags = cpuinfo_value(text, "flags");
        if (flags) {
            g_auto(GStrv) f = g_strsplit(flags, " ", -1);
            if (g_strv_contains((const char *const *)f, "hypervisor")) {
                h->vm = TRUE;
                g_free(h->vm_evidence);
                h->vm_evidence = g_strdup("the CPUID hypervisor bit (cpuinfo flag `hypervisor`)");
            }
        }
    } else {
        h->vendor = cpuinfo_value(text, "CPU implementer");
        h->family = cpuinfo_uint(text, "CPU architecture");
        h->model = cpuinfo_uint(text, "CPU part");
        h->stepping = cpuinfo_uint(text, "CPU variant");
        h->model_name = cpuinfo_value(text, "model name");
    }
    if (!h->model_name || !*h->model_name) {
        g_free(h->model_name);
        h->model_name = g_strdup_printf("%s CPU, implementer %s part 0x%03x", arch_name(arch),
                                        h->vendor ? h->vendor : "?", h->model);
    }
}

char *calib_host_cpu_text(const CalibHost *h)
{
    if (h->arch == ARCH_X86)
        return g_strdup_printf("%s (%s family 0x%x model 0x%02x stepping %u)", h->model_name,
                               h->vendor ? h->vendor : "?", h->family, h->model, h->stepping);
    return g_strdup_printf("%s (implementer %s part 0x%03x variant %u)", h->model_name,
                           h->vendor ? h->vendor : "?", h->model, h->stepping);
}

/* ======================================================================================
 * sysfs
 * ====================================================================================== */

static char *read_text(const char *root, const char *path)
{
    g_autofree char *full = g_strconcat(root, path, NULL);
    char *text = NULL;
    if (!g_file_get_contents(full, &text, NULL, NULL))
        return NULL;
    return g_strstrip(text);
}

static gint read_int(const char *root, const char *path, gint fallback)
{
    g_autofree char *t = read_text(root, path);
    return t && g_ascii_isdigit(*t) ? (gint)g_ascii_strtoll(t, NULL, 10) : fallback;
}

/* The first CPU of a list such as "0-3,8" (the group's id), or -1. */
static gint first_of_list(const char *root, const char *path)
{
    g_autofree char *t = read_text(root, path);
    g_autoptr(GArray) cpus = NULL;
    if (!t || !native_parse_cpus(t, &cpus, NULL))
        return -1;
    guint lo = G_MAXUINT;
    for (guint i = 0; i < cpus->len; i++)
        lo = MIN(lo, g_array_index(cpus, guint, i));
    return (gint)lo;
}

/* "32K", "512K", "32768K", "1M", "8192" (bytes). */
static gint64 parse_size(const char *t)
{
    char *end;
    gint64 v = g_ascii_strtoll(t, &end, 10);
    switch (*end) {
    case 'K': return v << 10;
    case 'M': return v << 20;
    case 'G': return v << 30;
    default: return v;
    }
}

/* The caches of `cpu`: level 1 data, level 2 unless it is the last level, the last level. */
static void probe_caches(CalibHost *h, const char *root, guint cpu, const CalibCpuTopo *me)
{
    struct { gint level; gint64 size, ways, line; gboolean shared; } found[8];
    guint n = 0;
    for (guint i = 0; i < 8; i++) {
        g_autofree char *dir = g_strdup_printf("/sys/devices/system/cpu/cpu%u/cache/index%u", cpu, i);
        g_autofree char *lp = g_strconcat(dir, "/level", NULL);
        gint level = read_int(root, lp, -1);
        if (level < 0)
            continue;
        g_autofree char *tp = g_strconcat(dir, "/type", NULL);
        g_autofree char *type = read_text(root, tp);
        if (type && !strcmp(type, "Instruction"))
            continue;
        g_autofree char *sp = g_strconcat(dir, "/size", NULL), *wp = g_strconcat(dir, "/ways_of_associativity", NULL);
        g_autofree char *cp = g_strconcat(dir, "/coherency_line_size", NULL), *sh = g_strconcat(dir, "/shared_cpu_list", NULL);
        g_autofree char *size = read_text(root, sp);
        found[n].level = level;
        found[n].size = size ? parse_size(size) : 0;
        found[n].ways = read_int(root, wp, 0);
        found[n].line = read_int(root, cp, 0);
        g_autofree char *shared_text = read_text(root, sh);
        g_autoptr(GArray) sharers = NULL;
        /* Shared when some CPU in the list is not an SMT sibling of `cpu`. */
        found[n].shared = FALSE;
        if (shared_text && native_parse_cpus(shared_text, &sharers, NULL))
            for (guint k = 0; k < sharers->len; k++) {
                guint c = g_array_index(sharers, guint, k);
                for (guint t = 0; t < h->topo->len; t++) {
                    const CalibCpuTopo *o = &g_array_index(h->topo, CalibCpuTopo, t);
                    if (o->cpu == c && o->core != me->core)
                        found[n].shared = TRUE;
                }
            }
        n++;
    }
    gint top = 0;
    for (guint i = 0; i < n; i++)
        top = MAX(top, found[i].level);
    for (guint i = 0; i < n; i++) {
        CalibCacheLevel which;
        if (found[i].level == 1)
            which = CALIB_CACHE_L1;
        else if (found[i].level == top)
            which = CALIB_CACHE_LLC;
        else if (found[i].level == 2)
            which = CALIB_CACHE_L2;
        else
            continue;
        h->cache[which] = (CalibCache){ found[i].size, found[i].ways, found[i].line, TRUE, found[i].shared };
    }
}

static gint llc_of(const char *root, guint cpu)
{
    gint best_level = -1, id = -1;
    for (guint i = 0; i < 8; i++) {
        g_autofree char *lp = g_strdup_printf("/sys/devices/system/cpu/cpu%u/cache/index%u/level", cpu, i);
        g_autofree char *sp = g_strdup_printf("/sys/devices/system/cpu/cpu%u/cache/index%u/shared_cpu_list", cpu, i);
        gint level = read_int(root, lp, -1);
        if (level > best_level) {
            best_level = level;
            id = first_of_list(root, sp);
        }
    }
    return id;
}

static guint count_distinct(const GArray *topo, gsize offset)
{
    g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint i = 0; i < topo->len; i++) {
        const CalibCpuTopo *t = &g_array_index(topo, CalibCpuTopo, i);
        gint v = G_STRUCT_MEMBER(gint, t, offset);
        g_hash_table_add(seen, GINT_TO_POINTER(v + 2));
    }
    return g_hash_table_size(seen);
}

static void probe_vm(CalibHost *h, const char *root)
{
#if defined(__x86_64__)
    if (h->vm) {
        unsigned a, b, c, d;
        __cpuid(0x40000000, a, b, c, d);
        char vendor[13];
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &c, 4);
        memcpy(vendor + 8, &d, 4);
        vendor[12] = 0;
        g_strstrip(vendor);
        if (*vendor) {
            g_autofree char *old = h->vm_evidence;
            h->vm_evidence = g_strdup_printf("%s, hypervisor vendor \"%s\"", old, vendor);
        }
        return;
    }
#endif
    for (guint i = 0; i < G_N_ELEMENTS(calib_vm_markers); i++) {
        g_autofree char *t = read_text(root, calib_vm_markers[i].path);
        if (!t || !*t || (calib_vm_markers[i].needle && !strstr(t, calib_vm_markers[i].needle)))
            continue;
        h->vm = TRUE;
        g_free(h->vm_evidence);
        h->vm_evidence = g_strdup_printf("%s says \"%s\"", calib_vm_markers[i].path, t);
        return;
    }
}

void calib_host_probe(CalibHost *h, const char *root, guint cpu)
{
    Arch arch = ARCH_X86;
#if defined(__aarch64__)
    arch = ARCH_ARM64;
#endif
    g_autofree char *cpuinfo = read_text(root, "/proc/cpuinfo");
    calib_host_parse_cpuinfo(h, arch, cpuinfo ? cpuinfo : "");
    probe_vm(h, root);

    g_autofree char *online = read_text(root, "/sys/devices/system/cpu/online");
    g_autoptr(GArray) cpus = NULL;
    if (!online || !native_parse_cpus(online, &cpus, NULL))
        cpus = native_allowed_cpus();
    if (!h->topo)
        h->topo = g_array_new(FALSE, TRUE, sizeof(CalibCpuTopo));
    g_array_set_size(h->topo, 0);
    for (guint i = 0; i < cpus->len; i++) {
        guint c = g_array_index(cpus, guint, i);
        g_autofree char *pp = g_strdup_printf("/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
        g_autofree char *sp = g_strdup_printf("/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
        CalibCpuTopo t = { c, read_int(root, pp, -1), first_of_list(root, sp), llc_of(root, c) };
        if (t.core < 0)
            t.core = (gint)c;
        g_array_append_val(h->topo, t);
    }
    h->online_cpus = h->topo->len;
    h->packages = count_distinct(h->topo, G_STRUCT_OFFSET(CalibCpuTopo, package));
    h->llc_domains = count_distinct(h->topo, G_STRUCT_OFFSET(CalibCpuTopo, llc));
    h->cores = count_distinct(h->topo, G_STRUCT_OFFSET(CalibCpuTopo, core));
    h->threads_per_core = h->cores ? (h->online_cpus + h->cores - 1) / h->cores : 1;
    /* The most cores any one LLC serves. */
    h->cores_per_llc = 0;
    for (guint i = 0; i < h->topo->len; i++) {
        const CalibCpuTopo *a = &g_array_index(h->topo, CalibCpuTopo, i);
        g_autoptr(GHashTable) cores = g_hash_table_new(g_direct_hash, g_direct_equal);
        for (guint j = 0; j < h->topo->len; j++) {
            const CalibCpuTopo *b = &g_array_index(h->topo, CalibCpuTopo, j);
            if (b->llc == a->llc)
                g_hash_table_add(cores, GINT_TO_POINTER(b->core + 1));
        }
        h->cores_per_llc = MAX(h->cores_per_llc, g_hash_table_size(cores));
    }

    const CalibCpuTopo *me = NULL;
    for (guint i = 0; i < h->topo->len; i++)
        if (g_array_index(h->topo, CalibCpuTopo, i).cpu == cpu)
            me = &g_array_index(h->topo, CalibCpuTopo, i);
    if (me)
        probe_caches(h, root, cpu, me);

    g_autofree char *load = read_text(root, "/proc/loadavg");
    h->loadavg = load ? g_ascii_strtod(load, NULL) : 0;
    g_autofree char *thp = read_text(root, "/sys/kernel/mm/transparent_hugepage/enabled");
    const char *open = thp ? strchr(thp, '[') : NULL, *close = open ? strchr(open, ']') : NULL;
    g_free(h->thp);
    h->thp = close ? g_strndup(open + 1, (gsize)(close - open - 1)) : NULL;
}

void calib_host_clear(CalibHost *h)
{
    g_free(h->model_name);
    g_free(h->vendor);
    g_free(h->vm_evidence);
    g_free(h->thp);
    if (h->topo)
        g_array_free(h->topo, TRUE);
    memset(h, 0, sizeof *h);
}

const CalibCpuTopo *calib_host_cpu(const CalibHost *h, guint cpu)
{
    for (guint i = 0; h->topo && i < h->topo->len; i++)
        if (g_array_index(h->topo, CalibCpuTopo, i).cpu == cpu)
            return &g_array_index(h->topo, CalibCpuTopo, i);
    return NULL;
}

CalibPairClass calib_host_pair_class(const CalibHost *h, guint a, guint b)
{
    const CalibCpuTopo *x = calib_host_cpu(h, a), *y = calib_host_cpu(h, b);
    if (!x || !y)
        return CALIB_PAIR_SAME_LLC;
    if (x->core == y->core)
        return CALIB_PAIR_SMT;
    if (x->llc == y->llc)
        return CALIB_PAIR_SAME_LLC;
    if (x->package == y->package)
        return CALIB_PAIR_SAME_SOCKET;
    return CALIB_PAIR_OTHER_SOCKET;
}
