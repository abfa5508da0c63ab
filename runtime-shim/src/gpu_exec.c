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

/* Which ranks, threadblocks and arena ranges each device takes: contiguous blocks of ranks, so
 * each device's threadblocks, storages and stages are contiguous ranges of the table's. */
static void split(nunart_ctx *ctx, nr_gpu *g) {
    const nr_table *t = ctx->table;
    g->ndev = ctx->ndev > 0 ? ctx->ndev : 1;
    for (int k = 0; k < g->ndev; k++) {
        nr_gpu_dev *v = &g->dev[k];
        v->ordinal = ctx->device_ordinal + k;
        v->rank_lo = nr_first_rank(t->ranks, g->ndev, k);
        v->rank_hi = nr_first_rank(t->ranks, g->ndev, k + 1);
        v->tb_lo = nr_tb_start(t, v->rank_lo);
        v->tb_hi = nr_tb_start(t, v->rank_hi);
        v->sto_lo = nr_sto_start(t, v->rank_lo);
        v->sto_hi = nr_sto_start(t, v->rank_hi);
        v->stage_lo = nr_stage_start(t, v->rank_lo);
        v->stage_hi = nr_stage_start(t, v->rank_hi);
    }
}

static nunart_status select_dev(nunart_ctx *ctx, nr_gpu *g, int k) {
    int rc = g->ops->select(g->drv, g->dev[k].ordinal);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "%s(device %d): %s", g->ops->call_select, g->dev[k].ordinal, drv_err(g, rc)) : NUNART_OK;
}

/* Every used device must reach every other's memory: a pair that cannot is an error, never a
 * silent fallback to loopback. */
static nunart_status enable_peers(nunart_ctx *ctx, nr_gpu *g) {
    const nr_gpu_ops *o = g->ops;
    for (int i = 0; i < g->ndev; i++) {
        for (int j = 0; j < g->ndev; j++) {
            if (i == j) continue;
            int a = g->dev[i].ordinal, b = g->dev[j].ordinal, can = 0;
            int rc = o->can_peer(g->drv, &can, a, b);
            if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s(device %d, device %d): %s", o->call_can_peer, a, b, drv_err(g, rc));
            if (!can)
                return nr_fail(ctx, NUNART_E_UNAVAILABLE, "device %d cannot access device %d's memory (%s says no peer access): ranks on "
                               "separate devices need it between every pair; option devices=1 runs every rank on device %d (loopback)",
                               a, b, o->call_can_peer, ctx->device_ordinal);
            nunart_status st = select_dev(ctx, g, i);
            if (st) return st;
            if ((rc = o->enable_peer(g->drv, b)))
                return nr_fail(ctx, NUNART_E_DEVICE, "%s(device %d to device %d): %s", o->call_enable_peer, a, b, drv_err(g, rc));
        }
    }
    return NUNART_OK;
}

/* Loads the compiled image on every device and finds the kernel there. */
static nunart_status load_everywhere(nunart_ctx *ctx, nr_gpu *g, const char *code) {
    for (int k = 0; k < g->ndev; k++) {
        nr_gpu_dev *v = &g->dev[k];
        nunart_status st = select_dev(ctx, g, k);
        if (st) return st;
        int rc = g->ops->load(g->drv, &v->module, code);
        if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", g->ops->call_load, v->ordinal, drv_err(g, rc));
        if ((rc = g->ops->function(g->drv, &v->fn, v->module, "nunart_exec")))
            return nr_fail(ctx, NUNART_E_DEVICE, "%s(nunart_exec) (device %d): %s", g->ops->call_function, v->ordinal, drv_err(g, rc));
    }
    return NUNART_OK;
}

/* Compiles the embedded source with `opts` (plus -DNR_MULTI=1 when multi) into *code. */
static nunart_status compile_code(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts, int multi, char **code) {
    const nr_rtc *r = &g->rtc;
    const char *all[8];
    int n = 0;
    for (int i = 0; i < nopts && n < 7; i++) all[n++] = opts[i];
    if (multi) all[n++] = "-DNR_MULTI=1";
    void *prog = NULL;
    int rc = r->create(&prog, nr_kernel_source, "executor.cu", 0, NULL, NULL);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s: %s", r->calls[NR_RTC_CREATE], rtc_err(r, rc));
    if ((rc = r->compile(prog, n, all))) {
        char *log = rtc_log(r, prog);
        nr_fail(ctx, NUNART_E_DEVICE, "%s could not compile the executor (%s: %s): %.700s", g->ops->rtc_name, r->calls[NR_RTC_COMPILE],
                rtc_err(r, rc), log ? log : "");
        free(log);
        r->destroy(&prog);
        return ctx->last;
    }
    nunart_status st = fetch_code(ctx, r, prog, code);
    r->destroy(&prog);
    return st;
}

nunart_status nr_gpu_compile(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts) {
    split(ctx, g);
    nunart_status st;
    if (g->ndev > 1 && (st = enable_peers(ctx, g))) return st;
    /* Several devices: the kernel's flags are host-mapped and need system-scope atomics. */
    char *code = NULL;
    st = compile_code(ctx, g, opts, nopts, g->ndev > 1, &code);
    if (!st) st = load_everywhere(ctx, g, code);
    free(code);
    return st;
}

