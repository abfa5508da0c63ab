/* The device executor shared by the GPU backends. CUDA and HIP drive it the same way: compile
 * the embedded executor at run time, pack the steps, upload the buffers, launch plain or pinned,
 * check the abort flag, read back where each threadblock ran. A backend supplies its driver
 * calls (nr_gpu_ops) and its runtime compiler (nr_rtc); everything else lives in gpu_exec.c. */
#ifndef NUNART_GPU_EXEC_H
#define NUNART_GPU_EXEC_H

#include "internal.h"

#include <stddef.h>

/* A device address: CUdeviceptr, or a hipDeviceptr_t held as an integer. */
typedef unsigned long long nr_dptr;

/* One driver's calls, each a thin wrapper that returns the driver's status (0 = success). The
 * call_* strings name the vendor's functions in error messages. */
typedef struct {
    const char *rtc_name;      /* "NVRTC", "hipRTC" */
    const char *loc_reg;       /* what the dispatcher reads: "%smid", "XCC_ID" */
    const char *unit;          /* the unit a threadblock is placed on: "SM", "XCD" */
    int place_by_die;          /* tbinfo holds the planned die (HIP) instead of the CU (CUDA) */
    int read_hw_id;            /* read back the kernel's hw_id array after each launch */
    long long ticks_per_us;    /* lower bound of the rate of the kernel's clock */
    const char *call_alloc, *call_htod, *call_dtoh, *call_memset, *call_load, *call_function, *call_launch, *call_sync;
    int (*alloc)(void *drv, nr_dptr *p, size_t bytes);
    int (*free)(void *drv, nr_dptr p);
    int (*htod)(void *drv, nr_dptr dst, const void *src, size_t bytes);
    int (*dtoh)(void *drv, void *dst, nr_dptr src, size_t bytes);
    int (*memset32)(void *drv, nr_dptr p, unsigned value, size_t count);
    int (*load)(void *drv, void **module, const void *image);
    int (*unload)(void *drv, void *module);
    int (*function)(void *drv, void **fn, void *module, const char *name);
    /* Launches grid x 1 x 1 blocks of block threads on the default stream. */
    int (*launch)(void *drv, void *fn, unsigned grid, unsigned block, void **args);
    int (*sync)(void *drv);
    const char *(*error)(void *drv, int rc);
} nr_gpu_ops;

/* A runtime compiler: NVRTC and hipRTC have the same shapes. */
enum { NR_RTC_CREATE, NR_RTC_COMPILE, NR_RTC_CODE_SIZE, NR_RTC_CODE, NR_RTC_LOG_SIZE, NR_RTC_LOG, NR_RTC_DESTROY,
       NR_RTC_ERROR, NR_RTC_NCALLS };

typedef struct {
    const char *const *calls;  /* the vendor's function names, in NR_RTC_* order */
    void *lib;
    int owned;                 /* lib was opened for the compiler and is closed with it */
    char file[192];            /* where the compiler came from, for the report */
    int (*create)(void **prog, const char *src, const char *name, int nheaders, const char *const *headers,
                  const char *const *include_names);
    int (*compile)(void *prog, int nopts, const char *const *opts);
    int (*code_size)(void *prog, size_t *n);
    int (*code)(void *prog, char *out);
    int (*log_size)(void *prog, size_t *n);
    int (*log)(void *prog, char *out);
    int (*destroy)(void **prog);
    const char *(*error)(int rc);
} nr_rtc;

typedef struct {
    const nr_gpu_ops *ops;
    void *drv;                 /* the backend's state, passed to every op */
    nr_rtc rtc;
    void *module, *fn;
    nr_dptr arena, steps, deps, tbinfo, done, ran_on, hw_id, claim;
    int units;                 /* placement units on the device: SMs or dies */
    int per_unit;              /* blocks per unit in a pinned grid */
    int *hw;                   /* host copy of hw_id (when ops->read_hw_id) */
} nr_gpu;

typedef struct {
    const char *name;
    void **slot;
} nr_sym;

/* Opens the file named by the environment variable `env` when it is set (an override never
 * falls back), else the first of `names` that loads. On success `used` names the file; on
 * failure `why` says what was tried and the loader's error. */
void *nr_dlopen(const char *env, const char *const *names, int n, char *used, size_t used_cap, char *why, size_t why_cap);

/* Looks up every symbol of `syms` in lib; a missing one is NUNART_E_UNAVAILABLE naming it. */
nunart_status nr_bind(nunart_ctx *ctx, void *lib, const char *file, const nr_sym *syms, int n);

/* Binds the compiler's calls (rtc->calls names them) from lib, which it closes if owned. */
nunart_status nr_rtc_bind(nunart_ctx *ctx, nr_rtc *rtc, void *lib, const char *file, int owned);

/* Compiles the embedded executor with `opts` and loads its kernel. */
nunart_status nr_gpu_compile(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts);

/* Packs the table into step records and tbinfo triples and uploads every buffer. */
nunart_status nr_gpu_alloc(nunart_ctx *ctx, nr_gpu *g);

/* One launch: pinned (units x per_unit blocks, dispatcher) or plain (a block per threadblock);
 * fills ctx->ran_on, ctx->located, the cu-affinity and grid-order lines; *grid gets the size. */
nunart_status nr_gpu_launch(nunart_ctx *ctx, nr_gpu *g, int pinned, double *elapsed_us, unsigned *grid);

nunart_status nr_gpu_fetch(nunart_ctx *ctx, nr_gpu *g);
nunart_status nr_gpu_upload(nunart_ctx *ctx, nr_gpu *g);

/* Frees the device buffers, the module and the compiler; the backend then closes its driver. */
void nr_gpu_release(nr_gpu *g);

#endif
