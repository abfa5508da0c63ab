/* HIP backend: the HIP runtime and hipRTC are loaded at run time (dlopen; NUNART_HIP_LIBRARY and
 * NUNART_HIPRTC_LIBRARY override the files). The embedded executor is compiled by hipRTC for
 * exactly the device's ISA (its gcnArchName, else its KFD topology node; option arch= names it
 * where neither does, and must agree where one does) and run by gpu_exec.c
 * on the default stream. Pinned launches place at die level: the dispatcher reads XCC_ID, so
 * tbinfo carries each threadblock's planned XCD, and the grid is dies x per-die blocks, which
 * SPX's round-robin (slot b to XCD b mod dies) spreads evenly. The CU within an XCD is the
 * hardware's choice; HW_ID is read back and reported, not compared. The CU and XCD counts and the
 * ISA come from the KFD topology in sysfs (the device's PCI address names its node), since HIP's
 * attribute enums and property structs differ between ROCm releases; the ISA also from the
 * device's gcnArchName, read at its offset in either property layout; hipRTC's version is checked
 * against the target before compiling, because an unsupported target aborts the process inside
 * hipRTC; a device whose ISA is unknown is refused rather than compiled for hipRTC's default.
 * Every entry point saves the caller's current device and restores it. For libraries that launch
 * their own kernels, alloc also creates one stream per NAR domain with
 * hipExtStreamCreateWithCUMask (nunart_load checked that no mask empties a die under modulo
 * dispatch); the executor does not use them. */
#include "gpu_exec.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    nr_gpu gpu;
    void *lib;
    char lib_file[192];
    int (*Init)(unsigned);
    int (*GetDeviceCount)(int *);
    int (*SetDevice)(int);
    int (*DeviceGetName)(char *, int, int);
    int (*StreamCreateWithCUMask)(void **, unsigned, const unsigned *);
    int (*StreamDestroy)(void *);
    int (*Malloc)(void **, size_t);
    int (*Free)(void *);
    int (*MemcpyHtoD)(void *, void *, size_t);
    int (*MemcpyDtoH)(void *, void *, size_t);
    int (*MemsetD32)(void *, int, size_t);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*ModuleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
    int (*DeviceSynchronize)(void);
    int (*MemGetInfo)(size_t *, size_t *);
    const char *(*GetErrorString)(int);
    int (*DeviceCanAccessPeer)(int *, int, int);
    int (*DeviceEnablePeerAccess)(int, unsigned);
    int (*HostMalloc)(void **, size_t, unsigned);
    int (*HostFree)(void *);
    int (*HostGetDevicePointer)(void **, void *, unsigned);
    int (*GetDevice)(int *);
    int (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, void *, int, size_t);
    int (*DeviceGetPCIBusId)(char *, int, int); /* optional: without it the counts come from the options */
    int (*GetPropsR0600)(void *, int);          /* hipGetDevicePropertiesR0600 (ROCm 6 and later), optional */
    int (*GetPropsR0000)(void *, int);          /* the older layout's hipGetDeviceProperties, optional */
    void **streams;        /* per (rank, stream) */
    int nstreams;
    int saved, entered;    /* the caller's device, saved by enter */
    char target[64];       /* the ISA compiled for: option arch, else the device's; empty if unknown */
    char target_from[160]; /* where target came from, for the report */
    void *rtc_lib;         /* hipRTC, found at open (NULL: rtc_why says why) */
    int rtc_owned, rtc_major, rtc_minor;
    char rtc_file[192], rtc_why[512];
} hip_t;

#define DPTR(p) ((void *) (uintptr_t) (p))
#define hipErrorPeerAccessAlreadyEnabled 704
/* hipHostMalloc flags: portable, mapped, coherent (fine-grained: system-scope atomics see it). */
#define HIP_HOST_MALLOC_FLAGS (0x1u | 0x2u | 0x40000000u)