static nunart_status put(nunart_ctx *ctx, nr_gpu *g, int k, nr_dptr *d, const void *h, size_t bytes) {
    int rc = g->ops->alloc(g->drv, d, bytes ? bytes : 4);
    if (rc) return nr_fail(ctx, NUNART_E_MEMORY, "%s of %zu bytes (device %d): %s", g->ops->call_alloc, bytes, g->dev[k].ordinal, drv_err(g, rc));
    if (h && bytes && (rc = g->ops->htod(g->drv, *d, h, bytes)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", g->ops->call_htod, g->dev[k].ordinal, drv_err(g, rc));
    return NUNART_OK;
}

/* Step records as executor.cu reads them; an operand the op does not use is -1, so the kernel
 * never translates (or touches) it. */
static void pack_steps(const nr_table *t, long long *steps) {
    for (int i = 0; i < t->nstep; i++) {
        const nr_step *s = &t->step[i];
        long long *o = steps + NR_F * (size_t) i;
        int src, dst, self, got;
        nr_op_operands(s->op, &src, &dst, &self, &got);
        o[0] = s->op; o[1] = s->nelem; o[2] = src ? s->src_off : -1; o[3] = dst ? s->dst_off : -1; o[4] = self ? s->stage_off : -1;
        o[5] = got && s->from >= 0 ? t->step[s->from].stage_off : -1; o[6] = s->from; o[7] = s->ndeps; o[8] = s->dep_first;
    }
}

/* tbinfo triples (first step, step count, planned location) for every threadblock. */
static void pack_tbinfo(const nunart_ctx *ctx, int by_die, int *tbinfo) {
    const nr_table *t = ctx->table;
    for (int i = 0; i < t->ntb; i++) {
        tbinfo[3 * i] = t->tb[i].first_step;
        tbinfo[3 * i + 1] = t->tb[i].nsteps;
        tbinfo[3 * i + 2] = nr_planned_unit(ctx, &t->tb[i], by_die);
    }
}

/* The most threadblocks of [lo, hi) planned on one unit (-1 without memory). */
static int most_per_unit(const int *tbinfo, int lo, int hi, int units) {
    int *per = calloc((size_t) (units > 0 ? units : 1), sizeof *per), most = 0;
    if (!per) return -1;
    for (int i = lo; i < hi; i++) {
        int loc = tbinfo[3 * i + 2];
        if (loc >= 0 && loc < units && ++per[loc] > most) most = per[loc];
    }
    free(per);
    return most;
}

/* The segment table (global offset range -> device address, as long long triples lo, hi, base)
 * every device translates the table's offsets with: each device's storages, then its stages. */
static int pack_segments(const nr_gpu *g, long long *seg) {
    int n = 0;
    for (int k = 0; k < g->ndev; k++) {
        const nr_gpu_dev *v = &g->dev[k];
        if (v->sto_hi > v->sto_lo) {
            seg[3 * n] = v->sto_lo; seg[3 * n + 1] = v->sto_hi; seg[3 * n + 2] = (long long) v->arena;
            n++;
        }
        if (v->stage_hi > v->stage_lo) {
            seg[3 * n] = v->stage_lo; seg[3 * n + 1] = v->stage_hi;
            seg[3 * n + 2] = (long long) (v->arena + sizeof(float) * (size_t) (v->sto_hi - v->sto_lo));
            n++;
        }
    }
    return n;
}

/* Copies a device's arena between ctx->host and the device: storages, then stages. */
static nunart_status move_arena(nunart_ctx *ctx, nr_gpu *g, int k, int to_device) {
    const nr_gpu_dev *v = &g->dev[k];
    const nr_gpu_ops *o = g->ops;
    size_t sto = sizeof(float) * (size_t) (v->sto_hi - v->sto_lo), stage = sizeof(float) * (size_t) (v->stage_hi - v->stage_lo);
    nr_dptr part[2] = {v->arena, v->arena + sto};
    float *host[2] = {ctx->host + v->sto_lo, ctx->host + v->stage_lo};
    size_t bytes[2] = {sto, stage};
    for (int i = 0; i < 2; i++) {
        if (!bytes[i]) continue;
        int rc = to_device ? o->htod(g->drv, part[i], host[i], bytes[i]) : o->dtoh(g->drv, host[i], part[i], bytes[i]);
        if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", to_device ? o->call_htod : o->call_dtoh, v->ordinal, drv_err(g, rc));
    }
    return NUNART_OK;
}

/* Several devices: done flags, claims and the abort flag in one host-mapped block. */
static nunart_status map_flags(nunart_ctx *ctx, nr_gpu *g) {
    const nr_table *t = ctx->table;
    const nr_gpu_ops *o = g->ops;
    size_t bytes = sizeof(int) * ((size_t) t->nstep + (size_t) t->ntb + 1);
    void *h = NULL;
    int rc = o->host_alloc(g->drv, &h, bytes);
    if (rc) return nr_fail(ctx, NUNART_E_MEMORY, "%s of %zu bytes (flags shared by devices %d-%d): %s", o->call_host_alloc, bytes,
                           g->dev[0].ordinal, g->dev[g->ndev - 1].ordinal, drv_err(g, rc));
    g->flags = h;
    memset(h, 0, bytes);
    for (int k = 0; k < g->ndev; k++) {
        nunart_status st = select_dev(ctx, g, k);
        if (st) return st;
        if ((rc = o->host_map(g->drv, &g->dev[k].done, h)))
            return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", o->call_host_map, g->dev[k].ordinal, drv_err(g, rc));
        g->dev[k].claim = g->dev[k].done + sizeof(int) * (size_t) t->nstep;
    }
    return NUNART_OK;
}

/* The threadblocks of a plan wait for each other, so every block of a launch must be resident
 * at once: a grid the device runs in waves ends in a timeout. Device k's pinned grid gets one
 * spare per unit where the occupancy API allows (units x (most + 1) blocks), else none; with
 * option pinned_grid=full it fills every resident slot, so that every unit receives blocks
 * however the hardware hands them out (the spares exit once all are claimed); a plan
 * that puts more threadblocks on one unit than fit there, or more than the whole device holds,
 * is refused. */
static nunart_status fit_resident(nunart_ctx *ctx, nr_gpu *g, int k) {
    const nr_gpu_ops *o = g->ops;
    nr_gpu_dev *v = &g->dev[k];
    int occ = 0, rc = o->occupancy(g->drv, &occ, v->fn, NR_BLOCK);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", o->call_occupancy, v->ordinal, drv_err(g, rc));
    if (occ < 1)
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "%s (device %d): no block of the executor (%d threads) fits on one %s", o->call_occupancy,
                       v->ordinal, NR_BLOCK, o->place_by_die ? "CU" : "SM");
    g->occupancy = occ;
    /* HIP places by XCD: an XCD holds its CUs' worth of blocks. */
    long long per_unit_cap = o->place_by_die ? (long long) occ * (ctx->dev.cus / (ctx->dev.dies > 0 ? ctx->dev.dies : 1)) : occ;
    long long device_cap = (long long) occ * ctx->dev.cus;
    int ntb = v->tb_hi - v->tb_lo;
    if (v->most > per_unit_cap)
        return nr_fail(ctx, NUNART_E_MISMATCH, "device %d: the plan puts %d threadblocks on one %s, but only %lld blocks of the executor "
                       "(%d threads) are resident on one %s at once (%s gives %d per %s); they wait for each other, so all must be resident",
                       v->ordinal, v->most, o->unit, per_unit_cap, NR_BLOCK, o->unit, o->call_occupancy, occ, o->place_by_die ? "CU" : "SM");
    if (ntb > device_cap)
        return nr_fail(ctx, NUNART_E_MISMATCH, "device %d runs %d threadblocks, but only %lld blocks of the executor are resident at once "
                       "(%d per %s x %d); they wait for each other, so all must be resident", v->ordinal, ntb, device_cap, occ,
                       o->place_by_die ? "CU" : "SM", ctx->dev.cus);
    v->per_unit = !ctx->full_grid && v->most + 1 <= per_unit_cap ? v->most + 1 : (int) per_unit_cap;
    if (v->per_unit < 1) v->per_unit = 1;
    return NUNART_OK;
}

/* One device's buffers: its arena, its copy of the plan, its readback arrays, and on one device
 * the flags. */
static nunart_status alloc_device(nunart_ctx *ctx, nr_gpu *g, int k, const long long *steps, const int *tbinfo) {
    const nr_table *t = ctx->table;
    nr_gpu_dev *v = &g->dev[k];
    nunart_status st = select_dev(ctx, g, k);
    if (st) return st;
    size_t arena = sizeof(float) * (size_t) (v->sto_hi - v->sto_lo + v->stage_hi - v->stage_lo);
    if ((st = put(ctx, g, k, &v->arena, NULL, arena)) || (st = move_arena(ctx, g, k, 1))
        || (st = put(ctx, g, k, &v->steps, steps, sizeof(long long) * NR_F * (size_t) t->nstep))
        || (st = put(ctx, g, k, &v->deps, t->deps, sizeof(int) * (size_t) t->ndeps))
        || (st = put(ctx, g, k, &v->tbinfo, tbinfo, sizeof(int) * 3 * (size_t) t->ntb))
        || (st = put(ctx, g, k, &v->ran_on, NULL, sizeof(int) * (size_t) t->ntb))
        || (st = put(ctx, g, k, &v->hw_id, NULL, sizeof(int) * (size_t) t->ntb))
        || (st = put(ctx, g, k, &v->stats, NULL, sizeof v->stat)))
        return st;
    if (g->ndev == 1
        && ((st = put(ctx, g, k, &v->done, NULL, sizeof(int) * (size_t) t->nstep))
            || (st = put(ctx, g, k, &v->claim, NULL, sizeof(int) * (size_t) (t->ntb + 1)))))
        return st;
    if ((v->most = most_per_unit(tbinfo, v->tb_lo, v->tb_hi, g->units)) < 0) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    if ((st = fit_resident(ctx, g, k))) return st;
    if (v->per_unit > g->per_unit) g->per_unit = v->per_unit;
    return NUNART_OK;
}

/* Every device's segment table, once every arena has its address. */
static nunart_status put_segments(nunart_ctx *ctx, nr_gpu *g) {
    long long seg[3 * 2 * NR_MAX_DEVICES];
    int n = pack_segments(g, seg);
    for (int k = 0; k < g->ndev; k++) {
        nunart_status st = select_dev(ctx, g, k);
        if (st || (st = put(ctx, g, k, &g->dev[k].seg, seg, sizeof(long long) * 3 * (size_t) n))) return st;
        g->dev[k].nseg = n;
    }
    return NUNART_OK;
}

/* The devices line gets the SM windows of the ranks that share a device. */
static void describe_shift(nunart_ctx *ctx, const nr_gpu *g) {
    const nr_table *t = ctx->table;
    const char *u = g->ops->unit;
    if (g->ndev == 1) {
        snprintf(ctx->devices, sizeof ctx->devices, "1 (loopback: all %d ranks on device %d, one arena; rank r's threadblocks run on their "
                 "planned %s + %d r, mod %d, so that the ranks, each placed for a whole GPU, do not pile onto the same %ss; option "
                 "devices=N spreads them over N devices)", t->ranks, ctx->device_ordinal, u, ctx->rank_shift, g->units, u);
        return;
    }
    size_t n = strlen(ctx->devices);
    if (n > 0 && ctx->devices[n - 1] == ')')
        snprintf(ctx->devices + n - 1, sizeof ctx->devices - (n - 1), "; the i-th rank of a device runs on its planned %s + %d i, mod %d)", u,
                 ctx->rank_shift, g->units);
}

nunart_status nr_gpu_alloc(nunart_ctx *ctx, nr_gpu *g) {
    const nr_table *t = ctx->table;
    const nr_gpu_ops *o = g->ops;
    g->units = o->place_by_die ? ctx->dev.dies : ctx->dev.cus;
    long long *steps = malloc(sizeof(long long) * NR_F * (size_t) (t->nstep ? t->nstep : 1));
    int *tbinfo = malloc(sizeof(int) * 3 * (size_t) (t->ntb ? t->ntb : 1));
    if (o->read_hw_id) g->hw = malloc(sizeof(int) * (size_t) (t->ntb ? t->ntb : 1));
    if (!steps || !tbinfo || (o->read_hw_id && !g->hw)) {
        free(steps); free(tbinfo);
        return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    }
    pack_steps(t, steps);
    /* Ranks sharing a device, by SM: each gets its own window of SMs (see nr_planned_unit); by die
     * (HIP) the XCDs hold dozens of blocks each and SPX's round-robin spreads them anyway. */
    int sharing = (t->ranks + g->ndev - 1) / g->ndev;
    ctx->rank_shift = sharing > 1 && !o->place_by_die ? g->units / sharing : 0;
    ctx->shift_units = g->units;
    if (ctx->rank_shift) describe_shift(ctx, g);
    pack_tbinfo(ctx, o->place_by_die, tbinfo);
    nunart_status st = NUNART_OK;
    for (int k = 0; k < g->ndev && !st; k++) st = alloc_device(ctx, g, k, steps, tbinfo);
    free(steps); free(tbinfo);
    if (!st && g->ndev > 1 && !(st = map_flags(ctx, g))) st = put_segments(ctx, g);
    return st;
}

/* Clears the flags and the readback arrays before a launch. */
static nunart_status reset(nunart_ctx *ctx, nr_gpu *g) {
    const nr_table *t = ctx->table;
    const nr_gpu_ops *o = g->ops;
    if (g->flags) memset(g->flags, 0, sizeof(int) * ((size_t) t->nstep + (size_t) t->ntb + 1));
    for (int k = 0; k < g->ndev; k++) {
        nr_gpu_dev *v = &g->dev[k];
        nunart_status st = select_dev(ctx, g, k);
        if (st) return st;
        int rc = 0;
        if ((!g->flags && ((rc = o->memset32(g->drv, v->done, 0, (size_t) t->nstep)) || (rc = o->memset32(g->drv, v->claim, 0, (size_t) t->ntb + 1))))
            || (rc = o->memset32(g->drv, v->ran_on, 0xffffffffu, (size_t) t->ntb))
            || (o->read_hw_id && (rc = o->memset32(g->drv, v->hw_id, 0xffffffffu, (size_t) t->ntb)))
            || (rc = o->memset32(g->drv, v->stats, 0, sizeof v->stat / sizeof *v->stat)))
            return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d): %s", o->call_memset, v->ordinal, drv_err(g, rc));
    }
    return NUNART_OK;
}

