/* nunart-run: a small driver of the C ABI for scripts (device-check.sh) and tests.
 *   nunart-run TABLE [--backend B] [--options "k=v ..."] [--time N [--warmup W]] [--require-fidelity]
 *       runs a launch table once, verifies it and prints the launch report; --time N also times
 *       N plain and N pinned launches after W untimed ones (default 20) and prints min, median
 *       and p90 of each, and the wall-clock span of those launches (timed-window-ns);
 *       --require-fidelity fails (exit 3) unless the report's exact counts say every
 *       threadblock ran on its planned unit (a missing fidelity line fails too).
 *   nunart-run --info [--backend B] [--options ...]
 *       opens the backend and prints what it found: device, driver and compiler versions.
 *   nunart-run --probe PREFIX [--backend B] [--options ...] [--mib M] [--addresses A] [--reps R]
 *       the latency probe: prints a summary and writes PREFIX.csv (every location and address)
 *       and PREFIX.json (a topology override fragment, basis measured). The addresses spread over
 *       the whole device memory (all the device gives), or over M MiB with --mib M; the summary's
 *       probe-memory line says how many bytes they spanned and what fraction of the device's.
 * Exit: 0 ok; 1 a call failed (report printed; stderr: "nunart-run: STATUS: message"); 2 usage
 * or unreadable input; 3 the fidelity check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nunart.h"
#include "fidelity.h"

typedef struct {
    const char *table, *backend, *options, *probe;
    int time_n, warmup, info, strict, mib, addresses, reps;
} args_t;

static int usage(void) {
    fprintf(stderr, "usage: nunart-run TABLE [--backend auto|host|cuda|hip] [--options \"k=v ...\"] [--time N [--warmup W]] [--require-fidelity]\n"
                    "       nunart-run --info [--backend B] [--options ...]\n"
                    "       nunart-run --probe PREFIX [--backend B] [--options ...] [--mib M] [--addresses A] [--reps R]\n");
    return 2;
}

static int parse(int argc, char **argv, args_t *a) {
    *a = (args_t) {.backend = "auto", .warmup = 20, .mib = 0, .addresses = 64, .reps = 16};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(k, "--info")) a->info = 1;
        else if (!strcmp(k, "--require-fidelity")) a->strict = 1;
        else if (v && !strcmp(k, "--backend")) a->backend = argv[++i];
        else if (v && !strcmp(k, "--options")) a->options = argv[++i];
        else if (v && !strcmp(k, "--probe")) a->probe = argv[++i];
        else if (v && !strcmp(k, "--time")) a->time_n = atoi(argv[++i]);
        else if (v && !strcmp(k, "--warmup")) a->warmup = atoi(argv[++i]);
        else if (v && !strcmp(k, "--mib")) {
            char *end;
            long m = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || m < 1 || m > (1L << 20)) { fprintf(stderr, "nunart-run: --mib %s: not a size in MiB (1 to 1048576)\n", argv[i]); return 2; }
            a->mib = (int) m;
        }
        else if (v && !strcmp(k, "--addresses")) a->addresses = atoi(argv[++i]);
        else if (v && !strcmp(k, "--reps")) a->reps = atoi(argv[++i]);
        else if (k[0] != '-' && !a->table) a->table = k;
        else return usage();
    }
    if (!a->table && !a->info && !a->probe) { fprintf(stderr, "nunart-run: no launch table given\n"); return 2; }
    return 0;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t) n : 1);
    if (!buf || n < 0 || fread(buf, 1, (size_t) n, f) != (size_t) n) {
        fprintf(stderr, "nunart-run: cannot read %s\n", path);
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t) n : 0;
    return buf;
}

/* The value of report line `key: ` (up to the newline) into out; "" when absent. */
static void report_line(const nunart_ctx *ctx, const char *key, char *out, size_t cap) {
    const char *r = nunart_report(ctx), *p = r;
    size_t k = strlen(key);
    out[0] = 0;
    for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ') {
            size_t n = strcspn(p + k + 2, "\n");
            snprintf(out, cap, "%.*s", (int) (n < cap ? n : cap - 1), p + k + 2);
            return;
        }
    }
}

