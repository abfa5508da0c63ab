/* CUDA backend: the driver API and NVRTC are loaded at run time (dlopen; NUNART_CUDA_LIBRARY and
 * NUNART_NVRTC_LIBRARY override the files), so the library builds and runs without the toolkit.
 * The embedded executor is compiled by NVRTC to a cubin for the device's sm_XY, with an NVRTC
 * whose major version the driver supports (PTX only as a stated fallback); pinned launches use
 * its %smid dispatcher (exact SM placement, read back). Every entry point runs with the first
 * device's primary context pushed and pops it on the way out, so the caller's context stays
 * current. The executor itself is gpu_exec.c; this file supplies the driver calls. */
#include "gpu_exec.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    nr_gpu gpu;
    void *lib;
    char lib_file[192];
    int (*Init)(unsigned);
    int (*DeviceGetCount)(int *);
    int (*DeviceGet)(int *, int);
    int (*DeviceGetName)(char *, int, int);
    int (*DeviceGetAttribute)(int *, int, int);
    int (*PrimaryCtxRetain)(void **, int);
    int (*PrimaryCtxRelease)(int);
    int (*CtxSetCurrent)(void *);
    int (*CtxPushCurrent)(void *);
    int (*CtxPopCurrent)(void **);
    int (*DriverGetVersion)(int *);
    int (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, void *, int, size_t);
    int (*CtxSynchronize)(void);
    int (*MemGetInfo)(size_t *, size_t *);
    int (*MemAlloc)(nr_dptr *, size_t);
    int (*MemFree)(nr_dptr);
    int (*MemcpyHtoD)(nr_dptr, const void *, size_t);
    int (*MemcpyDtoH)(void *, nr_dptr, size_t);
    int (*MemsetD32)(nr_dptr, unsigned, size_t);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
    int (*GetErrorString)(int, const char **);
    int (*DeviceCanAccessPeer)(int *, int, int);
    int (*CtxEnablePeerAccess)(void *, unsigned);
    int (*MemHostAlloc)(void **, size_t, unsigned);
    int (*MemFreeHost)(void *);
    int (*MemHostGetDevicePointer)(nr_dptr *, void *, unsigned);
    int first, nvis;                 /* ordinal of device 0 of ours; devices visible from it */
    int dev[NR_MAX_DEVICES];         /* CUdevice of each visible device */
    void *cuctx[NR_MAX_DEVICES];     /* its primary context, retained when first selected */
    int sms, cc_major, cc_minor;     /* of the first device (the executor is compiled for it) */
    int driver;                      /* cuDriverGetVersion: 1000 * major + 10 * minor */
    void *nvrtc;                     /* NVRTC, found at open (NULL: nvrtc_why says why) */
    char nvrtc_file[192], nvrtc_why[640];
    int nvrtc_major, nvrtc_minor;
    int entered;                     /* a context pushed by enter, popped by leave */
} cuda_t;

#define CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED 704
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02

/* The primary context of device `ordinal`, retained on first use. */
static int c_context(cuda_t *c, int ordinal, void **out) {
    int k = ordinal - c->first;
    if (k < 0 || k >= c->nvis) return 101; /* CUDA_ERROR_INVALID_DEVICE */
    int rc = 0;
    if (!c->cuctx[k] && (rc = c->PrimaryCtxRetain(&c->cuctx[k], c->dev[k]))) c->cuctx[k] = NULL;
    *out = c->cuctx[k];
    return rc;
}