static int h_alloc(void *d, nr_dptr *p, size_t n) {
    void *q = NULL;
    int rc = ((hip_t *) d)->Malloc(&q, n);
    *p = (nr_dptr) (uintptr_t) q;
    return rc;
}
static int h_free(void *d, nr_dptr p) { return ((hip_t *) d)->Free(DPTR(p)); }
static int h_htod(void *d, nr_dptr dst, const void *src, size_t n) { return ((hip_t *) d)->MemcpyHtoD(DPTR(dst), (void *) src, n); }
static int h_dtoh(void *d, void *dst, nr_dptr src, size_t n) { return ((hip_t *) d)->MemcpyDtoH(dst, DPTR(src), n); }
static int h_memset(void *d, nr_dptr p, unsigned v, size_t n) { return ((hip_t *) d)->MemsetD32(DPTR(p), (int) v, n); }
static int h_load(void *d, void **m, const void *image) { return ((hip_t *) d)->ModuleLoadData(m, image); }
static int h_unload(void *d, void *m) { return ((hip_t *) d)->ModuleUnload(m); }
static int h_function(void *d, void **f, void *m, const char *name) { return ((hip_t *) d)->ModuleGetFunction(f, m, name); }
/* The default stream: the CU-masked domain streams would confine the dispatcher's blocks. */
static int h_launch(void *d, void *f, unsigned grid, unsigned block, void **args) {
    return ((hip_t *) d)->ModuleLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL);
}
static int h_sync(void *d) { return ((hip_t *) d)->DeviceSynchronize(); }
static int h_meminfo(void *d, size_t *free_b, size_t *total_b) { return ((hip_t *) d)->MemGetInfo(free_b, total_b); }
static int h_occupancy(void *d, int *n, void *f, unsigned block) {
    return ((hip_t *) d)->OccupancyMaxActiveBlocksPerMultiprocessor(n, f, (int) block, 0);
}
static int h_select(void *d, int ordinal) { return ((hip_t *) d)->SetDevice(ordinal); }
static int h_can_peer(void *d, int *can, int dev, int peer) { return ((hip_t *) d)->DeviceCanAccessPeer(can, dev, peer); }
static int h_enable_peer(void *d, int peer) {
    int rc = ((hip_t *) d)->DeviceEnablePeerAccess(peer, 0);
    return rc == hipErrorPeerAccessAlreadyEnabled ? 0 : rc;
}
static int h_host_alloc(void *d, void **h, size_t n) { return ((hip_t *) d)->HostMalloc(h, n, HIP_HOST_MALLOC_FLAGS); }
static int h_host_free(void *d, void *h) { return ((hip_t *) d)->HostFree(h); }
static int h_host_map(void *d, nr_dptr *p, void *h) {
    void *q = NULL;
    int rc = ((hip_t *) d)->HostGetDevicePointer(&q, h, 0);
    *p = (nr_dptr) (uintptr_t) q;
    return rc;
}
static const char *h_error(void *d, int rc) {
    hip_t *h = d;
    const char *s = h->GetErrorString ? h->GetErrorString(rc) : NULL;
    return s ? s : "unknown HIP error";
}

static const nr_gpu_ops HIP_OPS = {
    .rtc_name = "hipRTC", .loc_reg = "XCC_ID", .unit = "XCD", .place_by_die = 1, .read_hw_id = 1,
    .ticks_per_us = 100, .timer = "wall_clock64, assumed 100 MHz",
    .call_alloc = "hipMalloc", .call_htod = "hipMemcpyHtoD", .call_dtoh = "hipMemcpyDtoH", .call_memset = "hipMemsetD32",
    .call_load = "hipModuleLoadData", .call_function = "hipModuleGetFunction", .call_launch = "hipModuleLaunchKernel",
    .call_sync = "hipDeviceSynchronize", .call_select = "hipSetDevice", .call_can_peer = "hipDeviceCanAccessPeer",
    .call_enable_peer = "hipDeviceEnablePeerAccess", .call_host_alloc = "hipHostMalloc", .call_host_map = "hipHostGetDevicePointer",
    .call_occupancy = "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", .call_meminfo = "hipMemGetInfo",
    .occupancy = h_occupancy, .meminfo = h_meminfo, .alloc = h_alloc, .free = h_free, .htod = h_htod, .dtoh = h_dtoh, .memset32 = h_memset, .load = h_load,
    .unload = h_unload, .function = h_function, .launch = h_launch, .sync = h_sync, .error = h_error,
    .select = h_select, .can_peer = h_can_peer, .enable_peer = h_enable_peer, .host_alloc = h_host_alloc,
    .host_free = h_host_free, .host_map = h_host_map,
};

static const char *const HIPRTC_CALLS[NR_RTC_NCALLS] = {
    "hiprtcCreateProgram", "hiprtcCompileProgram", "hiprtcGetCodeSize", "hiprtcGetCode",
    "hiprtcGetProgramLogSize", "hiprtcGetProgramLog", "hiprtcDestroyProgram", "hiprtcGetErrorString",
};

