/* The context: state machine, device validation, buffers, verification and the report. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef NUNART_VERSION
#define NUNART_VERSION "dev"
#endif

static const char *STATE_NAMES[] = {"opened", "validated", "buffers-ready", "launched", "verified", "failed"};
static const char *STATUS_NAMES[] = {"ok", "argument", "unavailable", "table", "mismatch", "state", "memory",
                                     "device", "timeout", "verify", "unsupported"};

const char *nunart_version(void) { return NUNART_VERSION; }

const char *nunart_state_name(nunart_state s) {
    return (unsigned) s <= NUNART_FAILED ? STATE_NAMES[s] : "unknown";
}

const char *nunart_status_name(nunart_status s) {
    return (unsigned) s <= NUNART_E_UNSUPPORTED ? STATUS_NAMES[s] : "unknown";
}

nunart_state nunart_state_of(const nunart_ctx *ctx) { return ctx ? ctx->state : NUNART_FAILED; }

nunart_status nunart_last_status(const nunart_ctx *ctx) { return ctx ? ctx->last : NUNART_E_MEMORY; }

const char *nunart_message(const nunart_ctx *ctx) { return ctx ? ctx->msg : "no context (out of memory)"; }

int64_t nr_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int nr_mask_has_bit(const uint32_t *mask, int words, int bit) {
    return bit >= 0 && bit / 32 < words && (mask[bit / 32] >> (bit % 32) & 1u);
}

static void vset(nunart_ctx *ctx, const char *fmt, va_list ap) {
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
}

nunart_status nr_fail(nunart_ctx *ctx, nunart_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vset(ctx, fmt, ap);
    va_end(ap);
    ctx->last = st;
    if (st != NUNART_E_UNSUPPORTED && st != NUNART_E_ARGUMENT) ctx->state = NUNART_FAILED;
    return st;
}

static nunart_status ok(nunart_ctx *ctx) {
    ctx->last = NUNART_OK;
    snprintf(ctx->msg, sizeof ctx->msg, "ok");
    return NUNART_OK;
}

/* A call allowed only in state `want`. */
static nunart_status need(nunart_ctx *ctx, nunart_state want, const char *call) {
    if (ctx->state == want) return NUNART_OK;
    if (ctx->state == NUNART_FAILED) {
        /* Keep the original error: it is what the caller needs to see. */
        char prev[sizeof ctx->msg];
        snprintf(prev, sizeof prev, "%s", ctx->msg);
        snprintf(ctx->msg, sizeof ctx->msg, "%s: the context failed earlier: %s", call, prev);
        ctx->last = NUNART_E_STATE;
        return NUNART_E_STATE;
    }
    return nr_fail(ctx, NUNART_E_STATE, "%s needs state %s, the context is %s", call, nunart_state_name(want),
                   nunart_state_name(ctx->state));
}

/* Device calls run between enter and leave: the backend makes its device current and afterwards
 * restores the caller's (CUDA context stack, HIP current device). */
static nunart_status enter(nunart_ctx *ctx) { return ctx->be->enter ? ctx->be->enter(ctx) : NUNART_OK; }
static void leave(nunart_ctx *ctx) { if (ctx->be->leave) ctx->be->leave(ctx); }

/* The reference input in 64 bits: a postcondition names chunks as rank * chunk_factor + i,
 * which passes int's range on large plans (at most 2^16 * 2^20 + 2^24 here). */
static float input_at(int64_t rank, int64_t chunk, int64_t element) {
    int64_t v = (rank * 31 + chunk * 7 + element) % 251;
    return (float) (v - 125);
}

float nunart_input_value(int rank, int chunk, int element) { return input_at(rank, chunk, element); }

