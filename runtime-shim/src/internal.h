/* Internal types shared by the parser, the context and the backends. */
#ifndef NUNART_INTERNAL_H
#define NUNART_INTERNAL_H

#include "nunart.h"
#include <stdint.h>
#include <stdarg.h>

/* Step opcodes: the order of the IR's OpKind (ops.def), also used by the device kernel source. */
enum nr_op {
#define NR_OP(name, mnemonic, sends, receives, reads, writes, reduces) OP_##name,
#include "ops.def"
#undef NR_OP
    OP_COUNT
};

/* Flattened step: all the executors need. Offsets are in floats within one arena that holds
 * every rank's storages and then the staging areas of the sending steps. */
typedef struct {
    int op;
    int src_rank, src_sto, src_idx, src_cnt; /* src_cnt 0: no operand */
    int dst_rank, dst_sto, dst_idx, dst_cnt;
    int peer;
    int dep_first, ndeps;  /* into nr_table.deps (global step ids) */
    int from, to;          /* partner global step ids, -1 for none, NR_ELSEWHERE on a rank a per-rank table leaves out */
    int line;              /* of the table, for messages */
    int64_t src_off, dst_off, stage_off, nelem;
} nr_step;

typedef struct {
    int rank, id, cu, die, slot, domain, group, send, recv, channel;
    int first_step, nsteps;
    uint32_t *mask;        /* mask_words words, word 0 = bits 0..31 */
} nr_tb;

typedef struct {
    char name[64];
    int chunks, pages;
    int *stacks;
    int64_t off;           /* arena offset in floats */
} nr_storage;

typedef struct {
    int present, storage, offset, chunks;
} nr_view;

typedef struct {
    int domain, cus, added;
    uint32_t *mask;
} nr_stream;

/* A run of the postcondition the compiler proved (launch table line 'expect'): output chunks
 * [out, out + count) equal the input chunks from src_idx on of src_rank, or their sum over every
 * rank (sum = 1, src_rank = -1). */
typedef struct {
    int out, count, sum, src_rank, src_idx;
} nr_expect;

typedef struct {
    int id, nsto, ntb, ngrid, nstream, nexpect;
    int first_tb;
    int64_t sto_off;       /* arena offset of the rank's first storage (its storages are contiguous) */
    int64_t stage_off;     /* arena offset of the rank's first send stage (its stages are contiguous) */
    nr_storage *sto;
    nr_view in, out;
    nr_stream *streams;
    nr_expect *expect;
    int *grid;
    int seen_sto, seen_tb, seen_stream, seen_grid, seen_expect;
} nr_rank;

typedef struct {
    char name[128], collective[32], protocol[32], topology[64], dispatch[32], policy[32];
    int ranks, cf, inplace, root;
    int part;              /* the one rank of a per-rank table (line 'part rank=R'), -1 for a whole table */
    int cus, dies, stacks, mask_words;
    int64_t chunk_bytes, page_bytes, chunk_elems;
    nr_rank *rank;
    nr_tb *tb;
    int ntb, cap_tb;
    nr_step *step;
    int nstep, cap_step;
    int *deps;
    int ndeps, cap_deps;
    int64_t arena_elems;   /* storages + staging */
    int64_t storage_elems; /* storages only */
    int64_t pages;
} nr_table;

/* A partner on a rank that a per-rank table does not hold: named, range-checked, not resolved. */
#define NR_ELSEWHERE (-3)

/* What the backend found: the device the table must fit. */
typedef struct {
    char name[160];
    int cus, dies, mask_words, max_ranks;
    int emulated;          /* host: the numbers describe an emulated device */
} nr_device;

/* Most buffer bytes one context allocates (the top of option mem_limit_mb). The loader refuses a
 * table that needs more, so every arena size and offset stays far inside int64. */
#define NR_MAX_BUFFER_BYTES ((int64_t) 1 << 40)

/* Most devices one context spreads its ranks over (option devices). */
#define NR_MAX_DEVICES 16

/* Ranks on separate devices go in contiguous blocks: device k of d runs ranks
 * [nr_first_rank(ranks, d, k), nr_first_rank(ranks, d, k + 1)). */
static inline int nr_first_rank(int ranks, int d, int k) { return (int) ((long long) ranks * k / d); }

struct nunart_ctx;

typedef struct {
    const char *name;
    /* Probe the platform and fill ctx->dev; on failure set the message and return a status. */
    nunart_status (*open)(struct nunart_ctx *ctx);
    nunart_status (*alloc)(struct nunart_ctx *ctx);
    /* Run once; pinned = placement applied. Fills ctx->ran_on (per tb: where it ran). */
    nunart_status (*launch)(struct nunart_ctx *ctx, int pinned, double *elapsed_us);
    /* Copy the whole arena back to ctx->host (GPU backends); NULL on host. */
    nunart_status (*fetch)(struct nunart_ctx *ctx);
    /* Copy ctx->host to the device again (GPU backends); NULL on host. */
    nunart_status (*upload)(struct nunart_ctx *ctx);
    nunart_status (*stream)(struct nunart_ctx *ctx, int rank, int index, void **stream);
    /* Makes the backend's device current, saving the caller's (CUDA: pushes its context; HIP:
     * saves the current device); leave restores it. NULL on host. nunart.c brackets every
     * call that touches a device, so the caller finds its context as it left it. */
    nunart_status (*enter)(struct nunart_ctx *ctx);
    void (*leave)(struct nunart_ctx *ctx);
    /* The latency probe (nunart_probe_latency): bytes (0: the whole memory) and rec as
     * nr_gpu_probe's; NULL on host. *nloc is the number of locations recorded (set before
     * anything runs when rec is NULL). */
    nunart_status (*probe)(struct nunart_ctx *ctx, long long bytes, int naddr, int reps, long long *rec, int *nloc);
    void (*close)(struct nunart_ctx *ctx);
} nr_backend;