static nunart_status load_symbols(nunart_ctx *ctx, hip_t *h) {
    const nr_sym syms[] = {
        {"hipInit", (void **) &h->Init},
        {"hipGetDeviceCount", (void **) &h->GetDeviceCount},
        {"hipSetDevice", (void **) &h->SetDevice},
        {"hipDeviceGetName", (void **) &h->DeviceGetName},
        {"hipExtStreamCreateWithCUMask", (void **) &h->StreamCreateWithCUMask},
        {"hipStreamDestroy", (void **) &h->StreamDestroy},
        {"hipMalloc", (void **) &h->Malloc},
        {"hipFree", (void **) &h->Free},
        {"hipMemcpyHtoD", (void **) &h->MemcpyHtoD},
        {"hipMemcpyDtoH", (void **) &h->MemcpyDtoH},
        {"hipMemsetD32", (void **) &h->MemsetD32},
        {"hipModuleLoadData", (void **) &h->ModuleLoadData},
        {"hipModuleUnload", (void **) &h->ModuleUnload},
        {"hipModuleGetFunction", (void **) &h->ModuleGetFunction},
        {"hipModuleLaunchKernel", (void **) &h->ModuleLaunchKernel},
        {"hipDeviceSynchronize", (void **) &h->DeviceSynchronize},
        {"hipMemGetInfo", (void **) &h->MemGetInfo},
        {"hipGetErrorString", (void **) &h->GetErrorString},
        {"hipDeviceCanAccessPeer", (void **) &h->DeviceCanAccessPeer},
        {"hipDeviceEnablePeerAccess", (void **) &h->DeviceEnablePeerAccess},
        {"hipHostMalloc", (void **) &h->HostMalloc},
        {"hipHostFree", (void **) &h->HostFree},
        {"hipHostGetDevicePointer", (void **) &h->HostGetDevicePointer},
        {"hipGetDevice", (void **) &h->GetDevice},
        {"hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", (void **) &h->OccupancyMaxActiveBlocksPerMultiprocessor},
    };
    return nr_bind(ctx, h->lib, h->lib_file, syms, (int) (sizeof syms / sizeof *syms));
}

/* What the KFD topology says of one GPU node. */
typedef struct {
    int node, cus, xcc;
    char isa[16];
} kfd_gpu;

/* The KFD node of the GPU at PCI address `bus_id` (DDDD:BB:DD.F): its CUs (simd_count /
 * simd_per_cu), XCDs (num_xcc, 1 where the kernel has no such field) and ISA (from
 * gfx_target_version, e.g. 90402 -> gfx942). NUNART_KFD_TOPOLOGY replaces the sysfs folder
 * (tests). 0 when found. */
