/* HIP backend: the HIP runtime and hipRTC are loaded at run time (dlopen; NUNART_HIP_LIBRARY and
 * NUNART_HIPRTC_LIBRARY override the files). The embedded executor is compiled by hipRTC (for
 * the arch= option's target, else hipRTC's default, the current device) and run by gpu_exec.c
 * on the default stream. Pinned launches place at die level: the dispatcher reads XCC_ID, so
 * tbinfo carries each threadblock's planned XCD, and the grid is dies x per-die blocks, which
 * SPX's round-robin (slot b to XCD b mod dies) spreads evenly. The CU within an XCD is the
 * hardware's choice; HW_ID is read back and reported, not compared. For libraries that launch
 * their own kernels, alloc also creates one stream per NAR domain with
 * hipExtStreamCreateWithCUMask (nunart_load checked that no mask empties a die under modulo
 * dispatch); the executor does not use them. */
#include "gpu_exec.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    nr_gpu gpu;
    void *lib;
    char lib_file[192];
    int (*Init)(unsigned);
    int (*GetDeviceCount)(int *);
    int (*SetDevice)(int);
    int (*DeviceGetName)(char *, int, int);
    int (*StreamCreateWithCUMask)(void **, unsigned, const unsigned *);
    int (*StreamDestroy)(void *);
    int (*Malloc)(void **, size_t);
    int (*Free)(void *);
    int (*MemcpyHtoD)(void *, void *, size_t);
    int (*MemcpyDtoH)(void *, void *, size_t);
    int (*MemsetD32)(void *, int, size_t);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*ModuleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
    int (*DeviceSynchronize)(void);
    const char *(*GetErrorString)(int);
    int (*DeviceCanAccessPeer)(int *, int, int);
    int (*DeviceEnablePeerAccess)(int, unsigned);
    int (*HostMalloc)(void **, size_t, unsigned);
    int (*HostFree)(void *);
    int (*HostGetDevicePointer)(void **, void *, unsigned);
    void **streams;        /* per (rank, stream) */
    int nstreams;
} hip_t;

#define DPTR(p) ((void *) (uintptr_t) (p))
#define hipErrorPeerAccessAlreadyEnabled 704
/* hipHostMalloc flags: portable, mapped, coherent (fine-grained: system-scope atomics see it). */
#define HIP_HOST_MALLOC_FLAGS (0x1u | 0x2u | 0x40000000u)

static int h_alloc(void *d, nr_dptr *p, size_t n) {
    void *q = NULL;
    int rc = ((hip_t *) d)->Malloc(&q, n);
    *p = (nr_dptr) (uintptr_t) q;
    return rc;
}
static int h_free(void *d, nr_dptr p) { return ((hip_t *) d)->Free(DPTR(p)); }
static int h_htod(void *d, nr_dptr dst, const void *src, size_t n) { return ((hip_t *) d)->MemcpyHtoD(DPTR(dst), (void *) src, n); }
static int h_dtoh(void *d, void *dst, nr_dptr src, size_t n) { return ((hip_t *) d)->MemcpyDtoH(dst, DPTR(src), n); }
static int h_memset(void *d, nr_dptr p, unsigned v, size_t n) { return ((hip_t *) d)->MemsetD32(DPTR(p), (int) v, n); }
static int h_load(void *d, void **m, const void *image) { return ((hip_t *) d)->ModuleLoadData(m, image); }
static int h_unload(void *d, void *m) { return ((hip_t *) d)->ModuleUnload(m); }
static int h_function(void *d, void **f, void *m, const char *name) { return ((hip_t *) d)->ModuleGetFunction(f, m, name); }
/* The default stream: the CU-masked domain streams would confine the dispatcher's blocks. */
static int h_launch(void *d, void *f, unsigned grid, unsigned block, void **args) {
    return ((hip_t *) d)->ModuleLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL);
}
static int h_sync(void *d) { return ((hip_t *) d)->DeviceSynchronize(); }
static int h_select(void *d, int ordinal) { return ((hip_t *) d)->SetDevice(ordinal); }
static int h_can_peer(void *d, int *can, int dev, int peer) { return ((hip_t *) d)->DeviceCanAccessPeer(can, dev, peer); }
static int h_enable_peer(void *d, int peer) {
    int rc = ((hip_t *) d)->DeviceEnablePeerAccess(peer, 0);
    return rc == hipErrorPeerAccessAlreadyEnabled ? 0 : rc;
}
static int h_host_alloc(void *d, void **h, size_t n) { return ((hip_t *) d)->HostMalloc(h, n, HIP_HOST_MALLOC_FLAGS); }
static int h_host_free(void *d, void *h) { return ((hip_t *) d)->HostFree(h); }
static int h_host_map(void *d, nr_dptr *p, void *h) {
    void *q = NULL;
    int rc = ((hip_t *) d)->HostGetDevicePointer(&q, h, 0);
    *p = (nr_dptr) (uintptr_t) q;
    return rc;
}
static const char *h_error(void *d, int rc) {
    hip_t *h = d;
    const char *s = h->GetErrorString ? h->GetErrorString(rc) : NULL;
    return s ? s : "unknown HIP error";
}

