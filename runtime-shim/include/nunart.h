/*
 * nunart: the nunac runtime shim. Executes a compiled collective plan (a launch table written
 * by `nunac PLAN --topo T --emit launch`) on a backend, applies the placement's maps as far as
 * the platform allows, and reports exactly what was applied.
 *
 * Life cycle of a context (each call moves it one state forward; see docs/runtime.md):
 *
 *   nunart_open     -> OPENED         backend chosen and probed
 *   nunart_load     -> VALIDATED      table parsed and checked against the device
 *   nunart_alloc    -> BUFFERS_READY  per-rank buffers allocated, inputs filled
 *   nunart_launch   -> LAUNCHED       the plan ran (or failed)
 *   nunart_verify   -> VERIFIED       outputs compared with the collective's postcondition
 *   nunart_close    -> (freed)
 *
 * Every call returns a status; nunart_message() explains the last one. An error in a call
 * that moves the state puts the context in FAILED, which is terminal: only queries and
 * nunart_close are accepted afterwards. Queries (grid order, streams, outputs) never change
 * the state. There is no global state: everything lives in the context, and a context must
 * not be used by two threads at once.
 */
#ifndef NUNART_H
#define NUNART_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NUNART_ABI_VERSION 1

typedef enum nunart_status {
    NUNART_OK = 0,
    NUNART_E_ARGUMENT = 1,    /* a null pointer, a bad option, an index out of range */
    NUNART_E_UNAVAILABLE = 2, /* the backend cannot run here (no driver, no device) */
    NUNART_E_TABLE = 3,       /* the launch table is malformed or inconsistent */
    NUNART_E_MISMATCH = 4,    /* the table does not fit the device (CUs, dies, masks, ranks) */
    NUNART_E_STATE = 5,       /* the call is not allowed in the context's state */
    NUNART_E_MEMORY = 6,      /* an allocation failed or exceeds the configured limit */
    NUNART_E_DEVICE = 7,      /* the device or its runtime reported an error */
    NUNART_E_TIMEOUT = 8,     /* the plan did not finish in time (a wait never satisfied) */
    NUNART_E_VERIFY = 9,      /* the outputs do not satisfy the collective's postcondition */
    NUNART_E_UNSUPPORTED = 10 /* the query has no meaning on this backend (not terminal) */
} nunart_status;

typedef enum nunart_state {
    NUNART_OPENED = 0,
    NUNART_VALIDATED = 1,
    NUNART_BUFFERS_READY = 2,
    NUNART_LAUNCHED = 3,
    NUNART_VERIFIED = 4,
    NUNART_FAILED = 5
} nunart_state;

typedef struct nunart_ctx nunart_ctx;

/*
 * Opens a context on a backend: "host", "cuda", "hip" or "auto" (cuda, then hip, then host;
 * every backend tried is named in the report). `options` is NULL or space-separated key=value
 * pairs:
 *   device=N          GPU ordinal (default 0): the first device used
 *   devices=N         how many devices to spread the ranks over, from `device` on (1..16;
 *                     default: every visible device, at most one per rank). Device k of N runs
 *                     the contiguous block of ranks [k*R/N, (k+1)*R/N); devices=1 is loopback,
 *                     every rank on one device. More than are visible (NUNART_E_UNAVAILABLE)
 *                     or than ranks (NUNART_E_MISMATCH) is refused at load, never clamped.
 *                     The host backend accepts devices=1 only.
 *   cus=N dies=N mask_words=N max_ranks=N
 *                     host backend: the device to emulate; by default it emulates the device
 *                     the table was placed for
 *   timeout_ms=N      bound on one launch (default 20000); a plan that waits longer fails
 *   mem_limit_mb=N    bound on all buffers of one context's plan (default 4096, at most 1048576;
 *                     not the latency probe's, which the device's memory bounds)
 *   pinned_grid=tight|full  a pinned launch's blocks per SM (XCD on HIP): tight (default) one more
 *                     than the most threadblocks planned on one, full every slot the occupancy
 *                     API says is resident at once (every unit surely receives blocks)
 *   arch=NAME         HIP: hipRTC's target (--offload-arch=NAME, e.g. gfx942); by default the
 *                     device's ISA (gcnArchName, else the KFD topology), which NAME must match
 *                     where known; a device whose ISA is unknown is refused without it
 * The GPU runtimes are opened with dlopen; the environment variables NUNART_CUDA_LIBRARY,
 * NUNART_NVRTC_LIBRARY, NUNART_HIP_LIBRARY and NUNART_HIPRTC_LIBRARY name other files (an
 * override that does not load is an error, never a fallback).
 * On success *out is an OPENED context. On failure *out is still a context (FAILED) when
 * memory allowed, so that nunart_message() can say why; close it with nunart_close().
 */
nunart_status nunart_open(nunart_ctx **out, const char *backend, const char *options);

/* Parses a launch table of `len` bytes, chooses the devices (option devices) and validates the
 * table against every device used; an error names the device. A table is refused
 * (NUNART_E_TABLE, naming the line) before anything is allocated when it is malformed, when its
 * buffers would pass 1 TiB, or when its steps' waits form a cycle. */
nunart_status nunart_load(nunart_ctx *ctx, const char *table, size_t len);