static int parse_opt(const char *opts, const char *key, long long *out) {
    if (!opts) return 0;
    size_t k = strlen(key);
    for (const char *p = opts; (p = strstr(p, key)); p += k) {
        if ((p == opts || p[-1] == ' ') && p[k] == '=') {
            char *end;
            long long v = strtoll(p + k + 1, &end, 10);
            if (end == p + k + 1 || (*end && *end != ' ')) return -1;
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* A string option: 1..cap-1 characters of a target name ([A-Za-z0-9_:+-]); 0 when absent. */
static int parse_word(const char *opts, const char *key, char *out, size_t cap) {
    if (!opts) return 0;
    size_t k = strlen(key);
    for (const char *p = opts; (p = strstr(p, key)); p += k) {
        if ((p == opts || p[-1] == ' ') && p[k] == '=') {
            size_t n = strcspn(p + k + 1, " ");
            if (n == 0 || n >= cap || strspn(p + k + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:+-") < n) return -1;
            memcpy(out, p + k + 1, n);
            out[n] = 0;
            return 1;
        }
    }
    return 0;
}

static nunart_status parse_options(nunart_ctx *ctx, const char *opts) {
    static const char *KEYS[] = {"device", "cus", "dies", "mask_words", "max_ranks", "timeout_ms", "mem_limit_mb", "devices", "arch", "pinned_grid"};
    enum { NINT = 8, NKEYS = 10 };
    long long v[NINT] = {0, 0, 0, 0, 0, 20000, 4096, 0};
    static const long long HI[] = {1024, 1 << 20, 1024, 64, 1 << 16, 3600000, NR_MAX_BUFFER_BYTES >> 20, NR_MAX_DEVICES};
    if (opts) {
        /* Every token must be a known key. */
        char buf[512];
        if (strlen(opts) >= sizeof buf) return nr_fail(ctx, NUNART_E_ARGUMENT, "options too long");
        strcpy(buf, opts);
        char *save = NULL;
        for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            int known = 0;
            for (int i = 0; i < NKEYS; i++) {
                size_t k = strlen(KEYS[i]);
                known |= strncmp(t, KEYS[i], k) == 0 && t[k] == '=';
            }
            if (!known) return nr_fail(ctx, NUNART_E_ARGUMENT, "unknown option '%s' (known: device, devices, cus, dies, mask_words, max_ranks, timeout_ms, mem_limit_mb, arch, pinned_grid)", t);
        }
    }
    for (int i = 0; i < NINT; i++) {
        int r = parse_opt(opts, KEYS[i], &v[i]);
        if (r < 0 || v[i] < 0 || v[i] > HI[i]) return nr_fail(ctx, NUNART_E_ARGUMENT, "option %s: not an integer in [0, %lld]", KEYS[i], HI[i]);
    }
    if (parse_word(opts, "arch", ctx->arch, sizeof ctx->arch) < 0)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "option arch: not a target name such as gfx942 (letters, digits, _:+-, at most %zu)", sizeof ctx->arch - 1);
    char grid[8] = "";
    if (parse_word(opts, "pinned_grid", grid, sizeof grid) < 0 || (grid[0] && strcmp(grid, "tight") && strcmp(grid, "full")))
        return nr_fail(ctx, NUNART_E_ARGUMENT, "option pinned_grid: tight (one spare block per unit, the default) or full (every resident slot)");
    ctx->full_grid = strcmp(grid, "full") == 0;
    ctx->device_ordinal = (int) v[0];
    ctx->want.cus = (int) v[1];
    ctx->want.dies = (int) v[2];
    ctx->want.mask_words = (int) v[3];
    ctx->want.max_ranks = (int) v[4];
    ctx->timeout_ms = v[5] ? (int) v[5] : 20000;
    ctx->mem_limit = (v[6] ? v[6] : 4096) << 20;
    if (parse_opt(opts, "devices", &v[7]) > 0 && v[7] == 0)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "option devices: not an integer in [1, %d]", NR_MAX_DEVICES);
    ctx->devices_opt = (int) v[7];
    return NUNART_OK;
}

nunart_status nunart_open(nunart_ctx **out, const char *backend, const char *options) {
    if (!out) return NUNART_E_ARGUMENT;
    nunart_ctx *ctx = calloc(1, sizeof *ctx);
    *out = ctx;
    if (!ctx) return NUNART_E_MEMORY;
    ctx->state = NUNART_OPENED;
    snprintf(ctx->data_check, sizeof ctx->data_check, "not run");
    nunart_status st = parse_options(ctx, options);
    if (st) { ctx->state = NUNART_FAILED; return st; }
    if (!backend) backend = "auto";
    const nr_backend *all[] = {&nr_backend_cuda, &nr_backend_hip, &nr_backend_host};
    if (strcmp(backend, "auto") == 0) {
        /* Try the GPUs first; every skipped backend is named in the report, never silently. */
        for (int i = 0; i < 3; i++) {
            ctx->be = all[i];
            ctx->state = NUNART_OPENED;
            st = all[i]->open(ctx);
            if (st == NUNART_OK) break;
            if (all[i]->close) all[i]->close(ctx);
            size_t n = strlen(ctx->tried);
            snprintf(ctx->tried + n, sizeof ctx->tried - n, "%s%s: %s", n ? "; " : "", all[i]->name, ctx->msg);
            ctx->be = NULL;
        }
        if (!ctx->be) return nr_fail(ctx, NUNART_E_UNAVAILABLE, "no backend available: %s", ctx->tried);
        return ok(ctx);
    }
    for (int i = 0; i < 3; i++) {
        if (strcmp(backend, all[i]->name) == 0) {
            ctx->be = all[i];
            st = all[i]->open(ctx);
            if (st) {
                if (all[i]->close) all[i]->close(ctx);
                ctx->state = NUNART_FAILED;
                char m[sizeof ctx->msg];
                snprintf(m, sizeof m, "%s", ctx->msg);
                snprintf(ctx->msg, sizeof ctx->msg, "%s backend unavailable: %s", backend, m);
                ctx->be = NULL;
                return st;
            }
            return ok(ctx);
        }
    }
    nr_fail(ctx, NUNART_E_ARGUMENT, "unknown backend '%s' (auto, host, cuda, hip)", backend);
    ctx->state = NUNART_FAILED;
    return NUNART_E_ARGUMENT;
}

/* How many devices the ranks are spread over (option devices; by default every visible device,
 * at most one per rank). More than are visible, or than there are ranks, is refused: a silent
 * clamp would run a different layout than the one asked for. */
static nunart_status choose_devices(nunart_ctx *ctx, const nr_table *t) {
    int vis = ctx->nvisible > 0 ? ctx->nvisible : 1;
    if (vis > NR_MAX_DEVICES) vis = NR_MAX_DEVICES;
    int want = ctx->devices_opt;
    if (want > vis)
        return nr_fail(ctx, NUNART_E_UNAVAILABLE, "option devices=%d: only %d device%s visible to the %s backend from device %d on", want,
                       vis, vis == 1 ? "" : "s", ctx->be->name, ctx->device_ordinal);
    if (want > t->ranks)
        return nr_fail(ctx, NUNART_E_MISMATCH, "option devices=%d: the plan has only %d rank%s, and every device runs at least one", want,
                       t->ranks, t->ranks == 1 ? "" : "s");
    ctx->ndev = want ? want : (vis < t->ranks ? vis : t->ranks);
    if (ctx->ndev < 1 || t->part >= 0) ctx->ndev = 1; /* a per-rank table: its one rank, on one device */
    return NUNART_OK;
}

/* Checks one device's shape against the table and the threadblocks [tb_lo, tb_hi) it runs;
 * `who` names the device in messages. */
static nunart_status fit_device(nunart_ctx *ctx, const nr_table *t, const nr_device *d, const char *who, int tb_lo, int tb_hi) {
    if (t->cus != d->cus)
        return nr_fail(ctx, NUNART_E_MISMATCH, "the placement is for %s with %d CUs, %s has %d", t->topology, t->cus, who, d->cus);
    if (t->dies != d->dies)
        return nr_fail(ctx, NUNART_E_MISMATCH, "the placement is for %d dies, %s has %d", t->dies, who, d->dies);
    if (t->mask_words > d->mask_words)
        return nr_fail(ctx, NUNART_E_MISMATCH, "the placement's CU masks are %d words wide, %s takes %d", t->mask_words, who, d->mask_words);
    for (int i = tb_lo; i < tb_hi; i++) {
        const nr_tb *tb = &t->tb[i];
        if (tb->cu >= d->cus || tb->die >= d->dies)
            return nr_fail(ctx, NUNART_E_MISMATCH, "rank %d threadblock %d is placed on CU %d (die %d), outside %s", tb->rank, tb->id, tb->cu, tb->die, who);
    }
    return NUNART_OK;
}

/* Every used device: the loopback device as before, else each device with its ranks. */
static nunart_status fit_devices(nunart_ctx *ctx, const nr_table *t) {
    char who[256];
    if (ctx->ndev == 1) {
        snprintf(who, sizeof who, "the device (%s)", ctx->dev.name);
        return fit_device(ctx, t, &ctx->dev, who, 0, t->ntb);
    }
    for (int k = 0; k < ctx->ndev; k++) {
        snprintf(who, sizeof who, "device %d (%s)", ctx->device_ordinal + k, ctx->devs[k].name);
        int r0 = nr_first_rank(t->ranks, ctx->ndev, k), r1 = nr_first_rank(t->ranks, ctx->ndev, k + 1);
        nunart_status st = fit_device(ctx, t, &ctx->devs[k], who, nr_tb_start(t, r0), nr_tb_start(t, r1));
        if (st) return st;
    }
    return NUNART_OK;
}

/* Checks that the table fits the device(s): a map that does not fit is refused here, before
 * any memory is touched. */
static nunart_status fit(nunart_ctx *ctx, const nr_table *t) {
    const nr_device *d = &ctx->dev;
    if (t->part < 0 && t->ranks > d->max_ranks)
        return nr_fail(ctx, NUNART_E_MISMATCH, "the plan has %d ranks, the %s device runs at most %d", t->ranks, ctx->be->name, d->max_ranks);
    nunart_status fst = choose_devices(ctx, t);
    if (fst || (fst = fit_devices(ctx, t))) return fst;
    /* Under modulo dispatch every die receives blocks, so a stream mask that empties a die
     * would hang the queue: refuse it (notes: HIP CU masks, MI300X SPX). */
    if (strcmp(t->dispatch, "modulo") == 0) {
        for (int r = 0; r < t->ranks; r++) {
            for (int s = 0; s < t->rank[r].nstream; s++) {
                const nr_stream *st = &t->rank[r].streams[s];
                for (int die = 0; die < t->dies; die++) {
                    int any = 0;
                    /* Only bits below the device's CU count select a CU; higher ones select nothing. */
                    int bits = t->mask_words * 32 < d->cus ? t->mask_words * 32 : d->cus;
                    for (int b = die; b < bits && !any; b += t->dies) any = nr_mask_has_bit(st->mask, t->mask_words, b);
                    if (!any)
                        return nr_fail(ctx, NUNART_E_MISMATCH, "rank %d stream of domain %d leaves die %d without a CU: a modulo-dispatched launch on it would hang", r, st->domain, die);
                }
            }
        }
    }
    int64_t bytes = t->arena_elems * 4;
    if (bytes > ctx->mem_limit)
        return nr_fail(ctx, NUNART_E_MEMORY, "the plan needs %lld MiB of buffers, the limit is %lld MiB (option mem_limit_mb)",
                       (long long) (bytes >> 20), (long long) (ctx->mem_limit >> 20));
    return NUNART_OK;
}

/* The report's devices line (GPU backends): how many devices, which ranks each runs, and how
 * they share the flags. */
static void describe_devices(nunart_ctx *ctx, const nr_table *t) {
    if (ctx->nvisible < 1) return;
    char *b = ctx->devices;
    size_t cap = sizeof ctx->devices;
    if (ctx->ndev == 1) {
        snprintf(b, cap, "1 (loopback: all %d ranks on device %d, one arena; option devices=N spreads them over N devices)", t->ranks,
                 ctx->device_ordinal);
        return;
    }
    int n = snprintf(b, cap, "%d (devices %d-%d, ranks in contiguous blocks:", ctx->ndev, ctx->device_ordinal, ctx->device_ordinal + ctx->ndev - 1);
    for (int k = 0; k < ctx->ndev && n > 0 && (size_t) n < cap; k++) {
        int r0 = nr_first_rank(t->ranks, ctx->ndev, k), r1 = nr_first_rank(t->ranks, ctx->ndev, k + 1) - 1;
        if (r0 == r1) n += snprintf(b + n, cap - (size_t) n, "%s %d on device %d", k ? "," : "", r0, ctx->device_ordinal + k);
        else n += snprintf(b + n, cap - (size_t) n, "%s %d-%d on device %d", k ? "," : "", r0, r1, ctx->device_ordinal + k);
    }
    if (n > 0 && (size_t) n < cap)
        snprintf(b + n, cap - (size_t) n, "; each device holds its ranks' storages and send stages, peers reached by peer access; "
                 "done flags, claims and the abort flag in host-mapped memory, system-scope atomics)");
}

/* The report's device line: the loopback device, or every device used. */
static int print_device(const nunart_ctx *ctx, char *b, size_t cap) {
    if (ctx->ndev <= 1) return snprintf(b, cap, "device: %s\n", ctx->dev.name[0] ? ctx->dev.name : "none");
    int n = snprintf(b, cap, "device:");
    for (int k = 0; k < ctx->ndev && n > 0 && (size_t) n < cap; k++)
        n += snprintf(b + n, cap - (size_t) n, "%s device %d: %s", k ? ";" : "", ctx->device_ordinal + k, ctx->devs[k].name);
    if (n > 0 && (size_t) n < cap) n += snprintf(b + n, cap - (size_t) n, "\n");
    return n;
}

nunart_status nunart_load(nunart_ctx *ctx, const char *table, size_t len) {
    if (!ctx) return NUNART_E_ARGUMENT;
    nunart_status st = need(ctx, NUNART_OPENED, "load");
    if (st) return st;
    if (!table) return nr_fail(ctx, NUNART_E_TABLE, "load: no table");
    if (len > ((size_t) 256 << 20)) return nr_fail(ctx, NUNART_E_TABLE, "launch table larger than 256 MiB");
    char err[sizeof ctx->msg];
    nr_table *t = nr_parse(table, len, err, sizeof err);
    if (!t) return nr_fail(ctx, NUNART_E_TABLE, "%s", err);
    ctx->table = t;
    if (ctx->dev.emulated) {
        /* The host emulates the device the table was placed for, unless told otherwise. */
        ctx->dev.cus = ctx->want.cus ? ctx->want.cus : t->cus;
        ctx->dev.dies = ctx->want.dies ? ctx->want.dies : t->dies;
        ctx->dev.mask_words = ctx->want.mask_words ? ctx->want.mask_words : t->mask_words;
        snprintf(ctx->dev.name, sizeof ctx->dev.name, "host CPU emulating a %d-CU, %d-die device%s", ctx->dev.cus,
                 ctx->dev.dies, ctx->want.cus || ctx->want.dies ? "" : " (the table's)");
    }
    st = fit(ctx, t);
    if (st) return st;
    describe_devices(ctx, t);
    ctx->ran_on = malloc(sizeof(int) * (size_t) (t->ntb ? t->ntb : 1));
    if (!ctx->ran_on) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    for (int i = 0; i < t->ntb; i++) ctx->ran_on[i] = -1;
    ctx->state = NUNART_VALIDATED;
    return ok(ctx);
}

/* Inputs get the reference pattern; outputs and scratch a sentinel, so a chunk the plan
 * never writes is caught by the data check. */
static void fill(nunart_ctx *ctx) {
    const nr_table *t = ctx->table;
    for (int64_t i = 0; i < t->arena_elems; i++) ctx->host[i] = -12345.0f;
    for (int r = 0; r < t->ranks; r++) {
        const nr_view *v = &t->rank[r].in;
        if (!v->present) continue;
        float *base = ctx->host + t->rank[r].sto[v->storage].off + (int64_t) v->offset * t->chunk_elems;
        for (int c = 0; c < v->chunks; c++)
            for (int64_t e = 0; e < t->chunk_elems; e++) base[(int64_t) c * t->chunk_elems + e] = nunart_input_value(r, c, (int) e);
    }
}

nunart_status nunart_alloc(nunart_ctx *ctx) {
    if (!ctx) return NUNART_E_ARGUMENT;
    nunart_status st = need(ctx, NUNART_VALIDATED, "alloc");
    if (st) return st;
    const nr_table *t = ctx->table;
    if (t->part >= 0)
        return nr_fail(ctx, NUNART_E_UNSUPPORTED, "the table holds rank %d of %d alone (nunac --per-rank): its placement is loaded"
                       " (nunart_grid_order, nunart_tb_placement), but its transfers need every rank's table to run", t->part, t->ranks);
    ctx->host = malloc((size_t) (t->arena_elems ? t->arena_elems : 1) * sizeof(float));
    if (!ctx->host) return nr_fail(ctx, NUNART_E_MEMORY, "cannot allocate %lld MiB of buffers", (long long) (t->arena_elems * 4 >> 20));
    fill(ctx);
    if ((st = enter(ctx))) return st;
    st = ctx->be->alloc(ctx);
    leave(ctx);
    if (st) return st;
    ctx->state = NUNART_BUFFERS_READY;
    return ok(ctx);
}

nunart_status nunart_launch(nunart_ctx *ctx) {
    if (!ctx) return NUNART_E_ARGUMENT;
    nunart_status st = need(ctx, NUNART_BUFFERS_READY, "launch");
    if (st) return st;
    if ((st = enter(ctx))) return st;
    st = ctx->be->launch(ctx, 1, &ctx->launch_us);
    if (!st && ctx->be->fetch) st = ctx->be->fetch(ctx);
    leave(ctx);
    if (st) return st;
    const nr_table *t = ctx->table;
    ctx->placed_ok = ctx->placed_total = 0;
    for (int i = 0; i < t->ntb; i++) {
        ctx->placed_total++;
        ctx->placed_ok += ctx->ran_on[i] >= 0 && ctx->ran_on[i] == nr_planned_unit(ctx, &t->tb[i], ctx->located == 2);
    }
    /* The fraction in thousandths, rounded down: 2499 of 2500 reads 0.999, never 1.000. */
    long long milli = ctx->placed_total ? (long long) ctx->placed_ok * 1000 / ctx->placed_total : 1000;
    if (ctx->located)
        snprintf(ctx->fidelity, sizeof ctx->fidelity, "%lld.%03lld (%d/%d threadblocks ran on their planned %s, device readback)",
                 milli / 1000, milli % 1000, ctx->placed_ok, ctx->placed_total, ctx->located == 2 ? "die" : "CU");
    else
        snprintf(ctx->fidelity, sizeof ctx->fidelity, "emulated (%d/%d threadblocks ran on their planned logical CU; no hardware readback)",
                 ctx->placed_ok, ctx->placed_total);
    ctx->state = NUNART_LAUNCHED;
    return ok(ctx);
}

/* Checks the outputs against the postcondition the compiler put in the table ('expect' lines):
 * the runtime states no collective's meaning of its own. */
nunart_status nunart_verify(nunart_ctx *ctx) {
    if (!ctx) return NUNART_E_ARGUMENT;
    nunart_status st = need(ctx, NUNART_LAUNCHED, "verify");
    if (st) return st;
    const nr_table *t = ctx->table;
    int stated = 0;
    for (int r = 0; r < t->ranks; r++) stated += t->rank[r].nexpect;
    if (!stated) {
        snprintf(ctx->data_check, sizeof ctx->data_check, "skipped (%s)", strcmp(t->collective, "custom") == 0
                 ? "custom collective: no postcondition to check" : "the table states no expected result");
        ctx->state = NUNART_VERIFIED;
        return ok(ctx);
    }
    int64_t checked = 0, wrong = 0, ce = t->chunk_elems;
    char first[256] = "";
    for (int r = 0; r < t->ranks; r++) {
        const nr_rank *rk = &t->rank[r];
        const float *base = ctx->host + rk->sto[rk->out.storage].off + (int64_t) rk->out.offset * ce;
        for (int x = 0; x < rk->nexpect; x++) {
            const nr_expect *e = &rk->expect[x];
            for (int64_t k = 0; k < e->count; k++) {
                for (int64_t el = 0; el < ce; el++) {
                    float want = 0;
                    if (e->sum) for (int p = 0; p < t->ranks; p++) want += input_at(p, e->src_idx + k, el);
                    else want = input_at(e->src_rank, e->src_idx + k, el);
                    float got = base[(e->out + k) * ce + el];
                    checked++;
                    if (got != want && !wrong++)
                        snprintf(first, sizeof first, "rank %d output chunk %lld element %lld: expected %g, found %g", r,
                                 (long long) (e->out + k), (long long) el, want, got);
                }
            }
        }
    }
    if (wrong) {
        snprintf(ctx->data_check, sizeof ctx->data_check, "FAILED (%lld of %lld floats wrong; first: %s)", (long long) wrong, (long long) checked, first);
        return nr_fail(ctx, NUNART_E_VERIFY, "data check failed: %lld of %lld floats wrong; first: %s", (long long) wrong, (long long) checked, first);
    }
    snprintf(ctx->data_check, sizeof ctx->data_check, "passed (%s postcondition, %lld floats on %d ranks)", t->collective, (long long) checked, t->ranks);
    ctx->state = NUNART_VERIFIED;
    return ok(ctx);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* Runs `warmup` untimed launches, then times n; us gets the n times, sorted. The buffers are
 * then refilled as nunart_alloc() left them. */
static nunart_status time_sorted(nunart_ctx *ctx, int warmup, int n, int pinned, double *us) {
    nunart_status st = enter(ctx);
    if (st) return st;
    double ignored;
    for (int i = 0; i < warmup && !st; i++) st = ctx->be->launch(ctx, pinned, &ignored);
    for (int i = 0; i < n && !st; i++) st = ctx->be->launch(ctx, pinned, &us[i]);
    /* In-place plans overwrite their inputs: restore them so a later launch verifies. */
    if (!st) {
        fill(ctx);
        if (ctx->be->upload) st = ctx->be->upload(ctx);
    }
    leave(ctx);
    if (!st) qsort(us, (size_t) n, sizeof *us, cmp_double);
    return st;
}

static nunart_status time_args(nunart_ctx *ctx, int warmup, int n, const void *out) {
    if (!ctx) return NUNART_E_ARGUMENT;
    if (!out || n < 1 || n > 1000000 || warmup < 0 || warmup > 1000000)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "time_launches: n must be in [1, 1000000], warmup in [0, 1000000], and the results non-null");
    if (ctx->state != NUNART_BUFFERS_READY && ctx->state != NUNART_LAUNCHED && ctx->state != NUNART_VERIFIED)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "time_launches needs buffers (state %s)", nunart_state_name(ctx->state));
    return NUNART_OK;
}

nunart_status nunart_time_launches(nunart_ctx *ctx, int n, int pinned, double *median_us) {
    double stats[3];
    nunart_status st = time_args(ctx, 0, n, median_us);
    if (st || (st = nunart_time_stats(ctx, 0, n, pinned, stats))) return st;
    *median_us = stats[1];
    return NUNART_OK;
}

nunart_status nunart_time_stats(nunart_ctx *ctx, int warmup, int n, int pinned, double *stats) {
    nunart_status st = time_args(ctx, warmup, n, stats);
    if (st) return st;
    double *us = malloc(sizeof(double) * (size_t) n);
    if (!us) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    if (!(st = time_sorted(ctx, warmup, n, pinned, us))) {
        /* min, median, p90 (nearest rank) */
        stats[0] = us[0];
        stats[1] = us[n / 2];
        stats[2] = us[(size_t) ((9LL * n + 9) / 10) - 1];
    }
    free(us);
    return st ? st : ok(ctx);
}

nunart_status nunart_probe_latency(nunart_ctx *ctx, int mib, int naddr, int reps, double *out, size_t cap, int *nloc) {
    if (!ctx || !nloc) return ctx ? nr_fail(ctx, NUNART_E_ARGUMENT, "probe_latency: nloc is null") : NUNART_E_ARGUMENT;
    if (ctx->state != NUNART_OPENED) return nr_fail(ctx, NUNART_E_ARGUMENT, "probe_latency needs an opened context without a table (state %s)", nunart_state_name(ctx->state));
    if (!ctx->be->probe) return nr_fail(ctx, NUNART_E_UNSUPPORTED, "the %s backend has no device to probe", ctx->be->name);
    /* The probe's memory is bound by the device's, not by option mem_limit_mb (the plan's buffers). */
    if (mib < 0 || mib > (1 << 20) || naddr < 1 || naddr > 4096 || reps < 1 || reps > 100000)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "probe_latency: mib in [0, 1048576] (0: the whole device memory), naddr in [1, 4096], reps in [1, 100000]");
    nunart_status st = ctx->be->probe(ctx, 0, naddr, reps, NULL, nloc);
    if (st || !out) return st ? st : ok(ctx);
    size_t per = 1 + 3 * (size_t) naddr, raw = 2 + 3 * (size_t) naddr;
    if (cap < per * (size_t) *nloc) return nr_fail(ctx, NUNART_E_ARGUMENT, "probe_latency: out holds %zu doubles, %zu needed", cap, per * (size_t) *nloc);
    long long *rec = calloc(raw * (size_t) *nloc, sizeof *rec);
    if (!rec) return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    if (!(st = enter(ctx))) {
        st = ctx->be->probe(ctx, (long long) mib << 20, naddr, reps, rec, nloc);
        leave(ctx);
    }
    /* Cycles to ns with each location's own clock: its cycles over its timer's ns. */
    for (int l = 0; !st && l < *nloc; l++) {
        const long long *r = rec + raw * (size_t) l;
        double *o = out + per * (size_t) l, ghz = r[1] > 0 ? (double) r[0] / (double) r[1] : 0;
        o[0] = ghz * 1000.0;
        for (size_t k = 0; k < 3 * (size_t) naddr; k++) o[1 + k] = ghz > 0 ? (double) r[2 + k] / ghz : -1;
    }
    free(rec);
    return st ? st : ok(ctx);
}

