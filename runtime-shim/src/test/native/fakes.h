/* What the native test programs that run the fake drivers share: pointing the runtime at them. */
#ifndef NUNART_TEST_FAKES_H
#define NUNART_TEST_FAKES_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fake driver and compiler libraries built in `mocks` for `backend` ("hip" or "cuda"), with
 * `units` dies (HIP) or SMs (CUDA) and `devices` devices, and no KFD topology: the shape comes
 * from the options, whatever GPU this machine has. */
static void use_fakes(const char *mocks, const char *backend, int units, int devices) {
    char path[4096], n[32];
    int hip = strcmp(backend, "hip") == 0;
    snprintf(path, sizeof path, "%s/libnunart-mock-%s.so", mocks, hip ? "hip" : "cuda");
    setenv(hip ? "NUNART_HIP_LIBRARY" : "NUNART_CUDA_LIBRARY", path, 1);
    snprintf(path, sizeof path, "%s/libnunart-mock-%s.so", mocks, hip ? "hiprtc" : "nvrtc");
    setenv(hip ? "NUNART_HIPRTC_LIBRARY" : "NUNART_NVRTC_LIBRARY", path, 1);
    snprintf(path, sizeof path, "%s/no-kfd-topology", mocks);
    setenv("NUNART_KFD_TOPOLOGY", path, 1);
    snprintf(n, sizeof n, "%d", units);
    setenv("NUNART_MOCK_UNITS", n, 1);
    snprintf(n, sizeof n, "%d", devices);
    setenv("NUNART_MOCK_DEVICES", n, 1);
}
#endif