static int c_alloc(void *d, nr_dptr *p, size_t n) { return ((cuda_t *) d)->MemAlloc(p, n); }
static int c_free(void *d, nr_dptr p) { return ((cuda_t *) d)->MemFree(p); }
static int c_htod(void *d, nr_dptr dst, const void *src, size_t n) { return ((cuda_t *) d)->MemcpyHtoD(dst, src, n); }
static int c_dtoh(void *d, void *dst, nr_dptr src, size_t n) { return ((cuda_t *) d)->MemcpyDtoH(dst, src, n); }
static int c_memset(void *d, nr_dptr p, unsigned v, size_t n) { return ((cuda_t *) d)->MemsetD32(p, v, n); }
static int c_load(void *d, void **m, const void *image) { return ((cuda_t *) d)->ModuleLoadData(m, image); }
static int c_unload(void *d, void *m) { return ((cuda_t *) d)->ModuleUnload(m); }
static int c_function(void *d, void **f, void *m, const char *name) { return ((cuda_t *) d)->ModuleGetFunction(f, m, name); }
static int c_launch(void *d, void *f, unsigned grid, unsigned block, void **args) {
    return ((cuda_t *) d)->LaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL);
}
static int c_sync(void *d) { return ((cuda_t *) d)->CtxSynchronize(); }
static int c_meminfo(void *d, size_t *free_b, size_t *total_b) { return ((cuda_t *) d)->MemGetInfo(free_b, total_b); }
static int c_occupancy(void *d, int *n, void *f, unsigned block) {
    return ((cuda_t *) d)->OccupancyMaxActiveBlocksPerMultiprocessor(n, f, (int) block, 0);
}
static int c_select(void *d, int ordinal) {
    void *cx = NULL;
    int rc = c_context(d, ordinal, &cx);
    return rc ? rc : ((cuda_t *) d)->CtxSetCurrent(cx);
}
static int c_can_peer(void *d, int *can, int dev, int peer) {
    cuda_t *c = d;
    if (dev - c->first < 0 || dev - c->first >= c->nvis || peer - c->first < 0 || peer - c->first >= c->nvis) return 101;
    return c->DeviceCanAccessPeer(can, c->dev[dev - c->first], c->dev[peer - c->first]);
}
static int c_enable_peer(void *d, int peer) {
    void *cx = NULL;
    int rc = c_context(d, peer, &cx);
    if (!rc) rc = ((cuda_t *) d)->CtxEnablePeerAccess(cx, 0);
    return rc == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED ? 0 : rc;
}
static int c_host_alloc(void *d, void **h, size_t n) {
    return ((cuda_t *) d)->MemHostAlloc(h, n, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
}
static int c_host_free(void *d, void *h) { return ((cuda_t *) d)->MemFreeHost(h); }
static int c_host_map(void *d, nr_dptr *p, void *h) { return ((cuda_t *) d)->MemHostGetDevicePointer(p, h, 0); }
static const char *c_error(void *d, int rc) {
    const char *s = NULL;
    cuda_t *c = d;
    if (c->GetErrorString) c->GetErrorString(rc, &s);
    return s ? s : "unknown CUDA error";
}

static const nr_gpu_ops CUDA_OPS = {
    .rtc_name = "NVRTC", .loc_reg = "%smid", .unit = "SM", .place_by_die = 0, .read_hw_id = 0,
    .ticks_per_us = 1000, .timer = "%globaltimer, nanoseconds", /* independent of the SM clock */
    .call_alloc = "cuMemAlloc", .call_htod = "cuMemcpyHtoD", .call_dtoh = "cuMemcpyDtoH", .call_memset = "cuMemsetD32",
    .call_load = "cuModuleLoadData", .call_function = "cuModuleGetFunction", .call_launch = "cuLaunchKernel",
    .call_sync = "cuCtxSynchronize", .call_select = "cuCtxSetCurrent", .call_can_peer = "cuDeviceCanAccessPeer",
    .call_enable_peer = "cuCtxEnablePeerAccess", .call_host_alloc = "cuMemHostAlloc", .call_host_map = "cuMemHostGetDevicePointer",
    .call_occupancy = "cuOccupancyMaxActiveBlocksPerMultiprocessor", .call_meminfo = "cuMemGetInfo",
    .occupancy = c_occupancy, .meminfo = c_meminfo, .alloc = c_alloc, .free = c_free, .htod = c_htod, .dtoh = c_dtoh, .memset32 = c_memset, .load = c_load,
    .unload = c_unload, .function = c_function, .launch = c_launch, .sync = c_sync, .error = c_error,
    .select = c_select, .can_peer = c_can_peer, .enable_peer = c_enable_peer, .host_alloc = c_host_alloc,
    .host_free = c_host_free, .host_map = c_host_map,
};

/* NVRTC's calls when it gives cubins (11.1 and later), and when it gives only PTX. */
static const char *const NVRTC_CUBIN_CALLS[NR_RTC_NCALLS] = {
    "nvrtcCreateProgram", "nvrtcCompileProgram", "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
    "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcDestroyProgram", "nvrtcGetErrorString",
};
static const char *const NVRTC_PTX_CALLS[NR_RTC_NCALLS] = {
    "nvrtcCreateProgram", "nvrtcCompileProgram", "nvrtcGetPTXSize", "nvrtcGetPTX",
    "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcDestroyProgram", "nvrtcGetErrorString",
};

static nunart_status load_symbols(nunart_ctx *ctx, cuda_t *c) {
    const nr_sym syms[] = {
        {"cuInit", (void **) &c->Init},
        {"cuDeviceGetCount", (void **) &c->DeviceGetCount},
        {"cuDeviceGet", (void **) &c->DeviceGet},
        {"cuDeviceGetName", (void **) &c->DeviceGetName},
        {"cuDeviceGetAttribute", (void **) &c->DeviceGetAttribute},
        {"cuDevicePrimaryCtxRetain", (void **) &c->PrimaryCtxRetain},
        {"cuDevicePrimaryCtxRelease_v2", (void **) &c->PrimaryCtxRelease},
        {"cuCtxSetCurrent", (void **) &c->CtxSetCurrent},
        {"cuCtxPushCurrent_v2", (void **) &c->CtxPushCurrent},
        {"cuCtxPopCurrent_v2", (void **) &c->CtxPopCurrent},
        {"cuDriverGetVersion", (void **) &c->DriverGetVersion},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor", (void **) &c->OccupancyMaxActiveBlocksPerMultiprocessor},
        {"cuCtxSynchronize", (void **) &c->CtxSynchronize},
        {"cuMemGetInfo_v2", (void **) &c->MemGetInfo},
        {"cuMemAlloc_v2", (void **) &c->MemAlloc},
        {"cuMemFree_v2", (void **) &c->MemFree},
        {"cuMemcpyHtoD_v2", (void **) &c->MemcpyHtoD},
        {"cuMemcpyDtoH_v2", (void **) &c->MemcpyDtoH},
        {"cuMemsetD32_v2", (void **) &c->MemsetD32},
        {"cuModuleLoadData", (void **) &c->ModuleLoadData},
        {"cuModuleUnload", (void **) &c->ModuleUnload},
        {"cuModuleGetFunction", (void **) &c->ModuleGetFunction},
        {"cuLaunchKernel", (void **) &c->LaunchKernel},
        {"cuGetErrorString", (void **) &c->GetErrorString},
        {"cuDeviceCanAccessPeer", (void **) &c->DeviceCanAccessPeer},
        {"cuCtxEnablePeerAccess", (void **) &c->CtxEnablePeerAccess},
        {"cuMemHostAlloc", (void **) &c->MemHostAlloc},
        {"cuMemFreeHost", (void **) &c->MemFreeHost},
        {"cuMemHostGetDevicePointer_v2", (void **) &c->MemHostGetDevicePointer},
    };
    return nr_bind(ctx, c->lib, c->lib_file, syms, (int) (sizeof syms / sizeof *syms));
}

/* Visible device k: its handle and shape. CUDA has no die count below locality domains (13.4);
 * two-die parts are cc 10.x. */
static void describe(cuda_t *c, int k, nr_device *d) {
    int sms = 0, major = 0, minor = 0;
    char name[100] = "";
    c->DeviceGet(&c->dev[k], c->first + k);
    c->DeviceGetName(name, sizeof name, c->dev[k]);
    c->DeviceGetAttribute(&sms, 16 /* MULTIPROCESSOR_COUNT */, c->dev[k]);
    c->DeviceGetAttribute(&major, 75 /* COMPUTE_CAPABILITY_MAJOR */, c->dev[k]);
    c->DeviceGetAttribute(&minor, 76 /* COMPUTE_CAPABILITY_MINOR */, c->dev[k]);
    if (k == 0) { c->sms = sms; c->cc_major = major; c->cc_minor = minor; }
    int dies = major == 10 ? 2 : 1;
    d->cus = sms;
    d->dies = dies;
    d->mask_words = (sms + 31) / 32;
    d->max_ranks = 1024;
    snprintf(d->name, sizeof d->name, "%s (cc %d.%d, %d SMs, %d die%s assumed from the compute capability)", name, major, minor, sms, dies,
             dies > 1 ? "s" : "");
}

/* NVRTC file names to try, newest first, none newer than the driver: code from a newer NVRTC
 * does not load (PTX: CUDA_ERROR_UNSUPPORTED_PTX_VERSION). The unversioned name comes last and
 * is checked like any other once loaded. */
static int nvrtc_names(int driver_major, char names[][32], int cap) {
    int n = 0;
    for (int m = driver_major; m >= 11 && n < cap - 1; m--) snprintf(names[n++], 32, m == 11 ? "libnvrtc.so.11.2" : "libnvrtc.so.%d", m);
    snprintf(names[n++], 32, "libnvrtc.so");
    return n;
}

/* Finds NVRTC and its version; the reason it is unusable goes to nvrtc_why, for alloc. */
static void find_nvrtc(cuda_t *c) {
    char names[16][32];
    const char *ptrs[16];
    int n = nvrtc_names(c->driver / 1000, names, 16);
    for (int i = 0; i < n; i++) ptrs[i] = names[i];
    char why[512];
    void *lib = nr_dlopen("NUNART_NVRTC_LIBRARY", ptrs, n, c->nvrtc_file, sizeof c->nvrtc_file, why, sizeof why);
    if (!lib) { snprintf(c->nvrtc_why, sizeof c->nvrtc_why, "NVRTC not found (%s): the executor cannot be compiled at run time", why); return; }
    int (*version)(int *, int *) = (int (*)(int *, int *)) dlsym(lib, "nvrtcVersion");
    if (!version || version(&c->nvrtc_major, &c->nvrtc_minor)) {
        snprintf(c->nvrtc_why, sizeof c->nvrtc_why, "%s lacks a working nvrtcVersion, so whether the driver runs its code is unknown", c->nvrtc_file);
        dlclose(lib);
        return;
    }
    if (c->nvrtc_major > c->driver / 1000) {
        snprintf(c->nvrtc_why, sizeof c->nvrtc_why, "NVRTC %d.%d (%s) is newer than the driver, which runs CUDA %d.%d (cuDriverGetVersion %d): "
                 "code it compiles does not load there; use an NVRTC of major %d or older (NUNART_NVRTC_LIBRARY names the file)",
                 c->nvrtc_major, c->nvrtc_minor, c->nvrtc_file, c->driver / 1000, c->driver % 1000 / 10, c->driver, c->driver / 1000);
        dlclose(lib);
        return;
    }
    c->nvrtc = lib;
}

static nunart_status cuda_open(nunart_ctx *ctx) {
    cuda_t *c = calloc(1, sizeof *c);
    if (!c) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = c;
    c->gpu.ops = &CUDA_OPS;
    c->gpu.drv = c;
    static const char *const names[] = {"libcuda.so.1"};
    char why[512];
    c->lib = nr_dlopen("NUNART_CUDA_LIBRARY", names, 1, c->lib_file, sizeof c->lib_file, why, sizeof why);
    if (!c->lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no NVIDIA driver: %s", why);
    nunart_status st = load_symbols(ctx, c);
    if (st) return st;
    int rc = c->Init(0), n = 0;
    if (rc) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "cuInit failed: %s", c_error(c, rc));
    if ((rc = c->DriverGetVersion(&c->driver))) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "cuDriverGetVersion failed: %s", c_error(c, rc));
    if ((rc = c->DeviceGetCount(&n)) || n == 0) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no CUDA device found");
    if (ctx->device_ordinal >= n) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "device %d requested, %d present", ctx->device_ordinal, n);
    c->first = ctx->device_ordinal;
    c->nvis = n - c->first < NR_MAX_DEVICES ? n - c->first : NR_MAX_DEVICES;
    ctx->nvisible = c->nvis;
    for (int k = 0; k < c->nvis; k++) describe(c, k, &ctx->devs[k]);
    ctx->dev = ctx->devs[0];
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%.140s, loopback ranks", ctx->devs[0].name);
    /* The primary context is retained here and made current only inside each call. */
    void *cx = NULL;
    if ((rc = c_context(c, c->first, &cx))) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "cannot retain the primary context: %s", c_error(c, rc));
    find_nvrtc(c);
    int k = snprintf(ctx->platform, sizeof ctx->platform, "NVIDIA driver %s, CUDA %d.%d (cuDriverGetVersion %d); ", c->lib_file,
                     c->driver / 1000, c->driver % 1000 / 10, c->driver);
    if (c->nvrtc) snprintf(ctx->platform + k, sizeof ctx->platform - (size_t) k, "NVRTC %d.%d (%s)", c->nvrtc_major, c->nvrtc_minor, c->nvrtc_file);
    else snprintf(ctx->platform + k, sizeof ctx->platform - (size_t) k, "NVRTC unusable: %s", c->nvrtc_why);
    return NUNART_OK;
}