static int kfd_lookup(const char *bus_id, kfd_gpu *out) {
    unsigned dom = 0, bus = 0, dev = 0, fn = 0;
    if (sscanf(bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4) return -1;
    const char *root = getenv("NUNART_KFD_TOPOLOGY");
    if (!root || !*root) root = "/sys/class/kfd/kfd/topology/nodes";
    for (int node = 0; node < 256; node++) {
        char path[512], key[64];
        snprintf(path, sizeof path, "%s/%d/properties", root, node);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        long long v, simd = 0, per_cu = 0, xcc = 1, gfx = 0, loc = -1, domain = 0;
        while (fscanf(f, "%63s %lld", key, &v) == 2) {
            if (!strcmp(key, "simd_count")) simd = v;
            else if (!strcmp(key, "simd_per_cu")) per_cu = v;
            else if (!strcmp(key, "num_xcc")) xcc = v;
            else if (!strcmp(key, "gfx_target_version")) gfx = v;
            else if (!strcmp(key, "location_id")) loc = v;
            else if (!strcmp(key, "domain")) domain = v;
        }
        fclose(f);
        if (simd <= 0 || per_cu <= 0 || loc != (long long) (bus << 8 | dev << 3 | fn) || domain != (long long) dom) continue;
        out->node = node;
        out->cus = (int) (simd / per_cu);
        out->xcc = xcc > 0 ? (int) xcc : 1;
        snprintf(out->isa, sizeof out->isa, "gfx%lld%lld%llx", gfx / 10000, gfx / 100 % 100, gfx % 100);
        return 0;
    }
    return -1;
}

/* The ISA of a target ID: gfx942 of gfx942:sramecc+:xnack-. */
static void isa_of(const char *target, char *out, size_t cap) { snprintf(out, cap, "%.*s", (int) strcspn(target, ":"), target); }

/* Targets the executor is built for, and the first hipRTC (ROCm) release that compiles each:
 * an older one aborts the process for gfx94x (seen with hipRTC 5.2.3), so it is refused. */
static const struct { const char *isa; int major, minor; } HIPRTC_MIN[] = {
    {"gfx908", 4, 0}, {"gfx90a", 5, 0}, {"gfx940", 6, 0}, {"gfx941", 6, 0}, {"gfx942", 6, 0}, {"gfx950", 7, 0},
};

/* Refuses a target hipRTC would not compile (or die compiling), and an unknown one: hipRTC's
 * default target, unchecked, could be one that aborts the process. */
static nunart_status check_target(nunart_ctx *ctx, const hip_t *h) {
    static const char *const known = "gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950";
    if (!h->target[0])
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "HIP device %d's ISA is unknown (%s), so the executor is not compiled for hipRTC's default "
                       "target unchecked: option arch=gfxNNN names it (%s are supported)", ctx->device_ordinal, h->target_from, known);
    char isa[64];
    isa_of(h->target, isa, sizeof isa);
    for (size_t i = 0; i < sizeof HIPRTC_MIN / sizeof *HIPRTC_MIN; i++) {
        if (strcmp(HIPRTC_MIN[i].isa, isa)) continue;
        if (h->rtc_major * 100 + h->rtc_minor >= HIPRTC_MIN[i].major * 100 + HIPRTC_MIN[i].minor) return NUNART_OK;
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipRTC %d.%d (%s) is too old for %s (needs %d.%d or newer; older ones abort the process "
                       "compiling it): install a newer ROCm or point NUNART_HIPRTC_LIBRARY at its hipRTC", h->rtc_major, h->rtc_minor, h->rtc_file,
                       isa, HIPRTC_MIN[i].major, HIPRTC_MIN[i].minor);
    }
    return nr_fail(ctx, NUNART_E_UNAVAILABLE, "target %s (%s) is not one the executor is built for (%s)", h->target, h->target_from, known);
}

/* hipRTC: its own library, else (older ROCm) the symbols inside the HIP runtime. An override
 * (NUNART_HIPRTC_LIBRARY) is used alone. Found at open, so its version is known before any
 * compile; the reason it is unusable goes to rtc_why, for alloc. */
static void find_hiprtc(hip_t *h) {
    static const char *const names[] = {"libhiprtc.so", "libhiprtc.so.6", "libhiprtc.so.7"};
    char why[384];
    const char *env = getenv("NUNART_HIPRTC_LIBRARY");
    void *lib = nr_dlopen("NUNART_HIPRTC_LIBRARY", names, 3, h->rtc_file, sizeof h->rtc_file, why, sizeof why);
    h->rtc_owned = lib != NULL;
    if (!lib && env && *env) { snprintf(h->rtc_why, sizeof h->rtc_why, "hipRTC not loaded: %s", why); return; }
    if (!lib && dlsym(h->lib, HIPRTC_CALLS[NR_RTC_CREATE])) {
        lib = h->lib;
        snprintf(h->rtc_file, sizeof h->rtc_file, "%.150s, which carries it", h->lib_file);
    }
    if (!lib) {
        snprintf(h->rtc_why, sizeof h->rtc_why, "hipRTC not found (%s; nor in %s): the executor cannot be compiled at run time", why, h->lib_file);
        return;
    }
    int (*version)(int *, int *) = (int (*)(int *, int *)) dlsym(lib, "hiprtcVersion");
    if (!version || version(&h->rtc_major, &h->rtc_minor)) {
        snprintf(h->rtc_why, sizeof h->rtc_why, "%s lacks a working hiprtcVersion, so whether it compiles for the device is unknown", h->rtc_file);
        if (h->rtc_owned) dlclose(lib);
        return;
    }
    h->rtc_lib = lib;
}

/* gcnArchName's offset in the device properties, for LP64 (hip_runtime_api.h): 1160 in
 * hipDeviceProp_tR0600 (ROCm 6 and later, 1,472 bytes, hipGetDevicePropertiesR0600), 396 in the
 * older hipDeviceProp_t (hipGetDeviceProperties). The buffer is larger than either layout. */
