/* Fake CUDA driver (libcuda): the calls backend_cuda.c makes, on host memory. */
#include "mock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long dptr;
enum { OK = 0, E_VALUE = 1, E_MEMORY = 2, E_IMAGE = 200, E_NOT_FOUND = 500 };
#define PTR(d) ((void *) (uintptr_t) (d))

int cuInit(unsigned flags) { return flags ? E_VALUE : OK; }
int cuDeviceGetCount(int *n) { *n = mock_env_int("NUNART_MOCK_DEVICES", 1); return OK; }
int cuDeviceGet(int *dev, int ordinal) { *dev = ordinal; return OK; }
int cuDeviceGetName(char *name, int len, int dev) {
    snprintf(name, (size_t) len, "Mock CUDA device %d", dev);
    return OK;
}
int cuDeviceGetAttribute(int *v, int attr, int dev) {
    (void) dev;
    switch (attr) {
    case 16: *v = mock_env_int("NUNART_MOCK_UNITS", 8); return OK;  /* MULTIPROCESSOR_COUNT */
    case 75: *v = mock_env_int("NUNART_MOCK_CC", 10); return OK;    /* COMPUTE_CAPABILITY_MAJOR */
    case 76: *v = 0; return OK;
    default: return E_VALUE;
    }
}
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { *ctx = PTR(dev + 1); return OK; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void) dev; return OK; }
int cuCtxSetCurrent(void *ctx) { return ctx ? OK : E_VALUE; }
int cuCtxSynchronize(void) { return OK; }

int cuMemAlloc_v2(dptr *p, size_t n) {
    void *q = calloc(1, n);
    *p = (dptr) (uintptr_t) q;
    return q ? OK : E_MEMORY;
}
int cuMemFree_v2(dptr p) { free(PTR(p)); return OK; }
int cuMemcpyHtoD_v2(dptr dst, const void *src, size_t n) { memcpy(PTR(dst), src, n); return OK; }
int cuMemcpyDtoH_v2(void *dst, dptr src, size_t n) { memcpy(dst, PTR(src), n); return OK; }
int cuMemsetD32_v2(dptr dst, unsigned v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned *) PTR(dst))[i] = v;
    return OK;
}

int cuModuleLoadData(void **module, const void *image) {
    if (strcmp(image, MOCK_CODE) != 0) return E_IMAGE;
    *module = malloc(1);
    return *module ? OK : E_MEMORY;
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
    mock_exec(params, gx, 0);
    return OK;
}

int cuGetErrorString(int rc, const char **s) {
    switch (rc) {
    case OK: *s = "no error"; break;
    case E_VALUE: *s = "invalid argument"; break;
    case E_MEMORY: *s = "out of memory"; break;
    case E_IMAGE: *s = "device kernel image is invalid"; break;
    case E_NOT_FOUND: *s = "named symbol not found"; break;
    default: *s = "unknown error"; break;
    }
    return OK;
}
