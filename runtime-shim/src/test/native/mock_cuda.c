/* Fake CUDA driver (libcuda): the calls backend_cuda.c makes, on host memory. */
#include "mock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long dptr;
enum { OK = 0, E_VALUE = 1, E_MEMORY = 2, E_INVALID_DEVICE = 101, E_IMAGE = 200, E_CONTEXT = 201, E_NO_BINARY = 209,
       E_PEER_UNSUPPORTED = 217, E_PTX_VERSION = 222, E_NOT_FOUND = 500, E_PEER_ENABLED = 704 };
#define PTR(d) ((void *) (uintptr_t) (d))

/* The context stack of the (one) calling thread. A primary context is its device + 1; one made by
 * cuCtxCreate is 0x100 + device + 1. The current device is the top context's. */
static void *stack[16];
static int depth;
static int ctx_device(void *ctx) { return (int) ((uintptr_t) ctx & 0xff) - 1; }
static int valid(void *ctx) { return ctx && ((uintptr_t) ctx & ~(uintptr_t) 0x1ff) == 0 && ctx_device(ctx) >= 0 && ctx_device(ctx) < mock_devices(); }
static int make_current(void) { return depth > 0 && !mock_set_current(ctx_device(stack[depth - 1])) ? OK : E_CONTEXT; }
/* Calls that act on the current context fail without one, as the real driver's do. */
#define NEED_CONTEXT() do { if (make_current()) return E_CONTEXT; } while (0)

int cuInit(unsigned flags) { return flags ? E_VALUE : OK; }
int cuDriverGetVersion(int *v) { *v = mock_env_int("NUNART_MOCK_DRIVER_VERSION", 13000); return OK; }
int cuDeviceGetCount(int *n) { *n = mock_devices(); return OK; }
int cuDeviceGet(int *dev, int ordinal) {
    if (ordinal < 0 || ordinal >= mock_devices()) return E_INVALID_DEVICE;
    *dev = ordinal;
    return OK;
}
int cuDeviceGetName(char *name, int len, int dev) {
    const char *n = getenv("NUNART_MOCK_NAME");
    if (n && *n) snprintf(name, (size_t) len, "%s", n);
    else snprintf(name, (size_t) len, "Mock CUDA device %d", dev);
    return OK;
}
int cuDeviceGetAttribute(int *v, int attr, int dev) {
    switch (attr) {
    case 16: /* MULTIPROCESSOR_COUNT */
        *v = dev == mock_devices() - 1 ? mock_env_int("NUNART_MOCK_LAST_UNITS", mock_env_int("NUNART_MOCK_UNITS", 8)) : mock_env_int("NUNART_MOCK_UNITS", 8);
        return OK;
    case 75: *v = mock_env_int("NUNART_MOCK_CC", 10); return OK;    /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *v = mock_env_int("NUNART_MOCK_CC_MINOR", 0); return OK;
    default: return E_VALUE;
    }
}
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = PTR(dev + 1); return OK; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void) dev; return OK; }
int cuCtxSetCurrent(void *ctx) {
    if (!ctx) { if (depth) depth--; return OK; }
    if (!valid(ctx)) return E_CONTEXT;
    if (depth) stack[depth - 1] = ctx;
    else stack[depth++] = ctx;
    return make_current();
}
int cuCtxPushCurrent_v2(void *ctx) {
    if (!valid(ctx)) return E_CONTEXT;
    if (depth == (int) (sizeof stack / sizeof *stack)) return E_MEMORY;
    stack[depth++] = ctx;
    return make_current();
}
int cuCtxPopCurrent_v2(void **ctx) {
    if (!depth) return E_CONTEXT;
    void *top = stack[--depth];
    if (ctx) *ctx = top;
    if (depth) make_current();
    return OK;
}
int cuCtxGetCurrent(void **ctx) { *ctx = depth ? stack[depth - 1] : NULL; return OK; }
/* For the tests: a context of the caller's own, pushed as cuCtxCreate does. */
int cuCtxCreate_v2(void **ctx, unsigned flags, int dev) {
    if (flags || dev < 0 || dev >= mock_devices()) return E_VALUE;
    *ctx = (void *) (uintptr_t) (0x100 + dev + 1);
    return cuCtxPushCurrent_v2(*ctx);
}
int cuCtxSynchronize(void) { NEED_CONTEXT(); return mock_sync(); }
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fn, int block, size_t smem) {
    NEED_CONTEXT();
    if (!fn || block < 1 || block > 1024 || smem) return E_VALUE;
    *n = mock_occupancy();
    return OK;
}
int cuDeviceCanAccessPeer(int *can, int dev, int peer) {
    if (dev < 0 || peer < 0 || dev >= mock_devices() || peer >= mock_devices()) return E_INVALID_DEVICE;
    *can = mock_can_peer(dev, peer);
    return OK;
}
int cuCtxEnablePeerAccess(void *ctx, unsigned flags) {
    NEED_CONTEXT();
    if (!ctx || flags) return E_VALUE;
    int rc = mock_enable_peer((int) (uintptr_t) ctx - 1);
    mock_trace("cuCtxEnablePeerAccess device=%d peer=%d%s", mock_current(), (int) (uintptr_t) ctx - 1, rc < 0 ? " refused" : "");
    return rc < 0 ? E_PEER_UNSUPPORTED : rc ? E_PEER_ENABLED : OK;
}