#define GCN_ARCH_R0600 1160
#define GCN_ARCH_R0000 396
#define PROPS_BYTES 4096

/* A target ID as gcnArchName spells it: gfx and hex digits, then :feature+ or :feature- parts
 * (gfx942:sramecc+:xnack-). 1 when `s` (NUL-terminated within n) is one. */
static int target_id(const char *s, size_t n) {
    size_t len = strnlen(s, n), i = 3;
    if (len == n || len < 4 || len >= 64 || strncmp(s, "gfx", 3)) return 0;
    while (i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) i++;
    if (i == 3) return 0;
    while (i < len) {
        size_t start = ++i;
        if (s[start - 1] != ':') return 0;
        while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) i++;
        if (i == start || i == len || (s[i] != '+' && s[i] != '-')) return 0;
        i++;
    }
    return 1;
}

/* Device `ordinal`'s gcnArchName into out (empty when no properties call gives a valid one);
 * *how names the call. */
static void gcn_arch_name(const hip_t *h, int ordinal, char *out, size_t cap, const char **how) {
    _Alignas(8) char props[PROPS_BYTES]; /* on the stack: the library keeps no global state */
    out[0] = 0;
    *how = NULL;
    const struct { int (*get)(void *, int); size_t at; const char *name; } calls[] = {
        {h->GetPropsR0600, GCN_ARCH_R0600, "hipGetDevicePropertiesR0600"}, {h->GetPropsR0000, GCN_ARCH_R0000, "hipGetDeviceProperties"},
    };
    for (size_t i = 0; i < 2 && !out[0]; i++) {
        if (!calls[i].get) continue;
        memset(props, 0, sizeof props);
        *how = calls[i].name;
        if (calls[i].get(props, ordinal)) continue;
        if (target_id(props + calls[i].at, 256)) snprintf(out, cap, "%s", props + calls[i].at);
    }
}

/* Visible device k's shape: from the KFD topology where its PCI address finds a node (options
 * cus= and dies=, when given, must agree), else from the options. */
static nunart_status describe(nunart_ctx *ctx, hip_t *h, int k, char *isa, size_t isa_cap, char *from, size_t from_cap) {
    nr_device *d = &ctx->devs[k];
    int ordinal = ctx->device_ordinal + k;
    char name[100] = "", bus[64] = "", gcn[64], gcn_isa[64] = "";
    const char *how = NULL;
    h->DeviceGetName(name, sizeof name, ordinal);
    gcn_arch_name(h, ordinal, gcn, sizeof gcn, &how);
    isa_of(gcn, gcn_isa, sizeof gcn_isa);
    kfd_gpu kfd;
    int found = h->DeviceGetPCIBusId && !h->DeviceGetPCIBusId(bus, sizeof bus, ordinal) && !kfd_lookup(bus, &kfd);
    if (found && gcn[0] && strcmp(gcn_isa, kfd.isa))
        return nr_fail(ctx, NUNART_E_MISMATCH, "HIP device %d '%s' reports gcnArchName %s (%s), but its KFD topology node %d says %s", ordinal, name,
                       gcn, how, kfd.node, kfd.isa);
    if (gcn[0]) {
        snprintf(isa, isa_cap, "%s", gcn_isa);
        snprintf(from, from_cap, "the device's gcnArchName %s, %s%s", gcn, how, found ? "; its KFD topology node agrees" : "");
    } else if (found) {
        snprintf(isa, isa_cap, "%s", kfd.isa);
        snprintf(from, from_cap, "the device's ISA, KFD topology%s%s", how ? "; no valid gcnArchName from " : "", how ? how : "");
    } else {
        snprintf(from, from_cap, "%s%s%s", how ? "no valid gcnArchName from " : "no device properties call (hipGetDevicePropertiesR0600, hipGetDeviceProperties)",
                 how ? how : "", ", no KFD topology entry");
    }
    const char *shown = gcn[0] ? gcn : found ? kfd.isa : "ISA unknown";
    if (!found) {
        if (!ctx->want.cus || !ctx->want.dies)
            return nr_fail(ctx, NUNART_E_UNAVAILABLE, "HIP device %d '%s' has no KFD topology entry%s%s, so its CU and XCD counts must be given "
                           "(options cus=N dies=N)", ordinal, name, bus[0] ? " for PCI address " : "", bus);
        d->cus = ctx->want.cus;
        d->dies = ctx->want.dies;
        snprintf(d->name, sizeof d->name, "%s (%s, %d CUs, %d XCDs as given)", name, shown, d->cus, d->dies);
    } else {
        if ((ctx->want.cus && ctx->want.cus != kfd.cus) || (ctx->want.dies && ctx->want.dies != kfd.xcc))
            return nr_fail(ctx, NUNART_E_MISMATCH, "options cus=%d dies=%d, but HIP device %d '%s' has %d CUs on %d XCDs (KFD topology node %d)",
                           ctx->want.cus, ctx->want.dies, ordinal, name, kfd.cus, kfd.xcc, kfd.node);
        d->cus = kfd.cus;
        d->dies = kfd.xcc;
        snprintf(d->name, sizeof d->name, "%s (%s, %d CUs, %d XCDs from the KFD topology)", name, shown, d->cus, d->dies);
    }
    d->mask_words = (d->cus + 31) / 32;
    d->max_ranks = 1024;
    return NUNART_OK;
}

