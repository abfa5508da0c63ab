/* HIP backend: the HIP runtime is loaded at run time (dlopen). It probes the device and, for
 * libraries that launch their own kernels, creates one stream per NAR domain with
 * hipExtStreamCreateWithCUMask (masks were checked by nunart_load never to empty a die under
 * modulo dispatch). Running the plan's executor through hipRTC is not in this build: launch
 * reports the backend unavailable for execution rather than falling back. */
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    void *lib;
    int (*Init)(unsigned);
    int (*GetDeviceCount)(int *);
    int (*SetDevice)(int);
    int (*DeviceGetName)(char *, int, int);
    int (*StreamCreateWithCUMask)(void **, unsigned, const unsigned *);
    int (*StreamDestroy)(void *);
    void **streams;        /* per (rank, stream) */
    int nstreams;
} hip_t;

static nunart_status hip_open(nunart_ctx *ctx) {
    hip_t *h = calloc(1, sizeof *h);
    if (!h) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = h;
    h->lib = dlopen("libamdhip64.so", RTLD_NOW | RTLD_LOCAL);
    if (!h->lib) h->lib = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!h->lib) { snprintf(ctx->msg, sizeof ctx->msg, "no HIP runtime: %s", dlerror()); return NUNART_E_UNAVAILABLE; }
    *(void **) &h->Init = dlsym(h->lib, "hipInit");
    *(void **) &h->GetDeviceCount = dlsym(h->lib, "hipGetDeviceCount");
    *(void **) &h->SetDevice = dlsym(h->lib, "hipSetDevice");
    *(void **) &h->DeviceGetName = dlsym(h->lib, "hipDeviceGetName");
    *(void **) &h->StreamCreateWithCUMask = dlsym(h->lib, "hipExtStreamCreateWithCUMask");
    *(void **) &h->StreamDestroy = dlsym(h->lib, "hipStreamDestroy");
    if (!h->Init || !h->GetDeviceCount || !h->SetDevice || !h->DeviceGetName || !h->StreamCreateWithCUMask || !h->StreamDestroy) {
        snprintf(ctx->msg, sizeof ctx->msg, "the HIP runtime lacks a required symbol (hipExtStreamCreateWithCUMask needs ROCm)");
        return NUNART_E_UNAVAILABLE;
    }
    int n = 0;
    if (h->Init(0) || h->GetDeviceCount(&n) || n == 0) { snprintf(ctx->msg, sizeof ctx->msg, "no HIP device found"); return NUNART_E_UNAVAILABLE; }
    if (ctx->device_ordinal >= n) { snprintf(ctx->msg, sizeof ctx->msg, "device %d requested, %d present", ctx->device_ordinal, n); return NUNART_E_UNAVAILABLE; }
    h->SetDevice(ctx->device_ordinal);
    char name[100] = "";
    h->DeviceGetName(name, sizeof name, ctx->device_ordinal);
    /* The CU and die counts come from the options (cus=, dies=): the HIP attribute enums
     * differ between ROCm releases, and a wrong guess would pass a map that does not fit. */
    if (!ctx->want.cus || !ctx->want.dies) {
        snprintf(ctx->msg, sizeof ctx->msg, "HIP device '%s' found, but its CU and XCD counts must be given (options cus=N dies=N)", name);
        return NUNART_E_UNAVAILABLE;
    }
    ctx->dev.cus = ctx->want.cus;
    ctx->dev.dies = ctx->want.dies;
    ctx->dev.mask_words = (ctx->want.cus + 31) / 32;
    ctx->dev.max_ranks = 1024;
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%s (%d CUs, %d XCDs as given), loopback ranks", name, ctx->dev.cus, ctx->dev.dies);
    return NUNART_OK;
}

static nunart_status hip_alloc(nunart_ctx *ctx) {
    hip_t *h = ctx->be_state;
    const nr_table *t = ctx->table;
    int total = 0;
    for (int r = 0; r < t->ranks; r++) total += t->rank[r].nstream;
    h->streams = calloc((size_t) (total ? total : 1), sizeof *h->streams);
    if (!h->streams) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    for (int r = 0; r < t->ranks; r++) {
        for (int s = 0; s < t->rank[r].nstream; s++) {
            int rc = h->StreamCreateWithCUMask(&h->streams[h->nstreams], (unsigned) t->mask_words, t->rank[r].streams[s].mask);
            if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "hipExtStreamCreateWithCUMask (rank %d domain %d) failed with %d", r, t->rank[r].streams[s].domain, rc);
            h->nstreams++;
        }
    }
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "applied (%d streams created with their domain's CU mask)", h->nstreams);
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (SPX+NPS1 hashes pages over all stacks; CPX+NPS4 partition selection is not in this build)");
    return NUNART_OK;
}

static nunart_status hip_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    (void) pinned;
    *elapsed_us = 0;
    return nr_fail(ctx, NUNART_E_UNAVAILABLE, "the HIP backend does not run the executor in this build (hipRTC path missing); "
                   "use nunart_grid_order() and nunart_domain_stream() to launch your own kernels");
}

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
    if (h->lib) dlclose(h->lib);
    free(h);
    ctx->be_state = NULL;
}

const nr_backend nr_backend_hip = {
    .name = "hip",
    .open = hip_open,
    .alloc = hip_alloc,
    .launch = hip_launch,
    .fetch = NULL,
    .stream = hip_stream,
    .close = hip_close,
};
