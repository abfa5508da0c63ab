/* Fake GPU driver libraries for the tests: the entry points the CUDA and HIP backends dlsym,
 * on host memory. The fake compiler returns MOCK_CODE instead of code; the fake launch
 * interprets the step records as executor.cu does, one block after another. Environment:
 *   NUNART_MOCK_TRACE=FILE          append one line per compile, stream and launch call
 *   NUNART_MOCK_COMPILE_ERROR=TEXT  the compile fails with TEXT in its log
 *   NUNART_MOCK_DEVICES=N           devices reported (default 1)
 *   NUNART_MOCK_UNITS=N             SMs (CUDA) or XCDs (HIP) blocks are spread over (default 8)
 *   NUNART_MOCK_CC=MAJOR            CUDA compute capability major (default 10: two dies)
 *   NUNART_MOCK_LOCATION=N          every block lands on SM/XCD N (to misplace on purpose)
 *   NUNART_MOCK_HANG=1              no step ever completes: the kernel raises the abort flag */
#ifndef NUNART_MOCK_H
#define NUNART_MOCK_H

#define MOCK_CODE "nunart-mock-code-object"

int mock_env_int(const char *name, int dflt);
void mock_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs one launch of nunart_exec: args are its parameters (as kernelParams), grid its blocks,
 * amd selects the HW_ID encoding. */
void mock_exec(void **args, unsigned grid, int amd);

#endif
