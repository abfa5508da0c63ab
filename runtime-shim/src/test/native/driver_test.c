/* Native tests of what the fake drivers learned from the real ones: every call leaves the
 * caller's CUDA context (and HIP device) current; a plan whose blocks cannot all be resident is
 * refused; the executor is a cubin for the device's sm_XY from an NVRTC the driver supports, PTX
 * only as the stated fallback; HIP takes its shape and ISA from the KFD topology and refuses a
 * hipRTC too old for it and reads HW_ID's shader engine as 2 bits on gfx94x; an operand outside
 * every segment stops the launch with its reason; nunart-run's fidelity check compares exact
 * counts; the latency probe's records come back converted with each SM's clock.
 * Usage: nunart-driver-test TABLES_DIR MOCKS_DIR SCRATCH_DIR.  Exit: 0 all passed, 1 a failure. */
#include "nunart.h"
#include "../../../tools/fidelity.h"
#include "check.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *mocks, *tables, *scratch;


static char *slurp(const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tables, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t) n + 1);
    if (b && fread(b, 1, (size_t) n, f) != (size_t) n) { free(b); b = NULL; }
    if (b) b[n] = 0;
    fclose(f);
    return b;
}

static const char *lib(const char *name) {
    static char path[8][4096];
    static int k;
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/libnunart-mock-%s.so", mocks, name);
    return path[k];
}

/* path = scratch/name, the scratch folder made if it is not there yet. */
static void in_scratch(char *path, size_t cap, const char *name) {
    snprintf(path, cap, "%s/%s", scratch, name);
    mkdir(scratch, 0755);
}