int cuMemAlloc_v2(dptr *p, size_t n) {
    NEED_CONTEXT();
    void *q = mock_alloc(n, mock_current());
    *p = (dptr) (uintptr_t) q;
    return q ? OK : E_MEMORY;
}
int cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes) {
    NEED_CONTEXT();
    if (!free_bytes || !total_bytes) return E_VALUE;
    mock_meminfo(free_bytes, total_bytes);
    return OK;
}
int cuMemFree_v2(dptr p) {
    NEED_CONTEXT();
    mock_free(PTR(p));
    return OK;
}
int cuMemHostAlloc(void **p, size_t n, unsigned flags) {
    NEED_CONTEXT();
    if (flags != 3) return E_VALUE; /* PORTABLE | DEVICEMAP */
    *p = mock_alloc(n, MOCK_HOST);
    return *p ? OK : E_MEMORY;
}
int cuMemFreeHost(void *p) { mock_free(p); return OK; }
int cuMemHostGetDevicePointer_v2(dptr *d, void *p, unsigned flags) {
    NEED_CONTEXT();
    if (flags || !p) return E_VALUE;
    *d = (dptr) (uintptr_t) p;
    return OK;
}
int cuMemcpyHtoD_v2(dptr dst, const void *src, size_t n) {
    NEED_CONTEXT();
    memcpy(PTR(dst), src, n);
    return OK;
}
int cuMemcpyDtoH_v2(void *dst, dptr src, size_t n) {
    NEED_CONTEXT();
    memcpy(dst, PTR(src), n);
    return OK;
}
int cuMemsetD32_v2(dptr dst, unsigned v, size_t n) {
    NEED_CONTEXT();
    for (size_t i = 0; i < n; i++) ((unsigned *) PTR(dst))[i] = v;
    return OK;
}

/* The image's kind (cubin or ptx), target and NVRTC version must suit the device and driver. */
static int loadable(const char *image) {
    char kind[8] = "";
    int arch = 0, major = 0, minor = 0;
    const char *k = strstr(image, "kind=");
    if (!k || sscanf(k, "kind=%7s arch=%d nvrtc=%d.%d", kind, &arch, &major, &minor) != 4) return E_IMAGE;
    int cc = mock_env_int("NUNART_MOCK_CC", 10) * 10 + mock_env_int("NUNART_MOCK_CC_MINOR", 0);
    int driver = mock_env_int("NUNART_MOCK_DRIVER_VERSION", 13000), from = major * 1000 + minor * 10;
    if (!strcmp(kind, "cubin")) return arch == cc && major <= driver / 1000 ? OK : E_NO_BINARY;
    if (from > driver) return E_PTX_VERSION;
    return arch <= cc ? OK : E_NO_BINARY;
}

int cuModuleLoadData(void **module, const void *image) {
    NEED_CONTEXT();
    int ok = loadable(image);
    if (ok) return ok;
    int rc = mock_load(module, image);
    return rc == -1 ? E_IMAGE : rc ? E_MEMORY : OK;
}
int cuModuleUnload(void *module) {
    NEED_CONTEXT();
    free(module);
    return OK;
}
int cuModuleGetFunction(void **fn, void *module, const char *name) {
    NEED_CONTEXT();
    *fn = mock_function(module, name);
    return *fn ? OK : E_NOT_FOUND;
}

int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) {
    NEED_CONTEXT();
    mock_trace("cuLaunchKernel grid=%ux%ux%u block=%ux%ux%u shared=%u stream=%s", gx, gy, gz, bx, by, bz, shared,
               stream ? "other" : "default");
    if (!fn || !params || extra) return E_VALUE;
    int rc = mock_launch(fn, params, gx, 0);
    return rc == -2 ? MOCK_E_CHECK : rc ? E_VALUE : OK;
}

int cuGetErrorString(int rc, const char **s) {
    switch (rc) {
    case OK: *s = "no error"; break;
    case E_VALUE: *s = "invalid argument"; break;
    case E_MEMORY: *s = "out of memory"; break;
    case E_IMAGE: *s = "device kernel image is invalid"; break;
    case E_CONTEXT: *s = "invalid device context"; break;
    case E_NO_BINARY: *s = "no kernel image is available for execution on the device"; break;
    case E_PTX_VERSION: *s = "the provided PTX was compiled with an unsupported toolchain."; break;
    case E_NOT_FOUND: *s = "named symbol not found"; break;
    case E_INVALID_DEVICE: *s = "invalid device ordinal"; break;
    case E_PEER_UNSUPPORTED: *s = "peer access is not supported between these two devices"; break;
    case E_PEER_ENABLED: *s = "peer access is already enabled"; break;
    case MOCK_E_CHECK: *s = mock_error(); break;
    default: *s = "unknown error"; break;
    }
    return OK;
}