/* The wall clock (CLOCK_REALTIME) in ns: device-check.sh matches it with nvidia-smi's samples. */
static long long wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int failed(nunart_ctx *ctx, nunart_status st) {
    fprintf(stderr, "nunart-run: %s: %s\n", nunart_status_name(st), nunart_message(ctx));
    return 1;
}

/* The placement-fidelity line's exact counts (fidelity.h); a missing line fails. */
static int fidelity_ok(const nunart_ctx *ctx) {
    char f[256], why[512];
    report_line(ctx, "placement-fidelity", f, sizeof f);
    if (nunart_fidelity_check(f, why, sizeof why)) return 1;
    fprintf(stderr, "nunart-run: fidelity: %s\n", why);
    return 0;
}

static int run_table(const args_t *a) {
    size_t len;
    char *buf = slurp(a->table, &len);
    if (!buf) return 2;
    nunart_ctx *ctx = NULL;
    double pinned[3], plain[3];
    nunart_status st = nunart_open(&ctx, a->backend, a->options);
    if (!st) st = nunart_load(ctx, buf, len);
    if (!st) st = nunart_alloc(ctx);
    long long window[2] = {0, 0};
    if (!st && a->time_n > 0) {
        window[0] = wall_ns();
        if (!(st = nunart_time_stats(ctx, a->warmup, a->time_n, 0, plain))) st = nunart_time_stats(ctx, a->warmup, a->time_n, 1, pinned);
        window[1] = wall_ns();
    }
    if (!st) st = nunart_launch(ctx);
    if (!st) st = nunart_verify(ctx);
    fputs(nunart_report(ctx), stdout);
    if (a->time_n > 0 && !st) {
        printf("launch-us: pinned min %.1f median %.1f p90 %.1f; plain min %.1f median %.1f p90 %.1f (%d launches each after %d warm-up)\n",
               pinned[0], pinned[1], pinned[2], plain[0], plain[1], plain[2], a->time_n, a->warmup);
        printf("median-launch-us: pinned %.1f plain %.1f (n=%d)\n", pinned[1], plain[1], a->time_n);
        printf("timed-window-ns: %lld %lld (wall clock, first warm-up launch to last timed launch)\n", window[0], window[1]);
    }
    int rc = st ? failed(ctx, st) : a->strict && !fidelity_ok(ctx) ? 3 : 0;
    nunart_close(ctx);
    free(buf);
    return rc;
}

static int info(const args_t *a) {
    nunart_ctx *ctx = NULL;
    nunart_status st = nunart_open(&ctx, a->backend, a->options);
    const char *keys[] = {"backend", "backends-skipped", "device", "platform"};
    for (int i = 0; i < 4; i++) {
        char v[1024];
        report_line(ctx, keys[i], v, sizeof v);
        if (v[0]) printf("%s: %s\n", keys[i], v);
    }
    int rc = st ? failed(ctx, st) : 0;
    nunart_close(ctx);
    return rc;
}

/* ---- the probe's summary, CSV and override fragment ---- */

typedef struct {
    double min, max, sum;
    long n;
} acc;

static void take(acc *s, double v) {
    if (!s->n || v < s->min) s->min = v;
    if (!s->n || v > s->max) s->max = v;
    s->sum += v;
    s->n++;
}
static double mean(const acc *s) { return s->n ? s->sum / (double) s->n : 0; }

/* Per metric m (0 cold load, 1 warm load, 2 atomic): all samples, and the spread of the means
 * per location and per address. */
typedef struct {
    acc all[3], loc_means[3], addr_means[3], clock;
    int measured, lo, hi;
} summary;

