/* CUDA backend: the driver API and NVRTC are loaded at run time (dlopen), so the library
 * builds and runs without the toolkit. The embedded executor is compiled by NVRTC for the
 * device found; pinned launches use its %smid dispatcher (exact SM placement, read back). */
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long dptr;

typedef struct {
    void *lib, *nvrtc;
    int (*Init)(unsigned);
    int (*DeviceGetCount)(int *);
    int (*DeviceGet)(int *, int);
    int (*DeviceGetName)(char *, int, int);
    int (*DeviceGetAttribute)(int *, int, int);
    int (*PrimaryCtxRetain)(void **, int);
    int (*PrimaryCtxRelease)(int);
    int (*CtxSetCurrent)(void *);
    int (*CtxSynchronize)(void);
    int (*MemAlloc)(dptr *, size_t);
    int (*MemFree)(dptr);
    int (*MemcpyHtoD)(dptr, const void *, size_t);
    int (*MemcpyDtoH)(void *, dptr, size_t);
    int (*MemsetD32)(dptr, unsigned, size_t);
    int (*ModuleLoadData)(void **, const void *);
    int (*ModuleUnload)(void *);
    int (*ModuleGetFunction)(void **, void *, const char *);
    int (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *, void **, void **);
    int (*GetErrorString)(int, const char **);
    int (*rtcCreate)(void **, const char *, const char *, int, const char *const *, const char *const *);
    int (*rtcCompile)(void *, int, const char *const *);
    int (*rtcPtxSize)(void *, size_t *);
    int (*rtcPtx)(void *, char *);
    int (*rtcLogSize)(void *, size_t *);
    int (*rtcLog)(void *, char *);
    int (*rtcDestroy)(void **);
    int dev, sms, cc_major, cc_minor;
    void *cuctx, *module, *fn;
    dptr arena, steps, deps, tbinfo, done, ran_on, claim;
    int per_sm;            /* blocks per SM in a pinned grid */
} cuda_t;

static const char *cu_err(cuda_t *c, int rc) {
    const char *s = NULL;
    if (c->GetErrorString) c->GetErrorString(rc, &s);
    return s ? s : "unknown CUDA error";
}