nunart_status nunart_grid_order(nunart_ctx *ctx, int rank, int *slots, size_t cap, size_t *n) {
    if (!ctx || !n || (cap && !slots)) return ctx ? nr_fail(ctx, NUNART_E_ARGUMENT, "grid_order: null argument") : NUNART_E_ARGUMENT;
    if (!ctx->table || ctx->state == NUNART_OPENED) return nr_fail(ctx, NUNART_E_ARGUMENT, "grid_order needs a loaded table");
    if (rank < 0 || rank >= ctx->table->ranks) return nr_fail(ctx, NUNART_E_ARGUMENT, "grid_order: rank %d does not exist", rank);
    if (ctx->table->part >= 0 && rank != ctx->table->part)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "grid_order: the table holds rank %d alone, not rank %d", ctx->table->part, rank);
    const nr_rank *rk = &ctx->table->rank[rank];
    *n = (size_t) rk->ngrid;
    for (size_t i = 0; i < cap && i < (size_t) rk->ngrid; i++) slots[i] = rk->grid[i];
    return ok(ctx);
}

int nunart_part_rank(const nunart_ctx *ctx) {
    return ctx && ctx->table ? ctx->table->part : -1;
}

nunart_status nunart_tb_placement(nunart_ctx *ctx, int rank, int tb, int out[4]) {
    if (!ctx || !out) return ctx ? nr_fail(ctx, NUNART_E_ARGUMENT, "tb_placement: null argument") : NUNART_E_ARGUMENT;
    if (!ctx->table || ctx->state == NUNART_OPENED) return nr_fail(ctx, NUNART_E_ARGUMENT, "tb_placement needs a loaded table");
    const nr_table *t = ctx->table;
    if (rank < 0 || rank >= t->ranks) return nr_fail(ctx, NUNART_E_ARGUMENT, "tb_placement: rank %d does not exist", rank);
    if (t->part >= 0 && rank != t->part)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "tb_placement: the table holds rank %d alone, not rank %d", t->part, rank);
    if (tb < 0 || tb >= t->rank[rank].ntb) return nr_fail(ctx, NUNART_E_ARGUMENT, "tb_placement: rank %d has no threadblock %d", rank, tb);
    const nr_tb *b = &t->tb[t->rank[rank].first_tb + tb];
    out[0] = b->cu;
    out[1] = b->die;
    out[2] = b->slot;
    out[3] = b->domain;
    return ok(ctx);
}

