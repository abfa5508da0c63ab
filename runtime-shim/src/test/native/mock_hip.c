/* Fake HIP runtime (libamdhip64): the calls backend_hip.c makes, on host memory. */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdint.h>

enum { OK = 0, E_VALUE = 1, E_MEMORY = 2, E_INVALID_DEVICE = 101, E_IMAGE = 200, E_PEER_UNSUPPORTED = 217, E_NOT_FOUND = 500,
       E_PEER_ENABLED = 704 };

int hipInit(unsigned flags) { return flags ? E_VALUE : OK; }
int hipGetDeviceCount(int *n) { *n = mock_devices(); return OK; }
int hipSetDevice(int d) { return mock_set_current(d) ? E_INVALID_DEVICE : OK; }
int hipGetDevice(int *d) { *d = mock_current(); return OK; }
/* PCI address 0000:(0x10 + device):00.0, which a test's KFD topology (NUNART_KFD_TOPOLOGY) may name. */
int hipDeviceGetPCIBusId(char *id, int len, int dev) {
    if (dev < 0 || dev >= mock_devices() || len < 13) return E_INVALID_DEVICE;
    snprintf(id, (size_t) len, "0000:%02x:00.0", 0x10 + dev);
    return OK;
}
int hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fn, int block, size_t smem) {
    if (!fn || block < 1 || block > 1024 || smem) return E_VALUE;
    *n = mock_occupancy();
    return OK;
}
int hipDeviceCanAccessPeer(int *can, int dev, int peer) {
    if (dev < 0 || peer < 0 || dev >= mock_devices() || peer >= mock_devices()) return E_INVALID_DEVICE;
    *can = mock_can_peer(dev, peer);
    return OK;
}
int hipDeviceEnablePeerAccess(int peer, unsigned flags) {
    if (flags) return E_VALUE;
    int rc = mock_enable_peer(peer);
    mock_trace("hipDeviceEnablePeerAccess device=%d peer=%d%s", mock_current(), peer, rc < 0 ? " refused" : "");
    return rc < 0 ? E_PEER_UNSUPPORTED : rc ? E_PEER_ENABLED : OK;
}
/* The device properties with the name and gcnArchName (NUNART_MOCK_GCN_ARCH, default
 * gfx942:sramecc+:xnack-) where the real layouts put them: hipDeviceProp_tR0600 (1,472 bytes,
 * gcnArchName at 1160), or with MOCK_HIP_R0000 (a runtime older than ROCm 6) only the older
 * hipGetDeviceProperties (gcnArchName at 396). */
static int properties(void *props, int dev, size_t bytes, size_t arch_at) {
    if (!props) return E_VALUE;
    if (dev < 0 || dev >= mock_devices()) return E_INVALID_DEVICE;
    const char *arch = getenv("NUNART_MOCK_GCN_ARCH");
    memset(props, 0, bytes);
    snprintf(props, 256, "Mock HIP device %d", dev);
    snprintf((char *) props + arch_at, 256, "%s", arch ? arch : "gfx942:sramecc+:xnack-");
    return OK;
}
#ifdef MOCK_HIP_R0000
int hipGetDeviceProperties(void *props, int dev) { return properties(props, dev, 792, 396); }
#else
int hipGetDevicePropertiesR0600(void *props, int dev) { return properties(props, dev, 1472, 1160); }
#endif
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

int hipMalloc(void **p, size_t n) { *p = mock_alloc(n, mock_current()); return *p ? OK : E_MEMORY; }
int hipMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    if (!free_bytes || !total_bytes) return E_VALUE;
    mock_meminfo(free_bytes, total_bytes);
    return OK;
}
int hipFree(void *p) { mock_free(p); return OK; }
int hipHostMalloc(void **p, size_t n, unsigned flags) {
    if (flags != (0x1u | 0x2u | 0x40000000u)) return E_VALUE; /* portable, mapped, coherent */
    *p = mock_alloc(n, MOCK_HOST);
    return *p ? OK : E_MEMORY;
}
int hipHostFree(void *p) { mock_free(p); return OK; }
int hipHostGetDevicePointer(void **d, void *p, unsigned flags) {
    if (flags || !p) return E_VALUE;
    *d = p;
    return OK;
}
int hipMemcpyHtoD(void *dst, void *src, size_t n) { memcpy(dst, src, n); return OK; }
int hipMemcpyDtoH(void *dst, void *src, size_t n) { memcpy(dst, src, n); return OK; }
int hipMemsetD32(void *dst, int v, size_t n) {
    for (size_t i = 0; i < n; i++) ((int *) dst)[i] = v;
    return OK;
}

int hipModuleLoadData(void **module, const void *image) {
    int rc = mock_load(module, image);
    return rc == -1 ? E_IMAGE : rc ? E_MEMORY : OK;
}
int hipModuleUnload(void *module) { free(module); return OK; }
int hipModuleGetFunction(void **fn, void *module, const char *name) {
    *fn = mock_function(module, name);
    return *fn ? OK : E_NOT_FOUND;
}

int hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params, void **extra) {
    mock_trace("hipModuleLaunchKernel grid=%ux%ux%u block=%ux%ux%u shared=%u stream=%s", gx, gy, gz, bx, by, bz, shared,
               stream ? "other" : "default");
    if (!fn || !params || extra) return E_VALUE;
    int rc = mock_launch(fn, params, gx, 1);
    return rc == -2 ? MOCK_E_CHECK : rc ? E_VALUE : OK;
}
int hipDeviceSynchronize(void) { return mock_sync(); }

const char *hipGetErrorString(int rc) {
    switch (rc) {
    case OK: return "hipSuccess";
    case E_VALUE: return "hipErrorInvalidValue";
    case E_MEMORY: return "hipErrorOutOfMemory";
    case E_IMAGE: return "hipErrorInvalidImage";
    case E_NOT_FOUND: return "hipErrorNotFound";
    case E_INVALID_DEVICE: return "hipErrorInvalidDevice";
    case E_PEER_UNSUPPORTED: return "hipErrorPeerAccessUnsupported";
    case E_PEER_ENABLED: return "hipErrorPeerAccessAlreadyEnabled";
    case MOCK_E_CHECK: return mock_error();
    default: return "hipErrorUnknown";
    }
}