static void summarise(const double *out, int nloc, int naddr, summary *s) {
    memset(s, 0, sizeof *s);
    s->lo = -1;
    acc *per_addr = calloc((size_t) naddr * 3, sizeof *per_addr);
    if (!per_addr) return;
    for (int l = 0; l < nloc; l++) {
        const double *r = out + (size_t) l * (1 + 3 * (size_t) naddr);
        if (r[0] <= 0) continue;
        s->measured++;
        if (s->lo < 0) s->lo = l;
        s->hi = l;
        take(&s->clock, r[0]);
        for (int m = 0; m < 3; m++) {
            acc here = {0};
            for (int k = 0; k < naddr; k++) {
                take(&here, r[1 + 3 * k + m]);
                take(&s->all[m], r[1 + 3 * k + m]);
                take(&per_addr[3 * k + m], r[1 + 3 * k + m]);
            }
            take(&s->loc_means[m], mean(&here));
        }
    }
    for (int k = 0; k < naddr && s->measured; k++)
        for (int m = 0; m < 3; m++) take(&s->addr_means[m], mean(&per_addr[3 * k + m]));
    free(per_addr);
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char) *s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static int write_csv(const char *prefix, const double *out, int nloc, int naddr) {
    char path[4096];
    snprintf(path, sizeof path, "%s.csv", prefix);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return -1; }
    fprintf(f, "location,clock_mhz,address,load_cold_ns,load_warm_ns,atomic_ns\n");
    for (int l = 0; l < nloc; l++) {
        const double *r = out + (size_t) l * (1 + 3 * (size_t) naddr);
        if (r[0] <= 0) continue;
        for (int k = 0; k < naddr; k++) fprintf(f, "%d,%.1f,%d,%.1f,%.1f,%.1f\n", l, r[0], k, r[1 + 3 * k], r[2 + 3 * k], r[3 + 3 * k]);
    }
    return fclose(f);
}

/* What the probe's addresses spanned, from the report's probe-memory line ("S of T bytes (P% ...)
 * in N blocks ..."): a phrase for the summary and the override's note. */
static void spanned(const nunart_ctx *ctx, char *out, size_t cap) {
    char line[512];
    long long bytes = 0, total = 0;
    double pct = 0;
    int blocks = 0;
    report_line(ctx, "probe-memory", line, sizeof line);
    if (sscanf(line, "%lld of %lld bytes (%lf%% of the device's memory) in %d block", &bytes, &total, &pct, &blocks) == 4)
        snprintf(out, cap, "%lld MiB of the device's %lld MiB (%.1f%%, %d block%s)", bytes >> 20, total >> 20, pct, blocks, blocks == 1 ? "" : "s");
    else
        snprintf(out, cap, "device memory (extent not reported)");
}

/* The override: memory.latencyNs from the mean first load, every spread in its note. */
static int write_override(const char *prefix, const summary *s, const nunart_ctx *ctx, const args_t *a) {
    char path[4096], device[512], platform[512], text[2048], span[160];
    spanned(ctx, span, sizeof span);
    snprintf(path, sizeof path, "%s.json", prefix);
    report_line(ctx, "device", device, sizeof device);
    report_line(ctx, "platform", platform, sizeof platform);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return -1; }
    snprintf(text, sizeof text, "nunart-run --probe (runtime-shim/device-check.sh) on %s; %s: from each of %d locations, loads and atomic adds to %d "
             "addresses spread evenly over %s, chains of %d; cycles converted with each location's own clock measured against "
             "the device timer", device, platform, s->measured, a->addresses, span, a->reps);
    fprintf(f, "{\n  \"sources\": {\"device-check\": ");
    json_str(f, text);
    snprintf(text, sizeof text, "mean first load (from memory) over %d locations x %d addresses: min %.1f, max %.1f ns; location means %.1f-%.1f ns "
             "(spread %.2fx), address means %.1f-%.1f ns (spread %.2fx); repeated loads (L2) mean %.1f ns, atomic adds mean %.1f ns; clock %.0f-%.0f MHz",
             s->measured, a->addresses, s->all[0].min, s->all[0].max, s->loc_means[0].min, s->loc_means[0].max,
             s->loc_means[0].min > 0 ? s->loc_means[0].max / s->loc_means[0].min : 0, s->addr_means[0].min, s->addr_means[0].max,
             s->addr_means[0].min > 0 ? s->addr_means[0].max / s->addr_means[0].min : 0, mean(&s->all[1]), mean(&s->all[2]), s->clock.min, s->clock.max);
    fprintf(f, "},\n  \"memory\": {\"latencyNs\": {\"value\": %.1f, \"basis\": \"measured\", \"source\": \"device-check\", \"note\": ", mean(&s->all[0]));
    json_str(f, text);
    fprintf(f, "}}\n}\n");
    return fclose(f);
}