/* Launches device k's kernel over its threadblocks; *grid gets its blocks. */
static nunart_status launch_device(nunart_ctx *ctx, nr_gpu *g, int k, int pinned, unsigned *grid) {
    const nr_gpu_ops *o = g->ops;
    nr_gpu_dev *v = &g->dev[k];
    nunart_status st = select_dev(ctx, g, k);
    if (st) return st;
    int ntb = ctx->table->ntb, pin = pinned, nseg = g->ndev > 1 ? v->nseg : 0, lo = v->tb_lo, hi = v->tb_hi;
    /* Wait budgets in the kernel's timer ticks (nanoseconds on NVIDIA). */
    long long steal = 200 * o->ticks_per_us, budget = (long long) ctx->timeout_ms * 1000LL * o->ticks_per_us;
    void *args[] = {&v->steps, &v->deps, &v->tbinfo, &ntb, &v->arena, &v->done, &v->ran_on, &v->hw_id, &v->claim, &pin, &steal, &budget,
                    &v->seg, &nseg, &lo, &hi, &v->stats};
    *grid = pinned ? (unsigned) (g->units * v->per_unit) : (unsigned) (hi - lo);
    if (!*grid) *grid = 1;
    int rc = o->launch(g->drv, v->fn, *grid, NR_BLOCK, args);
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, %u blocks): %s", o->call_launch, v->ordinal, *grid, drv_err(g, rc)) : NUNART_OK;
}