static nunart_status cuda_enter(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    void *cx = NULL;
    int rc = c_context(c, c->first, &cx);
    if (!rc) rc = c->CtxPushCurrent(cx);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "cuCtxPushCurrent (device %d's primary context): %s", c->first, c_error(c, rc));
    c->entered = 1;
    return NUNART_OK;
}

static void cuda_leave(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    void *cx = NULL;
    if (c && c->entered) c->CtxPopCurrent(&cx);
    if (c) c->entered = 0;
}

/* The cubin target for the device (sm_XY), or, as the stated fallback, PTX for the newest
 * compute_XY NVRTC knows at or below it (an NVRTC without cubin output, or older than the
 * device). Sets the option, the calls that fetch the code, and what the report says. */
static void choose_target(cuda_t *c, char *opt, size_t cap, char *what, size_t wcap) {
    int cc = c->cc_major * 10 + c->cc_minor, best = cc, listed = 1;
    int (*count)(int *) = (int (*)(int *)) dlsym(c->nvrtc, "nvrtcGetNumSupportedArchs");
    int (*archs)(int *) = (int (*)(int *)) dlsym(c->nvrtc, "nvrtcGetSupportedArchs");
    int n = 0, list[128];
    if (count && archs && !count(&n) && n > 0 && n <= 128 && !archs(list)) {
        listed = 0;
        best = 0;
        for (int i = 0; i < n; i++) {
            if (list[i] == cc) listed = 1;
            if (list[i] <= cc && list[i] > best) best = list[i];
        }
    }
    int cubin = dlsym(c->nvrtc, "nvrtcGetCUBIN") != NULL;
    if (cubin && listed) {
        c->gpu.rtc.calls = NVRTC_CUBIN_CALLS;
        snprintf(opt, cap, "--gpu-architecture=sm_%d", cc);
        snprintf(what, wcap, "a cubin for sm_%d (the device's compute capability)", cc);
        return;
    }
    c->gpu.rtc.calls = NVRTC_PTX_CALLS;
    if (!best) best = cc;
    snprintf(opt, cap, "--gpu-architecture=compute_%d", best);
    char why[96];
    if (!cubin) snprintf(why, sizeof why, "this NVRTC has no cubin output");
    else snprintf(why, sizeof why, "sm_%d is not among this NVRTC's targets", cc);
    snprintf(what, wcap, "PTX for compute_%d, JIT-compiled by the driver (fallback: %s)", best, why);
}

