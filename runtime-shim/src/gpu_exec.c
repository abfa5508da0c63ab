/* The vendor-neutral part of the GPU backends (gpu_exec.h): library loading, the runtime
 * compile, the step records, the buffers, the launch and its readback. */
#include "gpu_exec.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kernel block size: enough threads to stream a chunk, few enough to keep every block resident. */
#define NR_BLOCK 256
/* Step record width, as in executor.cu. */
#define NR_F 9

void *nr_dlopen(const char *env, const char *const *names, int n, char *used, size_t used_cap, char *why, size_t why_cap) {
    const char *override = env ? getenv(env) : NULL;
    if (override && *override) {
        void *lib = dlopen(override, RTLD_NOW | RTLD_LOCAL);
        if (lib) snprintf(used, used_cap, "%s", override);
        else snprintf(why, why_cap, "%s=%s does not load: %s", env, override, dlerror());
        return lib;
    }
    const char *err = "no candidates";
    for (int i = 0; i < n; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            snprintf(used, used_cap, "%s", names[i]);
            return lib;
        }
        err = dlerror();
    }
    int k = snprintf(why, why_cap, "none of");
    for (int i = 0; i < n && k > 0 && (size_t) k < why_cap; i++) k += snprintf(why + k, why_cap - (size_t) k, "%s %s", i ? "," : "", names[i]);
    if (k > 0 && (size_t) k < why_cap) snprintf(why + k, why_cap - (size_t) k, " loads (last: %s)", err ? err : "unknown");
    return NULL;
}

nunart_status nr_bind(nunart_ctx *ctx, void *lib, const char *file, const nr_sym *syms, int n) {
    for (int i = 0; i < n; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "%s lacks %s", file, syms[i].name);
    }
    return NUNART_OK;
}

nunart_status nr_rtc_bind(nunart_ctx *ctx, nr_rtc *r, void *lib, const char *file, int owned) {
    r->lib = lib;
    r->owned = owned;
    snprintf(r->file, sizeof r->file, "%s", file);
    const nr_sym syms[NR_RTC_NCALLS] = {
        {r->calls[NR_RTC_CREATE], (void **) &r->create},     {r->calls[NR_RTC_COMPILE], (void **) &r->compile},
        {r->calls[NR_RTC_CODE_SIZE], (void **) &r->code_size}, {r->calls[NR_RTC_CODE], (void **) &r->code},
        {r->calls[NR_RTC_LOG_SIZE], (void **) &r->log_size}, {r->calls[NR_RTC_LOG], (void **) &r->log},
        {r->calls[NR_RTC_DESTROY], (void **) &r->destroy},   {r->calls[NR_RTC_ERROR], (void **) &r->error},
    };
    return nr_bind(ctx, lib, file, syms, NR_RTC_NCALLS);
}

static const char *rtc_err(const nr_rtc *r, int rc) {
    const char *s = r->error ? r->error(rc) : NULL;
    return s ? s : "unknown error";
}

static const char *drv_err(const nr_gpu *g, int rc) {
    const char *s = g->ops->error(g->drv, rc);
    return s ? s : "unknown error";
}

/* The compiler's log, or "" (NULL only without memory); the caller frees it. */
static char *rtc_log(const nr_rtc *r, void *prog) {
    size_t n = 0;
    char *log = NULL;
    if (!r->log_size(prog, &n) && n < ((size_t) 1 << 24) && (log = malloc(n + 1))) {
        if (r->log(prog, log)) n = 0;
        log[n] = 0;
    }
    return log ? log : calloc(1, 1);
}

/* The compiled image, into a buffer the caller frees. */
static nunart_status fetch_code(nunart_ctx *ctx, const nr_rtc *r, void *prog, char **code) {
    size_t n = 0;
    int rc = r->code_size(prog, &n);
    if (rc || n == 0) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", r->calls[NR_RTC_CODE_SIZE], rc ? rtc_err(r, rc) : "no code");
    if (!(*code = malloc(n))) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory for %zu bytes of compiled executor", n);
    if ((rc = r->code(prog, *code))) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", r->calls[NR_RTC_CODE], rtc_err(r, rc));
    return NUNART_OK;
}

