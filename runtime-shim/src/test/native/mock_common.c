/* What the fake drivers share: environment, trace, devices and their memory, and the
 * executor's semantics (launches run jointly at the first synchronise). */
#include "mock.h"
#include "../../internal.h" /* the opcodes and their operands (ops.def) */
#define NR_ELEMENT_ONLY /* what an op does to an element, as the device kernel does it */
#include "../../kernels/executor.cu"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mock_env_int(const char *name, int dflt) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

void mock_trace(const char *fmt, ...) {
    const char *path = getenv("NUNART_MOCK_TRACE");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* ---- devices and memory (a fake driver's process-wide state) ---- */

#define MAX_DEV 16
#define MAX_BUF 4096

static int current;
static unsigned char peer[MAX_DEV][MAX_DEV];
static struct { char *p; size_t n; int owner; } bufs[MAX_BUF];
static char why[512];
static size_t used[MAX_DEV];       /* device memory allocated, per device */

int mock_devices(void) {
    int n = mock_env_int("NUNART_MOCK_DEVICES", 1);
    return n < 0 ? 0 : n > MAX_DEV ? MAX_DEV : n;
}
int mock_current(void) { return current; }
int mock_set_current(int dev) {
    if (dev < 0 || dev >= mock_devices()) return -1;
    current = dev;
    return 0;
}
int mock_can_peer(int dev, int p) {
    return dev >= 0 && p >= 0 && dev < mock_devices() && p < mock_devices() && dev != p && !mock_env_int("NUNART_MOCK_NO_PEER", 0);
}
int mock_enable_peer(int p) {
    if (!mock_can_peer(current, p)) return -1;
    if (peer[current][p]) return 1;
    peer[current][p] = !mock_env_int("NUNART_MOCK_PEER_IGNORED", 0);
    return 0;
}

static size_t mem_total(void) { return (size_t) mock_env_int("NUNART_MOCK_MEM_MB", 1024) << 20; }

void mock_meminfo(size_t *free_bytes, size_t *total_bytes) {
    size_t total = mem_total(), u = current >= 0 && current < MAX_DEV ? used[current] : 0;
    *total_bytes = total;
    *free_bytes = u < total ? total - u : 0;
}

void *mock_alloc(size_t n, int owner) {
    if (owner >= 0 && owner < MAX_DEV) {
        size_t block = (size_t) mock_env_int("NUNART_MOCK_MAX_BLOCK_MB", 0) << 20;
        size_t gives = (size_t) mock_env_int("NUNART_MOCK_MEM_GIVES_MB", 0) << 20;
        if (used[owner] + n > (gives ? gives : mem_total()) || (block && n > block)) return NULL;
    }
    for (int i = 0; i < MAX_BUF; i++) {
        if (bufs[i].p) continue;
        /* calloc: large blocks are mapped, not touched, so a fake of gigabytes costs little. */
        if (!(bufs[i].p = calloc(1, n ? n : 1))) return NULL;
        bufs[i].n = n;
        bufs[i].owner = owner;
        if (owner >= 0 && owner < MAX_DEV) used[owner] += n;
        return bufs[i].p;
    }
    return NULL;
}
void mock_free(void *p) {
    for (int i = 0; i < MAX_BUF; i++) {
        if (bufs[i].p && bufs[i].p == p) {
            free(p);
            if (bufs[i].owner >= 0 && bufs[i].owner < MAX_DEV) used[bufs[i].owner] -= bufs[i].n;
            bufs[i].p = NULL;
            return;
        }
    }
}
/* The index of the buffer holding [p, p + n), or -1. */
static int buffer_of(const void *p, size_t n) {
    for (int i = 0; i < MAX_BUF; i++)
        if (bufs[i].p && (const char *) p >= bufs[i].p && (const char *) p + n <= bufs[i].p + bufs[i].n) return i;
    return -1;
}
/* The owner of the buffer holding p: a device, MOCK_HOST, or -2 when no buffer holds it. */
static int owner_of(const void *p) {
    for (int i = 0; i < MAX_BUF; i++)
        if (bufs[i].p && (const char *) p >= bufs[i].p && (const char *) p < bufs[i].p + bufs[i].n) return bufs[i].owner;
    return -2;
}

int mock_load(void **module, const void *image) {
    if (strncmp(image, MOCK_CODE, strlen(MOCK_CODE)) != 0) return -1;
    mock_module *m = malloc(sizeof *m);
    if (!m) return -2;
    m->multi = strstr(image, "NR_MULTI") != NULL;
    m->device = current;
    for (int i = 0; i < 2; i++) { m->fn[i].module = m; m->fn[i].probe = i; }
    *module = m;
    return 0;
}

mock_fn *mock_function(void *module, const char *name) {
    mock_module *m = module;
    return !strcmp(name, "nunart_exec") ? &m->fn[0] : !strcmp(name, "nunart_probe") ? &m->fn[1] : NULL;
}

int mock_occupancy(void) { return mock_env_int("NUNART_MOCK_OCCUPANCY", 8); }

const char *mock_error(void) { return why; }

/* ---- the executor ---- */


/* One launch as the kernel's parameters, copied at launch as a driver does. */
typedef struct {
    int device, multi, amd;
    unsigned grid;
    const long long *steps, *seg;
    const int *deps, *tbinfo;
    int ntb, pinned, nseg, tb_lo, tb_hi;
    float *arena;
    int *done, *ran_on, *hw_id, *claim, *stats;
    int *mine, *cur;       /* per block: its threadblock; per threadblock: its next step */
    unsigned wave_lo, wave_hi; /* the blocks resident now */
} launch_t;

static launch_t pending[MAX_DEV * 4];
static int npending;

#define ARG_PTR(i, T) ((T *) (uintptr_t) *(unsigned long long *) args[i])

/* The probe's records, filled at once (see mock.h): location l of nloc, address a. Every
 * address a location that runs reads must lie in the current device's memory. */
static int probe(void **args, unsigned grid, int amd) {
    const unsigned long long *addr = ARG_PTR(0, const unsigned long long);
    int naddr = *(int *) args[2], nloc = *(int *) args[6];
    int *owner = ARG_PTR(4, int);
    long long *out = ARG_PTR(5, long long);
    int units = mock_env_int("NUNART_MOCK_UNITS", 8);
    static unsigned char seen[MAX_BUF];
    memset(seen, 0, sizeof seen);
    (void) amd;
    for (unsigned b = 0; b < grid; b++) {
        int l = (int) (b % (unsigned) units);
        if (l >= nloc || owner[l]) continue;
        for (int a = 0; a < naddr; a++) {
            const void *p = (const void *) (uintptr_t) addr[(size_t) a * (size_t) nloc + (size_t) l];
            int i = buffer_of(p, sizeof(unsigned));
            if (i < 0 || bufs[i].owner != current) {
                snprintf(why, sizeof why, "latency probe: location %d's address %d (%p) is not in device %d's memory", l, a, p, current);
                return -2;
            }
            seen[i] = 1;
        }
        owner[l] = 1;
        long long *o = out + (long long) l * (2 + 3 * naddr);
        o[0] = 1980000; /* cycles in 1 ms of the timer: 1.98 GHz */
        o[1] = 1000000;
        for (int a = 0; a < naddr; a++) {
            int far = (l * 2 / units) != (a % 2);
            o[2 + 3 * a] = 1200 + 150 * far + 20 * (l % 4);
            o[3 + 3 * a] = 400 + 100 * far;
            o[4 + 3 * a] = 500 + 100 * far;
        }
    }
    int reached = 0;
    size_t bytes = 0;
    for (int i = 0; i < MAX_BUF; i++)
        if (seen[i]) { reached++; bytes += bufs[i].n; }
    mock_trace("nunart_probe addresses in %d allocations of %zu bytes", reached, bytes);
    return 0;
}

int mock_launch(void *f, void **args, unsigned grid, int amd) {
    const mock_fn *fn = f;
    if (!fn) return -1;
    if (fn->probe) return fn->module->device == current ? probe(args, grid, amd) : -1;
    const mock_module *m = fn->module;
    if (npending == (int) (sizeof pending / sizeof *pending)) return -1;
    if (m->device != current) return -1; /* a function runs on the device its module was loaded on */
    launch_t *l = &pending[npending];
    memset(l, 0, sizeof *l);
    l->device = current;
    l->multi = m->multi;
    l->amd = amd;
    l->grid = grid;
    l->steps = ARG_PTR(0, const long long);
    l->deps = ARG_PTR(1, const int);
    l->tbinfo = ARG_PTR(2, const int);
    l->ntb = *(int *) args[3];
    l->arena = ARG_PTR(4, float);
    l->done = ARG_PTR(5, int);
    l->ran_on = ARG_PTR(6, int);
    l->hw_id = ARG_PTR(7, int);
    l->claim = ARG_PTR(8, int);
    l->pinned = *(int *) args[9];
    l->seg = ARG_PTR(12, const long long);
    l->nseg = *(int *) args[13];
    l->tb_lo = *(int *) args[14];
    l->tb_hi = *(int *) args[15];
    l->stats = ARG_PTR(16, int);
    if (l->tb_lo < 0 || l->tb_hi > l->ntb || l->tb_lo > l->tb_hi || (l->nseg && !l->seg)) return -1;
    /* A translation error on request: the kernel sees the segment table without its first
     * segment (device 0's storages), so their offsets lie outside every segment. */
    if (l->nseg > 1 && mock_env_int("NUNART_MOCK_DROP_SEGMENT", 0)) { l->seg += 3; l->nseg--; }
    npending++;
    return 0;
}

/* Global arena offset -> address, as executor.cu's nr_at (or arena + off on one device); NULL
 * for an unused operand (-1) and for an offset outside every segment. */
static float *at(const launch_t *l, long long off) {
    if (off < 0) return NULL;
    if (!l->nseg) return l->arena + off;
    for (int k = 0; k < l->nseg; k++)
        if (off >= l->seg[3 * k] && off < l->seg[3 * k + 1]) return (float *) (uintptr_t) l->seg[3 * k + 2] + (off - l->seg[3 * k]);
    return NULL;
}

/* A step may touch its device's memory, host-mapped memory, or a peer's it has access to. */
static int reachable(const launch_t *l, const float *p, long long n, const char *what, int g) {
    if (n <= 0) return 1;
    int o = owner_of(p), e = owner_of(p + n - 1);
    if (o != e || o == -2) {
        snprintf(why, sizeof why, "step %d: %s [%p, +%lld floats) is not inside one allocation", g, what, (const void *) p, n);
        return 0;
    }
    if (o == MOCK_HOST || o == l->device || peer[l->device][o]) return 1;
    snprintf(why, sizeof why, "step %d on device %d: %s is device %d's memory, without peer access", g, l->device, what, o);
    return 0;
}

static int run_step(const launch_t *l, const long long *s, int g) {
    long long ne = s[1];
    int op = (int) s[0];
    float *dst = at(l, s[3]), *self = at(l, s[4]);
    const float *src = at(l, s[2]), *got = at(l, s[5]);
    int uses_src, uses_dst, uses_self, uses_got;
    nr_op_operands(op, &uses_src, &uses_dst, &uses_self, &uses_got);
    /* An operand the op uses must translate, as the kernel demands (else it aborts, reason 2). */
    if ((uses_dst && !dst) || (uses_self && !self) || (uses_src && !src) || (uses_got && !got)) {
        l->claim[l->ntb] = 2;
        return 1;
    }
    if ((uses_dst && !reachable(l, dst, ne, "dst", g)) || (uses_self && !reachable(l, self, ne, "its stage", g))
        || (uses_src && !reachable(l, src, ne, "src", g)) || (uses_got && !reachable(l, got, ne, "the sender's stage", g)))
        return -1;
    for (long long i = 0; i < ne; i++) {
        NR_ELEMENT(op, i, dst, self, src, got)
    }
    return 0;
}

static int ready(const long long *s, const int *deps, const int *done) {
    for (long long d = 0; d < s[7]; d++)
        if (!done[deps[s[8] + d]]) return 0;
    return s[6] < 0 || done[s[6]];
}

/* Where block b lands: round-robin over the units (as SPX does with XCDs), or the forced unit. */
static int location(unsigned b) {
    int units = mock_env_int("NUNART_MOCK_UNITS", 8), forced = mock_env_int("NUNART_MOCK_LOCATION", -1);
    return forced >= 0 ? forced : (int) (b % (unsigned) units);
}

/* The dispatcher of one launch's resident wave [wave_lo, wave_hi): a claim on a threadblock of
 * its range planned where the block landed, then the steal by blocks that found none (the
 * kernel's spares wait until every threadblock is claimed, which in a fake run is at once). */
static void dispatch(launch_t *l) {
    int units = mock_env_int("NUNART_MOCK_UNITS", 8);
    for (unsigned b = l->wave_lo; b < l->wave_hi; b++) {
        int loc = location(b);
        l->mine[b] = -1;
        if (!l->pinned) {
            int t = l->tb_lo + (int) b;
            if (t < l->tb_hi && !l->claim[t]) { l->claim[t] = 1; l->mine[b] = t; }
        } else {
            for (int t = l->tb_lo; t < l->tb_hi && l->mine[b] < 0; t++)
                if (l->tbinfo[3 * t + 2] == loc && !l->claim[t]) { l->claim[t] = 1; l->mine[b] = t; }
        }
    }
    for (unsigned b = l->wave_lo; b < l->wave_hi; b++) {
        for (int t = l->tb_lo; t < l->tb_hi && l->pinned && l->mine[b] < 0; t++)
            if (!l->claim[t]) { l->claim[t] = 1; l->mine[b] = t; }
        int loc = location(b);
        if (loc + 1 > l->stats[1]) l->stats[1] = loc + 1;
        l->stats[2] = l->amd ? 0 : units;
        if (l->mine[b] < 0) continue;
        l->stats[0]++;
        int slot = (int) (b / (unsigned) units);
        l->ran_on[l->mine[b]] = loc;
        /* HW_ID as gfx9 lays it out: CU_ID 11:8, SH_ID 12, SE_ID from bit 13; 10 CUs per SE.
         * NUNART_MOCK_HW_ID_BIT15 sets bit 15, which is SE_ID's top bit on gfx90a and not part
         * of the 2-bit SE_ID on gfx94x. */
        l->hw_id[l->mine[b]] = l->amd ? (slot / 10 % 4) << 13 | (slot % 10) << 8 | (mock_env_int("NUNART_MOCK_HW_ID_BIT15", 0) ? 1 << 15 : 0) : loc;
    }
}

/* Several devices in one joint run: each kernel compiled for it, its flags host-mapped. */
static int check_joint(void) {
    int multi_dev = 0;
    for (int i = 1; i < npending; i++) multi_dev |= pending[i].device != pending[0].device;
    if (!multi_dev) return 0;
    for (int i = 0; i < npending; i++) {
        const launch_t *l = &pending[i];
        if (!l->multi) {
            snprintf(why, sizeof why, "device %d runs a kernel compiled without NR_MULTI beside other devices' kernels", l->device);
            return -1;
        }
        if (owner_of(l->done) != MOCK_HOST || owner_of(l->claim) != MOCK_HOST) {
            snprintf(why, sizeof why, "device %d's done flags or claims are not host-mapped", l->device);
            return -1;
        }
    }
    return 0;
}

/* One step of each resident block's threadblock per round, launch after launch and block after
 * block, each step only once its dependencies and its partner are done. 0 when every resident
 * threadblock finished, 1 when none could progress (a wait never satisfied), -1 on a check. */
static int run_resident(void) {
    long long left = 0;
    for (int i = 0; i < npending; i++) {
        launch_t *l = &pending[i];
        for (unsigned b = l->wave_lo; b < l->wave_hi; b++) {
            int t = l->mine[b];
            if (t >= 0) { l->cur[t] = l->tbinfo[3 * t]; left += l->tbinfo[3 * t + 1]; }
        }
    }
    int hang = mock_env_int("NUNART_MOCK_HANG", 0);
    while (left > 0) {
        int progressed = 0;
        for (int i = 0; i < npending && !hang; i++) {
            launch_t *l = &pending[i];
            for (unsigned b = l->wave_lo; b < l->wave_hi; b++) {
                int t = l->mine[b];
                if (t < 0 || l->cur[t] >= l->tbinfo[3 * t] + l->tbinfo[3 * t + 1]) continue;
                const long long *s = l->steps + 9LL * l->cur[t];
                if (!ready(s, l->deps, l->done)) continue;
                int rc = run_step(l, s, l->cur[t]);
                if (rc) return rc;
                l->done[l->cur[t]++] = 1;
                left--;
                progressed = 1;
            }
        }
        if (!progressed) return 1;
    }
    return 0;
}

/* Waves: on CUDA at most occupancy x SMs blocks of a launch are resident; the next wave starts
 * when the resident ones have finished, as on hardware. A wave that cannot finish aborts. */
static int interleave(void) {
    int units = mock_env_int("NUNART_MOCK_UNITS", 8);
    for (;;) {
        int any = 0;
        for (int i = 0; i < npending; i++) {
            launch_t *l = &pending[i];
            unsigned cap = l->amd ? l->grid : (unsigned) (mock_occupancy() * units);
            l->wave_lo = l->wave_hi;
            l->wave_hi = l->wave_lo + cap < l->grid ? l->wave_lo + cap : l->grid;
            if (l->wave_lo < l->wave_hi) { any = 1; dispatch(l); }
        }
        if (!any) return 0;
        int rc = run_resident();
        if (rc < 0) return -1;
        if (rc > 0) {
            /* a wait never satisfied: the kernel's abort (reason 1) unless it already stopped */
            if (!pending[0].claim[pending[0].ntb]) pending[0].claim[pending[0].ntb] = 1;
            return 0;
        }
    }
}

int mock_sync(void) {
    if (!npending) return 0;
    int rc = 0, devs = 0;
    for (int i = 0; i < npending && !rc; i++) {
        launch_t *l = &pending[i];
        l->mine = malloc(sizeof(int) * (l->grid ? l->grid : 1));
        l->cur = malloc(sizeof(int) * (size_t) (l->ntb ? l->ntb : 1));
        if (!l->mine || !l->cur) rc = -1;
        devs |= 1 << l->device;
    }
    if (!rc && (rc = check_joint()) == 0) {
        for (int i = 0; i < npending; i++) pending[i].wave_lo = pending[i].wave_hi = 0;
        rc = interleave();
    }
    if (npending > 1) mock_trace("joint run of %d launches on %d devices%s%s", npending, __builtin_popcount((unsigned) devs), rc ? ": " : "", rc ? why : "");
    for (int i = 0; i < npending; i++) { free(pending[i].mine); free(pending[i].cur); }
    npending = 0;
    return rc ? MOCK_E_CHECK : 0;
}
