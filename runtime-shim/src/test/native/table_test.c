/* Native tests of the runtime through its C ABI. test-native.sh builds them under ASan and
 * UBSan where the compiler has them, so a finding (an overflow, a leak, undefined behaviour)
 * fails the test as surely as a wrong message.
 *   - every seed table (tables/) runs end to end on the host backend and on the fake CUDA and
 *     HIP drivers (one device and two), and verifies;
 *   - each class of hostile table is refused at load with one message that names it.
 * Usage: nunart-native-test TABLES_DIR [MOCKS_DIR]   (without MOCKS_DIR only the host runs)
 * Exit: 0 all passed, 1 a test failed. */
#include "nunart.h"
#include "check.h"
#include "fakes.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mocks;


static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, k;
    char chunk[4096];
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *q = realloc(buf, cap);
            if (!q) { free(buf); fclose(f); return NULL; }
            buf = q;
        }
        memcpy(buf + n, chunk, k);
        n += k;
    }
    fclose(f);
    if (!buf) buf = calloc(1, 1);
    else buf[n] = 0;
    return buf;
}

/* A growing string for generated tables. */
typedef struct {
    char *p;
    size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) abort();
    if (t->n + (size_t) k + 1 > t->cap) {
        t->cap = (t->n + (size_t) k + 1) * 2;
        if (!(t->p = realloc(t->p, t->cap))) abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t) k;
}

/* `s` with its first `old` replaced by `new` (a fresh string); NULL, and a failure of `test`,
 * when `old` is absent: a replacement that silently misses would test the seed instead. */
static char *sub(const char *test, const char *s, const char *old, const char *new) {
    const char *at = s ? strstr(s, old) : NULL;
    if (!at) { fail(test, "the table has no '%s' to replace", old); return NULL; }
    text t = {0};
    add(&t, "%.*s%s%s", (int) (at - s), s, new, at + strlen(old));
    return t.p;
}

/* sub() applied twice, freeing the middle string. */
static char *sub2(const char *test, const char *s, const char *o1, const char *n1, const char *o2, const char *n2) {
    char *a = sub(test, s, o1, n1), *b = a ? sub(test, a, o2, n2) : NULL;
    free(a);
    return b;
}

/* Loads `table`; it must be refused with status `want` and a message containing `msg`. */
static void refused(const char *test, const char *table, const char *options, nunart_status want, const char *msg) {
    if (!table) return;
    nunart_ctx *ctx = NULL;
    nunart_status st = nunart_open(&ctx, "host", options);
    if (st) { fail(test, "open: %s", nunart_message(ctx)); nunart_close(ctx); return; }
    st = nunart_load(ctx, table, strlen(table));
    const char *m = nunart_message(ctx);
    if (st != want) fail(test, "load gave %s, expected %s: %s", nunart_status_name(st), nunart_status_name(want), m);
    else if (!strstr(m, msg)) fail(test, "message lacks '%s': %s", msg, m);
    else if (strchr(m, '\n')) fail(test, "message spans lines: %s", m);
    else if (nunart_state_of(ctx) != NUNART_FAILED) fail(test, "state %s after a refused load", nunart_state_name(nunart_state_of(ctx)));
    else passed++;
    nunart_close(ctx);
}

/* `table` with its first `old` replaced by `new` is refused with `want` and a message holding `msg`. */
static void refused_edit(const char *test, const char *table, const char *old, const char *new, nunart_status want, const char *msg) {
    char *t = sub(test, table, old, new);
    refused(test, t, NULL, want, msg);
    free(t);
}

/* Runs `table` through every call; the data check must pass (`verify` is NUNART_OK), or fail
 * with that status. Also times two launches, which refill the buffers, and launches again. */
static void runs(const char *test, const char *table, const char *backend, const char *options, nunart_status verify) {
    if (!table) return;
    nunart_ctx *ctx = NULL;
    double median;
    nunart_status st = nunart_open(&ctx, backend, options);
    if (!st) st = nunart_load(ctx, table, strlen(table));
    if (!st) st = nunart_alloc(ctx);
    if (!st && verify == NUNART_OK) st = nunart_time_launches(ctx, 2, 1, &median);
    if (!st) st = nunart_launch(ctx);
    if (!st) st = nunart_verify(ctx);
    if (st != verify) fail(test, "%s backend: %s (expected %s): %s", backend, nunart_status_name(st), nunart_status_name(verify), nunart_message(ctx));
    else passed++;
    nunart_close(ctx);
}