nunart_status nunart_domain_stream(nunart_ctx *ctx, int rank, int index, int *domain, void **stream) {
    if (!ctx || !domain || !stream) return ctx ? nr_fail(ctx, NUNART_E_ARGUMENT, "domain_stream: null argument") : NUNART_E_ARGUMENT;
    if (ctx->state != NUNART_BUFFERS_READY && ctx->state != NUNART_LAUNCHED && ctx->state != NUNART_VERIFIED)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "domain_stream needs buffers (state %s)", nunart_state_name(ctx->state));
    if (rank < 0 || rank >= ctx->table->ranks || index < 0 || index >= ctx->table->rank[rank].nstream)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "domain_stream: rank %d has no stream %d", rank, index);
    *domain = ctx->table->rank[rank].streams[index].domain;
    *stream = NULL;
    if (!ctx->be->stream) return nr_fail(ctx, NUNART_E_UNSUPPORTED, "the %s backend has no device streams", ctx->be->name);
    nunart_status st = ctx->be->stream(ctx, rank, index, stream);
    return st ? st : ok(ctx);
}

nunart_status nunart_read_output(nunart_ctx *ctx, int rank, float *dst, size_t cap, size_t *n) {
    if (!ctx || !n || (cap && !dst)) return ctx ? nr_fail(ctx, NUNART_E_ARGUMENT, "read_output: null argument") : NUNART_E_ARGUMENT;
    if (ctx->state != NUNART_LAUNCHED && ctx->state != NUNART_VERIFIED)
        return nr_fail(ctx, NUNART_E_ARGUMENT, "read_output needs a launch (state %s)", nunart_state_name(ctx->state));
    const nr_table *t = ctx->table;
    if (rank < 0 || rank >= t->ranks) return nr_fail(ctx, NUNART_E_ARGUMENT, "read_output: rank %d does not exist", rank);
    const nr_view *v = &t->rank[rank].out;
    *n = v->present ? (size_t) v->chunks * (size_t) t->chunk_elems : 0;
    if (!v->present) return ok(ctx);
    const float *base = ctx->host + t->rank[rank].sto[v->storage].off + (int64_t) v->offset * t->chunk_elems;
    memcpy(dst, base, sizeof(float) * (cap < *n ? cap : *n));
    return ok(ctx);
}

