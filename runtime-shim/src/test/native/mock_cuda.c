/* Fake CUDA driver (libcuda): the calls backend_cuda.c makes, on host memory. */
#include "mock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long dptr;
enum { OK = 0, E_VALUE = 1, E_MEMORY = 2, E_INVALID_DEVICE = 101, E_IMAGE = 200, E_PEER_UNSUPPORTED = 217, E_NOT_FOUND = 500,
       E_PEER_ENABLED = 704 };
#define PTR(d) ((void *) (uintptr_t) (d))

int cuInit(unsigned flags) { return flags ? E_VALUE : OK; }
int cuDeviceGetCount(int *n) { *n = mock_devices(); return OK; }
int cuDeviceGet(int *dev, int ordinal) {
    if (ordinal < 0 || ordinal >= mock_devices()) return E_INVALID_DEVICE;
    *dev = ordinal;
    return OK;
}
int cuDeviceGetName(char *name, int len, int dev) {
    snprintf(name, (size_t) len, "Mock CUDA device %d", dev);
    return OK;
}
int cuDeviceGetAttribute(int *v, int attr, int dev) {
    switch (attr) {
    case 16: /* MULTIPROCESSOR_COUNT */
        *v = dev == mock_devices() - 1 ? mock_env_int("NUNART_MOCK_LAST_UNITS", mock_env_int("NUNART_MOCK_UNITS", 8)) : mock_env_int("NUNART_MOCK_UNITS", 8);
        return OK;
    case 75: *v = mock_env_int("NUNART_MOCK_CC", 10); return OK;    /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *v = 0; return OK;
    default: return E_VALUE;
    }
}
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = PTR(dev + 1); return OK; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void) dev; return OK; }
/* A context is its device + 1. */
int cuCtxSetCurrent(void *ctx) { return ctx && mock_set_current((int) (uintptr_t) ctx - 1) == 0 ? OK : E_VALUE; }
int cuCtxSynchronize(void) { return mock_sync(); }
int cuDeviceCanAccessPeer(int *can, int dev, int peer) {
    if (dev < 0 || peer < 0 || dev >= mock_devices() || peer >= mock_devices()) return E_INVALID_DEVICE;
    *can = mock_can_peer(dev, peer);
    return OK;
}
int cuCtxEnablePeerAccess(void *ctx, unsigned flags) {
    if (!ctx || flags) return E_VALUE;
    int rc = mock_enable_peer((int) (uintptr_t) ctx - 1);
    mock_trace("cuCtxEnablePeerAccess device=%d peer=%d%s", mock_current(), (int) (uintptr_t) ctx - 1, rc < 0 ? " refused" : "");
    return rc < 0 ? E_PEER_UNSUPPORTED : rc ? E_PEER_ENABLED : OK;
}

int cuMemAlloc_v2(dptr *p, size_t n) {
    void *q = mock_alloc(n, mock_current());
    *p = (dptr) (uintptr_t) q;
    return q ? OK : E_MEMORY;
}
int cuMemFree_v2(dptr p) { mock_free(PTR(p)); return OK; }
int cuMemHostAlloc(void **p, size_t n, unsigned flags) {
    if (flags != 3) return E_VALUE; /* PORTABLE | DEVICEMAP */
    *p = mock_alloc(n, MOCK_HOST);
    return *p ? OK : E_MEMORY;
}
int cuMemFreeHost(void *p) { mock_free(p); return OK; }
int cuMemHostGetDevicePointer_v2(dptr *d, void *p, unsigned flags) {
    if (flags || !p) return E_VALUE;
    *d = (dptr) (uintptr_t) p;
    return OK;
}
int cuMemcpyHtoD_v2(dptr dst, const void *src, size_t n) { memcpy(PTR(dst), src, n); return OK; }
int cuMemcpyDtoH_v2(void *dst, dptr src, size_t n) { memcpy(dst, PTR(src), n); return OK; }
int cuMemsetD32_v2(dptr dst, unsigned v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned *) PTR(dst))[i] = v;
    return OK;
}

int cuModuleLoadData(void **module, const void *image) {
    int rc = mock_load(module, image);
    return rc == -1 ? E_IMAGE : rc ? E_MEMORY : OK;
}
int cuModuleUnload(void *module) { free(module); return OK; }
int cuModuleGetFunction(void **fn, void *module, const char *name) {
    *fn = module;
    return strcmp(name, "nunart_exec") == 0 ? OK : E_NOT_FOUND;
}

int cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void *stream, void **params, void **extra) {
    mock_trace("cuLaunchKernel grid=%ux%ux%u block=%ux%ux%u shared=%u stream=%s", gx, gy, gz, bx, by, bz, shared,
               stream ? "other" : "default");
    if (!fn || !params || extra) return E_VALUE;
    return mock_launch(fn, params, gx, 0) ? E_VALUE : OK;
}

int cuGetErrorString(int rc, const char **s) {
    switch (rc) {
    case OK: *s = "no error"; break;
    case E_VALUE: *s = "invalid argument"; break;
    case E_MEMORY: *s = "out of memory"; break;
    case E_IMAGE: *s = "device kernel image is invalid"; break;
    case E_NOT_FOUND: *s = "named symbol not found"; break;
    case E_INVALID_DEVICE: *s = "invalid device ordinal"; break;
    case E_PEER_UNSUPPORTED: *s = "peer access is not supported between these two devices"; break;
    case E_PEER_ENABLED: *s = "peer access is already enabled"; break;
    case MOCK_E_CHECK: *s = mock_error(); break;
    default: *s = "unknown error"; break;
    }
    return OK;
}