/* The device line's cus= and dies=; 0 when absent. */
static void shape(const char *table, int *cus, int *dies) {
    const char *d = strstr(table, "\ndevice ");
    const char *c = d ? strstr(d, " cus=") : NULL, *e = d ? strstr(d, " dies=") : NULL;
    *cus = c ? atoi(c + 5) : 0;
    *dies = e ? atoi(e + 6) : 0;
}

/* A seed on the host, then on the fakes: HIP takes the table's shape from the options, the
 * fake CUDA device has the table's SMs and one or two dies (compute capability 9 or 10). */
static void seed_runs(const char *name, const char *table, int ranks_ok_for_two) {
    char test[512], opts[128];
    snprintf(test, sizeof test, "seed %s", name);
    runs(test, table, "host", NULL, NUNART_OK);
    if (!mocks) return;
    int cus, dies;
    shape(table, &cus, &dies);
    for (int devices = 1; devices <= (ranks_ok_for_two ? 2 : 1); devices++) {
        use_fakes(mocks, "hip", dies, devices);
        snprintf(opts, sizeof opts, "cus=%d dies=%d devices=%d", cus, dies, devices);
        runs(test, table, "hip", opts, NUNART_OK);
        if (dies > 2) continue;
        use_fakes(mocks, "cuda", cus, devices);
        setenv("NUNART_MOCK_CC", dies == 2 ? "10" : "9", 1);
        snprintf(opts, sizeof opts, "devices=%d", devices);
        runs(test, table, "cuda", opts, NUNART_OK);
    }
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *) a, *(char *const *) b); }

/* Every *.txt of the folder, in name order. */
static void all_seeds(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) { fail("seeds", "cannot open %s", dir); return; }
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t k = strlen(e->d_name);
        if (k > 4 && strcmp(e->d_name + k - 4, ".txt") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t) n, sizeof *names, by_name);
    if (!n) fail("seeds", "no tables in %s", dir);
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *t = slurp(path);
        if (!t) fail("seeds", "cannot read %s", path);
        else seed_runs(names[i], t, !strstr(t, " ranks=1 "));
        free(t);
        free(names[i]);
    }
}

/* The header of a generated table: `ranks` ranks on the tiny 8-CU, 2-die device. */
static void header(text *t, const char *collective, int ranks, int cf, long long chunk_bytes) {
    add(t, "nunart-launch 1\nplan name=gen collective=%s ranks=%d chunk_factor=%d inplace=1 root=0 protocol=Simple\n", collective,
        ranks, cf);
    add(t, "device topology=tiny cus=8 dies=2 stacks=2 mask_words=1 dispatch=none\n");
    add(t, "placement policy=nap chunk_bytes=%lld page_bytes=4096\n", chunk_bytes);
}

/* Ranks with `storages` storages of `chunks` chunks each and no threadblocks. */
/* With expect = 1, each rank's output chunk (its input's: one storage holds both) is expected to
 * be the next rank's input chunk, which it is not. */
static char *buffers_expecting(const char *collective, int ranks, int cf, long long chunk_bytes, int storages, int chunks, int expect) {
    text t = {0};
    header(&t, collective, ranks, cf, chunk_bytes);
    for (int r = 0; r < ranks; r++) {
        add(&t, "rank id=%d storages=%d threadblocks=0 grid=0 streams=0 expects=%d\n", r, storages, expect);
        for (int s = 0; s < storages; s++) add(&t, "storage rank=%d id=%d name=b%d chunks=%d pages=0 stacks=-\n", r, s, s, chunks);
        add(&t, "view rank=%d buffer=input storage=0 offset=0 chunks=1\n", r);
        add(&t, "view rank=%d buffer=output storage=0 offset=0 chunks=1\n", r);
        if (expect) add(&t, "expect rank=%d out=0 count=1 op=copy src=%d:0\n", r, (r + 1) % ranks);
        add(&t, "grid rank=%d slots=-\n", r);
    }
    add(&t, "end\n");
    return t.p;
}

static char *buffers_only(const char *collective, int ranks, int cf, long long chunk_bytes, int storages, int chunks) {
    return buffers_expecting(collective, ranks, cf, chunk_bytes, storages, chunks, 0);
}