static const nr_gpu_ops HIP_OPS = {
    .rtc_name = "hipRTC", .loc_reg = "XCC_ID", .unit = "XCD", .place_by_die = 1, .read_hw_id = 1,
    .ticks_per_us = 100, /* wall_clock64 at 100 MHz */
    .call_alloc = "hipMalloc", .call_htod = "hipMemcpyHtoD", .call_dtoh = "hipMemcpyDtoH", .call_memset = "hipMemsetD32",
    .call_load = "hipModuleLoadData", .call_function = "hipModuleGetFunction", .call_launch = "hipModuleLaunchKernel",
    .call_sync = "hipDeviceSynchronize", .call_select = "hipSetDevice", .call_can_peer = "hipDeviceCanAccessPeer",
    .call_enable_peer = "hipDeviceEnablePeerAccess", .call_host_alloc = "hipHostMalloc", .call_host_map = "hipHostGetDevicePointer",
    .alloc = h_alloc, .free = h_free, .htod = h_htod, .dtoh = h_dtoh, .memset32 = h_memset, .load = h_load,
    .unload = h_unload, .function = h_function, .launch = h_launch, .sync = h_sync, .error = h_error,
    .select = h_select, .can_peer = h_can_peer, .enable_peer = h_enable_peer, .host_alloc = h_host_alloc,
    .host_free = h_host_free, .host_map = h_host_map,
};

static const char *const HIPRTC_CALLS[NR_RTC_NCALLS] = {
    "hiprtcCreateProgram", "hiprtcCompileProgram", "hiprtcGetCodeSize", "hiprtcGetCode",
    "hiprtcGetProgramLogSize", "hiprtcGetProgramLog", "hiprtcDestroyProgram", "hiprtcGetErrorString",
};

static nunart_status load_symbols(nunart_ctx *ctx, hip_t *h) {
    const nr_sym syms[] = {
        {"hipInit", (void **) &h->Init},
        {"hipGetDeviceCount", (void **) &h->GetDeviceCount},
        {"hipSetDevice", (void **) &h->SetDevice},
        {"hipDeviceGetName", (void **) &h->DeviceGetName},
        {"hipExtStreamCreateWithCUMask", (void **) &h->StreamCreateWithCUMask},
        {"hipStreamDestroy", (void **) &h->StreamDestroy},
        {"hipMalloc", (void **) &h->Malloc},
        {"hipFree", (void **) &h->Free},
        {"hipMemcpyHtoD", (void **) &h->MemcpyHtoD},
        {"hipMemcpyDtoH", (void **) &h->MemcpyDtoH},
        {"hipMemsetD32", (void **) &h->MemsetD32},
        {"hipModuleLoadData", (void **) &h->ModuleLoadData},
        {"hipModuleUnload", (void **) &h->ModuleUnload},
        {"hipModuleGetFunction", (void **) &h->ModuleGetFunction},
        {"hipModuleLaunchKernel", (void **) &h->ModuleLaunchKernel},
        {"hipDeviceSynchronize", (void **) &h->DeviceSynchronize},
        {"hipGetErrorString", (void **) &h->GetErrorString},
        {"hipDeviceCanAccessPeer", (void **) &h->DeviceCanAccessPeer},
        {"hipDeviceEnablePeerAccess", (void **) &h->DeviceEnablePeerAccess},
        {"hipHostMalloc", (void **) &h->HostMalloc},
        {"hipHostFree", (void **) &h->HostFree},
        {"hipHostGetDevicePointer", (void **) &h->HostGetDevicePointer},
    };
    return nr_bind(ctx, h->lib, h->lib_file, syms, (int) (sizeof syms / sizeof *syms));
}