/* NVRTC bound for the target choose_target picked: a driver runs PTX only from an NVRTC no newer
 * than itself, minor version included. */
static nunart_status bind_nvrtc(nunart_ctx *ctx, cuda_t *c, char *arch, size_t acap, char *what, size_t wcap) {
    if (!c->nvrtc) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "%s", c->nvrtc_why);
    choose_target(c, arch, acap, what, wcap);
    if (c->gpu.rtc.calls == NVRTC_PTX_CALLS && c->nvrtc_major * 1000 + c->nvrtc_minor * 10 > c->driver)
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "NVRTC %d.%d (%s) can give only PTX here (%s), and the driver (CUDA %d.%d) does not load PTX "
                       "from a newer NVRTC (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)", c->nvrtc_major, c->nvrtc_minor, c->nvrtc_file, what,
                       c->driver / 1000, c->driver % 1000 / 10);
    return nr_rtc_bind(ctx, &c->gpu.rtc, c->nvrtc, c->nvrtc_file, 0);
}

static nunart_status compile(nunart_ctx *ctx, cuda_t *c) {
    char arch[64], what[256];
    nunart_status st = bind_nvrtc(ctx, c, arch, sizeof arch, what, sizeof what);
    if (st) return st;
    const char *opts[] = {arch};
    if ((st = nr_gpu_compile(ctx, &c->gpu, opts, 1))) return st;
    snprintf(ctx->executor, sizeof ctx->executor, "compiled by NVRTC %d.%d (%s) with %s to %s; the driver runs CUDA %d.%d%s", c->nvrtc_major,
             c->nvrtc_minor, c->nvrtc_file, arch, what, c->driver / 1000, c->driver % 1000 / 10,
             ctx->arch[0] ? "; option arch applies to HIP only" : "");
    return NUNART_OK;
}