/* One rank, `n` threadblocks of one copy each; threadblock i depends on deps[i] ("-" none). */
static char *chain(int n, const char *const *deps) {
    text t = {0};
    header(&t, "custom", 1, 1, 16);
    add(&t, "rank id=0 storages=1 threadblocks=%d grid=%d streams=0\nstorage rank=0 id=0 name=buf chunks=%d pages=0 stacks=-\n", n, n, n + 1);
    for (int i = 0; i < n; i++) {
        add(&t, "tb rank=0 id=%d cu=%d die=%d slot=%d domain=0 group=0 send=-1 recv=-1 channel=0 mask=0x%x steps=1\n", i, i % 8, i % 2, i,
            1u << (i % 8));
        add(&t, "step rank=0 tb=%d id=0 op=cpy src=0:0:0:1 dst=0:0:%d:1 peer=-1 deps=%s from=- to=-\n", i, i + 1, deps[i]);
    }
    add(&t, "grid rank=0 slots=");
    for (int i = 0; i < n; i++) add(&t, "%s%d", i ? "," : "", i);
    add(&t, "\nend\n");
    return t.p;
}

/* Sums of sizes that wrap int64, and sums that pass the bound without wrapping. */
static void test_sizes(const char *ag2) {
    /* 4 ranks x 1024 storages x 2^24 chunks x 2^30 bytes = 2^66 bytes: once summed to 0. */
    char *t = buffers_only("custom", 4, 1, 1LL << 30, 1024, 1 << 24);
    refused("wrapped size", t, NULL, NUNART_E_TABLE,
            "line 6: storage 0 of rank 0: chunks=16777216 of chunk_bytes=1073741824 take the buffers past 1 TiB");
    free(t);
    /* Each storage exactly 1 TiB: the second one passes the bound. */
    t = buffers_only("custom", 4, 1, 1LL << 20, 1024, 1 << 20);
    refused("size summed past the bound", t, NULL, NUNART_E_TABLE, "line 7: storage 1 of rank 0: chunks=1048576 of chunk_bytes=1048576");
    free(t);
    /* Storages of exactly 1 TiB in all (2^20 chunks of 1 MiB); the first send stage passes it. */
    t = sub2("stage past the bound", ag2, "chunk_bytes=16", "chunk_bytes=1048576", "name=input chunks=1 ", "name=input chunks=1048571 ");
    refused("stage past the bound", t, NULL, NUNART_E_TABLE,
            "line 14: rank 0 threadblock 0 step 1 (s): its send stage of 1048576 bytes takes the buffers past 1 TiB");
    free(t);
    /* Within the bound, beyond the memory limit: refused at load, nothing allocated. */
    refused_edit("memory limit", ag2, "chunk_bytes=16", "chunk_bytes=1073741824", NUNART_E_MEMORY, "the plan needs 8192 MiB of buffers, the limit is 4096 MiB");
}

