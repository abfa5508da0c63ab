/* CUDA backend: the driver API and NVRTC are loaded at run time (dlopen; NUNART_CUDA_LIBRARY and
 * NUNART_NVRTC_LIBRARY override the files), so the library builds and runs without the toolkit.
 * The embedded executor is compiled by NVRTC for the device found; pinned launches use its
 * %smid dispatcher (exact SM placement, read back). The executor itself is gpu_exec.c; this file
 * supplies the driver calls. */
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
    int (*CtxSynchronize)(void);
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
    .ticks_per_us = 1000, /* clock64 cycles at >= 1 GHz */
    .call_alloc = "cuMemAlloc", .call_htod = "cuMemcpyHtoD", .call_dtoh = "cuMemcpyDtoH", .call_memset = "cuMemsetD32",
    .call_load = "cuModuleLoadData", .call_function = "cuModuleGetFunction", .call_launch = "cuLaunchKernel",
    .call_sync = "cuCtxSynchronize", .call_select = "cuCtxSetCurrent", .call_can_peer = "cuDeviceCanAccessPeer",
    .call_enable_peer = "cuCtxEnablePeerAccess", .call_host_alloc = "cuMemHostAlloc", .call_host_map = "cuMemHostGetDevicePointer",
    .alloc = c_alloc, .free = c_free, .htod = c_htod, .dtoh = c_dtoh, .memset32 = c_memset, .load = c_load,
    .unload = c_unload, .function = c_function, .launch = c_launch, .sync = c_sync, .error = c_error,
    .select = c_select, .can_peer = c_can_peer, .enable_peer = c_enable_peer, .host_alloc = c_host_alloc,
    .host_free = c_host_free, .host_map = c_host_map,
};

static const char *const NVRTC_CALLS[NR_RTC_NCALLS] = {
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
        {"cuCtxSynchronize", (void **) &c->CtxSynchronize},
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

static nunart_status cuda_open(nunart_ctx *ctx) {
    cuda_t *c = calloc(1, sizeof *c);
    if (!c) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = c;
    c->gpu.ops = &CUDA_OPS;
    c->gpu.drv = c;
    c->gpu.rtc.calls = NVRTC_CALLS;
    static const char *const names[] = {"libcuda.so.1"};
    char why[512];
    c->lib = nr_dlopen("NUNART_CUDA_LIBRARY", names, 1, c->lib_file, sizeof c->lib_file, why, sizeof why);
    if (!c->lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no NVIDIA driver: %s", why);
    nunart_status st = load_symbols(ctx, c);
    if (st) return st;
    int rc = c->Init(0), n = 0;
    if (rc) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "cuInit failed: %s", c_error(c, rc));
    if ((rc = c->DeviceGetCount(&n)) || n == 0) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no CUDA device found");
    if (ctx->device_ordinal >= n) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "device %d requested, %d present", ctx->device_ordinal, n);
    c->first = ctx->device_ordinal;
    c->nvis = n - c->first < NR_MAX_DEVICES ? n - c->first : NR_MAX_DEVICES;
    ctx->nvisible = c->nvis;
    for (int k = 0; k < c->nvis; k++) describe(c, k, &ctx->devs[k]);
    ctx->dev = ctx->devs[0];
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%.140s, loopback ranks", ctx->devs[0].name);
    if ((rc = c_select(c, c->first)))
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "cannot create a context: %s", c_error(c, rc));
    return NUNART_OK;
}

static nunart_status compile(nunart_ctx *ctx, cuda_t *c) {
    static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
    char file[192], why[512];
    void *lib = nr_dlopen("NUNART_NVRTC_LIBRARY", names, 4, file, sizeof file, why, sizeof why);
    if (!lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "NVRTC not found (%s): the executor cannot be compiled at run time", why);
    nunart_status st = nr_rtc_bind(ctx, &c->gpu.rtc, lib, file, 1);
    if (st) return st;
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", c->cc_major, c->cc_minor);
    const char *opts[] = {arch};
    if ((st = nr_gpu_compile(ctx, &c->gpu, opts, 1))) return st;
    snprintf(ctx->executor, sizeof ctx->executor, "compiled by NVRTC (%s) with %s (the device's compute capability)%s", file, arch,
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

static void cuda_close(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    if (!c) return;
    nr_gpu_release(&c->gpu);
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
    .close = cuda_close,
};