static nunart_status hip_open(nunart_ctx *ctx) {
    hip_t *h = calloc(1, sizeof *h);
    if (!h) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = h;
    h->gpu.ops = &HIP_OPS;
    h->gpu.drv = h;
    h->gpu.rtc.calls = HIPRTC_CALLS;
    static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.7"};
    char why[512];
    h->lib = nr_dlopen("NUNART_HIP_LIBRARY", names, 3, h->lib_file, sizeof h->lib_file, why, sizeof why);
    if (!h->lib) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no HIP runtime: %s", why);
    nunart_status st = load_symbols(ctx, h);
    if (st) return st;
    int n = 0, rc;
    if ((rc = h->Init(0))) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipInit failed: %s", h_error(h, rc));
    if ((rc = h->GetDeviceCount(&n)) || n == 0) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no HIP device found%s%s", rc ? ": " : "", rc ? h_error(h, rc) : "");
    if (ctx->device_ordinal >= n) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "device %d requested, %d present", ctx->device_ordinal, n);
    if ((rc = h->SetDevice(ctx->device_ordinal))) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipSetDevice(%d): %s", ctx->device_ordinal, h_error(h, rc));
    char name[100] = "";
    h->DeviceGetName(name, sizeof name, ctx->device_ordinal);
    /* The CU and die counts come from the options (cus=, dies=), for every device: the HIP
     * attribute enums differ between ROCm releases, and a wrong guess would pass a map that
     * does not fit. */
    if (!ctx->want.cus || !ctx->want.dies)
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "HIP device '%s' found, but its CU and XCD counts must be given (options cus=N dies=N)", name);
    ctx->nvisible = n - ctx->device_ordinal < NR_MAX_DEVICES ? n - ctx->device_ordinal : NR_MAX_DEVICES;
    for (int k = 0; k < ctx->nvisible; k++) {
        nr_device *d = &ctx->devs[k];
        name[0] = 0;
        h->DeviceGetName(name, sizeof name, ctx->device_ordinal + k);
        d->cus = ctx->want.cus;
        d->dies = ctx->want.dies;
        d->mask_words = (ctx->want.cus + 31) / 32;
        d->max_ranks = 1024;
        snprintf(d->name, sizeof d->name, "%s (%d CUs, %d XCDs as given)", name, d->cus, d->dies);
    }
    ctx->dev = ctx->devs[0];
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%.140s, loopback ranks", ctx->devs[0].name);
    return NUNART_OK;
}

/* hipRTC: its own library, else (older ROCm) the symbols inside the HIP runtime. An override
 * (NUNART_HIPRTC_LIBRARY) is used alone. */
static nunart_status compile(nunart_ctx *ctx, hip_t *h) {
    static const char *const names[] = {"libhiprtc.so", "libhiprtc.so.6", "libhiprtc.so.7"};
    char file[192], why[512];
    void *lib = nr_dlopen("NUNART_HIPRTC_LIBRARY", names, 3, file, sizeof file, why, sizeof why);
    nunart_status st;
    if (lib) st = nr_rtc_bind(ctx, &h->gpu.rtc, lib, file, 1);
    else if (getenv("NUNART_HIPRTC_LIBRARY") && *getenv("NUNART_HIPRTC_LIBRARY"))
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipRTC not loaded: %s", why);
    else if (dlsym(h->lib, HIPRTC_CALLS[NR_RTC_CREATE])) {
        snprintf(file, sizeof file, "%.150s, which carries it", h->lib_file);
        st = nr_rtc_bind(ctx, &h->gpu.rtc, h->lib, file, 0);
    } else
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "hipRTC not found (%s; nor in %s): the executor cannot be compiled at run time", why, h->lib_file);
    if (st) return st;
    char arch[64];
    snprintf(arch, sizeof arch, "--offload-arch=%s", ctx->arch);
    const char *opts[] = {arch};
    if ((st = nr_gpu_compile(ctx, &h->gpu, opts, ctx->arch[0] ? 1 : 0))) return st;
    if (ctx->arch[0])
        snprintf(ctx->executor, sizeof ctx->executor, "compiled by hipRTC (%s) with %s (option arch)", h->gpu.rtc.file, arch);
    else
        snprintf(ctx->executor, sizeof ctx->executor, "compiled by hipRTC (%s) without --offload-arch: hipRTC targets the current device "
                 "(option arch=gfxNNN names the target)", h->gpu.rtc.file);
    return NUNART_OK;
}

static nunart_status hip_alloc(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    const nr_table *t = ctx->table;
    nunart_status st = compile(ctx, h);
    if (st || (st = nr_gpu_alloc(ctx, &h->gpu))) return st;
    int total = 0;
    for (int r = 0; r < t->ranks; r++) total += t->rank[r].nstream;
    h->streams = calloc((size_t) (total ? total : 1), sizeof *h->streams);
    if (!h->streams) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    for (int r = 0, k = 0; r < t->ranks; r++) {
        /* A rank's streams live on its device. */
        while (k + 1 < h->gpu.ndev && r >= h->gpu.dev[k].rank_hi) k++;
        int rc = h->SetDevice(h->gpu.dev[k].ordinal);
        if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "hipSetDevice(%d): %s", h->gpu.dev[k].ordinal, h_error(h, rc));
        for (int s = 0; s < t->rank[r].nstream; s++) {
            rc = h->StreamCreateWithCUMask(&h->streams[h->nstreams], (unsigned) t->mask_words, t->rank[r].streams[s].mask);
            if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "hipExtStreamCreateWithCUMask (rank %d domain %d): %s", r, t->rank[r].streams[s].domain, h_error(h, rc));
            h->nstreams++;
        }
    }
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "applied (%d streams created with their domain's CU mask, for the caller's kernels "
             "via nunart_domain_stream; the executor runs on the default stream, unmasked)", h->nstreams);
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (SPX+NPS1 hashes pages over all stacks; CPX+NPS4 partition selection is not in this build)");
    return NUNART_OK;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *) a, y = *(const int *) b;
    return x < y ? -1 : x > y;
}

