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

/* Memory with an owner (a device, or MOCK_HOST for host-mapped memory). */
void *mock_alloc(size_t n, int owner);
void mock_free(void *p);

/* A loaded module: whether its code was compiled with NR_MULTI, and on which device. */
typedef struct {
    int multi, device;
} mock_module;
int mock_load(void **module, const void *image);

/* Records one launch of nunart_exec (args: its parameters as kernelParams; amd: the HW_ID
 * encoding); the first mock_sync runs every pending launch jointly. 0 or an error code. */
int mock_launch(void *fn, void **args, unsigned grid, int amd);
int mock_sync(void);
/* Why the last MOCK_E_CHECK failure happened. */
const char *mock_error(void);

#endif