/* Allocates the plan's buffers. In loopback one
 * arena on one device holds every rank's buffers; with ranks on several devices each device
 * holds its ranks' storages and send stages, peer access is enabled between every pair (a pair
 * without it is NUNART_E_UNAVAILABLE naming both devices; devices=1 avoids it) and the
 * synchronisation flags live in host-mapped memory. Fills the inputs with the reference
 * pattern nunart_input_value(). Page maps are applied where the platform has a
 * mechanism and recorded as advisory otherwise (the report says which). */
nunart_status nunart_alloc(nunart_ctx *ctx);

/* Runs the plan once, with placement applied (pinned). */
nunart_status nunart_launch(nunart_ctx *ctx);

/* Checks the outputs against the collective's postcondition. */
nunart_status nunart_verify(nunart_ctx *ctx);

/* Times `n` launches (n >= 1) after buffers are ready, pinned (1) or plain (0) dispatch;
 * *median_us receives the median. The buffers are then refilled as nunart_alloc() left them,
 * so a following launch verifies; the state is unchanged. */
nunart_status nunart_time_launches(nunart_ctx *ctx, int n, int pinned, double *median_us);

/* Like nunart_time_launches, after `warmup` untimed launches: stats[0..2] receive the minimum,
 * the median and the 90th percentile (nearest rank) of the n timed launches, in microseconds. */
nunart_status nunart_time_stats(nunart_ctx *ctx, int warmup, int n, int pinned, double *stats);

/* Latency probe (the NUNA paper's section 3.2 method): from each SM (CUDA) or XCD (HIP) of the
 * first device, the latency of loads and atomics to `naddr` addresses spread evenly over the
 * device's memory, with dependent chains of `reps`. mib 0 spreads them over the whole memory:
 * every block the device gives (cuMemGetInfo / hipMemGetInfo say how much is free; requests it
 * refuses are halved), less a buffer that clears L2 (1/64 of the free memory, at most 512 MiB)
 * and a reserve for the launch (1/256, at most 64 MiB); mib > 0 spreads them over that many MiB
 * (more than the device can give is NUNART_E_MEMORY). Option mem_limit_mb does not apply: it
 * bounds a plan's buffers. The report's probe-memory line says how many bytes the addresses
 * spanned, in how many blocks, and what fraction of the device's memory that is. Needs an
 * OPENED context (no table); the state is unchanged on success. *nloc receives the number of
 * locations; with out NULL nothing runs. Otherwise out (cap doubles, at least
 * nloc * (1 + 3 * naddr)) receives per location its clock in MHz (0: no block ran there) and per
 * address the first load (cold, from memory), the mean load of the chain (warm) and the mean
 * atomic add, in nanoseconds, converted with that location's clock measured against the device
 * timer. NUNART_E_UNSUPPORTED on host. */
nunart_status nunart_probe_latency(nunart_ctx *ctx, int mib, int naddr, int reps, double *out, size_t cap, int *nloc);

/* The status of the last call on ctx (NUNART_OK after success), for bindings that keep the
 * error's kind. */
nunart_status nunart_last_status(const nunart_ctx *ctx);

/* The realised grid order of `rank`: slots[s] = threadblock at grid slot s, -1 for padding.
 * *n receives the slot count; at most `cap` entries are written. Needs VALIDATED or later. */
nunart_status nunart_grid_order(nunart_ctx *ctx, int rank, int *slots, size_t cap, size_t *n);

/* The one rank a per-rank table holds (nunac --per-rank writes it with a 'part rank=R' line), or -1
 * for a whole table or none. Such a table loads (VALIDATED) for that rank's placement: its grid
 * order and each threadblock's CU, die, slot and domain; nunart_alloc refuses it (unsupported),
 * since its transfers need the other ranks' tables to run. */
int nunart_part_rank(const nunart_ctx *ctx);

/* Where threadblock `tb` of `rank` is placed: out[0] its CU, out[1] its die, out[2] its grid slot,
 * out[3] its NAR domain (-1: hashed). Needs VALIDATED or later. */
nunart_status nunart_tb_placement(nunart_ctx *ctx, int rank, int tb, int out[4]);

/* The stream of the `index`-th NAR domain of `rank` (HIP: a hipStream_t on the rank's device,
 * created with the domain's CU mask), for libraries that launch their own kernels. *domain
 * receives the domain id. NUNART_E_UNSUPPORTED on backends without device streams. Needs BUFFERS_READY or later. */
nunart_status nunart_domain_stream(nunart_ctx *ctx, int rank, int index, int *domain, void **stream);

/* Copies the output buffer of `rank` (floats, chunk by chunk) to dst; *n receives the element
 * count, at most `cap` are written. Needs LAUNCHED or later. */
nunart_status nunart_read_output(nunart_ctx *ctx, int rank, float *dst, size_t cap, size_t *n);

/* The reference input: element e of input chunk i of rank r. Small integers, so float sums
 * over up to 2^16 ranks are exact and order-independent. */
float nunart_input_value(int rank, int chunk, int element);

/* The launch report (key: value lines; docs/runtime.md). Valid until the next call. */
const char *nunart_report(const nunart_ctx *ctx);

/* The message of the last call ("ok" after success). NULL ctx: "no context (out of memory)". */
const char *nunart_message(const nunart_ctx *ctx);

nunart_state nunart_state_of(const nunart_ctx *ctx);
const char *nunart_state_name(nunart_state state);
const char *nunart_status_name(nunart_status status);
const char *nunart_version(void);

/* Frees the context and everything it holds; NULL is accepted. */
void nunart_close(nunart_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