/* The cu-readback line: HW_ID decoded with the gfx9 layout (CU_ID 11:8, SH_ID 12, SE_ID read as
 * 15:13; sources give 14:13 for some gfx94x, where bit 15 is then taken to read 0). The fields
 * are physical slots; the plan's CU numbers are logical, so they are counted, not compared. */
static void describe_hw_id(nunart_ctx *ctx, const int *hw, int ntb) {
    int *key = malloc(sizeof(int) * (size_t) (ntb ? ntb : 1)), n = 0;
    if (!key) { snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "not summarised (out of memory)"); return; }
    int lo[3] = {99, 99, 99}, hi[3] = {-1, -1, -1};
    for (int i = 0; i < ntb; i++) {
        if (hw[i] == -1) continue;
        unsigned v = (unsigned) hw[i];
        int f[3] = {(int) (v >> 13 & 7), (int) (v >> 12 & 1), (int) (v >> 8 & 15)}; /* SE, SH, CU */
        for (int k = 0; k < 3; k++) { if (f[k] < lo[k]) lo[k] = f[k]; if (f[k] > hi[k]) hi[k] = f[k]; }
        key[n++] = (ctx->ran_on[i] & 0xff) << 8 | f[0] << 5 | f[1] << 4 | f[2];
    }
    qsort(key, (size_t) n, sizeof *key, cmp_int);
    int distinct = 0;
    for (int i = 0; i < n; i++) distinct += i == 0 || key[i] != key[i - 1];
    free(key);
    if (n == 0)
        snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "not read (HW_ID's layout is known for gfx908, gfx90a, gfx94x and gfx950 only)");
    else
        snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "HW_ID of %d/%d threadblocks: %d distinct CUs as (XCD, SE, SH, CU_ID); "
                 "SE %d-%d, SH %d-%d, CU_ID %d-%d (physical slots, not compared with the plan's logical CUs)",
                 n, ntb, distinct, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
}

static nunart_status hip_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    hip_t *h = ctx->be_state;
    unsigned grid;
    nunart_status st = nr_gpu_launch(ctx, &h->gpu, pinned, elapsed_us, &grid);
    if (st) return st;
    if (pinned && h->gpu.ndev == 1)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied at XCD level (XCC_ID dispatcher over %u blocks = %d XCDs x %d, "
                 "slot b dispatched to XCD b mod %d under SPX; each logical threadblock claims a block on its planned XCD); "
                 "the CU within the XCD: advisory (the hardware picks it; see cu-readback)",
                 grid, h->gpu.units, h->gpu.per_unit, h->gpu.units);
    else if (pinned)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied at XCD level (XCC_ID dispatcher over %u blocks on %d devices, each "
                 "%d XCDs x at most %d, slot b dispatched to XCD b mod %d under SPX; each logical threadblock claims a block on its "
                 "planned XCD of its rank's device); the CU within the XCD: advisory (the hardware picks it; see cu-readback)",
                 grid, h->gpu.ndev, h->gpu.units, h->gpu.per_unit, h->gpu.units);
    describe_hw_id(ctx, h->gpu.hw, ctx->table->ntb);
    return NUNART_OK;
}

static nunart_status hip_fetch(nunart_ctx *ctx) { return nr_gpu_fetch(ctx, &((hip_t *) ctx->be_state)->gpu); }
static nunart_status hip_upload(nunart_ctx *ctx) { return nr_gpu_upload(ctx, &((hip_t *) ctx->be_state)->gpu); }

static nunart_status hip_stream(nunart_ctx *ctx, int rank, int index, void **stream) {
    hip_t *h = ctx->be_state;
    int k = 0;
    for (int r = 0; r < rank; r++) k += ctx->table->rank[r].nstream;
    *stream = h->streams[k + index];
    return NUNART_OK;
}

static void hip_close(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    if (!h) return;
    for (int i = 0; i < h->nstreams; i++) h->StreamDestroy(h->streams[i]);
    free(h->streams);
    nr_gpu_release(&h->gpu);
    if (h->lib) dlclose(h->lib);
    free(h);
    ctx->be_state = NULL;
}

const nr_backend nr_backend_hip = {
    .name = "hip",
    .open = hip_open,
    .alloc = hip_alloc,
    .launch = hip_launch,
    .fetch = hip_fetch,
    .upload = hip_upload,
    .stream = hip_stream,
    .close = hip_close,
};