#define SYM(lib, field, name) \
    do { *(void **) &c->field = dlsym(lib, name); \
         if (!c->field) { snprintf(ctx->msg, sizeof ctx->msg, "%s lacks %s", #lib, name); return NUNART_E_UNAVAILABLE; } } while (0)

static nunart_status load_symbols(nunart_ctx *ctx, cuda_t *c) {
    void *libcuda = c->lib;
    SYM(libcuda, Init, "cuInit");
    SYM(libcuda, DeviceGetCount, "cuDeviceGetCount");
    SYM(libcuda, DeviceGet, "cuDeviceGet");
    SYM(libcuda, DeviceGetName, "cuDeviceGetName");
    SYM(libcuda, DeviceGetAttribute, "cuDeviceGetAttribute");
    SYM(libcuda, PrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    SYM(libcuda, PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    SYM(libcuda, CtxSetCurrent, "cuCtxSetCurrent");
    SYM(libcuda, CtxSynchronize, "cuCtxSynchronize");
    SYM(libcuda, MemAlloc, "cuMemAlloc_v2");
    SYM(libcuda, MemFree, "cuMemFree_v2");
    SYM(libcuda, MemcpyHtoD, "cuMemcpyHtoD_v2");
    SYM(libcuda, MemcpyDtoH, "cuMemcpyDtoH_v2");
    SYM(libcuda, MemsetD32, "cuMemsetD32_v2");
    SYM(libcuda, ModuleLoadData, "cuModuleLoadData");
    SYM(libcuda, ModuleUnload, "cuModuleUnload");
    SYM(libcuda, ModuleGetFunction, "cuModuleGetFunction");
    SYM(libcuda, LaunchKernel, "cuLaunchKernel");
    SYM(libcuda, GetErrorString, "cuGetErrorString");
    return NUNART_OK;
}

static nunart_status cuda_open(nunart_ctx *ctx) {
    cuda_t *c = calloc(1, sizeof *c);
    if (!c) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    ctx->be_state = c;
    c->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!c->lib) {
        snprintf(ctx->msg, sizeof ctx->msg, "no NVIDIA driver: %s", dlerror());
        return NUNART_E_UNAVAILABLE;
    }
    nunart_status st = load_symbols(ctx, c);
    if (st) return st;
    int rc = c->Init(0), n = 0;
    if (rc) { snprintf(ctx->msg, sizeof ctx->msg, "cuInit failed: %s", cu_err(c, rc)); return NUNART_E_UNAVAILABLE; }
    if ((rc = c->DeviceGetCount(&n)) || n == 0) { snprintf(ctx->msg, sizeof ctx->msg, "no CUDA device found"); return NUNART_E_UNAVAILABLE; }
    if (ctx->device_ordinal >= n) { snprintf(ctx->msg, sizeof ctx->msg, "device %d requested, %d present", ctx->device_ordinal, n); return NUNART_E_UNAVAILABLE; }
    c->DeviceGet(&c->dev, ctx->device_ordinal);
    char name[100] = "";
    c->DeviceGetName(name, sizeof name, c->dev);
    c->DeviceGetAttribute(&c->sms, 16 /* MULTIPROCESSOR_COUNT */, c->dev);
    c->DeviceGetAttribute(&c->cc_major, 75 /* COMPUTE_CAPABILITY_MAJOR */, c->dev);
    c->DeviceGetAttribute(&c->cc_minor, 76 /* COMPUTE_CAPABILITY_MINOR */, c->dev);
    if ((rc = c->PrimaryCtxRetain(&c->cuctx, c->dev)) || (rc = c->CtxSetCurrent(c->cuctx))) {
        snprintf(ctx->msg, sizeof ctx->msg, "cannot create a context: %s", cu_err(c, rc));
        return NUNART_E_UNAVAILABLE;
    }
    /* CUDA has no die count below locality domains (13.4); two-die parts are cc 10.x. */
    int dies = c->cc_major == 10 ? 2 : 1;
    ctx->dev.cus = c->sms;
    ctx->dev.dies = dies;
    ctx->dev.mask_words = (c->sms + 31) / 32;
    ctx->dev.max_ranks = 1024;
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "%s (cc %d.%d, %d SMs, %d die%s assumed from the compute capability), loopback ranks",
             name, c->cc_major, c->cc_minor, c->sms, dies, dies > 1 ? "s" : "");
    return NUNART_OK;
}

static nunart_status compile(nunart_ctx *ctx, cuda_t *c) {
    static const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"};
    for (int i = 0; i < 4 && !c->nvrtc; i++) c->nvrtc = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!c->nvrtc) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "NVRTC not found (libnvrtc.so): the executor cannot be compiled at run time");
    void *libnvrtc = c->nvrtc;
#undef SYM
#define SYM(lib, field, name) \
    do { *(void **) &c->field = dlsym(lib, name); \
         if (!c->field) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "NVRTC lacks %s", name); } while (0)
    SYM(libnvrtc, rtcCreate, "nvrtcCreateProgram");
    SYM(libnvrtc, rtcCompile, "nvrtcCompileProgram");
    SYM(libnvrtc, rtcPtxSize, "nvrtcGetPTXSize");
    SYM(libnvrtc, rtcPtx, "nvrtcGetPTX");
    SYM(libnvrtc, rtcLogSize, "nvrtcGetProgramLogSize");
    SYM(libnvrtc, rtcLog, "nvrtcGetProgramLog");
    SYM(libnvrtc, rtcDestroy, "nvrtcDestroyProgram");
    void *prog = NULL;
    if (c->rtcCreate(&prog, nr_kernel_source, "executor.cu", 0, NULL, NULL)) return nr_fail(ctx, NUNART_E_DEVICE, "nvrtcCreateProgram failed");
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", c->cc_major, c->cc_minor);
    const char *opts[] = {arch};
    if (c->rtcCompile(prog, 1, opts)) {
        size_t n = 0;
        c->rtcLogSize(prog, &n);
        char *log = malloc(n + 1);
        if (log) { c->rtcLog(prog, log); log[n] = 0; }
        nr_fail(ctx, NUNART_E_DEVICE, "NVRTC could not compile the executor: %.700s", log ? log : "");
        free(log);
        c->rtcDestroy(&prog);
        return ctx->last;
    }
    size_t n = 0;
    c->rtcPtxSize(prog, &n);
    char *ptx = malloc(n);
    if (!ptx) { c->rtcDestroy(&prog); return nr_fail(ctx, NUNART_E_MEMORY, "out of memory"); }
    c->rtcPtx(prog, ptx);
    c->rtcDestroy(&prog);
    int rc = c->ModuleLoadData(&c->module, ptx);
    free(ptx);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "cuModuleLoadData: %s", cu_err(c, rc));
    if ((rc = c->ModuleGetFunction(&c->fn, c->module, "nunart_exec"))) return nr_fail(ctx, NUNART_E_DEVICE, "cuModuleGetFunction: %s", cu_err(c, rc));
    return NUNART_OK;
}