nunart_status nr_gpu_compile(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts) {
    const nr_rtc *r = &g->rtc;
    const char *rtc = g->ops->rtc_name;
    void *prog = NULL;
    int rc = r->create(&prog, nr_kernel_source, "executor.cu", 0, NULL, NULL);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", r->calls[NR_RTC_CREATE], rtc_err(r, rc));
    if ((rc = r->compile(prog, nopts, opts))) {
        char *log = rtc_log(r, prog);
        nr_fail(ctx, NUNART_E_DEVICE, "%s could not compile the executor (%s: %s): %.700s", rtc, r->calls[NR_RTC_COMPILE],
                rtc_err(r, rc), log ? log : "");
        free(log);
        r->destroy(&prog);
        return ctx->last;
    }
    char *code = NULL;
    nunart_status st = fetch_code(ctx, r, prog, &code);
    r->destroy(&prog);
    if (st) {
        free(code);
        return st;
    }
    rc = g->ops->load(g->drv, &g->module, code);
    free(code);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", g->ops->call_load, drv_err(g, rc));
    if ((rc = g->ops->function(g->drv, &g->fn, g->module, "nunart_exec")))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s(nunart_exec): %s", g->ops->call_function, drv_err(g, rc));
    return NUNART_OK;
}

static nunart_status put(nunart_ctx *ctx, nr_gpu *g, nr_dptr *d, const void *h, size_t bytes) {
    int rc = g->ops->alloc(g->drv, d, bytes ? bytes : 4);
    if (rc) return nr_fail(ctx, NUNART_E_MEMORY, "%s of %zu bytes: %s", g->ops->call_alloc, bytes, drv_err(g, rc));
    if (h && bytes && (rc = g->ops->htod(g->drv, *d, h, bytes))) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", g->ops->call_htod, drv_err(g, rc));
    return NUNART_OK;
}

/* Step records as executor.cu reads them. */
static void pack_steps(const nr_table *t, long long *steps) {
    for (int i = 0; i < t->nstep; i++) {
        const nr_step *s = &t->step[i];
        long long *o = steps + NR_F * (size_t) i;
        o[0] = s->op; o[1] = s->nelem; o[2] = s->src_off; o[3] = s->dst_off; o[4] = s->stage_off;
        o[5] = s->from >= 0 ? t->step[s->from].stage_off : -1; o[6] = s->from; o[7] = s->ndeps; o[8] = s->dep_first;
    }
}

/* tbinfo triples (first step, step count, planned location) and the pinned grid's blocks per
 * unit: one more than the most threadblocks planned on one unit, so every unit that receives
 * blocks has a spare. */
static int pack_tbinfo(const nr_table *t, int by_die, int units, int *tbinfo) {
    int *per = calloc((size_t) (units > 0 ? units : 1), sizeof *per), most = 0;
    if (!per) return -1;
    for (int i = 0; i < t->ntb; i++) {
        int loc = by_die ? t->tb[i].die : t->tb[i].cu;
        tbinfo[3 * i] = t->tb[i].first_step;
        tbinfo[3 * i + 1] = t->tb[i].nsteps;
        tbinfo[3 * i + 2] = loc;
        if (loc >= 0 && loc < units && ++per[loc] > most) most = per[loc];
    }
    free(per);
    return most + 1;
}

nunart_status nr_gpu_alloc(nunart_ctx *ctx, nr_gpu *g) {
    const nr_table *t = ctx->table;
    const nr_gpu_ops *o = g->ops;
    g->units = o->place_by_die ? ctx->dev.dies : ctx->dev.cus;
    long long *steps = malloc(sizeof(long long) * NR_F * (size_t) (t->nstep ? t->nstep : 1));
    int *tbinfo = malloc(sizeof(int) * 3 * (size_t) (t->ntb ? t->ntb : 1));
    if (o->read_hw_id) g->hw = malloc(sizeof(int) * (size_t) (t->ntb ? t->ntb : 1));
    if (steps && tbinfo) {
        pack_steps(t, steps);
        g->per_unit = pack_tbinfo(t, o->place_by_die, g->units, tbinfo);
    }
    if (!steps || !tbinfo || (o->read_hw_id && !g->hw) || g->per_unit < 1) {
        free(steps); free(tbinfo);
        return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    }
    nunart_status st;
    if ((st = put(ctx, g, &g->arena, ctx->host, (size_t) t->arena_elems * 4))
        || (st = put(ctx, g, &g->steps, steps, sizeof(long long) * NR_F * (size_t) t->nstep))
        || (st = put(ctx, g, &g->deps, t->deps, sizeof(int) * (size_t) t->ndeps))
        || (st = put(ctx, g, &g->tbinfo, tbinfo, sizeof(int) * 3 * (size_t) t->ntb))
        || (st = put(ctx, g, &g->done, NULL, sizeof(int) * (size_t) t->nstep))
        || (st = put(ctx, g, &g->ran_on, NULL, sizeof(int) * (size_t) t->ntb))
        || (st = put(ctx, g, &g->hw_id, NULL, sizeof(int) * (size_t) t->ntb))
        || (st = put(ctx, g, &g->claim, NULL, sizeof(int) * (size_t) (t->ntb + 1)))) {
        free(steps); free(tbinfo);
        return st;
    }
    free(steps); free(tbinfo);
    return NUNART_OK;
}