static nunart_status hip_enter(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    h->entered = !h->GetDevice(&h->saved);
    return NUNART_OK;
}

static void hip_leave(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    if (h && h->entered) h->SetDevice(h->saved);
    if (h) h->entered = 0;
}

/* The target: option arch, else the first device's ISA; they must agree when both are known.
 * The device's target is its ISA without feature suffixes: code compiled without them runs in
 * either xnack or sramecc mode. */
static nunart_status choose_target(nunart_ctx *ctx, hip_t *h, const char *isa, const char *from) {
    char want[64];
    isa_of(ctx->arch, want, sizeof want);
    if (ctx->arch[0] && isa[0] && strcmp(want, isa))
        return nr_fail(ctx, NUNART_E_MISMATCH, "option arch=%s, but HIP device %d is %s (%s)", ctx->arch, ctx->device_ordinal, isa, from);
    snprintf(h->target, sizeof h->target, "%s", ctx->arch[0] ? ctx->arch : isa);
    if (ctx->arch[0]) snprintf(h->target_from, sizeof h->target_from, "option arch%s%.140s", isa[0] ? "; agrees with " : "; unchecked: ", from);
    else snprintf(h->target_from, sizeof h->target_from, "%s", from);
    return NUNART_OK;
}

static nunart_status hip_open(nunart_ctx *ctx) {
    hip_t *h = calloc(1, sizeof *h);
    if (!h) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = h;
    h->gpu.ops = &HIP_OPS;
    h->gpu.drv = h;
    h->gpu.rtc.calls = HIPRTC_CALLS;
    static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.7"};
    char why[512];
    h->lib = nr_dlopen("NUNART_HIP_LIBRARY", names, 3, h->lib_file, sizeof h->lib_file, why, sizeof why);
    if (!h->lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no HIP runtime: %s", why);
    nunart_status st = load_symbols(ctx, h);
    if (st) return st;
    h->DeviceGetPCIBusId = (int (*)(char *, int, int)) dlsym(h->lib, "hipDeviceGetPCIBusId");
    h->GetPropsR0600 = (int (*)(void *, int)) dlsym(h->lib, "hipGetDevicePropertiesR0600");
    if (!h->GetPropsR0600) h->GetPropsR0000 = (int (*)(void *, int)) dlsym(h->lib, "hipGetDeviceProperties");
    int n = 0, rc;
    if ((rc = h->Init(0))) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipInit failed: %s", h_error(h, rc));
    if ((rc = h->GetDeviceCount(&n)) || n == 0) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no HIP device found%s%s", rc ? ": " : "", rc ? h_error(h, rc) : "");
    if (ctx->device_ordinal >= n) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "device %d requested, %d present", ctx->device_ordinal, n);
    ctx->nvisible = n - ctx->device_ordinal < NR_MAX_DEVICES ? n - ctx->device_ordinal : NR_MAX_DEVICES;
    char isa[64] = "", other[64], from[160] = "", other_from[160];
    for (int k = 0; k < ctx->nvisible; k++)
        if ((st = describe(ctx, h, k, k ? other : isa, sizeof isa, k ? other_from : from, sizeof from))) return st;
    ctx->dev = ctx->devs[0];
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%.140s, loopback ranks", ctx->devs[0].name);
    if ((st = choose_target(ctx, h, isa, from))) return st;
    find_hiprtc(h);
    if (h->rtc_lib)
        snprintf(ctx->platform, sizeof ctx->platform, "HIP runtime %s; hipRTC %d.%d (%s); target %s", h->lib_file, h->rtc_major, h->rtc_minor,
                 h->rtc_file, h->target[0] ? h->target : "unknown (refused at compile: option arch=gfxNNN names it)");
    else
        snprintf(ctx->platform, sizeof ctx->platform, "HIP runtime %s; hipRTC unusable: %s", h->lib_file, h->rtc_why);
    return NUNART_OK;
}

