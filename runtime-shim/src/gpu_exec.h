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
 * call_* strings name the vendor's functions in error messages. Memory, module and launch calls
 * act on the current device, which `select` sets (a driver ordinal). */
typedef struct {
    const char *rtc_name;      /* "NVRTC", "hipRTC" */
    const char *loc_reg;       /* what the dispatcher reads: "%smid", "XCC_ID" */
    const char *unit;          /* the unit a threadblock is placed on: "SM", "XCD" */
    int place_by_die;          /* tbinfo holds the planned die (HIP) instead of the CU (CUDA) */
    int read_hw_id;            /* read back the kernel's hw_id array after each launch */
    long long ticks_per_us;    /* rate of the kernel's timer (%globaltimer: 1000; wall_clock64: 100, assumed) */
    const char *timer;         /* the kernel's timer, for messages */
    const char *call_alloc, *call_htod, *call_dtoh, *call_memset, *call_load, *call_function, *call_launch, *call_sync;
    const char *call_select, *call_can_peer, *call_enable_peer, *call_host_alloc, *call_host_map, *call_occupancy, *call_meminfo;
    int (*alloc)(void *drv, nr_dptr *p, size_t bytes);
    int (*free)(void *drv, nr_dptr p);
    int (*htod)(void *drv, nr_dptr dst, const void *src, size_t bytes);
    int (*dtoh)(void *drv, void *dst, nr_dptr src, size_t bytes);
    int (*memset32)(void *drv, nr_dptr p, unsigned value, size_t count);
    int (*load)(void *drv, void **module, const void *image);
    int (*unload)(void *drv, void *module);
    int (*function)(void *drv, void **fn, void *module, const char *name);
    /* Launches grid x 1 x 1 blocks of block threads on the current device's default stream. */
    int (*launch)(void *drv, void *fn, unsigned grid, unsigned block, void **args);
    /* *n = how many blocks of `block` threads of fn fit on one SM (CUDA) or CU (HIP) at once. */
    int (*occupancy)(void *drv, int *n, void *fn, unsigned block);
    /* The current device's free and total memory in bytes. */
    int (*meminfo)(void *drv, size_t *free_bytes, size_t *total_bytes);
    /* Waits for the current device. */
    int (*sync)(void *drv);
    const char *(*error)(void *drv, int rc);
    /* Several devices. select: make device `ordinal` current (CUDA: its primary context). */
    int (*select)(void *drv, int ordinal);
    /* *can = whether device `dev` can access device `peer`'s memory. */
    int (*can_peer)(void *drv, int *can, int dev, int peer);
    /* Lets the current device access device `peer`'s memory; already enabled is success. */
    int (*enable_peer)(void *drv, int peer);
    /* Pinned host memory, mapped into every device's address space (portable), zeroed by the caller. */
    int (*host_alloc)(void *drv, void **host, size_t bytes);
    int (*host_free)(void *drv, void *host);
    /* The current device's address of host-mapped memory. */
    int (*host_map)(void *drv, nr_dptr *dev, void *host);
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

/* One device's part of a launch: its ranks' memory, its copy of the plan, its kernel. */
typedef struct {
    int ordinal;               /* the driver's device index */
    void *module, *fn;
    int rank_lo, rank_hi;      /* the ranks it runs: [rank_lo, rank_hi) */
    int tb_lo, tb_hi;          /* their threadblocks: [tb_lo, tb_hi) */
    int64_t sto_lo, sto_hi, stage_lo, stage_hi; /* their storages and stages, as global arena offsets */
    int most;                  /* the most of its threadblocks planned on one unit */
    int per_unit;              /* blocks per unit in its pinned grid */
    int nseg;                  /* segments in seg (0 on one device: the arena is the table's) */
    nr_dptr arena;             /* its storages, then its stages */
    nr_dptr steps, deps, tbinfo, ran_on, hw_id, seg;
    nr_dptr stats;             /* the kernel's counters (executor.cu): claims, highest location + 1, %nsmid */
    int stat[3];               /* their host copy after a launch */
    nr_dptr done, claim;       /* one device: device memory; several: its address of the host-mapped flags */
} nr_gpu_dev;

typedef struct {
    const nr_gpu_ops *ops;
    void *drv;                 /* the backend's state, passed to every op */
    nr_rtc rtc;
    int ndev;
    nr_gpu_dev dev[NR_MAX_DEVICES];
    int *flags;                /* several devices: host-mapped done flags (nstep), then claims (ntb) and the abort flag */
    int units;                 /* placement units on each device: SMs or dies */
    int per_unit;              /* the most blocks per unit over the devices' pinned grids */
    int occupancy;             /* blocks of the executor resident on one SM or CU at once (occupancy API) */
    int units_seen;            /* after a launch: the highest location any block read, plus one */
    int hw_units;              /* after a launch: %nsmid (0 where the hardware does not say) */
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

/* Splits the plan over ctx->ndev devices (ranks in contiguous blocks), enables peer access
 * between them (refused: NUNART_E_UNAVAILABLE naming both), compiles the embedded executor with
 * `opts` (plus -DNR_MULTI=1 on several devices) and loads its kernel on every device used. */
nunart_status nr_gpu_compile(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts);

/* Packs the step records, tbinfo triples and segment tables and uploads every device's
 * buffers; on several devices the flags go to host-mapped memory. After nr_gpu_compile. */
nunart_status nr_gpu_alloc(nunart_ctx *ctx, nr_gpu *g);

/* One launch: a kernel per device, all launched before any is waited for; pinned (units x
 * per_unit blocks per device, dispatcher) or plain (a block per threadblock); fills
 * ctx->ran_on, ctx->located, the cu-affinity and grid-order lines; *grid gets the blocks in all. */
nunart_status nr_gpu_launch(nunart_ctx *ctx, nr_gpu *g, int pinned, double *elapsed_us, unsigned *grid);

nunart_status nr_gpu_fetch(nunart_ctx *ctx, nr_gpu *g);
nunart_status nr_gpu_upload(nunart_ctx *ctx, nr_gpu *g);

/* The latency probe (executor.cu's nunart_probe) on the first device: compiled with `opts`, run
 * at `naddr` addresses with chains of `reps`, spread evenly over `bytes` of device memory (0:
 * all the device gives, gathered in as few blocks as it allows; not bound by option
 * mem_limit_mb); per location (SM or XCD, at most nloc) the record described there, into rec
 * (nloc * (2 + 3 * naddr)). What memory the addresses spanned goes to ctx->probe_mem. */
nunart_status nr_gpu_probe(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts, long long bytes, int naddr, int reps,
                           int nloc, long long *rec);

/* Frees the device buffers, the module and the compiler; the backend then closes its driver. */
void nr_gpu_release(nr_gpu *g);

#endif