/* Partner tuples once shifted before their range check (negative, wider than their field). */
static void test_partner_shifts(const char *ag2) {
    static const char *const cases[][3] = {
        {"from=1:0:1", "from=-1:0:1", "line 15: from=-1:0:1: rank -1 does not exist (ranks=2)"},
        {"from=1:0:1", "from=2147483647:0:1", "from=2147483647:0:1: rank 2147483647 does not exist"},
        {"from=1:0:1", "from=1:-1:1", "from=1:-1:1 names no step"},
        {"from=1:0:1", "from=1:2147483647:1", "from=1:2147483647:1 names no step"},
        {"from=1:0:1", "from=1:0:2147483647", "from=1:0:2147483647 names no step"},
        {"to=1:0:2", "to=-1:0:2", "line 14: to=-1:0:2: rank -1 does not exist"},
        {"to=1:0:2", "to=1:1048576:2", "to=1:1048576:2 names no step"},
        {"from=1:0:1", "from=1:3:1", "rank 0 threadblock 0 step 2 (r) has from=1:3:1, which names no step"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char test[96];
        snprintf(test, sizeof test, "partner %s", cases[i][1]);
        refused_edit(test, ag2, cases[i][0], cases[i][1], NUNART_E_TABLE, cases[i][2]);
    }
}

/* Chunk ranges whose end passes int: printed as they are, not wrapped. */
static void test_range_messages(const char *ag2) {
    refused_edit("range end", ag2, "dst=0:1:0:1", "dst=0:1:1073741824:2147483647", NUNART_E_TABLE, "line 13: dst: chunks [1073741824, 3221225471) out of bounds of rank 0 storage 1 (2 chunks)");
    /* An operand on a rank declared later is checked once the table is read. */
    refused_edit("range end, later rank", ag2, "op=s src=0:0:0:1", "op=s src=1:0:1073741824:2147483647", NUNART_E_TABLE,
                 "line 14: rank 0 threadblock 0 step 1 (s): src chunks [1073741824, 3221225471) out of bounds of rank 1 storage 0 (1 chunks)");
}

/* Many ranks and a large chunk factor: the outputs are not written (no threadblocks), so the
 * check against the table's expectations fails; it must do so without overflowing. */
static void test_verify_overflow(void) {
    char *t = buffers_expecting("alltoall", 2049, 1 << 20, 4, 1, 1, 1);
    runs("verify overflow", t, "host", "max_ranks=4096", NUNART_E_VERIFY);
    free(t);
}

/* The postcondition the table states ('expect' lines) decides the data check, and bad ones are refused at load. */
static void test_expectations(const char *ag2) {
    const char *o1 = "expect rank=0 out=1 count=1 op=copy src=1:0";
    /* a wrong statement fails a correct run: the runtime checks what the table says */
    const char *wrong[][3] = {
        {"wrong expectation", o1, "expect rank=0 out=1 count=1 op=copy src=0:0"},
        {"sum expectation", o1, "expect rank=0 out=1 count=1 op=sum src=*:0"},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char *t = sub(wrong[i][0], ag2, wrong[i][1], wrong[i][2]);
        runs(wrong[i][0], t, "host", NULL, NUNART_E_VERIFY);
        free(t);
    }
    const char *bad[][4] = {
        {"out of the output", "expect rank=0 out=1 count=1", "expect rank=0 out=1 count=2",
         "line 11: expected output chunks [1, 3) outside rank 0's output (2 chunks)"},
        {"out of the input", o1, "expect rank=0 out=1 count=1 op=copy src=1:1",
         "rank 0's expectation 1 reads input chunks [1, 2) of rank 1, which has 1"},
        {"bad op", "op=copy src=1:0", "op=max src=1:0", "op=max: an expectation is copy or sum"},
        {"sum of one rank", "op=copy src=1:0", "op=sum src=1:0", "op=sum takes src=*:INDEX"},
        {"bad source", "op=copy src=1:0", "op=copy src=7:0", "src=7:0 is not RANK:INDEX"},
        {"missing expectation", "expect rank=0 out=1 count=1 op=copy src=1:0\n", "", "rank 0 ended early"},
        {"expectation after threadblocks", "grid rank=0", "expect rank=0 out=0 count=1 op=copy src=0:0\ngrid rank=0",
         "'expect' after the threadblocks of rank 0"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) refused_edit(bad[i][0], ag2, bad[i][1], bad[i][2], NUNART_E_TABLE, bad[i][3]);
}

static void test_dependencies(const char *ag2) {
    refused_edit("self dependency", ag2, "deps=0:0 from=1:0:1", "deps=0:2 from=1:0:1", NUNART_E_TABLE, "line 15: step 2 of threadblock 0 depends on itself (deps=0:2): it could never run");
    refused_edit("later dependency", ag2, "deps=- from=- to=-", "deps=0:1 from=- to=-", NUNART_E_TABLE, "line 13: step 0 of threadblock 0 depends on step 1 of its own threadblock, which runs after it");
    refused_edit("missing dependency", ag2, "deps=0:0 from=1:0:1", "deps=0:9 from=1:0:1", NUNART_E_TABLE, "depends on 0:9, which does not exist (threadblock 0 has 3 steps)");
    const char *none[] = {"-", "0:0", "0:0,1:0"};
    char *t = chain(3, none);
    runs("dependencies without a cycle", t, "host", NULL, NUNART_OK);
    free(t);
    const char *two[] = {"1:0", "0:0", "-"};
    t = chain(3, two);
    refused("2-step cycle", t, NULL, NUNART_E_TABLE,
            "line 8: rank 0 threadblock 0 step 0 (cpy) is on a cycle of 2 steps that wait for each other, so none of them can ever run: "
            "it waits for rank 0 threadblock 1 step 0 (cpy) (deps), which waits for it (deps)");
    free(t);
    const char *three[] = {"2:0", "0:0", "1:0"};
    t = chain(3, three);
    refused("3-step cycle", t, NULL, NUNART_E_TABLE,
            "rank 0 threadblock 0 step 0 (cpy) is on a cycle of 3 steps that wait for each other, so none of them can ever run: "
            "it waits for rank 0 threadblock 2 step 0 (cpy) (deps), which waits for rank 0 threadblock 1 step 0 (cpy) (deps), "
            "which waits for it (deps)");
    free(t);
    const char *ten[] = {"9:0", "0:0", "1:0", "2:0", "3:0", "4:0", "5:0", "6:0", "7:0", "8:0"};
    t = chain(10, ten);
    refused("10-step cycle", t, NULL, NUNART_E_TABLE,
            "threadblock 5 step 0 (cpy) (deps), which waits for ... (3 more steps) ..., which waits for rank 0 threadblock 1 step 0 (cpy) (deps), "
            "which waits for it (deps)");
    free(t);
}

/* Waits through partners: each rank receives first, from the other's later send; and a
 * receive-and-send that takes its own send. */
static void test_partner_cycles(const char *ag2) {
    char *t = strdup(ag2);
    for (int r = 0; r < 2 && t; r++) {
        char o1[160], n1[160], o2[160], n2[160];
        int p = 1 - r;
        snprintf(o1, sizeof o1, "step rank=%d tb=0 id=1 op=s src=%d:0:0:1 dst=- peer=-1 deps=- from=- to=%d:0:2", r, r, p);
        snprintf(n1, sizeof n1, "step rank=%d tb=0 id=1 op=r src=- dst=%d:1:%d:1 peer=-1 deps=- from=%d:0:2 to=-", r, r, p, p);
        snprintf(o2, sizeof o2, "step rank=%d tb=0 id=2 op=r src=- dst=%d:1:%d:1 peer=-1 deps=0:0 from=%d:0:1 to=-", r, r, p, p);
        snprintf(n2, sizeof n2, "step rank=%d tb=0 id=2 op=s src=%d:0:0:1 dst=- peer=-1 deps=0:0 from=- to=%d:0:1", r, r, p);
        char *u = sub2("cycle through partners", t, o1, n1, o2, n2);
        free(t);
        t = u;
    }
    refused("cycle through partners", t, NULL, NUNART_E_TABLE,
            "line 14: rank 0 threadblock 0 step 1 (r) is on a cycle of 4 steps that wait for each other, so none of them can ever run: "
            "it waits for rank 1 threadblock 0 step 2 (s) (from), which waits for rank 1 threadblock 0 step 1 (r) (the step before it), "
            "which waits for rank 0 threadblock 0 step 2 (s) (from), which waits for it (the step before it)");
    free(t);
    t = sub2("own partner", ag2, "op=s src=0:0:0:1 dst=- peer=-1 deps=- from=- to=1:0:2", "op=rcs src=- dst=0:1:1:1 peer=-1 deps=- from=0:0:1 to=0:0:1",
             "op=r src=- dst=1:1:0:1 peer=-1 deps=0:0 from=0:0:1 to=-", "op=cpy src=1:0:0:1 dst=1:1:0:1 peer=-1 deps=0:0 from=- to=-");
    refused("own partner", t, NULL, NUNART_E_TABLE, "line 14: rank 0 threadblock 0 step 1 (rcs) waits for itself (from): it could never run");
    free(t);
}

/* The sanitizers' defaults for this program (ASAN_OPTIONS and UBSAN_OPTIONS add to them). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:halt_on_error=1"; }
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_stack_use_after_return=1:strict_string_checks=1"; }

/* Under modulo dispatch a stream mask must give every die a CU; a bit at or above the device's
 * CU count selects none (here bit 9 of an 8-CU device would be die 1's only CU). */
static void test_mask_bits_above_the_cus(const char *ag2) {
    char *t = sub2("mask bits above the CUs", ag2, "dispatch=none", "dispatch=modulo", "stream rank=0 domain=0 cus=2 added=0 mask=0x3",
                   "stream rank=0 domain=0 cus=2 added=0 mask=0x201");
    refused("mask bits above the CUs", t, NULL, NUNART_E_MISMATCH, "rank 0 stream of domain 0 leaves die 1 without a CU");
    free(t);
}

/* Loads `table` on the host; NULL (and a failure of `test`) when it is refused. */
static nunart_ctx *loaded(const char *test, const char *table) {
    nunart_ctx *ctx = NULL;
    if (nunart_open(&ctx, "host", NULL) || nunart_load(ctx, table, strlen(table))) {
        fail(test, "load: %s", nunart_message(ctx));
        nunart_close(ctx);
        return NULL;
    }
    return ctx;
}

/* A per-rank table (nunac --per-rank) loads for its one rank: the same grid order and
 * threadblock placement as the whole table gives that rank; other ranks and running it are
 * refused, and so are malformed part lines. */
static void test_per_rank(const char *tables) {
    const char *test = "per-rank table";
    char path[4096];
    snprintf(path, sizeof path, "%s/alltoall-direct-4.txt", tables);
    char *whole = slurp(path);
    snprintf(path, sizeof path, "%s/../per-rank/alltoall-direct-4.rank-0001.launch.txt", tables);
    char *part = slurp(path);
    if (!whole || !part) { fail(test, "cannot read the seed tables"); free(whole); free(part); return; }
    nunart_ctx *w = loaded(test, whole), *p = loaded(test, part);
    if (w && p) {
        if (nunart_part_rank(p) != 1 || nunart_part_rank(w) != -1)
            fail(test, "part rank %d (whole %d), expected 1 (-1)", nunart_part_rank(p), nunart_part_rank(w));
        else passed++;
        int gw[256], gp[256], pw[4], pp[4];
        size_t nw = 0, np = 0;
        if (nunart_grid_order(w, 1, gw, 256, &nw) || nunart_grid_order(p, 1, gp, 256, &np) || nw != np || nw == 0
            || memcmp(gw, gp, nw * sizeof *gw))
            fail(test, "rank 1's grid order differs (%zu and %zu slots): %s", nw, np, nunart_message(p));
        else passed++;
        int same = 1, tbs = 0;
        for (int tb = 0; same && !nunart_tb_placement(w, 1, tb, pw); tb++, tbs++)
            same = !nunart_tb_placement(p, 1, tb, pp) && !memcmp(pw, pp, sizeof pw);
        if (!same || tbs == 0 || !nunart_tb_placement(p, 1, tbs, pp)) fail(test, "threadblock placements differ after %d: %s", tbs, nunart_message(p));
        else passed++;
        size_t n0 = 0;
        if (nunart_grid_order(p, 0, NULL, 0, &n0) != NUNART_E_ARGUMENT || !strstr(nunart_message(p), "holds rank 1 alone"))
            fail(test, "rank 0 of a rank-1 table: %s", nunart_message(p));
        else passed++;
        if (!strstr(nunart_report(p), "part: rank 1 of 4")) fail(test, "the report does not name the part: %s", nunart_report(p));
        else passed++;
        if (nunart_alloc(p) != NUNART_E_UNSUPPORTED || !strstr(nunart_message(p), "need every rank's table"))
            fail(test, "alloc of a per-rank table: %s", nunart_message(p));
        else passed++;
    }
    nunart_close(w);
    nunart_close(p);
    refused_edit("part past the ranks", part, "part rank=1", "part rank=4", NUNART_E_TABLE, "part rank=4 is not a rank (ranks=4)");
    refused_edit("part twice", part, "part rank=1\n", "part rank=1\npart rank=1\n", NUNART_E_TABLE, "'part' must come once, before the first rank");
    refused_edit("part names another rank", part, "part rank=1", "part rank=2", NUNART_E_TABLE, "expected rank 2, found rank 1");
    refused_edit("rank block without its part line", part, "part rank=1\n", "", NUNART_E_TABLE, "expected rank 0, found rank 1");
    refused_edit("a second rank in a per-rank table", part, "\nend\n", "\nrank id=2 storages=1 threadblocks=0 grid=0 streams=0\nend\n", NUNART_E_TABLE, "a per-rank table holds rank 1 alone, found rank 2");
    refused_edit("a whole table marked as a part", whole, "rank id=0 ", "part rank=0\nrank id=0 ", NUNART_E_TABLE, "a per-rank table holds rank 0 alone, found rank 1");
    free(whole);
    free(part);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: nunart-native-test TABLES_DIR [MOCKS_DIR]\n");
        return 2;
    }
    mocks = argc == 3 ? argv[2] : NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/allgather2.txt", argv[1]);
    char *ag2 = slurp(path);
    if (!ag2) { fprintf(stderr, "nunart-native-test: cannot read %s\n", path); return 2; }
    all_seeds(argv[1]);
    test_sizes(ag2);
    test_partner_shifts(ag2);
    test_range_messages(ag2);
    test_verify_overflow();
    test_expectations(ag2);
    test_dependencies(ag2);
    test_partner_cycles(ag2);
    test_mask_bits_above_the_cus(ag2);
    test_per_rank(argv[1]);
    free(ag2);
    printf("nunart-native-test: %d passed, %d failed%s\n", passed, failures, mocks ? "" : " (no fake drivers given: host backend only)");
    return failures ? 1 : 0;
}