const char *nunart_report(const nunart_ctx *c) {
    if (!c) return "no context (out of memory)";
    nunart_ctx *ctx = (nunart_ctx *) c; /* the report buffer is a cache */
    const nr_table *t = ctx->table;
    int n = snprintf(ctx->report, sizeof ctx->report, "backend: %s\n", ctx->be ? ctx->be->name : "none");
    if (ctx->tried[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "backends-skipped: %s\n", ctx->tried);
    if (n < (int) sizeof ctx->report) n += print_device(ctx, ctx->report + n, sizeof ctx->report - (size_t) n);
    if (ctx->devices[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "devices: %s\n", ctx->devices);
    if (ctx->platform[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "platform: %s\n", ctx->platform);
    if (n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "state: %s\n", nunart_state_name(ctx->state));
    if (t && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n,
                      "plan: %s (%s, %d ranks, %d threadblocks, %d steps, policy %s, topology %s)\n",
                      t->name, t->collective, t->ranks, t->ntb, t->nstep, t->policy, t->topology);
    if (t && t->part >= 0 && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "part: rank %d of %d (a per-rank table: placement loaded, not executable alone)\n",
                      t->part, t->ranks);
    if (ctx->executor[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "executor: %s\n", ctx->executor);
    if (n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n,
                      "cu-affinity: %s\ngrid-order: %s\nstream-masks: %s\npage-placement: %s\nplacement-fidelity: %s\n",
                      ctx->cu_affinity[0] ? ctx->cu_affinity : "not applied (no launch)",
                      ctx->grid_order[0] ? ctx->grid_order : "not applied (no launch)",
                      ctx->stream_masks[0] ? ctx->stream_masks : "not applied (no launch)",
                      ctx->page_placement[0] ? ctx->page_placement : "not applied (no buffers)",
                      ctx->fidelity[0] ? ctx->fidelity : "unknown (no launch)");
    if (ctx->probe_mem[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "probe-memory: %s\n", ctx->probe_mem);
    if (ctx->cu_readback[0] && n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "cu-readback: %s\n", ctx->cu_readback);
    if (n < (int) sizeof ctx->report)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "data-check: %s\n", ctx->data_check);
    if (n < (int) sizeof ctx->report && ctx->state >= NUNART_LAUNCHED && ctx->state != NUNART_FAILED)
        n += snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "launch-time-us: %.1f\n", ctx->launch_us);
    if (n < (int) sizeof ctx->report && ctx->state == NUNART_FAILED)
        snprintf(ctx->report + n, sizeof ctx->report - (size_t) n, "error: %s\n", ctx->msg);
    return ctx->report;
}

void nunart_close(nunart_ctx *ctx) {
    if (!ctx) return;
    if (ctx->be && ctx->be->close) ctx->be->close(ctx);
    nr_table_free(ctx->table);
    free(ctx->host);
    free(ctx->ran_on);
    free(ctx);
}

void nr_exec_step(const nr_table *t, const nr_step *s, float *a) {
    int64_t n = s->nelem;
    float *dst = a + s->dst_off, *self = a + s->stage_off;
    const float *src = a + s->src_off;
    const float *got = s->from >= 0 ? a + t->step[s->from].stage_off : NULL;
    switch (s->op) {
    case OP_S: memcpy(self, src, sizeof(float) * (size_t) n); break;
    case OP_R: memcpy(dst, got, sizeof(float) * (size_t) n); break;
    case OP_RCS:
        memcpy(dst, got, sizeof(float) * (size_t) n);
        memcpy(self, got, sizeof(float) * (size_t) n);
        break;
    case OP_RRS: for (int64_t i = 0; i < n; i++) self[i] = got[i] + src[i]; break;
    case OP_RRC: for (int64_t i = 0; i < n; i++) dst[i] = got[i] + src[i]; break;
    case OP_RRCS: for (int64_t i = 0; i < n; i++) { self[i] = got[i] + src[i]; dst[i] = self[i]; } break;
    case OP_CPY: case OP_PUT: case OP_GET: memmove(dst, src, sizeof(float) * (size_t) n); break;
    case OP_RE: case OP_RA: case OP_GETRE: for (int64_t i = 0; i < n; i++) dst[i] += src[i]; break;
    default: break; /* nop, signal, wait: synchronisation only */
    }
}