static nunart_status cuda_alloc(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    nunart_status st = compile(ctx, c);
    if (st || (st = nr_gpu_alloc(ctx, &c->gpu))) return st;
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (no locality-domain allocation in this build; the map of %lld pages is recorded, not applied)", (long long) ctx->table->pages);
    return NUNART_OK;
}

static nunart_status cuda_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    cuda_t *c = ctx->be_state;
    unsigned grid;
    nunart_status st = nr_gpu_launch(ctx, &c->gpu, pinned, elapsed_us, &grid);
    if (st) return st;
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "not applied (CUDA has no per-stream SM masks; green contexts not used in this build)");
    return NUNART_OK;
}

static nunart_status cuda_fetch(nunart_ctx *ctx) { return nr_gpu_fetch(ctx, &((cuda_t *) ctx->be_state)->gpu); }
static nunart_status cuda_upload(nunart_ctx *ctx) { return nr_gpu_upload(ctx, &((cuda_t *) ctx->be_state)->gpu); }

static nunart_status cuda_probe(nunart_ctx *ctx, long long bytes, int naddr, int reps, long long *rec, int *nloc) {
    cuda_t *c = ctx->be_state;
    /* %smid need not be contiguous (PTX ISA): room for twice the SM count. */
    *nloc = 2 * c->sms;
    if (!rec) return NUNART_OK;
    char arch[64], what[256];
    nunart_status st = bind_nvrtc(ctx, c, arch, sizeof arch, what, sizeof what);
    const char *opts[] = {arch};
    return st ? st : nr_gpu_probe(ctx, &c->gpu, opts, 1, bytes, naddr, reps, *nloc, rec);
}

static void cuda_close(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    if (!c) return;
    /* Freeing needs a context: ours, pushed and popped so the caller's stays current. */
    int pushed = c->cuctx[0] && c->CtxPushCurrent && !c->CtxPushCurrent(c->cuctx[0]);
    nr_gpu_release(&c->gpu);
    if (pushed) { void *cx = NULL; c->CtxPopCurrent(&cx); }
    if (c->nvrtc) dlclose(c->nvrtc);
    for (int k = 0; k < c->nvis; k++)
        if (c->cuctx[k]) c->PrimaryCtxRelease(c->dev[k]);
    if (c->lib) dlclose(c->lib);
    free(c);
    ctx->be_state = NULL;
}

const nr_backend nr_backend_cuda = {
    .name = "cuda",
    .open = cuda_open,
    .alloc = cuda_alloc,
    .launch = cuda_launch,
    .fetch = cuda_fetch,
    .upload = cuda_upload,
    .stream = NULL,
    .enter = cuda_enter,
    .leave = cuda_leave,
    .probe = cuda_probe,
    .close = cuda_close,
};