static nunart_status put(nunart_ctx *ctx, cuda_t *c, dptr *d, const void *h, size_t bytes) {
    int rc = c->MemAlloc(d, bytes ? bytes : 4);
    if (rc) return nr_fail(ctx, NUNART_E_MEMORY, "cuMemAlloc of %zu bytes: %s", bytes, cu_err(c, rc));
    if (h && bytes && (rc = c->MemcpyHtoD(*d, h, bytes))) return nr_fail(ctx, NUNART_E_DEVICE, "cuMemcpyHtoD: %s", cu_err(c, rc));
    return NUNART_OK;
}

static nunart_status cuda_alloc(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    const nr_table *t = ctx->table;
    nunart_status st = compile(ctx, c);
    if (st) return st;
    long long *steps = malloc(sizeof(long long) * 9 * (size_t) (t->nstep ? t->nstep : 1));
    int *tbinfo = malloc(sizeof(int) * 3 * (size_t) (t->ntb ? t->ntb : 1));
    if (!steps || !tbinfo) { free(steps); free(tbinfo); return nr_fail(ctx, NUNART_E_MEMORY, "out of memory"); }
    for (int g = 0; g < t->nstep; g++) {
        const nr_step *s = &t->step[g];
        long long *o = steps + 9 * (size_t) g;
        o[0] = s->op; o[1] = s->nelem; o[2] = s->src_off; o[3] = s->dst_off; o[4] = s->stage_off;
        o[5] = s->from >= 0 ? t->step[s->from].stage_off : -1; o[6] = s->from; o[7] = s->ndeps; o[8] = s->dep_first;
    }
    int per[1 << 12] = {0}, maxper = 0;
    for (int i = 0; i < t->ntb; i++) {
        tbinfo[3 * i] = t->tb[i].first_step;
        tbinfo[3 * i + 1] = t->tb[i].nsteps;
        tbinfo[3 * i + 2] = t->tb[i].cu;
        if (t->tb[i].cu < (1 << 12) && ++per[t->tb[i].cu] > maxper) maxper = per[t->tb[i].cu];
    }
    c->per_sm = maxper + 1;
    if ((st = put(ctx, c, &c->arena, ctx->host, (size_t) t->arena_elems * 4)) || (st = put(ctx, c, &c->steps, steps, sizeof(long long) * 9 * (size_t) t->nstep))
        || (st = put(ctx, c, &c->deps, t->deps, sizeof(int) * (size_t) t->ndeps)) || (st = put(ctx, c, &c->tbinfo, tbinfo, sizeof(int) * 3 * (size_t) t->ntb))
        || (st = put(ctx, c, &c->done, NULL, sizeof(int) * (size_t) t->nstep)) || (st = put(ctx, c, &c->ran_on, NULL, sizeof(int) * (size_t) t->ntb))
        || (st = put(ctx, c, &c->claim, NULL, sizeof(int) * (size_t) (t->ntb + 1)))) {
        free(steps); free(tbinfo);
        return st;
    }
    free(steps); free(tbinfo);
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (no locality-domain allocation in this build; the map of %lld pages is recorded, not applied)", (long long) t->pages);
    return NUNART_OK;
}