nunart_status nr_gpu_launch(nunart_ctx *ctx, nr_gpu *g, int pinned, double *elapsed_us, unsigned *grid_out) {
    const nr_table *t = ctx->table;
    const nr_gpu_ops *o = g->ops;
    void *d = g->drv;
    int rc;
    if ((rc = o->memset32(d, g->done, 0, (size_t) t->nstep)) || (rc = o->memset32(d, g->claim, 0, (size_t) t->ntb + 1))
        || (rc = o->memset32(d, g->ran_on, 0xffffffffu, (size_t) t->ntb))
        || (o->read_hw_id && (rc = o->memset32(d, g->hw_id, 0xffffffffu, (size_t) t->ntb))))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", o->call_memset, drv_err(g, rc));
    int ntb = t->ntb, pin = pinned;
    /* Wait budgets in the kernel's clock ticks; at a faster clock the bound is only shorter. */
    long long steal = 200 * o->ticks_per_us, budget = (long long) ctx->timeout_ms * 1000LL * o->ticks_per_us;
    void *args[] = {&g->steps, &g->deps, &g->tbinfo, &ntb, &g->arena, &g->done, &g->ran_on, &g->hw_id, &g->claim, &pin, &steal, &budget};
    unsigned grid = pinned ? (unsigned) (g->units * g->per_unit) : (unsigned) ntb;
    if (!grid) grid = 1;
    *grid_out = grid;
    int64_t t0 = nr_now_ns();
    rc = o->launch(d, g->fn, grid, NR_BLOCK, args);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s (%u blocks): %s", o->call_launch, grid, drv_err(g, rc));
    rc = o->sync(d);
    *elapsed_us = (double) (nr_now_ns() - t0) / 1000.0;
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s after the launch: %s", o->call_sync, drv_err(g, rc));
    int abort_flag = 0;
    if ((rc = o->dtoh(d, &abort_flag, g->claim + sizeof(int) * (size_t) ntb, sizeof(int))))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (abort flag): %s", o->call_dtoh, drv_err(g, rc));
    if (abort_flag)
        return nr_fail(ctx, NUNART_E_TIMEOUT, "the executor gave up after %d ms: a wait was never satisfied (or blocks were not co-resident)", ctx->timeout_ms);
    if ((rc = o->dtoh(d, ctx->ran_on, g->ran_on, sizeof(int) * (size_t) ntb)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (readback of where threadblocks ran): %s", o->call_dtoh, drv_err(g, rc));
    if (o->read_hw_id && (rc = o->dtoh(d, g->hw, g->hw_id, sizeof(int) * (size_t) ntb)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (readback of hw_id): %s", o->call_dtoh, drv_err(g, rc));
    ctx->located = o->place_by_die ? 2 : 1;
    if (pinned)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied (%s dispatcher over %u blocks; each logical threadblock claims a block on its planned %s)",
                 o->loc_reg, grid, o->unit);
    else
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "not applied (plain launch of %u blocks)", grid);
    snprintf(ctx->grid_order, sizeof ctx->grid_order, "not used (the dispatcher places by %s, not by slot)", o->unit);
    return NUNART_OK;
}

nunart_status nr_gpu_fetch(nunart_ctx *ctx, nr_gpu *g) {
    int rc = g->ops->dtoh(g->drv, ctx->host, g->arena, (size_t) ctx->table->arena_elems * 4);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", g->ops->call_dtoh, drv_err(g, rc)) : NUNART_OK;
}

nunart_status nr_gpu_upload(nunart_ctx *ctx, nr_gpu *g) {
    int rc = g->ops->htod(g->drv, g->arena, ctx->host, (size_t) ctx->table->arena_elems * 4);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", g->ops->call_htod, drv_err(g, rc)) : NUNART_OK;
}

void nr_gpu_release(nr_gpu *g) {
    nr_dptr all[] = {g->arena, g->steps, g->deps, g->tbinfo, g->done, g->ran_on, g->hw_id, g->claim};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (all[i]) g->ops->free(g->drv, all[i]);
    if (g->module) g->ops->unload(g->drv, g->module);
    if (g->rtc.lib && g->rtc.owned) dlclose(g->rtc.lib);
    free(g->hw);
    memset(g, 0, sizeof *g);
}
