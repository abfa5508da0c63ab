/* Fake GPU driver libraries for the tests: the entry points the CUDA and HIP backends dlsym,
 * on host memory. The fake compiler returns MOCK_CODE (MOCK_CODE_MULTI with -DNR_MULTI=1)
 * instead of code; the fake launch interprets the step records as executor.cu does, one block
 * after another. Test fakes may keep global state; the library may not. Environment:
 *   NUNART_MOCK_TRACE=FILE          append one line per compile, stream and launch call
 *   NUNART_MOCK_COMPILE_ERROR=TEXT  the compile fails with TEXT in its log
 *   NUNART_MOCK_DEVICES=N           devices reported (default 1)
 *   NUNART_MOCK_UNITS=N             SMs (CUDA) or XCDs (HIP) blocks are spread over (default 8)
 *   NUNART_MOCK_CC=MAJOR            CUDA compute capability major (default 10: two dies)
 *   NUNART_MOCK_LOCATION=N          every block lands on SM/XCD N (to misplace on purpose)
 *   NUNART_MOCK_HANG=1              no step ever completes: the kernel raises the abort flag
 *   NUNART_MOCK_NO_PEER=1           devices cannot access each other's memory (peer access refused)
 *   NUNART_MOCK_PEER_IGNORED=1      enabling peer access reports success but grants nothing
 *   NUNART_MOCK_LAST_UNITS=N        the last visible CUDA device has N SMs (a device that does not fit)
 *   NUNART_MOCK_NAME=TEXT           the CUDA device name (default "Mock CUDA device N")
 *   NUNART_MOCK_CC_MINOR=N          CUDA compute capability minor (default 0)
 *   NUNART_MOCK_OCCUPANCY=N         blocks of a kernel resident per SM or CU (default 8). A CUDA
 *                                   launch of more than N x SMs blocks runs in waves, as on a
 *                                   GPU: a later wave starts only once the earlier has finished,
 *                                   so threadblocks that wait on a later wave never finish
 *   NUNART_MOCK_DRIVER_VERSION=N    cuDriverGetVersion (default 13000, CUDA 13.0)
 *   NUNART_MOCK_NVRTC_VERSION=M.m   nvrtcVersion (default 13.0); hipRTC: NUNART_MOCK_HIPRTC_VERSION (6.2)
 *   NUNART_MOCK_NVRTC_ARCHS=LIST    nvrtcGetSupportedArchs, comma-separated (default 75,80,86,87,89,90,100,120)
 *   NUNART_MOCK_GCN_ARCH=TEXT       HIP gcnArchName in the device properties (default gfx942:sramecc+:xnack-)
 *   NUNART_MOCK_MEM_MB=N            each device's memory (default 1024): cuMemGetInfo / hipMemGetInfo
 *                                   report it, allocations past it fail (out of memory)
 *   NUNART_MOCK_MAX_BLOCK_MB=N      the largest single device allocation (default: the whole memory)
 *   NUNART_MOCK_MEM_GIVES_MB=N      allocations past N MiB fail although the memory info says more
 *                                   is free (fragmentation, another process)
 * The fake CUDA driver refuses what the real one does: calls that need a context while none is
 * current (CUDA_ERROR_INVALID_CONTEXT), a cubin for another sm_XY or from an NVRTC of a newer
 * major than the driver (CUDA_ERROR_NO_BINARY_FOR_GPU), PTX from an NVRTC newer than the driver
 * (CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222). The fake compilers encode what they were asked for
 * in the code image ("kind=cubin arch=90 nvrtc=13.0"). The latency probe's fake launch fills
 * synthetic records after checking that every address it is given lies in the current device's
 * memory (the trace names how many allocations the addresses reached and their bytes): 1.98 GHz, and on the units of the lower half slower to odd addresses and
 * on the upper half to even ones, first loads 20 cycles slower per unit mod 4 (a shape to
 * summarise, not a measurement).
 * Several devices: memory belongs to the device current when it was allocated (host-mapped
 * memory to all); a launch is recorded and the first synchronise runs every pending launch
 * jointly, their blocks interleaved round-robin, so cross-device waits complete as on hardware.
 * A joint run over several devices fails (MOCK_E_CHECK, mock_error says why) when a kernel was
 * compiled without -DNR_MULTI=1, when its flags are not host-mapped, or when a step touches a
 * device's memory that its own device has no peer access to. */
#ifndef NUNART_MOCK_H
#define NUNART_MOCK_H

#include <stddef.h>

#define MOCK_CODE "nunart-mock-code-object"
#define MOCK_CODE_MULTI "nunart-mock-code-object NR_MULTI"
#define MOCK_E_CHECK 999
#define MOCK_HOST (-1)

int mock_env_int(const char *name, int dflt);
void mock_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Devices: how many, the current one, peer access from the current one. */
int mock_devices(void);
int mock_current(void);
int mock_set_current(int dev);
int mock_can_peer(int dev, int peer);
/* 0, or 1 when already enabled, -1 when refused. */
int mock_enable_peer(int peer);

/* Memory with an owner (a device, or MOCK_HOST for host-mapped memory). A device's allocations
 * count against its memory (NUNART_MOCK_MEM_MB); NULL when it is used up. */
void *mock_alloc(size_t n, int owner);
void mock_free(void *p);
/* The current device's free and total memory in bytes. */
void mock_meminfo(size_t *free_bytes, size_t *total_bytes);

/* A loaded module: whether its code was compiled with NR_MULTI, and on which device; its two
 * kernels (0: nunart_exec, 1: nunart_probe) as function handles. */
typedef struct mock_module mock_module;
typedef struct {
    mock_module *module;
    int probe;
} mock_fn;
struct mock_module {
    int multi, device;
    mock_fn fn[2];
};
int mock_load(void **module, const void *image);
/* The function `name` of a module, or NULL. */
mock_fn *mock_function(void *module, const char *name);

/* Records one launch of nunart_exec (args: its parameters as kernelParams; amd: the HW_ID
 * encoding); the first mock_sync runs every pending launch jointly. A launch of nunart_probe
 * runs at once. 0, -2 for a check that failed (mock_error says why), or -1. */
int mock_launch(void *fn, void **args, unsigned grid, int amd);
/* Blocks of one kernel resident at once per SM or CU (NUNART_MOCK_OCCUPANCY). */
int mock_occupancy(void);
int mock_sync(void);
/* Why the last MOCK_E_CHECK failure happened. */
const char *mock_error(void);

#endif