static void print_summary(const summary *s, int nloc, const nunart_ctx *ctx, const args_t *a) {
    static const char *names[] = {"load-cold", "load-warm", "atomic"};
    char span[160], line[512];
    spanned(ctx, span, sizeof span);
    report_line(ctx, "probe-memory", line, sizeof line);
    printf("probe: %d of %d locations measured (%d-%d), %d addresses over %s, chains of %d\n", s->measured, nloc, s->lo, s->hi, a->addresses,
           span, a->reps);
    printf("probe-memory: %s\n", line[0] ? line : "not reported");
    printf("probe-clock-mhz: min %.0f mean %.0f max %.0f (each location's cycles over the device timer)\n", s->clock.min, mean(&s->clock), s->clock.max);
    for (int m = 0; m < 3; m++) {
        const acc *l = &s->loc_means[m], *d = &s->addr_means[m];
        printf("probe-%s-ns: min %.1f mean %.1f max %.1f; location means %.1f-%.1f (best-to-worst %.2fx); address means %.1f-%.1f (%.2fx)\n",
               names[m], s->all[m].min, mean(&s->all[m]), s->all[m].max, l->min, l->max, l->min > 0 ? l->max / l->min : 0, d->min, d->max,
               d->min > 0 ? d->max / d->min : 0);
    }
}

static int probe(const args_t *a) {
    nunart_ctx *ctx = NULL;
    int nloc = 0;
    nunart_status st = nunart_open(&ctx, a->backend, a->options);
    if (!st) st = nunart_probe_latency(ctx, a->mib, a->addresses, a->reps, NULL, 0, &nloc);
    size_t cap = (size_t) nloc * (1 + 3 * (size_t) (a->addresses > 0 ? a->addresses : 1));
    double *out = !st ? calloc(cap ? cap : 1, sizeof *out) : NULL;
    if (!st && !out) { fprintf(stderr, "nunart-run: out of memory\n"); nunart_close(ctx); return 1; }
    if (!st) st = nunart_probe_latency(ctx, a->mib, a->addresses, a->reps, out, cap, &nloc);
    int rc = 0;
    if (st) rc = failed(ctx, st);
    else {
        summary s;
        summarise(out, nloc, a->addresses, &s);
        print_summary(&s, nloc, ctx, a);
        if (!s.measured) { fprintf(stderr, "nunart-run: probe: no location measured\n"); rc = 1; }
        else if (write_csv(a->probe, out, nloc, a->addresses) || write_override(a->probe, &s, ctx, a)) rc = 2;
        else printf("probe-files: %s.csv, %s.json (override: memory.latencyNs measured)\n", a->probe, a->probe);
    }
    free(out);
    nunart_close(ctx);
    return rc;
}

int main(int argc, char **argv) {
    args_t a;
    int rc = parse(argc, argv, &a);
    if (rc) return rc;
    if (a.info) return info(&a);
    if (a.probe) return probe(&a);
    return run_table(&a);
}