/* The kernel and the probe compile alike: the target checked, hipRTC bound, --offload-arch named. */
static nunart_status bind_rtc(nunart_ctx *ctx, hip_t *h, char *arch, size_t n) {
    snprintf(arch, n, "--offload-arch=%s", h->target);
    nunart_status st = check_target(ctx, h);
    return st ? st : nr_rtc_bind(ctx, &h->gpu.rtc, h->rtc_lib, h->rtc_file, 0);
}

static nunart_status compile(nunart_ctx *ctx, hip_t *h) {
    if (!h->rtc_lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "%s", h->rtc_why);
    char arch[96];
    nunart_status st = bind_rtc(ctx, h, arch, sizeof arch);
    const char *opts[] = {arch};
    if (st || (st = nr_gpu_compile(ctx, &h->gpu, opts, 1))) return st;
    snprintf(ctx->executor, sizeof ctx->executor, "compiled by hipRTC %d.%d (%s) with %s (%s)", h->rtc_major, h->rtc_minor, h->gpu.rtc.file, arch,
             h->target_from);
    return NUNART_OK;
}

static nunart_status hip_alloc(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    const nr_table *t = ctx->table;
    nunart_status st = compile(ctx, h);
    if (st || (st = nr_gpu_alloc(ctx, &h->gpu))) return st;
    int total = 0;
    for (int r = 0; r < t->ranks; r++) total += t->rank[r].nstream;
    h->streams = calloc((size_t) (total ? total : 1), sizeof *h->streams);
    if (!h->streams) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    for (int r = 0, k = 0; r < t->ranks; r++) {
        /* A rank's streams live on its device. */
        while (k + 1 < h->gpu.ndev && r >= h->gpu.dev[k].rank_hi) k++;
        int rc = h->SetDevice(h->gpu.dev[k].ordinal);
        if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "hipSetDevice(%d): %s", h->gpu.dev[k].ordinal, h_error(h, rc));
        for (int s = 0; s < t->rank[r].nstream; s++) {
            rc = h->StreamCreateWithCUMask(&h->streams[h->nstreams], (unsigned) t->mask_words, t->rank[r].streams[s].mask);
            if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "hipExtStreamCreateWithCUMask (rank %d domain %d): %s", r, t->rank[r].streams[s].domain, h_error(h, rc));
            h->nstreams++;
        }
    }
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "applied (%d streams created with their domain's CU mask, for the caller's kernels "
             "via nunart_domain_stream; the executor runs on the default stream, unmasked)", h->nstreams);
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (SPX+NPS1 hashes pages over all stacks; CPX+NPS4 partition selection is not in this build)");
    return NUNART_OK;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *) a, y = *(const int *) b;
    return x < y ? -1 : x > y;
}

/* The cu-readback line: HW_ID decoded with the gfx9 layout (CU_ID 11:8, SH_ID 12, SE_ID 15:13,
 * on gfx94x 14:13, so that bit 15 there is not read as part of the shader engine). The fields
 * are physical slots; the plan's CU numbers are logical, so they are counted, not compared. */
