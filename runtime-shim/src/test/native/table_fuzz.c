/* Seeded mutation fuzz of the launch-table loader. Each input is a seed table (tables/) with
 * one mutation (half of the inputs) or two to four: bytes, numbers and key values replaced by
 * edge cases, lines deleted, duplicated, swapped or spliced from another seed, truncation. It is
 * loaded on the host backend (a quarter of the inputs on the fake HIP driver when --mocks is
 * given) and, when it loads, allocated, launched and verified. A finding is a crash or sanitizer
 * report (test-native.sh builds this under ASan + UBSan), or a broken promise:
 *   - every call returns one of the statuses it documents, with a one-line message;
 *   - a table that loads never times out: a plan whose waits form no cycle always finishes.
 * Input i of seed S depends only on (S, i) and the seed tables, so --replay i reproduces it; a
 * failing input is written to DIR/fuzz-S-i.txt, also on a crash.
 *
 * Usage: nunart-table-fuzz [--seconds N] [--iterations N] [--seed S] [--replay I] [--out DIR]
 *                          [--mocks MOCKS_DIR] TABLES_DIR
 * Environment: NUNART_FUZZ_SECONDS (default 30) and NUNART_FUZZ_SEED (default 1), below the
 * options. Exit: 0 no finding, 1 a finding, 2 usage.
 *
 * Built with -DNUNART_LIBFUZZER and -fsanitize=fuzzer (clang), the same checks run on
 * libFuzzer's inputs instead (LLVMFuzzerTestOneInput; a finding aborts). */
#include "nunart.h"
#include "fakes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define NR_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NR_SANITIZED 1
#endif
#endif
#ifdef NR_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

/* ---- one run and its promises ---- */

typedef struct {
    long long inputs, loaded, verified, wrong, refused[NUNART_E_UNSUPPORTED + 1];
} tally;

/* Checks one call's status against those it may return, and its message. */
static int promise(nunart_ctx *ctx, const char *call, nunart_status st, unsigned allowed, char *why, size_t cap) {
    const char *m = nunart_message(ctx);
    if (!(allowed & (1u << st))) snprintf(why, cap, "%s returned %s: %s", call, nunart_status_name(st), m);
    else if (!*m || strchr(m, '\n')) snprintf(why, cap, "%s: the message is empty or spans lines: '%s'", call, m);
    else return 0;
    return -1;
}

#define ST(s) (1u << (s))

/* Loads and, when it loads, runs the table; 0, or -1 with `why` for a broken promise. */
static int check_one(const char *data, size_t len, const char *backend, const char *options, tally *tl, char *why, size_t cap) {
    nunart_ctx *ctx = NULL;
    nunart_status st = nunart_open(&ctx, backend, options);
    if (st) { snprintf(why, cap, "open: %s", nunart_message(ctx)); nunart_close(ctx); return -1; }
    int rc = 0;
    st = nunart_load(ctx, data, len);
    tl->inputs++;
    if ((rc = promise(ctx, "load", st, ST(NUNART_OK) | ST(NUNART_E_TABLE) | ST(NUNART_E_MISMATCH) | ST(NUNART_E_MEMORY), why, cap)) || st) {
        tl->refused[st]++;
        nunart_close(ctx);
        return rc;
    }
    tl->loaded++;
    st = nunart_alloc(ctx);
    if (!(rc = promise(ctx, "alloc", st, ST(NUNART_OK) | ST(NUNART_E_MEMORY), why, cap)) && !st) {
        st = nunart_launch(ctx); /* a timeout is a finding: a loaded table has no cycle of waits */
        if (!(rc = promise(ctx, "launch", st, ST(NUNART_OK), why, cap))) {
            st = nunart_verify(ctx);
            rc = promise(ctx, "verify", st, ST(NUNART_OK) | ST(NUNART_E_VERIFY), why, cap);
            if (st) tl->wrong++;
            else tl->verified++;
        }
    }
    nunart_close(ctx);
    return rc;
}

#ifdef NUNART_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tally tl = {0};
    char why[1400];
    if (check_one((const char *) data, size, "host", "timeout_ms=10000 mem_limit_mb=64", &tl, why, sizeof why)) {
        fprintf(stderr, "nunart-table-fuzz: %s\n", why);
        abort();
    }
    return 0;
}
#else

/* ---- inputs ---- */

typedef struct {
    char *p;
    size_t n, cap;
} bytes;

static void reserve(bytes *b, size_t n) {
    if (n <= b->cap) return;
    b->cap = n * 2;
    if (!(b->p = realloc(b->p, b->cap))) abort();
}