struct nunart_ctx {
    nunart_state state;
    nunart_status last;
    char msg[1024];
    const nr_backend *be;
    void *be_state;
    char tried[1024];       /* backends tried by "auto", with the reason each was skipped */
    /* options */
    int device_ordinal, timeout_ms;
    int devices_opt;       /* option devices: how many devices to spread the ranks over; 0 = default */
    int nvisible;          /* devices visible from device_ordinal on (the backend's open; host: 1) */
    int ndev;              /* devices used, set by nunart_load: ranks in contiguous blocks, 1 = loopback */
    nr_device devs[NR_MAX_DEVICES]; /* the visible devices from device_ordinal on (GPU backends) */
    char devices[768];     /* the report's devices line (GPU backends) */
    int64_t mem_limit;
    int full_grid;         /* option pinned_grid=full: a pinned grid fills every resident slot */
    char arch[32];         /* HIP: hipRTC's offload target (option arch); empty = its default */
    nr_device dev;
    nr_device want;        /* host emulation overrides; 0 = take from the table */
    nr_table *table;
    float *host;           /* host arena (host backend: the buffers; GPU: a mirror) */
    int *ran_on;           /* per tb: CU/SM (or die) it ran on, -1 if not reported */
    int located;           /* ran_on is 0: emulated, 1: a hardware readback of the CU/SM, 2: of the die */
    int placed_ok, placed_total;
    /* CUDA with several ranks on a device: the i-th rank of its device runs its threadblocks on
     * their planned SM + i * rank_shift, mod shift_units, so that the ranks, each placed for a
     * whole GPU, do not pile onto the same SMs (8 blocks fit on an SM). 0: no shift. */
    int rank_shift, shift_units;
    double launch_us;
    char cu_affinity[384], grid_order[256], stream_masks[256], page_placement[256], fidelity[256], data_check[512];
    char executor[384];    /* GPU: how the executor was compiled; empty on host */
    char platform[512];    /* GPU: driver and runtime-compiler versions, found at open */
    char cu_readback[1024]; /* finer location read back than the fidelity compares (HIP: HW_ID) */
    char probe_mem[512];   /* the latency probe's memory: bytes spanned of the device's, blocks (report line probe-memory) */
    char report[8192];
};

/* Where threadblock tb is to run on its device: its planned CU (or die, by_die) after the
 * shift of ranks that share the device. */
static inline int nr_planned_unit(const struct nunart_ctx *ctx, const nr_tb *tb, int by_die) {
    int u = by_die ? tb->die : tb->cu;
    if (!ctx->rank_shift || ctx->shift_units <= 0) return u;
    int ranks = ctx->table->ranks, d = ctx->ndev > 0 ? ctx->ndev : 1, k = 0;
    while (k + 1 < d && tb->rank >= nr_first_rank(ranks, d, k + 1)) k++;
    return (int) ((u + (long long) (tb->rank - nr_first_rank(ranks, d, k)) * ctx->rank_shift) % ctx->shift_units);
}

/* Sets the message and the status; for state-changing calls also FAILED. */
nunart_status nr_fail(struct nunart_ctx *ctx, nunart_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Table parser and table-internal validation. Returns NULL and fills err on failure. */
nr_table *nr_parse(const char *text, size_t len, char *err, size_t errlen);
void nr_table_free(nr_table *t);

/* Element loops shared by the host executor (and mirrored in the kernel source). */
void nr_exec_step(const nr_table *t, const nr_step *s, float *arena);

extern const nr_backend nr_backend_host;
extern const nr_backend nr_backend_cuda;
extern const nr_backend nr_backend_hip;

/* The embedded device source (generated from src/kernels/executor.cu at build time). */
extern const char nr_kernel_source[];

/* Where rank r's storages and send stages begin in the arena; r == ranks gives their ends. */
static inline int64_t nr_sto_start(const nr_table *t, int r) { return r < t->ranks ? t->rank[r].sto_off : t->storage_elems; }
static inline int64_t nr_stage_start(const nr_table *t, int r) { return r < t->ranks ? t->rank[r].stage_off : t->arena_elems; }
/* The first threadblock of rank r (r == ranks: ntb). */
static inline int nr_tb_start(const nr_table *t, int r) { return r < t->ranks ? t->rank[r].first_tb : t->ntb; }

/* Which operands op reads or writes, from its effects in ops.def: src when it reads its source,
 * dst when it writes its destination, its own send stage (self) when it sends, the sender's
 * stage (got) when it receives. */
static inline void nr_op_operands(int op, int *src, int *dst, int *self, int *got) {
    switch (op) {
#define NR_OP(name, mnemonic, sends, receives, reads, writes, reduces) \
    case OP_##name: *src = reads; *dst = writes; *self = sends; *got = receives; return;
#include "ops.def"
#undef NR_OP
    default: *src = *dst = *self = *got = 0; return;
    }
}

int nr_mask_has_bit(const uint32_t *mask, int words, int bit);
int64_t nr_now_ns(void);

#endif