/* A clean fake environment: every NUNART_MOCK_ variable the tests set is reset here. */
static void fakes(const char *backend, int units, int devices, const char *cc) {
    static const char *vars[] = {"NUNART_MOCK_CC", "NUNART_MOCK_CC_MINOR", "NUNART_MOCK_OCCUPANCY", "NUNART_MOCK_DRIVER_VERSION",
                                 "NUNART_MOCK_NVRTC_VERSION", "NUNART_MOCK_HIPRTC_VERSION", "NUNART_MOCK_NVRTC_ARCHS", "NUNART_MOCK_LOCATION",
                                 "NUNART_MOCK_DROP_SEGMENT", "NUNART_MOCK_HW_ID_BIT15", "NUNART_MOCK_MEM_MB", "NUNART_MOCK_MAX_BLOCK_MB", "NUNART_MOCK_MEM_GIVES_MB", "NUNART_MOCK_GCN_ARCH",
                                 "NUNART_MOCK_TRACE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) unsetenv(vars[i]);
    char n[32];
    snprintf(n, sizeof n, "%d", units);
    setenv("NUNART_MOCK_UNITS", n, 1);
    snprintf(n, sizeof n, "%d", devices);
    setenv("NUNART_MOCK_DEVICES", n, 1);
    if (cc) setenv("NUNART_MOCK_CC", cc, 1);
    /* No KFD topology unless a test writes one: whatever GPU this machine has stays out. */
    char none[4096];
    snprintf(none, sizeof none, "%s/no-kfd-topology", scratch);
    setenv("NUNART_KFD_TOPOLOGY", none, 1);
    int hip = !strcmp(backend, "hip");
    setenv(hip ? "NUNART_HIP_LIBRARY" : "NUNART_CUDA_LIBRARY", lib(hip ? "hip" : "cuda"), 1);
    setenv(hip ? "NUNART_HIPRTC_LIBRARY" : "NUNART_NVRTC_LIBRARY", lib(hip ? "hiprtc" : "nvrtc"), 1);
}

/* Runs every call on `table`; returns the first failing status (NUNART_OK: all passed) and
 * copies the report line starting with `key` (if given) into line. */
static nunart_status run(const char *table, const char *backend, const char *options, const char *key, char *line, size_t cap) {
    nunart_ctx *ctx = NULL;
    double stats[3];
    nunart_status st = nunart_open(&ctx, backend, options);
    if (!st) st = nunart_load(ctx, table, strlen(table));
    if (!st) st = nunart_alloc(ctx);
    if (!st) st = nunart_time_stats(ctx, 1, 3, 1, stats);
    if (!st) st = nunart_launch(ctx);
    if (!st) st = nunart_verify(ctx);
    if (line) {
        const char *r = nunart_report(ctx), *at = key ? strstr(r, key) : NULL;
        const char *src = st ? nunart_message(ctx) : at ? at : "";
        size_t n = strcspn(src, "\n");
        snprintf(line, cap, "%.*s", (int) (n < cap ? n : cap - 1), src);
    }
    nunart_close(ctx);
    return st;
}

static void expect(const char *test, nunart_status got, nunart_status want, const char *line, const char *needle) {
    if (got != want) fail(test, "%s, expected %s: %s", nunart_status_name(got), nunart_status_name(want), line);
    else if (needle && !strstr(line, needle)) fail(test, "'%s' lacks '%s'", line, needle);
    else passed++;
}

/* ---- the caller's context ---- */

typedef int (*ctx_fn)(void **);

/* Every call, failing or not, must leave the caller's own context current on the fake driver. */
static void test_cuda_context(const char *table) {
    fakes("cuda", 8, 2, "10");
    void *drv = dlopen(lib("cuda"), RTLD_NOW | RTLD_LOCAL);
    int (*init)(unsigned) = drv ? (int (*)(unsigned)) dlsym(drv, "cuInit") : NULL;
    int (*create)(void **, unsigned, int) = drv ? (int (*)(void **, unsigned, int)) dlsym(drv, "cuCtxCreate_v2") : NULL;
    ctx_fn current = drv ? (ctx_fn) dlsym(drv, "cuCtxGetCurrent") : NULL, pop = drv ? (ctx_fn) dlsym(drv, "cuCtxPopCurrent_v2") : NULL;
    void *mine = NULL, *now = NULL;
    if (!init || !create || !current || !pop || init(0) || create(&mine, 0, 1)) { fail("cuda context", "the fake driver's context calls"); return; }
    nunart_ctx *ctx = NULL;
    double stats[3];
    const char *step[] = {"open", "load", "alloc", "time", "launch", "verify", "close"};
    for (int i = 0; i < 7; i++) {
        nunart_status st = NUNART_OK;
        switch (i) {
        case 0: st = nunart_open(&ctx, "cuda", NULL); break;
        case 1: st = nunart_load(ctx, table, strlen(table)); break;
        case 2: st = nunart_alloc(ctx); break;
        case 3: st = nunart_time_stats(ctx, 2, 5, 1, stats); break;
        case 4: st = nunart_launch(ctx); break;
        case 5: st = nunart_verify(ctx); break;
        default: nunart_close(ctx); ctx = NULL; break;
        }
        if (st) { fail("cuda context", "%s: %s", step[i], nunart_message(ctx)); break; }
        current(&now);
        if (now != mine) { fail("cuda context", "after %s the current context is %p, the caller's was %p", step[i], now, mine); break; }
        if (i == 6) passed++;
    }
    nunart_close(ctx);
    pop(&now);
    dlclose(drv);
}

static void test_hip_device(const char *table) {
    fakes("hip", 2, 2, NULL);
    void *drv = dlopen(lib("hip"), RTLD_NOW | RTLD_LOCAL);
    int (*set)(int) = drv ? (int (*)(int)) dlsym(drv, "hipSetDevice") : NULL;
    int (*get)(int *) = drv ? (int (*)(int *)) dlsym(drv, "hipGetDevice") : NULL;
    if (!set || !get || set(1)) { fail("hip device", "the fake runtime's device calls"); return; }
    nunart_ctx *ctx = NULL;
    int now = -1;
    nunart_status st = nunart_open(&ctx, "hip", "cus=8 dies=2 devices=1");
    if (!st) st = nunart_load(ctx, table, strlen(table));
    if (!st) st = nunart_alloc(ctx);
    if (!st) st = nunart_launch(ctx);
    get(&now);
    if (st) fail("hip device", "%s", nunart_message(ctx));
    else if (now != 1) fail("hip device", "device %d current after the calls on device 0, the caller had 1", now);
    else passed++;
    nunart_close(ctx);
    get(&now);
    if (now != 1) fail("hip device", "device %d current after close, the caller had 1", now);
    set(0);
    dlclose(drv);
}

/* ---- co-residency ---- */

static void test_occupancy(void) {
    char *b200 = slurp("allgather-direct-b200-4.txt"), line[1024];
    if (!b200) { fail("occupancy", "seed table missing"); return; }
    /* 4 ranks in loopback on 148 SMs: each rank's 3 threadblocks (all planned on SM 0) shifted
     * to their own window: 3 on each of 4 SMs. */
    fakes("cuda", 148, 1, "10");
    expect("occupancy fits", run(b200, "cuda", NULL, "devices:", line, sizeof line), NUNART_OK, line, "planned SM + 37 r, mod 148");
    setenv("NUNART_MOCK_OCCUPANCY", "2", 1);
    expect("occupancy refused", run(b200, "cuda", NULL, NULL, line, sizeof line), NUNART_E_MISMATCH, line,
           "the plan puts 3 threadblocks on one SM, but only 2 blocks of the executor (256 threads) are resident on one SM at once");
    /* Exactly full: no spare block, still every threadblock resident and verified. */
    setenv("NUNART_MOCK_OCCUPANCY", "3", 1);
    expect("occupancy without spares", run(b200, "cuda", NULL, "cu-affinity:", line, sizeof line), NUNART_OK, line, ", 3 per SM;");
    /* Every resident slot filled, on request: 148 SMs x 3. */
    expect("full grid", run(b200, "cuda", "pinned_grid=full", "cu-affinity:", line, sizeof line), NUNART_OK, line, "over 444 blocks, 3 per SM;");
    expect("grid option", run(b200, "cuda", "pinned_grid=wide", NULL, line, sizeof line), NUNART_E_ARGUMENT, line, "option pinned_grid: tight");
    /* The fake runs a grid larger than the device holds in waves, as hardware does; a table
     * whose threadblocks wait across waves would time out, which the refusal above prevents. */
    free(b200);
}

/* ---- cubin, PTX and versions ---- */

static void test_compile_targets(const char *table) {
    char line[1024];
    fakes("cuda", 8, 1, "10");
    expect("cubin", run(table, "cuda", NULL, "executor:", line, sizeof line), NUNART_OK, line, "to a cubin for sm_100 (the device's compute capability)");
    /* Same major, newer minor: a cubin still loads (minor version compatibility). */
    setenv("NUNART_MOCK_NVRTC_VERSION", "13.1", 1);
    expect("cubin newer minor", run(table, "cuda", NULL, "executor:", line, sizeof line), NUNART_OK, line, "NVRTC 13.1");
    setenv("NUNART_MOCK_DRIVER_VERSION", "12040", 1);
    setenv("NUNART_MOCK_NVRTC_VERSION", "13.0", 1);
    expect("nvrtc newer than the driver", run(table, "cuda", NULL, NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "is newer than the driver, which runs CUDA 12.4 (cuDriverGetVersion 12040)");
    /* An NVRTC that does not know the device: PTX for the newest target it has, stated. */
    setenv("NUNART_MOCK_NVRTC_VERSION", "12.4", 1);
    setenv("NUNART_MOCK_NVRTC_ARCHS", "75,80,86", 1);
    expect("ptx fallback", run(table, "cuda", NULL, "executor:", line, sizeof line), NUNART_OK, line,
           "PTX for compute_86, JIT-compiled by the driver (fallback: sm_100 is not among this NVRTC's targets)");
    /* An NVRTC without cubin output, newer than the driver's minor: its PTX would not load. */
    setenv("NUNART_NVRTC_LIBRARY", lib("nvrtc-ptx"), 1);
    setenv("NUNART_MOCK_NVRTC_VERSION", "12.8", 1);
    expect("ptx newer than the driver", run(table, "cuda", NULL, NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "does not load PTX from a newer NVRTC (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)");
    setenv("NUNART_MOCK_NVRTC_VERSION", "12.4", 1);
    expect("ptx only", run(table, "cuda", NULL, "executor:", line, sizeof line), NUNART_OK, line, "(fallback: this NVRTC has no cubin output)");
}

/* ---- HIP shape and ISA from the KFD topology ---- */

static void write_node(const char *root, int node, const char *props) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", root, node);
    mkdir(root, 0755);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%d/properties", root, node);
    FILE *f = fopen(path, "w");
    if (f) { fputs(props, f); fclose(f); }
}

static void kfd(const char *root, int gfx) {
    char props[512];
    write_node(root, 0, "cpu_cores_count 16\nsimd_count 0\n");
    /* The fake HIP device 0 sits at PCI 0000:10:00.0: location_id 0x1000. */
    snprintf(props, sizeof props, "simd_count 32\nsimd_per_cu 4\nnum_xcc 2\ngfx_target_version %d\nlocation_id 4096\ndomain 0\n", gfx);
    write_node(root, 1, props);
}

static void test_hip_kfd(const char *table) {
    char root[4096], line[1024];
    in_scratch(root, sizeof root, "kfd-nodes");
    kfd(root, 90402);
    fakes("hip", 2, 1, NULL);
    setenv("NUNART_KFD_TOPOLOGY", root, 1);
    expect("kfd shape", run(table, "hip", NULL, "device:", line, sizeof line), NUNART_OK, line, "(gfx942:sramecc+:xnack-, 8 CUs, 2 XCDs from the KFD topology)");
    setenv("NUNART_KFD_TOPOLOGY", root, 1);
    expect("kfd target", run(table, "hip", NULL, "executor:", line, sizeof line), NUNART_OK, line,
           "with --offload-arch=gfx942 (the device's gcnArchName gfx942:sramecc+:xnack-, hipGetDevicePropertiesR0600; its KFD topology node agrees)");
    /* A runtime whose properties give no gcnArchName: the KFD node's ISA, stated. */
    setenv("NUNART_MOCK_GCN_ARCH", "", 1);
    expect("kfd target alone", run(table, "hip", NULL, "executor:", line, sizeof line), NUNART_OK, line,
           "with --offload-arch=gfx942 (the device's ISA, KFD topology; no valid gcnArchName from hipGetDevicePropertiesR0600)");
    setenv("NUNART_MOCK_GCN_ARCH", "gfx90a:sramecc+:xnack-", 1);
    expect("gcnArchName disagrees with kfd", run(table, "hip", NULL, NULL, line, sizeof line), NUNART_E_MISMATCH, line,
           "reports gcnArchName gfx90a:sramecc+:xnack- (hipGetDevicePropertiesR0600), but its KFD topology node 1 says gfx942");
    unsetenv("NUNART_MOCK_GCN_ARCH");
    setenv("NUNART_KFD_TOPOLOGY", root, 1);
    expect("kfd disagrees", run(table, "hip", "cus=16 dies=2", NULL, line, sizeof line), NUNART_E_MISMATCH, line,
           "options cus=16 dies=2, but HIP device 0 'Mock HIP device 0' has 8 CUs on 2 XCDs (KFD topology node 1)");
    setenv("NUNART_KFD_TOPOLOGY", root, 1);
    expect("arch disagrees", run(table, "hip", "arch=gfx90a", NULL, line, sizeof line), NUNART_E_MISMATCH, line,
           "option arch=gfx90a, but HIP device 0 is gfx942");
    setenv("NUNART_MOCK_HIPRTC_VERSION", "5.2", 1);
    expect("hiprtc too old", run(table, "hip", NULL, NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "hipRTC 5.2 (");
    expect("hiprtc too old names the need", NUNART_OK, NUNART_OK, line, "is too old for gfx942 (needs 6.0 or newer");
    unsetenv("NUNART_MOCK_HIPRTC_VERSION");
    kfd(root, 110000);
    setenv("NUNART_MOCK_GCN_ARCH", "gfx1100", 1);
    expect("unknown target", run(table, "hip", NULL, NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "target gfx1100 (the device's gcnArchName gfx1100, hipGetDevicePropertiesR0600; its KFD topology node agrees) is not one the "
           "executor is built for (gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950)");
    unsetenv("NUNART_MOCK_GCN_ARCH");
}

/* Without a KFD topology entry the ISA is the device's gcnArchName, never hipRTC's default
 * unchecked: a known one compiles for exactly it, an unknown one and a missing one are refused
 * before hipRTC sees them; option arch must agree. The pre-ROCm-6 layout is read too. */
static void test_hip_gcn_arch(const char *table) {
    char line[1024], trace[4096];
    in_scratch(trace, sizeof trace, "gcn-trace.txt");
    fakes("hip", 2, 1, NULL);
    remove(trace);
    setenv("NUNART_MOCK_TRACE", trace, 1);
    expect("gcnArchName target", run(table, "hip", "cus=8 dies=2", "executor:", line, sizeof line), NUNART_OK, line,
           "with --offload-arch=gfx942 (the device's gcnArchName gfx942:sramecc+:xnack-, hipGetDevicePropertiesR0600)");
    FILE *f = fopen(trace, "r");
    char l[512];
    int compiled = 0, other = 0;
    while (f && fgets(l, sizeof l, f)) {
        if (strncmp(l, "HIPRTCCompileProgram", 20)) continue;
        if (!strcmp(l, "HIPRTCCompileProgram --offload-arch=gfx942\n")) compiled++;
        else other++;
    }
    if (f) fclose(f);
    if (compiled != 1 || other) fail("gcnArchName compiles for it", "%d compiles for gfx942, %d others (%s)", compiled, other, trace);
    else passed++;
    unsetenv("NUNART_MOCK_TRACE");
    expect("gcnArchName device line", run(table, "hip", "cus=8 dies=2", "device:", line, sizeof line), NUNART_OK, line,
           "(gfx942:sramecc+:xnack-, 8 CUs, 2 XCDs as given)");
    setenv("NUNART_MOCK_GCN_ARCH", "gfx950", 1);
    expect("gcnArchName gfx950", run(table, "hip", "cus=8 dies=2", "executor:", line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "hipRTC 6.2 (");
    expect("gcnArchName gfx950 needs 7.0", NUNART_OK, NUNART_OK, line, "is too old for gfx950 (needs 7.0 or newer");
    setenv("NUNART_MOCK_HIPRTC_VERSION", "7.0", 1);
    expect("gcnArchName gfx950 on 7.0", run(table, "hip", "cus=8 dies=2", "executor:", line, sizeof line), NUNART_OK, line, "with --offload-arch=gfx950 (");
    unsetenv("NUNART_MOCK_HIPRTC_VERSION");
    setenv("NUNART_MOCK_GCN_ARCH", "gfx1201", 1);
    expect("gcnArchName unknown", run(table, "hip", "cus=8 dies=2", NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "target gfx1201 (the device's gcnArchName gfx1201, hipGetDevicePropertiesR0600) is not one the executor is built for (gfx908, gfx90a, "
           "gfx940, gfx941, gfx942, gfx950)");
    /* No KFD entry, no gcnArchName: refused, naming option arch, which then names the target. */
    setenv("NUNART_MOCK_GCN_ARCH", "", 1);
    expect("no ISA refused", run(table, "hip", "cus=8 dies=2", NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "HIP device 0's ISA is unknown (no valid gcnArchName from hipGetDevicePropertiesR0600, no KFD topology entry), so the executor is "
           "not compiled for hipRTC's default target unchecked: option arch=gfxNNN names it");
    expect("no ISA, option arch", run(table, "hip", "cus=8 dies=2 arch=gfx90a", "executor:", line, sizeof line), NUNART_OK, line,
           "with --offload-arch=gfx90a (option arch; unchecked: no valid gcnArchName from hipGetDevicePropertiesR0600, no KFD topology entry)");
    setenv("NUNART_MOCK_GCN_ARCH", "gfx942;rm -rf", 1);
    expect("garbled gcnArchName", run(table, "hip", "cus=8 dies=2", NULL, line, sizeof line), NUNART_E_UNAVAILABLE, line,
           "HIP device 0's ISA is unknown (no valid gcnArchName from hipGetDevicePropertiesR0600");
    unsetenv("NUNART_MOCK_GCN_ARCH");
    expect("option arch agrees", run(table, "hip", "cus=8 dies=2 arch=gfx942", "executor:", line, sizeof line), NUNART_OK, line,
           "(option arch; agrees with the device's gcnArchName gfx942:sramecc+:xnack-");
    expect("option arch disagrees", run(table, "hip", "cus=8 dies=2 arch=gfx90a", NULL, line, sizeof line), NUNART_E_MISMATCH, line,
           "option arch=gfx90a, but HIP device 0 is gfx942 (the device's gcnArchName gfx942:sramecc+:xnack-");
    /* A runtime older than ROCm 6: hipGetDeviceProperties, the older layout. */
    setenv("NUNART_HIP_LIBRARY", lib("hip-with-rtc"), 1);
    unsetenv("NUNART_HIPRTC_LIBRARY");
    setenv("NUNART_MOCK_GCN_ARCH", "gfx90a:sramecc+:xnack-", 1);
    expect("gcnArchName older layout", run(table, "hip", "cus=8 dies=2", "executor:", line, sizeof line), NUNART_OK, line,
           "with --offload-arch=gfx90a (the device's gcnArchName gfx90a:sramecc+:xnack-, hipGetDeviceProperties)");
    unsetenv("NUNART_MOCK_GCN_ARCH");
}

/* HW_ID's SE_ID: bits 15:13 on gfx90a, 14:13 on gfx94x. With bit 15 set by the fake and every
 * block in shader engine 0, gfx942 must read SE 0 and gfx90a SE 4. */
static void test_hip_hw_id(const char *table) {
    char root[4096], line[1024];
    in_scratch(root, sizeof root, "kfd-nodes-hw-id");
    struct { int gfx; const char *se; } cases[] = {{90402, "SE 0-0,"}, {90010, "SE 4-4,"}};
    for (int i = 0; i < 2; i++) {
        kfd(root, cases[i].gfx);
        fakes("hip", 2, 1, NULL);
        setenv("NUNART_MOCK_GCN_ARCH", i ? "gfx90a:sramecc+:xnack-" : "gfx942:sramecc+:xnack-", 1);
        setenv("NUNART_KFD_TOPOLOGY", root, 1);
        setenv("NUNART_MOCK_HW_ID_BIT15", "1", 1);
        expect(i ? "hw_id se 3 bits on gfx90a" : "hw_id se 2 bits on gfx94x", run(table, "hip", NULL, "cu-readback:", line, sizeof line),
               NUNART_OK, line, cases[i].se);
    }
    unsetenv("NUNART_MOCK_HW_ID_BIT15");
    unsetenv("NUNART_MOCK_GCN_ARCH");
}

/* ---- an operand outside every segment ---- */

/* Two devices, the kernel's segment table without device 0's storages: the executor aborts with
 * reason 2 and the launch fails with that reason instead of touching the arena's base. */
static void test_out_of_segment(void) {
    char *ag = slurp("allgather2.txt"), line[1024];
    if (!ag) { fail("out of segment", "seed table missing"); return; }
    fakes("cuda", 8, 2, "10");
    expect("segments intact", run(ag, "cuda", "devices=2", NULL, line, sizeof line), NUNART_OK, line, NULL);
    setenv("NUNART_MOCK_DROP_SEGMENT", "1", 1);
    expect("out of segment aborts", run(ag, "cuda", "devices=2", NULL, line, sizeof line), NUNART_E_DEVICE, line,
           "the executor stopped: a step's operand lies outside every device's segment of the buffers");
    fakes("hip", 2, 2, NULL);
    setenv("NUNART_MOCK_DROP_SEGMENT", "1", 1);
    expect("out of segment aborts on hip", run(ag, "hip", "cus=8 dies=2 devices=2", NULL, line, sizeof line), NUNART_E_DEVICE, line,
           "outside every device's segment");
    unsetenv("NUNART_MOCK_DROP_SEGMENT");
    free(ag);
}

/* ---- the per-SM histogram ---- */

/* 300 SMs with 1 and 2 threadblocks in turn: no two neighbours collapse into a range, so the
 * histogram is longer than the report's line; it must end with what it left out, not mid-entry. */
static void test_histogram_cut(void) {
    enum { SMS = 300, WORDS = (SMS + 31) / 32 };
    size_t cap = 1 << 20, n = 0;
    char *t = malloc(cap), line[2048];
    if (!t) { fail("histogram cut", "out of memory"); return; }
    int tbs = 0;
    for (int c = 0; c < SMS; c++) tbs += 1 + c % 2;
    n += (size_t) snprintf(t + n, cap - n, "nunart-launch 1\nplan name=histogram collective=custom ranks=1 chunk_factor=1 inplace=0 root=0 protocol=Simple\n"
                           "device topology=big cus=%d dies=1 stacks=1 mask_words=%d dispatch=any\nplacement policy=ua chunk_bytes=4 page_bytes=4096\n"
                           "rank id=0 storages=1 threadblocks=%d grid=%d streams=0\nstorage rank=0 id=0 name=buf chunks=1 pages=1 stacks=0\n"
                           "view rank=0 buffer=input storage=0 offset=0 chunks=1\nview rank=0 buffer=output storage=0 offset=0 chunks=1\n",
                           SMS, WORDS, tbs, tbs);
    for (int c = 0, id = 0; c < SMS; c++) {
        for (int k = 0; k < 1 + c % 2; k++, id++) {
            char mask[WORDS * 8 + 1];
            for (int h = WORDS * 8 - 1; h >= 0; h--) mask[WORDS * 8 - 1 - h] = c / 4 == h ? "1248"[c % 4] : '0';
            mask[WORDS * 8] = 0;
            n += (size_t) snprintf(t + n, cap - n, "tb rank=0 id=%d cu=%d die=0 slot=%d domain=0 group=0 send=-1 recv=-1 channel=0 mask=0x%s steps=1\n"
                                   "step rank=0 tb=%d id=0 op=nop src=- dst=- peer=-1 deps=- from=- to=-\n", id, c, id, mask, id);
        }
    }
    n += (size_t) snprintf(t + n, cap - n, "grid rank=0 slots=");
    for (int id = 0; id < tbs; id++) n += (size_t) snprintf(t + n, cap - n, "%s%d", id ? "," : "", id);
    snprintf(t + n, cap - n, "\nend\n");
    fakes("cuda", SMS, 1, "9");
    nunart_status st = run(t, "cuda", NULL, "cu-readback:", line, sizeof line);
    size_t len = strlen(line);
    expect("histogram cut", st, NUNART_OK, line, " ... cut: ");
    if (!st && !strstr(line, "SMs with ")) fail("histogram cut", "no count of what was left out: %s", line);
    else if (!st && (len >= 1024 || line[len - 1] != ')')) fail("histogram cut", "%zu characters, ends '%s'", len, line + (len > 40 ? len - 40 : 0));
    else if (!st) passed++;
    free(t);
}

/* ---- nunart-run's fidelity check ---- */

static void fidelity_case(const char *test, const char *report_line, int want, const char *needle) {
    char why[512] = "";
    int got = nunart_fidelity_check(report_line, why, sizeof why);
    if (got != want) fail(test, "'%s' %s", report_line ? report_line : "(none)", got ? "passed" : why);
    else if (needle && !strstr(why, needle)) fail(test, "'%s' lacks '%s'", why, needle);
    else passed++;
}

static void test_fidelity_check(void) {
    /* The rounded fraction of 2499/2500 reads 1.000: the counts decide, not the text. */
    fidelity_case("fidelity 2499/2500", "1.000 (2499/2500 threadblocks ran on their planned CU, device readback)", 0,
                  "below 1.000 (1 of 2500 threadblocks off their planned unit)");
    fidelity_case("fidelity 2500/2500", "1.000 (2500/2500 threadblocks ran on their planned CU, device readback)", 1, NULL);
    fidelity_case("fidelity emulated", "emulated (3/3 threadblocks ran on their planned logical CU; no hardware readback)", 1, NULL);
    fidelity_case("fidelity missing", "", 0, "no placement-fidelity line");
    fidelity_case("fidelity null", NULL, 0, "no placement-fidelity line");
    fidelity_case("fidelity unknown", "unknown (no launch)", 0, "no threadblock counts");
    fidelity_case("fidelity no threadblocks", "1.000 (0/0 threadblocks ran on their planned CU, device readback)", 0, "no threadblock was placed");
    fidelity_case("fidelity garbled", "1.000 (2500 threadblocks)", 0, "no threadblock counts");
    /* The runtime's own line on the fake, every block on SM 0: one threadblock of three on its SM. */
    char *custom = slurp("custom-deps.txt"), line[1024];
    if (!custom) { fail("fidelity line", "seed table missing"); return; }
    fakes("cuda", 8, 1, "10");
    setenv("NUNART_MOCK_LOCATION", "0", 1);
    nunart_ctx *ctx = NULL;
    nunart_status st = nunart_open(&ctx, "cuda", NULL);
    if (!st) st = nunart_load(ctx, custom, strlen(custom));
    if (!st) st = nunart_alloc(ctx);
    if (!st) st = nunart_launch(ctx);
    const char *r = st ? NULL : strstr(nunart_report(ctx), "placement-fidelity: ");
    snprintf(line, sizeof line, "%.*s", r ? (int) strcspn(r + 20, "\n") : 0, r ? r + 20 : "");
    expect("fidelity line one of three", st, NUNART_OK, st ? nunart_message(ctx) : line, "0.333 (1/3 threadblocks ran on their planned CU");
    fidelity_case("fidelity line fails", line, 0, "below 1.000 (2 of 3 threadblocks off their planned unit)");
    nunart_close(ctx);
    unsetenv("NUNART_MOCK_LOCATION");
    free(custom);
}

/* ---- the latency probe ---- */

static void test_probe(void) {
    fakes("cuda", 8, 1, "9");
    nunart_ctx *ctx = NULL;
    int nloc = 0, naddr = 4;
    nunart_status st = nunart_open(&ctx, "cuda", NULL);
    if (!st) st = nunart_probe_latency(ctx, 1, naddr, 2, NULL, 0, &nloc);
    double *out = !st && nloc > 0 ? calloc((size_t) nloc * (1 + 3 * (size_t) naddr), sizeof *out) : NULL;
    if (out) st = nunart_probe_latency(ctx, 1, naddr, 2, out, (size_t) nloc * (1 + 3 * (size_t) naddr), &nloc);
    if (st || !out) fail("probe", "%s", nunart_message(ctx));
    /* %smid may have gaps: room for twice the SMs; the fake measures SMs 0-7 at 1.98 GHz, and
     * SM 0 (lower half) is slower to odd addresses: 1350 cycles cold, 606 ns at 1.98 GHz less. */
    else if (nloc != 16 || out[0] != 1980.0 || out[13 * 8] != 0.0 || (int) (out[1] + 0.5) != 606 || (int) (out[4] + 0.5) != 682)
        fail("probe", "nloc %d, SM 0 at %.1f MHz, cold %.1f / %.1f ns, SM 8 at %.1f MHz", nloc, out[0], out[1], out[4], out[13 * 8]);
    else if (nunart_state_of(ctx) != NUNART_OPENED) fail("probe", "state %s after the probe", nunart_state_name(nunart_state_of(ctx)));
    else passed++;
    free(out);
    nunart_close(ctx);
    ctx = NULL;
    nunart_open(&ctx, "host", NULL);
    st = nunart_probe_latency(ctx, 1, naddr, 2, NULL, 0, &nloc);
    expect("probe on host", st, NUNART_E_UNSUPPORTED, nunart_message(ctx), "has no device to probe");
    nunart_close(ctx);
}

/* One probe of `mib` MiB (0: the whole memory) with 4 addresses; the report's probe-memory line
 * into line, or the message on failure. */
static nunart_status probe_once(const char *backend, const char *options, int mib, char *line, size_t cap) {
    nunart_ctx *ctx = NULL;
    int nloc = 0;
    double *out = NULL;
    nunart_status st = nunart_open(&ctx, backend, options);
    if (!st) st = nunart_probe_latency(ctx, mib, 4, 2, NULL, 0, &nloc);
    if (!st && !(out = calloc((size_t) nloc * 13, sizeof *out))) st = NUNART_E_MEMORY;
    if (!st) st = nunart_probe_latency(ctx, mib, 4, 2, out, (size_t) nloc * 13, &nloc);
    const char *r = st ? nunart_message(ctx) : strstr(nunart_report(ctx), "probe-memory: ");
    if (r && !st) r += 14;
    snprintf(line, cap, "%.*s", r ? (int) strcspn(r, "\n") : 0, r ? r : "");
    free(out);
    nunart_close(ctx);
    return st;
}

/* The last "nunart_probe addresses in N allocations of B bytes" line of the fake's trace. */
static int probe_trace(const char *path, int *allocs, long long *bytes) {
    FILE *f = fopen(path, "r");
    char l[512];
    int found = 0;
    while (f && fgets(l, sizeof l, f)) found |= sscanf(l, "nunart_probe addresses in %d allocations of %lld bytes", allocs, bytes) == 2;
    if (f) fclose(f);
    return found;
}

/* By default the probe's addresses cover the fake device's whole memory: 64 MiB given in blocks
 * of at most 20 MiB, not bound by mem_limit_mb; what it leaves out is named and small. */
static void test_probe_memory(void) {
    char line[1024], trace[4096];
    in_scratch(trace, sizeof trace, "probe-trace.txt");
    const char *backend[] = {"cuda", "hip"}, *options[] = {"mem_limit_mb=16", "cus=8 dies=2 mem_limit_mb=16"};
    for (int b = 0; b < 2; b++) {
        fakes(backend[b], 8, 1, "9");
        setenv("NUNART_MOCK_MEM_MB", "64", 1);
        setenv("NUNART_MOCK_MAX_BLOCK_MB", "20", 1);
        remove(trace);
        setenv("NUNART_MOCK_TRACE", trace, 1);
        nunart_status st = probe_once(backend[b], options[b], 0, line, sizeof line);
        long long span = 0, total = 0, free0 = 0, flush = 0, reserve = 0, left = 0, traced = 0;
        int blocks = 0, allocs = 0;
        double pct = 0;
        int parsed = sscanf(line, "%lld of %lld bytes (%lf%% of the device's memory) in %d blocks, the addresses spread evenly over them; %lld bytes "
                            "free at the start (%*[^)]); not probed: %lld bytes that clear L2, %lld bytes left free for the launch, %lld not taken",
                            &span, &total, &pct, &blocks, &free0, &flush, &reserve, &left);
        char test[64];
        snprintf(test, sizeof test, "probe whole memory (%s)", backend[b]);
        if (st) fail(test, "%s", line);
        else if (parsed != 8) fail(test, "probe-memory line not as expected: %s", line);
        else if (total != 64LL << 20 || blocks < 4 || span + flush + reserve + left != free0 || left >= 1 << 20 || span < 62LL << 20 || pct < 96.0)
            fail(test, "%s", line);
        else if (!probe_trace(trace, &allocs, &traced) || allocs != blocks || traced != span)
            fail(test, "the addresses reached %d allocations of %lld bytes, the probe took %d blocks of %lld", allocs, traced, blocks, span);
        else passed++;
    }
    unsetenv("NUNART_MOCK_TRACE");
    fakes("cuda", 8, 1, "9");
    setenv("NUNART_MOCK_MEM_MB", "64", 1);
    expect("probe 8 MiB", probe_once("cuda", NULL, 8, line, sizeof line), NUNART_OK, line, "8388608 of 67108864 bytes (12.5% of the device's memory) in 1 block,");
    expect("probe more than the device", probe_once("cuda", NULL, 100, line, sizeof line), NUNART_E_MEMORY, line,
           "latency probe over 100 MiB: device 0 has 64.0 MiB free of 64.0 MiB (cuMemGetInfo), so at most 62.7 MiB can be probed");
    expect("probe negative size", probe_once("cuda", NULL, -1, line, sizeof line), NUNART_E_ARGUMENT, line, "mib in [0, 1048576] (0: the whole device memory)");
    /* A device that gives less than its memory info says is free: an explicit size fails,
     * naming what it gave; the default takes what there is and says what it left out. */
    setenv("NUNART_MOCK_MEM_GIVES_MB", "40", 1);
    expect("probe short of memory", probe_once("cuda", NULL, 50, line, sizeof line), NUNART_E_MEMORY, line,
           "cuMemAlloc: device 0 gave 38.0 MiB in 3 blocks (at most 64)");
    expect("probe short of memory names the need", NUNART_OK, NUNART_OK, line, "for the latency probe, the requested size needed (64.0 MiB free of 64.0 MiB");
    expect("probe what the device gives", probe_once("cuda", NULL, 0, line, sizeof line), NUNART_OK, line, "39845888 of 67108864 bytes (59.4% of the device's memory) in 2 blocks");
    expect("probe says what it left out", NUNART_OK, NUNART_OK, line, ", 25949938 not taken (pieces under 1 MiB, or refused by the device)");
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: nunart-driver-test TABLES_DIR MOCKS_DIR SCRATCH_DIR\n");
        return 2;
    }
    tables = argv[1];
    mocks = argv[2];
    scratch = argv[3];
    char *custom = slurp("custom-deps.txt");
    if (!custom) { fprintf(stderr, "nunart-driver-test: no custom-deps.txt in %s\n", tables); return 2; }
    test_cuda_context(custom);
    test_hip_device(custom);
    test_occupancy();
    test_compile_targets(custom);
    test_hip_kfd(custom);
    test_hip_gcn_arch(custom);
    test_hip_hw_id(custom);
    test_out_of_segment();
    test_fidelity_check();
    test_histogram_cut();
    test_probe();
    test_probe_memory();
    free(custom);
    printf("nunart-driver-test: %d passed, %d failed\n", passed, failures);
    return failures ? 1 : 0;
}
