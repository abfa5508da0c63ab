/* Fake HIP runtime (libamdhip64): the calls backend_hip.c makes, on host memory. */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 0, E_VALUE = 1, E_MEMORY = 2, E_IMAGE = 200, E_NOT_FOUND = 500 };

int hipInit(unsigned flags) { return flags ? E_VALUE : OK; }
int hipGetDeviceCount(int *n) { *n = mock_env_int("NUNART_MOCK_DEVICES", 1); return OK; }
int hipSetDevice(int d) { return d < 0 ? E_VALUE : OK; }
int hipDeviceGetName(char *name, int len, int dev) {
    snprintf(name, (size_t) len, "Mock HIP device %d", dev);
    return OK;
}

int hipExtStreamCreateWithCUMask(void **stream, unsigned words, const unsigned *mask) {
    unsigned any = 0;
    for (unsigned i = 0; i < words; i++) any |= mask[i];
    mock_trace("hipExtStreamCreateWithCUMask words=%u mask0=0x%x", words, words ? mask[0] : 0);
    if (!any) return E_VALUE;
    *stream = malloc(1);
    return *stream ? OK : E_MEMORY;
}
int hipStreamDestroy(void *stream) { free(stream); return OK; }

int hipMalloc(void **p, size_t n) { *p = calloc(1, n); return *p ? OK : E_MEMORY; }
int hipFree(void *p) { free(p); return OK; }
int hipMemcpyHtoD(void *dst, void *src, size_t n) { memcpy(dst, src, n); return OK; }
int hipMemcpyDtoH(void *dst, void *src, size_t n) { memcpy(dst, src, n); return OK; }
int hipMemsetD32(void *dst, int v, size_t n) {
    for (size_t i = 0; i < n; i++) ((int *) dst)[i] = v;
    return OK;
}

int hipModuleLoadData(void **module, const void *image) {
    if (strcmp(image, MOCK_CODE) != 0) return E_IMAGE;
    *module = malloc(1);
    return *module ? OK : E_MEMORY;
}
int hipModuleUnload(void *module) { free(module); return OK; }
int hipModuleGetFunction(void **fn, void *module, const char *name) {
    *fn = module;
    return strcmp(name, "nunart_exec") == 0 ? OK : E_NOT_FOUND;
}

int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params, void **extra) {
    mock_trace("hipModuleLaunchKernel grid=%ux%ux%u block=%ux%ux%u shared=%u stream=%s", gx, gy, gz, bx, by, bz, shared,
               stream ? "other" : "default");
    if (!fn || !params || extra) return E_VALUE;
    mock_exec(params, gx, 1);
    return OK;
}
int hipDeviceSynchronize(void) { return OK; }

const char *hipGetErrorString(int rc) {
    switch (rc) {
    case OK: return "hipSuccess";
    case E_VALUE: return "hipErrorInvalidValue";
    case E_MEMORY: return "hipErrorOutOfMemory";
    case E_IMAGE: return "hipErrorInvalidImage";
    case E_NOT_FOUND: return "hipErrorNotFound";
    default: return "hipErrorUnknown";
    }
}