static void describe_hw_id(nunart_ctx *ctx, const int *hw, int ntb, const char *target) {
    /* SE_ID is 2 bits (14:13) on gfx94x and 3 (15:13) on gfx90a. */
    unsigned se_mask = strncmp(target, "gfx94", 5) == 0 ? 3u : 7u;
    int *key = malloc(sizeof(int) * (size_t) (ntb ? ntb : 1)), n = 0;
    if (!key) { snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "not summarised (out of memory)"); return; }
    int lo[3] = {99, 99, 99}, hi[3] = {-1, -1, -1};
    for (int i = 0; i < ntb; i++) {
        if (hw[i] == -1) continue;
        unsigned v = (unsigned) hw[i];
        int f[3] = {(int) (v >> 13 & se_mask), (int) (v >> 12 & 1), (int) (v >> 8 & 15)}; /* SE, SH, CU */
        for (int k = 0; k < 3; k++) { if (f[k] < lo[k]) lo[k] = f[k]; if (f[k] > hi[k]) hi[k] = f[k]; }
        key[n++] = (ctx->ran_on[i] & 0xff) << 8 | f[0] << 5 | f[1] << 4 | f[2];
    }
    qsort(key, (size_t) n, sizeof *key, cmp_int);
    int distinct = 0;
    for (int i = 0; i < n; i++) distinct += i == 0 || key[i] != key[i - 1];
    free(key);
    if (n == 0)
        snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "not read (HW_ID's layout is known for gfx908, gfx90a, gfx94x and gfx950 only)");
    else
        snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "HW_ID of %d/%d threadblocks: %d distinct CUs as (XCD, SE, SH, CU_ID); "
                 "SE %d-%d, SH %d-%d, CU_ID %d-%d (physical slots, not compared with the plan's logical CUs)",
                 n, ntb, distinct, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
}

static nunart_status hip_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    hip_t *h = ctx->be_state;
    unsigned grid;
    nunart_status st = nr_gpu_launch(ctx, &h->gpu, pinned, elapsed_us, &grid);
    if (st) return st;
    if (pinned && h->gpu.ndev == 1)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied at XCD level (XCC_ID dispatcher over %u blocks = %d XCDs x %d, "
                 "slot b dispatched to XCD b mod %d under SPX; each logical threadblock claims a block on its planned XCD); "
                 "the CU within the XCD: advisory (the hardware picks it; see cu-readback)",
                 grid, h->gpu.units, h->gpu.per_unit, h->gpu.units);
    else if (pinned)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied at XCD level (XCC_ID dispatcher over %u blocks on %d devices, each "
                 "%d XCDs x at most %d, slot b dispatched to XCD b mod %d under SPX; each logical threadblock claims a block on its "
                 "planned XCD of its rank's device); the CU within the XCD: advisory (the hardware picks it; see cu-readback)",
                 grid, h->gpu.ndev, h->gpu.units, h->gpu.per_unit, h->gpu.units);
    describe_hw_id(ctx, h->gpu.hw, ctx->table->ntb, h->target);
    return NUNART_OK;
}

static nunart_status hip_fetch(nunart_ctx *ctx) { return nr_gpu_fetch(ctx, &((hip_t *) ctx->be_state)->gpu); }
static nunart_status hip_upload(nunart_ctx *ctx) { return nr_gpu_upload(ctx, &((hip_t *) ctx->be_state)->gpu); }

static nunart_status hip_stream(nunart_ctx *ctx, int rank, int index, void **stream) {
    hip_t *h = ctx->be_state;
    int k = 0;
    for (int r = 0; r < rank; r++) k += ctx->table->rank[r].nstream;
    *stream = h->streams[k + index];
    return NUNART_OK;
}

static nunart_status hip_probe(nunart_ctx *ctx, long long bytes, int naddr, int reps, long long *rec, int *nloc) {
    hip_t *h = ctx->be_state;
    *nloc = ctx->dev.dies; /* the probe locates blocks by XCC_ID */
    if (!rec) return NUNART_OK;
    if (!h->rtc_lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "%s", h->rtc_why);
    char arch[96];
    nunart_status st = bind_rtc(ctx, h, arch, sizeof arch);
    const char *opts[] = {arch};
    if (st) return st;
    return nr_gpu_probe(ctx, &h->gpu, opts, 1, bytes, naddr, reps, *nloc, rec);
}

static void hip_close(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    if (!h) return;
    int saved = 0, restore = h->GetDevice && !h->GetDevice(&saved);
    for (int i = 0; i < h->nstreams; i++) h->StreamDestroy(h->streams[i]);
    free(h->streams);
    nr_gpu_release(&h->gpu);
    if (restore) h->SetDevice(saved);
    if (h->rtc_lib && h->rtc_owned) dlclose(h->rtc_lib);
    if (h->lib) dlclose(h->lib);
    free(h);
    ctx->be_state = NULL;
}

const nr_backend nr_backend_hip = {
    .name = "hip",
    .open = hip_open,
    .alloc = hip_alloc,
    .launch = hip_launch,
    .fetch = hip_fetch,
    .upload = hip_upload,
    .stream = hip_stream,
    .enter = hip_enter,
    .leave = hip_leave,
    .probe = hip_probe,
    .close = hip_close,
};