/* Where device k's threadblocks ran (and their hw_id). */
static nunart_status read_back(nunart_ctx *ctx, nr_gpu *g, int k) {
    const nr_gpu_ops *o = g->ops;
    nr_gpu_dev *v = &g->dev[k];
    size_t n = sizeof(int) * (size_t) (v->tb_hi - v->tb_lo), at = sizeof(int) * (size_t) v->tb_lo;
    nunart_status st = select_dev(ctx, g, k);
    if (st || !n) return st;
    int rc;
    if ((rc = o->dtoh(g->drv, ctx->ran_on + v->tb_lo, v->ran_on + at, n)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, readback of where threadblocks ran): %s", o->call_dtoh, v->ordinal, drv_err(g, rc));
    if (o->read_hw_id && (rc = o->dtoh(g->drv, g->hw + v->tb_lo, v->hw_id + at, n)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, readback of hw_id): %s", o->call_dtoh, v->ordinal, drv_err(g, rc));
    if ((rc = o->dtoh(g->drv, g->dev[k].stat, v->stats, sizeof g->dev[k].stat)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, readback of the executor's counters): %s", o->call_dtoh, v->ordinal, drv_err(g, rc));
    return NUNART_OK;
}

/* The abort flag: in host-mapped memory on several devices, else on the device. */
static nunart_status aborted(nunart_ctx *ctx, nr_gpu *g, int *flag) {
    int ntb = ctx->table->ntb;
    if (g->flags) {
        *flag = ((volatile int *) g->flags)[ctx->table->nstep + ntb];
        return NUNART_OK;
    }
    nunart_status st = select_dev(ctx, g, 0);
    if (st) return st;
    int rc = g->ops->dtoh(g->drv, flag, g->dev[0].claim + sizeof(int) * (size_t) ntb, sizeof(int));
    return rc ? nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, abort flag): %s", g->ops->call_dtoh, g->dev[0].ordinal, drv_err(g, rc)) : NUNART_OK;
}

/* The cu-readback line where the location read is the SM itself (CUDA): how many threadblocks
 * ran on each SM (runs of SMs with the same count collapse to a range), the highest %smid any
 * block read and %nsmid, which bounds %smid (PTX ISA: %smid need not be contiguous). */
static void describe_locations(nunart_ctx *ctx, const nr_gpu *g) {
    const nr_table *t = ctx->table;
    int n = g->units_seen > g->units ? g->units_seen : g->units;
    int *count = calloc((size_t) (n > 0 ? n : 1), sizeof *count), located = 0, distinct = 0;
    if (!count) { snprintf(ctx->cu_readback, sizeof ctx->cu_readback, "not summarised (out of memory)"); return; }
    for (int i = 0; i < t->ntb; i++)
        if (ctx->ran_on[i] >= 0 && ctx->ran_on[i] < n) { located++; distinct += count[ctx->ran_on[i]]++ == 0; }
    char *b = ctx->cu_readback;
    size_t cap = sizeof ctx->cu_readback;
    int k = snprintf(b, cap, "%s of %d/%d threadblocks: %d distinct %ss, highest %s seen %d, %%nsmid %d; threadblocks per %s:", g->ops->loc_reg,
                     located, t->ntb, distinct, g->ops->unit, g->ops->loc_reg, g->units_seen - 1, g->hw_units, g->ops->unit);
    /* Entries that do not fit are not cut mid-way: the line ends with how many were left out. */
    enum { ROOM = 96 };
    for (int u = 0; u < n && k > 0 && (size_t) k < cap; u++) {
        if (!count[u]) continue;
        int e = u;
        while (e + 1 < n && count[e + 1] == count[u]) e++;
        char entry[48];
        int m = e > u ? snprintf(entry, sizeof entry, " %d-%d:%d", u, e, count[u]) : snprintf(entry, sizeof entry, " %d:%d", u, count[u]);
        if ((size_t) (k + m) + ROOM >= cap) {
            int sms = 0, tbs = 0;
            for (int v = u; v < n; v++) { sms += count[v] > 0; tbs += count[v]; }
            snprintf(b + k, cap - (size_t) k, " ... cut: %d more %ss with %d threadblocks not listed (from %s %d on)", sms, g->ops->unit, tbs,
                     g->ops->unit, u);
            break;
        }
        memcpy(b + k, entry, (size_t) m + 1);
        k += m;
        u = e;
    }
    free(count);
}

nunart_status nr_gpu_launch(nunart_ctx *ctx, nr_gpu *g, int pinned, double *elapsed_us, unsigned *grid_out) {
    const nr_gpu_ops *o = g->ops;
    nunart_status st = reset(ctx, g);
    if (st) return st;
    unsigned grid = 0, one;
    int64_t t0 = nr_now_ns();
    /* Every device's kernel before any wait: their threadblocks wait on each other. */
    for (int k = 0; k < g->ndev; k++) {
        if ((st = launch_device(ctx, g, k, pinned, &one))) return st;
        grid += one;
    }
    for (int k = 0; k < g->ndev; k++) {
        if ((st = select_dev(ctx, g, k))) return st;
        int rc = o->sync(g->drv);
        if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s after the launch (device %d): %s", o->call_sync, g->dev[k].ordinal, drv_err(g, rc));
    }
    *elapsed_us = (double) (nr_now_ns() - t0) / 1000.0;
    *grid_out = grid;
    int abort_flag = 0;
    if ((st = aborted(ctx, g, &abort_flag))) return st;
    if (abort_flag == 2)
        return nr_fail(ctx, NUNART_E_DEVICE, "the executor stopped: a step's operand lies outside every device's segment of the buffers "
                       "(a translation error; nothing was read or written through it)");
    if (abort_flag)
        return nr_fail(ctx, NUNART_E_TIMEOUT, "the executor gave up after %d ms (%s): a wait was never satisfied", ctx->timeout_ms, o->timer);
    g->units_seen = g->hw_units = 0;
    for (int k = 0; k < g->ndev; k++) {
        if ((st = read_back(ctx, g, k))) return st;
        if (g->dev[k].stat[1] > g->units_seen) g->units_seen = g->dev[k].stat[1];
        if (g->dev[k].stat[2] > g->hw_units) g->hw_units = g->dev[k].stat[2];
    }
    ctx->located = o->place_by_die ? 2 : 1;
    if (!o->read_hw_id) describe_locations(ctx, g);
    char where[64] = "";
    if (g->ndev > 1) snprintf(where, sizeof where, " on %d devices, a kernel each", g->ndev);
    if (pinned)
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "applied (%s dispatcher over %u blocks%s, %d per %s; each logical threadblock "
                 "claims a block on its planned %s, spares exit once all are claimed; %d blocks resident per %s, occupancy API)",
                 o->loc_reg, grid, where, g->per_unit, o->unit, o->unit, g->occupancy, o->place_by_die ? "CU" : "SM");
    else
        snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity, "not applied (plain launch of %u blocks%s)", grid, where);
    snprintf(ctx->grid_order, sizeof ctx->grid_order, "not used (the dispatcher places by %s, not by slot)", o->unit);
    return NUNART_OK;
}

nunart_status nr_gpu_fetch(nunart_ctx *ctx, nr_gpu *g) {
    nunart_status st = NUNART_OK;
    for (int k = 0; k < g->ndev && !st; k++)
        if (!(st = select_dev(ctx, g, k))) st = move_arena(ctx, g, k, 0);
    return st;
}

nunart_status nr_gpu_upload(nunart_ctx *ctx, nr_gpu *g) {
    nunart_status st = NUNART_OK;
    for (int k = 0; k < g->ndev && !st; k++)
        if (!(st = select_dev(ctx, g, k))) st = move_arena(ctx, g, k, 1);
    return st;
}

/* The probe gathers the device's memory in at most this many blocks; a request the device
 * refuses is halved down to one granule. */
#define NR_PROBE_BLOCKS 64
#define NR_PROBE_GRANULE ((size_t) 1 << 20)

/* The probe's buffers on the current device: the blocks its addresses spread over, the buffer
 * that clears L2, the address list, the owners, the records. */
typedef struct {
    nr_dptr block[NR_PROBE_BLOCKS];
    size_t size[NR_PROBE_BLOCKS];
    int nblock;
    nr_dptr flush, addr, owner, out;
    void *module, *fn;
} probe_run;

static void probe_free(nr_gpu *g, probe_run *p) {
    nr_dptr all[] = {p->flush, p->addr, p->owner, p->out};
    for (int i = 0; i < p->nblock; i++) g->ops->free(g->drv, p->block[i]);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (all[i]) g->ops->free(g->drv, all[i]);
    if (p->module) g->ops->unload(g->drv, p->module);
}

static size_t at_most(size_t a, size_t b) { return a < b ? a : b; }

/* Gathers `want` bytes (0: all the device gives, less `reserve`) in blocks: each request the
 * largest the remainder allows, halved while the device refuses it. *got receives the bytes. */
static void probe_gather(nr_gpu *g, probe_run *p, size_t want, size_t reserve, size_t *got) {
    const nr_gpu_ops *o = g->ops;
    *got = 0;
    size_t size = (size_t) -1;
    while (p->nblock < NR_PROBE_BLOCKS) {
        size_t free_b = 0, total_b = 0, left;
        if (want) left = want - *got;
        else if (o->meminfo(g->drv, &free_b, &total_b) || free_b <= reserve) break;
        else left = free_b - reserve;
        size = at_most(size, left) / NR_PROBE_GRANULE * NR_PROBE_GRANULE;
        if (want && left < NR_PROBE_GRANULE) size = left;
        if (!size) break;
        if (o->alloc(g->drv, &p->block[p->nblock], size)) {
            p->block[p->nblock] = 0;
            if (size <= NR_PROBE_GRANULE) break;
            size /= 2;
            continue;
        }
        p->size[p->nblock++] = size;
        *got += size;
        if (want && *got >= want) break;
    }
}

/* The address list, addr[a * nloc + s] for location s's address a: the `units` locations the
 * device has (SMs or XCDs) at an even stride over the blocks taken as one range, from its first
 * byte to its last line, so that the ones that run cover it end to end; a location past them
 * (room for gaps in %smid) takes the line 256 bytes on from location s mod units's. 256-byte
 * aligned where the stride allows. */
static void probe_addresses(const probe_run *p, size_t spanned, int naddr, int nloc, int units, nr_dptr *addr) {
    size_t n = (size_t) naddr * (size_t) units, align = spanned / n >= 512 ? 256 : 4, last = (spanned - align) / align * align;
    for (int a = 0; a < naddr; a++) {
        for (int s = 0; s < nloc; s++) {
            size_t i = (size_t) a * (size_t) units + (size_t) (s % units);
            size_t off = (n > 1 ? i * last / (n - 1) / align * align : 0) + (size_t) (s / units) * (align == 256 ? 256 : 0);
            int b = 0;
            size_t base = 0;
            while (b + 1 < p->nblock && off >= base + p->size[b]) base += p->size[b++];
            size_t in = off - base;
            if (in + 4 > p->size[b]) in = (p->size[b] - 4) / 4 * 4;
            addr[(size_t) a * (size_t) nloc + (size_t) s] = p->block[b] + in;
        }
    }
}

/* Bytes as MiB, for messages. */
static double mib(size_t bytes) { return (double) bytes / (double) (1 << 20); }

static nunart_status probe_memory(nunart_ctx *ctx, nr_gpu *g, probe_run *p, long long bytes, size_t n, size_t *spanned) {
    const nr_gpu_ops *o = g->ops;
    int ordinal = ctx->device_ordinal, rc;
    size_t free0 = 0, total = 0;
    if ((rc = o->meminfo(g->drv, &free0, &total)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, latency probe): %s", o->call_meminfo, ordinal, drv_err(g, rc));
    /* Zeroing a buffer larger than any L2 here (H200 50 MB, B200 126 MB, MI300X's 256 MB
     * Infinity Cache) after the blocks are allocated pushes out whatever the driver wrote into
     * them, so the probe's first loads come from memory; the reserve stays free for the launch. */
    size_t flush = at_most((size_t) 512 << 20, free0 / 64) / 4 * 4, reserve = at_most((size_t) 64 << 20, free0 / 256);
    size_t most = free0 > flush + reserve ? free0 - flush - reserve : 0;
    if (bytes > 0 && (size_t) bytes > most)
        return nr_fail(ctx, NUNART_E_MEMORY, "latency probe over %lld MiB: device %d has %.1f MiB free of %.1f MiB (%s), so at most %.1f MiB can be "
                       "probed (%.1f MiB clear L2, %.1f MiB stay free for the launch); mib 0 probes all it gives", bytes >> 20, ordinal, mib(free0),
                       mib(total), o->call_meminfo, mib(most), mib(flush), mib(reserve));
    if (!flush) flush = 4;
    if ((rc = o->alloc(g->drv, &p->flush, flush)))
        return nr_fail(ctx, NUNART_E_MEMORY, "%s of %.1f MiB to clear L2 before the latency probe (device %d): %s", o->call_alloc, mib(flush),
                       ordinal, drv_err(g, rc));
    probe_gather(g, p, bytes > 0 ? (size_t) bytes : 0, reserve, spanned);
    if (*spanned < sizeof(unsigned) * n || (bytes > 0 && *spanned < (size_t) bytes))
        return nr_fail(ctx, NUNART_E_MEMORY, "%s: device %d gave %.1f MiB in %d blocks (at most %d) for the latency probe, %s needed (%.1f MiB "
                       "free of %.1f MiB at the start, %s)", o->call_alloc, ordinal, mib(*spanned), p->nblock, NR_PROBE_BLOCKS,
                       bytes > 0 ? "the requested size" : "more", mib(free0), mib(total), o->call_meminfo);
    if ((rc = o->memset32(g->drv, p->flush, 0, flush / 4)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (device %d, clearing L2 before the latency probe): %s", o->call_memset, ordinal, drv_err(g, rc));
    snprintf(ctx->probe_mem, sizeof ctx->probe_mem, "%zu of %zu bytes (%.1f%% of the device's memory) in %d block%s, the addresses spread "
             "evenly over them; %zu bytes free at the start (%s); not probed: %zu bytes that clear L2, %zu bytes left free for the launch, "
             "%zu not taken (pieces under 1 MiB, or refused by the device)", *spanned, total, total ? 100.0 * (double) *spanned / (double) total : 0.0, p->nblock,
             p->nblock == 1 ? "" : "s", free0, o->call_meminfo, flush, reserve,
             free0 > *spanned + flush + reserve ? free0 - *spanned - flush - reserve : 0);
    return NUNART_OK;
}

static nunart_status probe_launch(nunart_ctx *ctx, nr_gpu *g, probe_run *p, long long bytes, int naddr, int reps, int nloc, long long *rec) {
    int units = g->ops->place_by_die ? ctx->dev.dies : ctx->dev.cus;
    if (units < 1 || units > nloc) units = nloc;
    const nr_gpu_ops *o = g->ops;
    int ordinal = ctx->device_ordinal, rc;
    size_t n = (size_t) naddr * (size_t) nloc, nrec = sizeof(long long) * (size_t) nloc * (size_t) (2 + 3 * naddr), spanned = 0;
    /* The small buffers first: the blocks then take what is left. */
    if ((rc = o->alloc(g->drv, &p->owner, sizeof(int) * (size_t) nloc)) || (rc = o->memset32(g->drv, p->owner, 0, (size_t) nloc))
        || (rc = o->alloc(g->drv, &p->out, nrec)) || (rc = o->memset32(g->drv, p->out, 0, nrec / 4))
        || (rc = o->alloc(g->drv, &p->addr, sizeof(nr_dptr) * n)))
        return nr_fail(ctx, NUNART_E_MEMORY, "%s for the latency probe's records (device %d): %s", o->call_alloc, ordinal, drv_err(g, rc));
    nunart_status st = probe_memory(ctx, g, p, bytes, n, &spanned);
    if (st) return st;
    nr_dptr *addr = malloc(sizeof *addr * n);
    if (!addr) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    probe_addresses(p, spanned, naddr, nloc, units, addr);
    rc = o->htod(g->drv, p->addr, addr, sizeof *addr * n);
    free(addr);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s (latency probe addresses): %s", o->call_htod, drv_err(g, rc));
    unsigned mask = 0;
    void *args[] = {&p->addr, &mask, &naddr, &reps, &p->owner, &p->out, &nloc};
    /* Four small blocks per location, so that every SM or XCD most likely receives one. */
    unsigned grid = (unsigned) (4 * nloc);
    if ((rc = o->launch(g->drv, p->fn, grid, 32, args)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (latency probe, %u blocks): %s", o->call_launch, grid, drv_err(g, rc));
    if ((rc = o->sync(g->drv))) return nr_fail(ctx, NUNART_E_DEVICE, "%s after the latency probe: %s", o->call_sync, drv_err(g, rc));
    if ((rc = o->dtoh(g->drv, rec, p->out, nrec)))
        return nr_fail(ctx, NUNART_E_DEVICE, "%s (latency probe records): %s", o->call_dtoh, drv_err(g, rc));
    return NUNART_OK;
}

nunart_status nr_gpu_probe(nunart_ctx *ctx, nr_gpu *g, const char *const *opts, int nopts, long long bytes, int naddr, int reps,
                           int nloc, long long *rec) {
    const nr_gpu_ops *o = g->ops;
    int rc = o->select(g->drv, ctx->device_ordinal);
    if (rc) return nr_fail(ctx, NUNART_E_DEVICE, "%s(device %d): %s", o->call_select, ctx->device_ordinal, drv_err(g, rc));
    char *code = NULL;
    probe_run p = {0};
    ctx->probe_mem[0] = 0;
    nunart_status st = compile_code(ctx, g, opts, nopts, 0, &code);
    if (!st && (rc = o->load(g->drv, &p.module, code)))
        st = nr_fail(ctx, NUNART_E_DEVICE, "%s (latency probe): %s", o->call_load, drv_err(g, rc));
    free(code);
    if (!st && (rc = o->function(g->drv, &p.fn, p.module, "nunart_probe")))
        st = nr_fail(ctx, NUNART_E_DEVICE, "%s(nunart_probe): %s", o->call_function, drv_err(g, rc));
    if (!st) st = probe_launch(ctx, g, &p, bytes, naddr, reps, nloc, rec);
    probe_free(g, &p);
    return st;
}

void nr_gpu_release(nr_gpu *g) {
    for (int k = 0; k < g->ndev; k++) {
        nr_gpu_dev *v = &g->dev[k];
        if (g->ops->select(g->drv, v->ordinal)) continue;
        nr_dptr all[] = {v->arena, v->steps, v->deps, v->tbinfo, v->ran_on, v->hw_id, v->seg, v->stats, g->flags ? 0 : v->done, g->flags ? 0 : v->claim};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            if (all[i]) g->ops->free(g->drv, all[i]);
        if (v->module) g->ops->unload(g->drv, v->module);
    }
    if (g->flags) g->ops->host_free(g->drv, g->flags);
    if (g->rtc.lib && g->rtc.owned) dlclose(g->rtc.lib);
    free(g->hw);
    memset(g, 0, sizeof *g);
}