/* Replaces b[at, at + k) with s[0, n). */
static void put_range(bytes *b, size_t at, size_t k, const char *s, size_t n) {
    reserve(b, b->n - k + n + 1);
    memmove(b->p + at + n, b->p + at + k, b->n - at - k);
    memcpy(b->p + at, s, n);
    b->n = b->n - k + n;
}

typedef struct {
    uint64_t s;
} rng;

/* splitmix64: small, and good enough to spread mutations. */
static uint64_t next(rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static size_t below(rng *r, size_t n) { return n ? (size_t) (next(r) % n) : 0; }

static const char *const EDGE[] = {
    "0", "-1", "1", "2", "3", "7", "8", "16", "31", "32", "63", "64", "255", "256", "1023", "1024", "4095", "4096", "65536",
    "1048575", "1048576", "16777215", "16777216", "268435456", "1073741823", "1073741824", "2147483647", "2147483648",
    "-2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551616", "+1", "00000000000000000001", "0x10", "1e9", "", "-",
};
#define NEDGE (sizeof EDGE / sizeof *EDGE)

/* Line boundaries: the line holding `at` is [*lo, *hi), *hi at its '\n' or the end. */
static void line_at(const bytes *b, size_t at, size_t *lo, size_t *hi) {
    *lo = at;
    while (*lo > 0 && b->p[*lo - 1] != '\n') (*lo)--;
    *hi = at;
    while (*hi < b->n && b->p[*hi] != '\n') (*hi)++;
}

/* A value shaped for its key, small enough to name real steps, storages and chunks. */
static void value_for(rng *r, const char *key, size_t klen, char *out, size_t cap) {
    int small = (int) below(r, 4);
    if (klen == 4 && !memcmp(key, "deps", 4)) {
        int n = 1 + (int) below(r, 3), k = 0;
        for (int i = 0; i < n; i++) k += snprintf(out + k, cap - (size_t) k, "%s%d:%d", i ? "," : "", (int) below(r, 4), (int) below(r, 6));
    } else if ((klen == 4 && !memcmp(key, "from", 4)) || (klen == 2 && !memcmp(key, "to", 2))) {
        if (below(r, 4) == 0) snprintf(out, cap, "-");
        else snprintf(out, cap, "%d:%d:%d", (int) below(r, 4), (int) below(r, 4), (int) below(r, 6));
    } else if ((klen == 3 && !memcmp(key, "src", 3)) || (klen == 3 && !memcmp(key, "dst", 3))) {
        snprintf(out, cap, "%d:%d:%d:%d", (int) below(r, 4), (int) below(r, 3), (int) below(r, 8), 1 + (int) below(r, 3));
    } else if (below(r, 2)) snprintf(out, cap, "%d", small - 1);
    else snprintf(out, cap, "%s", EDGE[below(r, NEDGE)]);
}

/* The n bytes at lo and a newline, in a buffer the caller frees. */
static char *line_copy(const bytes *b, size_t lo, size_t n) {
    char *copy = malloc(n + 1);
    if (!copy) abort();
    memcpy(copy, b->p + lo, n);
    copy[n] = '\n';
    return copy;
}

static void mutate(bytes *b, rng *r, const bytes *seeds, int nseeds) {
    static const char ALPHA[] = "0123456789-:,= x\n#abcdef";
    if (!b->n) return;
    size_t at = below(r, b->n), lo, hi;
    switch (below(r, 10)) {
    case 0: b->p[at] = ALPHA[below(r, sizeof ALPHA - 1)]; break;
    case 1: { /* the number at or after `at` becomes an edge case */
        while (at < b->n && (b->p[at] < '0' || b->p[at] > '9')) at++;
        size_t e = at;
        while (e < b->n && b->p[e] >= '0' && b->p[e] <= '9') e++;
        if (at > 0 && b->p[at - 1] == '-') at--;
        const char *v = EDGE[below(r, NEDGE)];
        put_range(b, at, e - at, v, strlen(v));
        break;
    }
    case 2: { /* the value of the key=value at or after `at` */
        const char *eq = memchr(b->p + at, '=', b->n - at);
        if (!eq) break;
        size_t k = (size_t) (eq - b->p), ks = k, ve = k + 1;
        while (ks > 0 && b->p[ks - 1] != ' ' && b->p[ks - 1] != '\n') ks--;
        while (ve < b->n && b->p[ve] != ' ' && b->p[ve] != '\n') ve++;
        char v[64];
        value_for(r, b->p + ks, k - ks, v, sizeof v);
        put_range(b, k + 1, ve - k - 1, v, strlen(v));
        break;
    }
    case 3: line_at(b, at, &lo, &hi); put_range(b, lo, hi < b->n ? hi + 1 - lo : hi - lo, "", 0); break;
    case 4: { /* duplicate a line */
        line_at(b, at, &lo, &hi);
        size_t n = hi - lo;
        char *copy = line_copy(b, lo, n);
        put_range(b, lo, 0, copy, n + 1);
        free(copy);
        break;
    }
    case 5: { /* swap two lines: delete one, insert it before another */
        line_at(b, at, &lo, &hi);
        size_t n = hi - lo;
        char *copy = line_copy(b, lo, n);
        put_range(b, lo, hi < b->n ? n + 1 : n, "", 0);
        if (b->n) {
            line_at(b, below(r, b->n), &lo, &hi);
            put_range(b, lo, 0, copy, n + 1);
        }
        free(copy);
        break;
    }
    case 6: b->n = at; break;
    case 7: { /* a line of another seed replaces this one */
        const bytes *o = &seeds[below(r, (size_t) nseeds)];
        size_t olo, ohi;
        line_at(b, at, &lo, &hi);
        line_at(o, below(r, o->n), &olo, &ohi);
        put_range(b, lo, hi - lo, o->p + olo, ohi - olo);
        break;
    }
    case 8: { /* an odd byte */
        static const char odd[] = {'\0', '\r', '\t', (char) 0xff, '=', ':'};
        put_range(b, at, 0, &odd[below(r, sizeof odd)], 1);
        break;
    }
    default: { /* drop the token at `at` */
        size_t s = at, e = at;
        while (s > 0 && b->p[s - 1] != ' ' && b->p[s - 1] != '\n') s--;
        while (e < b->n && b->p[e] != ' ' && b->p[e] != '\n') e++;
        put_range(b, s, e - s, "", 0);
        break;
    }
    }
}

/* ---- where a failing input goes, also from a crash ---- */

static char fail_path[4096], fail_dir[4000], fail_note[8192];
static const char *cur_data;
static size_t cur_len;

/* Async-signal-safe: open, write, close only. */
static void save_input(void) {
    if (!cur_data) return;
    mkdir(fail_dir, 0755);
    int fd = open(fail_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    for (size_t off = 0; off < cur_len;) {
        ssize_t k = write(fd, cur_data + off, cur_len - off);
        if (k <= 0) break;
        off += (size_t) k;
    }
    close(fd);
    if (write(2, fail_note, strlen(fail_note)) < 0) return;
}

static void on_signal(int sig) {
    save_input();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ASan reports, then calls the death callback; UBSan (whose runtime has its own callbacks)
 * aborts after its report (abort_on_error below). A SIGSEGV handler of our own would replace
 * ASan's report, so under the sanitizers only SIGABRT is caught. */
static void on_crash(void) {
    signal(SIGABRT, on_signal);
#ifdef NR_SANITIZED
    __sanitizer_set_death_callback(save_input);
#else
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
#endif
}

/* The sanitizers' defaults for this program (ASAN_OPTIONS and UBSAN_OPTIONS add to them). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "print_stacktrace=1:halt_on_error=1:abort_on_error=1"; }
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_stack_use_after_return=1:strict_string_checks=1"; }


/* ---- the seeded loop ---- */

static int load_seeds(const char *dir, bytes *seeds, char (*hip_opts)[64], int max) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    char *names[256];
    for (struct dirent *e; (e = readdir(d)) && n < max && n < 256;) {
        size_t k = strlen(e->d_name);
        if (k > 4 && strcmp(e->d_name + k - 4, ".txt") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    /* Name order, so a seed and an input number mean the same input on every machine. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) { char *x = names[j]; names[j] = names[j - 1]; names[j - 1] = x; }
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        free(names[i]);
        FILE *f = fopen(path, "rb");
        if (!f) return -1;
        bytes *b = &seeds[i];
        memset(b, 0, sizeof *b);
        char chunk[4096];
        size_t k;
        while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) put_range(b, b->n, 0, chunk, k);
        fclose(f);
        reserve(b, b->n + 1);
        b->p[b->n] = 0;
        /* HIP takes the device's shape from the options: the seed's own. */
        const char *dv = strstr(b->p, "\ndevice "), *c = dv ? strstr(dv, " cus=") : NULL, *e = dv ? strstr(dv, " dies=") : NULL;
        snprintf(hip_opts[i], sizeof hip_opts[i], "cus=%d dies=%d timeout_ms=10000 mem_limit_mb=64", c ? atoi(c + 5) : 0, e ? atoi(e + 6) : 0);
    }
    return n;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The fake HIP driver, one device with the options' dies. */
static void set_hip(const char *mocks, const char *hip_opts) {
    const char *d = strstr(hip_opts, "dies=");
    use_fakes(mocks, "hip", d ? atoi(d + 5) : 1, 1);
}

static long long env_ll(const char *name, long long dflt) {
    const char *v = getenv(name);
    return v && *v ? atoll(v) : dflt;
}

int main(int argc, char **argv) {
    double seconds = (double) env_ll("NUNART_FUZZ_SECONDS", 30);
    long long iterations = 0, replay = -1;
    uint64_t seed = (uint64_t) env_ll("NUNART_FUZZ_SEED", 1);
    const char *out = "fuzz-failures", *mocks = NULL, *dir = NULL;
    for (int i = 1; i < argc; i++) {
        int more = i + 1 < argc;
        if (!strcmp(argv[i], "--seconds") && more) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--iterations") && more) iterations = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && more) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--replay") && more) replay = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--out") && more) out = argv[++i];
        else if (!strcmp(argv[i], "--mocks") && more) mocks = argv[++i];
        else if (argv[i][0] != '-' && !dir) dir = argv[i];
        else dir = NULL, i = argc;
    }
    if (!dir) {
        fprintf(stderr, "usage: nunart-table-fuzz [--seconds N] [--iterations N] [--seed S] [--replay I] [--out DIR] [--mocks DIR] TABLES_DIR\n");
        return 2;
    }
    static bytes seeds[256];
    static char hip_opts[256][64];
    int nseeds = load_seeds(dir, seeds, hip_opts, 256);
    if (nseeds <= 0) { fprintf(stderr, "nunart-table-fuzz: no seed tables in %s\n", dir); return 2; }
    snprintf(fail_dir, sizeof fail_dir, "%s", out);
    on_crash();
    tally tl = {0};
    bytes in = {0};
    char why[1400];
    double t0 = now_s();
    long long i = replay >= 0 ? replay : 0;
    int found = 0;
    for (;; i++) {
        if (replay >= 0 ? i > replay : (iterations && i >= iterations) || (i >= nseeds && now_s() - t0 >= seconds)) break;
        /* Inputs below nseeds are the seeds themselves: each must load, run and verify. */
        rng r = {seed * 0x2545F4914F6CDD1Dull + (uint64_t) i};
        int s = i < nseeds ? (int) i : (int) below(&r, (size_t) nseeds);
        in.n = 0;
        put_range(&in, 0, 0, seeds[s].p, seeds[s].n);
        /* Half the inputs get one mutation, so that more of them load and run. */
        int muts = i < nseeds ? 0 : below(&r, 2) ? 1 : 2 + (int) below(&r, 3);
        for (int m = muts; m > 0; m--) mutate(&in, &r, seeds, nseeds);
        int hip = mocks && below(&r, 4) == 0;
        if (hip) set_hip(mocks, hip_opts[s]);
        /* Written before the run: a crash has no time to format it. */
        snprintf(fail_path, sizeof fail_path, "%s/fuzz-%llu-%lld.txt", out, (unsigned long long) seed, i);
        snprintf(fail_note, sizeof fail_note, "nunart-table-fuzz: input %lld (seed %llu, from seed table %d, %s backend) is in %s; replay: "
                 "nunart-table-fuzz --seed %llu --replay %lld%s%s %s\n", i, (unsigned long long) seed, s, hip ? "fake HIP" : "host",
                 fail_path, (unsigned long long) seed, i, mocks ? " --mocks " : "", mocks ? mocks : "", dir);
        cur_data = in.p;
        cur_len = in.n;
        long long verified = tl.verified;
        int bad = check_one(in.p, in.n, hip ? "hip" : "host", hip ? hip_opts[s] : "timeout_ms=10000 mem_limit_mb=64", &tl, why, sizeof why);
        if (!bad && i < nseeds && tl.verified == verified) {
            snprintf(why, sizeof why, "seed table %d did not load, run and verify as it is", s);
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "nunart-table-fuzz: %s\n", why);
            save_input();
            found = 1;
            break;
        }
        cur_data = NULL;
    }
    printf("nunart-table-fuzz: %lld inputs in %.1f s (seed %llu, %d seed tables): %lld loaded (%lld verified, %lld failed the data check); "
           "refused at load: %lld table, %lld mismatch, %lld memory; %s\n",
           tl.inputs, now_s() - t0, (unsigned long long) seed, nseeds, tl.loaded, tl.verified, tl.wrong, tl.refused[NUNART_E_TABLE],
           tl.refused[NUNART_E_MISMATCH], tl.refused[NUNART_E_MEMORY], found ? "1 finding" : "no finding");
    free(in.p);
    for (int k = 0; k < nseeds; k++) free(seeds[k].p);
    return found;
}
#endif