static nunart_status cuda_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    cuda_t *c = ctx->be_state;
    const nr_table *t = ctx->table;
    int rc;
    if ((rc = c->MemsetD32(c->done, 0, (size_t) t->nstep)) || (rc = c->MemsetD32(c->claim, 0, (size_t) t->ntb + 1))
        || (rc = c->MemsetD32(c->ran_on, 0xffffffffu, (size_t) t->ntb)))
        return nr_fail(ctx, NUNART_E_DEVICE, "cuMemsetD32: %s", cu_err(c, rc));
    int ntb = t->ntb, pin = pinned;
    long long steal = 200000, budget = (long long) ctx->timeout_ms * 1000000LL; /* cycles at >= 1 GHz */
    void *args[] = {&c->steps, &c->deps, &c->tbinfo, &ntb, &c->arena, &c->done, &c->ran_on, &c->claim, &pin, &steal, &budget};
    unsigned grid = pinned ? (unsigned) (c->sms * c->per_sm) : (unsigned) ntb;
    int64_t t0 = nr_now_ns();
    rc = c->LaunchKernel(c->fn, grid ? grid : 1, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
    if (!rc) rc = c->CtxSynchronize();
    *elapsed_us = (double) (nr_now_ns() - t0) / 1000.0;
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "launch failed: %s", cu_err(c, rc));
    int abort_flag = 0;
    c->MemcpyDtoH(&abort_flag, c->claim + sizeof(int) * (size_t) ntb, sizeof(int));
    if (abort_flag) return nr_fail(ctx, NUNART_E_TIMEOUT, "the executor gave up after %d ms: a wait was never satisfied (or blocks were not co-resident)", ctx->timeout_ms);
    if ((rc = c->MemcpyDtoH(ctx->ran_on, c->ran_on, sizeof(int) * (size_t) ntb))) return nr_fail(ctx, NUNART_E_DEVICE, "readback: %s", cu_err(c, rc));
    ctx->located = 1;
    snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, pinned ? "applied (%%smid dispatcher over %u blocks; each logical threadblock claims a block on its planned SM)" : "not applied (plain launch of %u blocks)", grid);
    snprintf(ctx->grid_order, sizeof ctx->grid_order, "not used (the dispatcher places by SM, not by slot)");
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "not applied (CUDA has no per-stream SM masks; green contexts not used in this build)");
    return NUNART_OK;
}

static nunart_status cuda_fetch(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    int rc = c->MemcpyDtoH(ctx->host, c->arena, (size_t) ctx->table->arena_elems * 4);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "cuMemcpyDtoH: %s", cu_err(c, rc)) : NUNART_OK;
}

static nunart_status cuda_upload(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    int rc = c->MemcpyHtoD(c->arena, ctx->host, (size_t) ctx->table->arena_elems * 4);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "cuMemcpyHtoD: %s", cu_err(c, rc)) : NUNART_OK;
}

static void cuda_close(nunart_ctx *ctx) {
    cuda_t *c = ctx->be_state;
    if (!c) return;
    if (c->MemFree) {
        dptr all[] = {c->arena, c->steps, c->deps, c->tbinfo, c->done, c->ran_on, c->claim};
        for (int i = 0; i < 7; i++) if (all[i]) c->MemFree(all[i]);
    }
    if (c->module) c->ModuleUnload(c->module);
    if (c->cuctx) c->PrimaryCtxRelease(c->dev);
    if (c->nvrtc) dlclose(c->nvrtc);
    if (c->lib) dlclose(c->lib);
    free(c);
    ctx->be_state = NULL;
}

const nr_backend nr_backend_cuda = {
    .name = "cuda",
    .open = cuda_open,
    .alloc = cuda_alloc,
    .launch = cuda_launch,
    .fetch = cuda_fetch,
    .upload = cuda_upload,
    .stream = NULL,
    .close = cuda_close,
};
