/* Launch table parser (format: docs/runtime.md). Strict: lines come in the emitter's order,
 * every count is checked against what follows, and every reference is range-checked, so a
 * malformed table is an error message and never an out-of-bounds access later. */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 32
#define MAX_RANKS 4096
#define MAX_TBS (1 << 20)
#define MAX_STEPS (1 << 24)
#define MAX_TB_STEPS (1 << 20)
#define MAX_MASK_WORDS 64

static const char *OP_NAMES[OP_COUNT] = {
#define NR_OP(name, mnemonic, sends, receives, reads, writes, reduces) mnemonic,
#include "ops.def"
#undef NR_OP
};

typedef struct {
    char *tok[MAX_TOKENS];
    int n;
    int lineno;
    char *err;
    size_t errlen;
} line_t;

static int perr(line_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(line_t *l, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    snprintf(l->err, l->errlen, "launch table line %d: %s", l->lineno, buf);
    return -1;
}

static const char *val(line_t *l, const char *key) {
    size_t k = strlen(key);
    for (int i = 1; i < l->n; i++) {
        if (strncmp(l->tok[i], key, k) == 0 && l->tok[i][k] == '=') return l->tok[i] + k + 1;
    }
    return NULL;
}

static int parse_long(const char *s, long long lo, long long hi, long long *out) {
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int getl(line_t *l, const char *key, long long lo, long long hi, int64_t *out) {
    const char *v = val(l, key);
    long long x;
    if (!v) return perr(l, "'%s' needs %s=N", l->tok[0], key);
    if (parse_long(v, lo, hi, &x)) return perr(l, "%s=%s is not an integer in [%lld, %lld]", key, v, lo, hi);
    *out = x;
    return 0;
}

/* As getl, for fields that are ints: callers pass bounds within int's range. */
static int geti(line_t *l, const char *key, long long lo, long long hi, int *out) {
    int64_t x;
    if (getl(l, key, lo, hi, &x)) return -1;
    *out = (int) x;
    return 0;
}

/* As geti, for a key tables of older emitters lack: absent reads as dflt. */
static int geti_or(line_t *l, const char *key, long long lo, long long hi, int dflt, int *out) {
    if (!val(l, key)) { *out = dflt; return 0; }
    return geti(l, key, lo, hi, out);
}

static int gets_(line_t *l, const char *key, char *dst, size_t cap) {
    const char *v = val(l, key);
    if (!v) return perr(l, "'%s' needs %s=...", l->tok[0], key);
    if (strlen(v) >= cap) return perr(l, "%s is longer than %zu characters", key, cap - 1);
    strcpy(dst, v);
    return 0;
}

/* "a:b:c" with exactly n fields; "-" gives found = 0. */
static int get_tuple(line_t *l, const char *key, int n, int *out, int *found) {
    const char *v = val(l, key);
    if (!v) return perr(l, "'%s' needs %s=...", l->tok[0], key);
    if (strcmp(v, "-") == 0) { *found = 0; return 0; }
    char buf[128];
    if (strlen(v) >= sizeof buf) return perr(l, "%s is too long", key);
    strcpy(buf, v);
    char *p = buf;
    for (int i = 0; i < n; i++) {
        char *q = strchr(p, ':');
        if (i < n - 1 && !q) return perr(l, "%s=%s needs %d fields separated by ':'", key, v, n);
        if (i == n - 1 && q) return perr(l, "%s=%s has more than %d fields", key, v, n);
        if (q) *q = 0;
        long long x;
        if (parse_long(p, -1, INT_MAX, &x)) return perr(l, "%s=%s: '%s' is not an integer", key, v, p);
        out[i] = (int) x;
        p = q ? q + 1 : p;
    }
    *found = 1;
    return 0;
}

/* "0x" + hex digits into `words` 32-bit words. */
static int get_mask(line_t *l, const char *key, int words, uint32_t **out) {
    const char *v = val(l, key);
    if (!v) return perr(l, "'%s' needs %s=0x...", l->tok[0], key);
    if (strncmp(v, "0x", 2) != 0 || !v[2]) return perr(l, "%s=%s is not a hex mask", key, v);
    const char *h = v + 2;
    size_t nd = strlen(h);
    uint32_t *m = calloc((size_t) words, sizeof *m);
    if (!m) return perr(l, "out of memory");
    int any = 0;
    for (size_t i = 0; i < nd; i++) {
        char c = h[nd - 1 - i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) { free(m); return perr(l, "%s=%s: '%c' is not a hex digit", key, v, c); }
        if (d == 0) continue;
        if (i / 8 >= (size_t) words) { free(m); return perr(l, "%s=%s is wider than mask_words=%d", key, v, words); }
        m[i / 8] |= (uint32_t) d << (4 * (i % 8));
        any = 1;
    }
    if (!any) { free(m); return perr(l, "%s is empty: a threadblock or stream with no CU would never run", key); }
    *out = m;
    return 0;
}

/* Comma-separated ints ("-" = empty) into a fresh array; *n receives the count. */
static int get_list(line_t *l, const char *key, long long lo, long long hi, int **out, int *n) {
    const char *v = val(l, key);
    if (!v) return perr(l, "'%s' needs %s=...", l->tok[0], key);
    *out = NULL;
    *n = 0;
    if (strcmp(v, "-") == 0) return 0;
    int cnt = 1;
    for (const char *p = v; *p; p++) cnt += *p == ',';
    int *a = malloc(sizeof(int) * (size_t) cnt);
    if (!a) return perr(l, "out of memory");
    const char *p = v;
    for (int i = 0; i < cnt; i++) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno || end == p || (*end && *end != ',') || x < lo || x > hi) {
            free(a);
            return perr(l, "%s: element %d is not an integer in [%lld, %lld]", key, i, lo, hi);
        }
        a[i] = (int) x;
        p = *end ? end + 1 : end;
    }
    *out = a;
    *n = cnt;
    return 0;
}

static int op_of(const char *s) {
    for (int i = 0; i < OP_COUNT; i++) if (strcmp(OP_NAMES[i], s) == 0) return i;
    return -1;
}

/* Each opcode's effects, from ops.def: sends, receives, reads its src, writes its dst. */
static const unsigned char OP_EFFECTS[OP_COUNT][4] = {
#define NR_OP(name, mnemonic, sends, receives, reads, writes, reduces) {sends, receives, reads, writes},
#include "ops.def"
#undef NR_OP
};
static int op_sends(int op) { return OP_EFFECTS[op][0]; }
static int op_recvs(int op) { return OP_EFFECTS[op][1]; }
static int op_reads(int op) { return OP_EFFECTS[op][2]; }
static int op_writes(int op) { return OP_EFFECTS[op][3]; }

void nr_table_free(nr_table *t) {
    if (!t) return;
    if (t->rank) {
        for (int r = 0; r < t->ranks; r++) {
            nr_rank *rk = &t->rank[r];
            for (int i = 0; i < rk->nsto && rk->sto; i++) free(rk->sto[i].stacks);
            for (int i = 0; i < rk->nstream && rk->streams; i++) free(rk->streams[i].mask);
            free(rk->sto);
            free(rk->streams);
            free(rk->expect);
            free(rk->grid);
        }
    }
    for (int i = 0; i < t->ntb; i++) free(t->tb[i].mask);
    free(t->rank);
    free(t->tb);
    free(t->step);
    free(t->deps);
    free(t);
}

static int grow(void **p, int *cap, int need, size_t elem) {
    if (need <= *cap) return 0;
    int64_t nc = *cap ? (int64_t) *cap * 2 : 64; /* doubled in 64 bits: never wraps */
    while (nc < need) nc *= 2;
    if (nc > INT_MAX) nc = need;
    void *q = realloc(*p, (size_t) nc * elem);
    if (!q) return -1;
    *p = q;
    *cap = (int) nc;
    return 0;
}

/* Adds `elems` floats to the arena size *total; -1 when the buffers would pass
 * NR_MAX_BUFFER_BYTES, which no context allocates: every later offset stays in range. */
static int arena_add(int64_t *total, int64_t elems) {
    int64_t sum;
    if (elems < 0 || __builtin_add_overflow(*total, elems, &sum) || sum > NR_MAX_BUFFER_BYTES / 4) return -1;
    *total = sum;
    return 0;
}

#define TIB(b) ((long long) ((b) >> 40))

/* A storage's floats added to the running arena size (storages come in arena order). */
static int storage_fits(line_t *l, nr_table *t, int rank, int id) {
    const nr_storage *st = &t->rank[rank].sto[id];
    int64_t elems;
    if (__builtin_mul_overflow((int64_t) st->chunks, t->chunk_elems, &elems) || arena_add(&t->storage_elems, elems))
        return perr(l, "storage %d of rank %d: chunks=%d of chunk_bytes=%lld take the buffers past %lld TiB, more than any context allocates",
                    id, rank, st->chunks, (long long) t->chunk_bytes, TIB(NR_MAX_BUFFER_BYTES));
    return 0;
}

/* A partner rank:tb:step, packed into 54 bits until every threadblock is known. Range-checked
 * first, so no shift sees a negative or too wide field. */
static int pack_partner(line_t *l, const nr_table *t, const char *key, const int *p, int found, int64_t *out) {
    *out = 0;
    if (!found) return 0;
    if (p[0] < 0 || p[0] >= t->ranks)
        return perr(l, "%s=%d:%d:%d: rank %d does not exist (ranks=%d)", key, p[0], p[1], p[2], p[0], t->ranks);
    if (p[1] < 0 || p[1] >= MAX_TBS || p[2] < 0 || p[2] >= MAX_TB_STEPS) return perr(l, "%s=%d:%d:%d names no step", key, p[0], p[1], p[2]);
    *out = (int64_t) ((uint64_t) p[0] << 42 | (uint64_t) p[1] << 21 | (uint64_t) p[2]);
    return 0;
}

/* A dependency of step `id` on step ds of its own threadblock `tb` must be an earlier step:
 * steps of a threadblock run in order, so a later one (or itself) could never be waited for. */
static int own_dep(line_t *l, const nr_tb *tb, int id, long long ds, const char *deps) {
    if (ds >= tb->nsteps)
        return perr(l, "step %d of threadblock %d depends on %d:%lld, which does not exist (threadblock %d has %d steps)", id, tb->id,
                    tb->id, ds, tb->id, tb->nsteps);
    if (ds == id) return perr(l, "step %d of threadblock %d depends on itself (deps=%s): it could never run", id, tb->id, deps);
    if (ds > id)
        return perr(l, "step %d of threadblock %d depends on step %lld of its own threadblock, which runs after it (deps=%s): it could never run",
                    id, tb->id, ds, deps);
    return 0;
}

static int check_operand(line_t *l, nr_table *t, const char *what, int *o, int found, int *cnt_out) {
    *cnt_out = 0;
    if (!found) return 0;
    if (o[0] < 0 || o[0] >= t->ranks) return perr(l, "%s: rank %d does not exist (ranks=%d)", what, o[0], t->ranks);
    nr_rank *rk = &t->rank[o[0]];
    if (o[3] < 1) return perr(l, "%s: count must be at least 1", what);
    if (o[1] < 0 || o[2] < 0) return perr(l, "%s: negative storage or index", what);
    /* A later rank's storages are not declared yet: finish() checks those operands. */
    if (rk->nsto == 0 || rk->seen_sto != rk->nsto) { *cnt_out = o[3]; return 0; }
    if (o[1] >= rk->nsto) return perr(l, "%s: rank %d has no storage %d", what, o[0], o[1]);
    if ((long long) o[2] + o[3] > rk->sto[o[1]].chunks) {
        return perr(l, "%s: chunks [%d, %lld) out of bounds of rank %d storage %d (%d chunks)", what, o[2],
                    (long long) o[2] + o[3], o[0], o[1], rk->sto[o[1]].chunks);
    }
    *cnt_out = o[3];
    return 0;
}

/* The threadblock whose step range holds global step g (steps are stored threadblock by
 * threadblock); NULL for none. */
static const nr_tb *tb_of(const nr_table *t, int g) {
    for (int lo = 0, hi = t->ntb - 1; lo <= hi;) {
        int mid = lo + (hi - lo) / 2;
        if (t->tb[mid].first_step > g) hi = mid - 1;
        else if (t->tb[mid].first_step + t->tb[mid].nsteps <= g) lo = mid + 1;
        else return &t->tb[mid];
    }
    return NULL;
}

/* "rank R threadblock T step S (op)": how messages name global step g. */
static void step_name(const nr_table *t, int g, char *buf, size_t cap) {
    const nr_tb *tb = tb_of(t, g);
    if (tb) snprintf(buf, cap, "rank %d threadblock %d step %d (%s)", tb->rank, tb->id, g - tb->first_step, OP_NAMES[t->step[g].op]);
    else snprintf(buf, cap, "step #%d", g);
}

/* An error about global step g, on the table line that declared it; fmt continues the step's
 * name (" has ...", ": ..."). */
static int step_err(const nr_table *t, int g, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int step_err(const nr_table *t, int g, char *err, size_t errlen, const char *fmt, ...) {
    char name[96], msg[900];
    step_name(t, g, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "launch table line %d: %s%s", t->step[g].line, name, msg);
    return -1;
}

/* Marks of the cycle search: on the current path, finished, first step of its threadblock. */
enum { ON_PATH = 1, DONE = 2, FIRST = 4 };

/* The i-th step that step g waits for, as the executors wait: 0 the step before it in its
 * threadblock, 1 its partner (from), 2.. its deps. -2: none at this index; -1: past the last. */
static int waited(const nr_table *t, const unsigned char *mark, int g, int i) {
    const nr_step *s = &t->step[g];
    if (i == 0) return mark[g] & FIRST ? -2 : g - 1;
    if (i == 1) return s->from >= 0 ? s->from : -2;
    return i - 2 < s->ndeps ? t->deps[s->dep_first + i - 2] : -1;
}

static const char *wait_kind(int i) { return i == 0 ? "the step before it" : i == 1 ? "from" : "deps"; }

static void append(char *buf, size_t cap, size_t *n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *n, const char *fmt, ...) {
    if (*n >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
    va_end(ap);
    *n = k < 0 ? cap : *n + (size_t) k;
}

/* Names the cycle path[j..top] (each waits for the next, the last for path[j]; next[k] - 1 is
 * the kind of each wait) from its first step in table order. */
static int report_cycle(const nr_table *t, const int *path, const int *next, int j, int top, char *err, size_t errlen) {
    int n = top - j + 1, start = 0;
    for (int k = 1; k < n; k++)
        if (path[j + k] < path[j + start]) start = k;
    int g = path[j + start];
    char msg[900], name[96];
    size_t len = 0;
    if (n == 1) return step_err(t, g, err, errlen, " waits for itself (%s): it could never run", wait_kind(next[top] - 1));
    append(msg, sizeof msg, &len, " is on a cycle of %d steps that wait for each other, so none of them can ever run: it waits for", n);
    enum { SHOWN = 5 };
    for (int k = 0; k < n; k++) {
        int at = j + (start + k) % n, to = j + (start + k + 1) % n;
        const char *kind = wait_kind(next[at] - 1);
        if (k + 1 == n) append(msg, sizeof msg, &len, " it (%s)", kind);
        else if (k < SHOWN || k + 1 == n - 1) {
            step_name(t, path[to], name, sizeof name);
            append(msg, sizeof msg, &len, " %s (%s), which waits for", name, kind);
        } else if (k == SHOWN) append(msg, sizeof msg, &len, " ... (%d more steps) ..., which waits for", n - SHOWN - 2);
    }
    return step_err(t, g, err, errlen, "%s", msg);
}

/* Refuses waits that form a cycle (deps, partners, threadblock order): no step on it could
 * ever start, and a launch would only time out. Depth-first, iterative: up to 2^24 steps. */
static int check_cycles(const nr_table *t, char *err, size_t errlen) {
    if (!t->nstep) return 0;
    unsigned char *mark = calloc((size_t) t->nstep, 1);
    int *path = malloc(sizeof(int) * (size_t) t->nstep), *next = malloc(sizeof(int) * (size_t) t->nstep);
    int rc = 0;
    if (!mark || !path || !next) {
        snprintf(err, errlen, "launch table: out of memory");
        rc = -1;
    }
    for (int i = 0; !rc && i < t->ntb; i++)
        if (t->tb[i].nsteps) mark[t->tb[i].first_step] |= FIRST;
    for (int root = 0; !rc && root < t->nstep; root++) {
        if (mark[root] & DONE) continue;
        int top = 0;
        path[0] = root;
        next[0] = 0;
        mark[root] |= ON_PATH;
        while (top >= 0 && !rc) {
            int u = path[top], p = waited(t, mark, u, next[top]++);
            if (p == -1) {
                mark[u] = (unsigned char) ((mark[u] & ~ON_PATH) | DONE);
                top--;
            } else if (p >= 0 && (mark[p] & ON_PATH)) {
                int j = top;
                while (path[j] != p) j--;
                rc = report_cycle(t, path, next, j, top, err, errlen);
            } else if (p >= 0 && !(mark[p] & DONE)) {
                path[++top] = p;
                next[top] = 0;
                mark[p] |= ON_PATH;
            }
        }
    }
    free(mark);
    free(path);
    free(next);
    return rc;
}

/* Partners (packed rank:tb:step) and dep pairs (tb, step of the same rank) into global step
 * ids, now that every threadblock is known. */
static int resolve(nr_table *t, char *err, size_t errlen) {
    for (int g = 0; g < t->nstep; g++) {
        nr_step *s = &t->step[g];
        int64_t enc[2] = {s->src_off, s->dst_off};
        int *dst[2] = {&s->from, &s->to};
        for (int k = 0; k < 2; k++) {
            if (*dst[k] != -2) continue;
            int pr = (int) (enc[k] >> 42), pt = (int) ((enc[k] >> 21) & 0x1FFFFF), ps = (int) (enc[k] & 0x1FFFFF);
            if (t->part >= 0 && pr != t->part) { *dst[k] = NR_ELSEWHERE; continue; }
            if (pr >= t->ranks || pt >= t->rank[pr].ntb || ps >= t->tb[t->rank[pr].first_tb + pt].nsteps)
                return step_err(t, g, err, errlen, " has %s=%d:%d:%d, which names no step", k ? "to" : "from", pr, pt, ps);
            *dst[k] = t->tb[t->rank[pr].first_tb + pt].first_step + ps;
        }
        s->src_off = s->dst_off = 0;
    }
    /* Compacted in place: every global id replaces the pair it came from. */
    int w = 0;
    for (int i = 0; i < t->ntb; i++) {
        const nr_tb *own = &t->tb[i];
        const nr_rank *rk = &t->rank[own->rank];
        for (int g = own->first_step; g < own->first_step + own->nsteps; g++) {
            nr_step *s = &t->step[g];
            int first = w;
            for (int d = 0; d < s->ndeps; d++) {
                int dt = t->deps[s->dep_first + 2 * d], ds = t->deps[s->dep_first + 2 * d + 1];
                if (dt >= rk->ntb || ds >= t->tb[rk->first_tb + dt].nsteps)
                    return step_err(t, g, err, errlen, " depends on %d:%d, which does not exist", dt, ds);
                t->deps[w++] = t->tb[rk->first_tb + dt].first_step + ds;
            }
            s->dep_first = first;
        }
    }
    t->ndeps = w;
    return 0;
}

/* Operand k (0 src, 1 dst) of step g against its storage, which may belong to a rank declared
 * after the step. */
static int check_bounds(const nr_table *t, int g, int k, char *err, size_t errlen) {
    const nr_step *s = &t->step[g];
    int rank = k ? s->dst_rank : s->src_rank, sto = k ? s->dst_sto : s->src_sto;
    int idx = k ? s->dst_idx : s->src_idx, cnt = k ? s->dst_cnt : s->src_cnt;
    if (!cnt) return 0;
    if (t->part >= 0 && rank != t->part) return 0; /* that rank's storages are in its own table */
    if (sto >= t->rank[rank].nsto) return step_err(t, g, err, errlen, ": %s: rank %d has no storage %d", k ? "dst" : "src", rank, sto);
    const nr_storage *st = &t->rank[rank].sto[sto];
    if (idx < 0 || (long long) idx + cnt > st->chunks)
        return step_err(t, g, err, errlen, ": %s chunks [%d, %lld) out of bounds of rank %d storage %d (%d chunks)", k ? "dst" : "src", idx,
                        (long long) idx + cnt, rank, sto, st->chunks);
    return 0;
}

/* Step g's operands, reach and partners; sets its offsets and size. */
static int check_step(nr_table *t, int g, char *err, size_t errlen) {
    nr_step *s = &t->step[g];
    const nr_tb *tb = tb_of(t, g);
    if (!tb) { snprintf(err, errlen, "launch table: step %d belongs to no threadblock", g); return -1; }
    if (check_bounds(t, g, 0, err, errlen) || check_bounds(t, g, 1, err, errlen)) return -1;
    /* A per-rank table has no storages of other ranks: their operands get no offset (it never runs). */
    if (s->src_cnt && (t->part < 0 || s->src_rank == t->part)) s->src_off = t->rank[s->src_rank].sto[s->src_sto].off + (int64_t) s->src_idx * t->chunk_elems;
    if (s->dst_cnt && (t->part < 0 || s->dst_rank == t->part)) s->dst_off = t->rank[s->dst_rank].sto[s->dst_sto].off + (int64_t) s->dst_idx * t->chunk_elems;
    /* Local ops stay on their rank; one-sided ops reach exactly their peer. */
    int own = tb->rank;
    int src_ok = !s->src_cnt || s->src_rank == ((s->op == OP_GET || s->op == OP_GETRE) ? s->peer : own);
    int dst_ok = !s->dst_cnt || s->dst_rank == (s->op == OP_PUT ? s->peer : own);
    if (!src_ok || !dst_ok)
        return step_err(t, g, err, errlen, ": operand on rank %d is not reachable (peer=%d)", src_ok ? s->dst_rank : s->src_rank, s->peer);
    if (s->src_cnt && s->dst_cnt && s->src_cnt != s->dst_cnt)
        return step_err(t, g, err, errlen, ": src has %d chunks, dst %d", s->src_cnt, s->dst_cnt);
    s->nelem = (int64_t) (s->src_cnt ? s->src_cnt : s->dst_cnt) * t->chunk_elems;
    if (s->from == NR_ELSEWHERE) {
        /* its sender is in another rank's table: nothing to check against here */
    } else if (op_recvs(s->op) || s->op == OP_WAIT) {
        if (s->from < 0)
            return step_err(t, g, err, errlen, " has no matching %s: it would wait forever", s->op == OP_WAIT ? "signal" : "send");
        const nr_step *p = &t->step[s->from];
        if ((s->op == OP_WAIT) != (p->op == OP_SIGNAL) || (s->op != OP_WAIT && !op_sends(p->op)) || p->to != g) {
            char pn[96];
            step_name(t, s->from, pn, sizeof pn);
            return step_err(t, g, err, errlen, ": its partner (%s) does not name it back", pn);
        }
    }
    if (s->to >= 0 && t->step[s->to].from != g) {
        char pn[96];
        step_name(t, s->to, pn, sizeof pn);
        return step_err(t, g, err, errlen, ": its receiver (%s) does not name it back", pn);
    }
    return 0;
}

/* Send stages follow the storages in step order; *off is the arena size so far. */
static int place_stage(nr_table *t, int g, int64_t *off, char *err, size_t errlen) {
    nr_step *s = &t->step[g];
    if (!op_sends(s->op)) return 0;
    const nr_tb *tb = tb_of(t, g);
    if (t->rank[tb->rank].stage_off < 0) t->rank[tb->rank].stage_off = *off;
    s->stage_off = *off;
    if (arena_add(off, s->nelem))
        return step_err(t, g, err, errlen, ": its send stage of %lld bytes takes the buffers past %lld TiB, more than any context allocates",
                        (long long) s->nelem * 4, TIB(NR_MAX_BUFFER_BYTES));
    return 0;
}

/* Checks that need the whole table: operand bounds on peers, partners, sizes, cycles. */
static int finish(nr_table *t, char *err, size_t errlen) {
    for (int r = 0; r < t->ranks; r++) {
        nr_rank *rk = &t->rank[r];
        if (t->part >= 0 && r != t->part) continue;
        if (rk->seen_sto != rk->nsto || rk->seen_tb != rk->ntb || rk->seen_stream != rk->nstream || rk->seen_grid != 1
            || rk->seen_expect != rk->nexpect) {
            snprintf(err, errlen, "launch table: rank %d is incomplete (storages %d/%d, threadblocks %d/%d, streams %d/%d, grid %d/1, expects %d/%d)",
                     r, rk->seen_sto, rk->nsto, rk->seen_tb, rk->ntb, rk->seen_stream, rk->nstream, rk->seen_grid, rk->seen_expect, rk->nexpect);
            return -1;
        }
    }
    /* An expectation's source chunks lie in its source ranks' inputs (a per-rank table has no other ranks). */
    for (int r = 0; t->part < 0 && r < t->ranks; r++) {
        const nr_rank *rk = &t->rank[r];
        for (int i = 0; i < rk->nexpect; i++) {
            const nr_expect *e = &rk->expect[i];
            for (int p = e->sum ? 0 : e->src_rank; p <= (e->sum ? t->ranks - 1 : e->src_rank); p++) {
                const nr_view *in = &t->rank[p].in;
                if (!in->present || (long long) e->src_idx + e->count > in->chunks) {
                    snprintf(err, errlen, "launch table: rank %d's expectation %d reads input chunks [%d, %lld) of rank %d, which has %d",
                             r, i, e->src_idx, (long long) e->src_idx + e->count, p, in->present ? in->chunks : 0);
                    return -1;
                }
            }
        }
    }
    /* The storages' sum was bounded line by line (storage_fits), so these offsets fit. */
    int64_t off = 0;
    for (int r = 0; r < t->ranks; r++) {
        t->rank[r].sto_off = off;
        t->rank[r].stage_off = -1;
        for (int i = 0; i < t->rank[r].nsto; i++) {
            t->rank[r].sto[i].off = off;
            off += (int64_t) t->rank[r].sto[i].chunks * t->chunk_elems;
        }
    }
    t->storage_elems = off;
    for (int g = 0; g < t->nstep; g++)
        if (check_step(t, g, err, errlen) || place_stage(t, g, &off, err, errlen)) return -1;
    /* Transfer sizes: a receive takes exactly what its send produced. */
    for (int g = 0; g < t->nstep; g++) {
        const nr_step *s = &t->step[g];
        if (op_recvs(s->op) && s->from >= 0 && t->step[s->from].nelem != s->nelem)
            return step_err(t, g, err, errlen, " receives %lld floats but its send produces %lld", (long long) s->nelem,
                            (long long) t->step[s->from].nelem);
    }
    t->arena_elems = off;
    /* Steps come rank by rank, so each rank's stages are contiguous; a rank that sends nothing
     * has an empty range where the next rank's begins. */
    for (int r = t->ranks - 1; r >= 0; r--)
        if (t->rank[r].stage_off < 0) t->rank[r].stage_off = r + 1 < t->ranks ? t->rank[r + 1].stage_off : off;
    return check_cycles(t, err, errlen);
}

nr_table *nr_parse(const char *text, size_t len, char *err, size_t errlen) {
    if (!text) { snprintf(err, errlen, "launch table: null text"); return NULL; }
    char *buf = malloc(len + 1);
    nr_table *t = calloc(1, sizeof *t);
    if (!buf || !t) { free(buf); free(t); snprintf(err, errlen, "launch table: out of memory"); return NULL; }
    memcpy(buf, text, len);
    buf[len] = 0;
    if (strlen(buf) != len) { snprintf(err, errlen, "launch table: contains a NUL byte"); goto fail; }
    int lineno = 0, stage = 0; /* 0 magic, 1 plan, 2 device, 3 placement, 4 body, 5 after end */
    t->part = -1;
    int cur_rank = -1, cur_tb = -1, seen_ranks = 0;
    char *save = NULL;
    for (char *ln = strtok_r(buf, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        lineno++; /* blank lines are skipped by strtok_r, so numbers count non-empty lines */
        line_t l = {.n = 0, .lineno = lineno, .err = err, .errlen = errlen};
        char *s2 = NULL;
        for (char *tk = strtok_r(ln, " \t\r", &s2); tk; tk = strtok_r(NULL, " \t\r", &s2)) {
            if (l.n == MAX_TOKENS) { perr(&l, "more than %d tokens", MAX_TOKENS); goto fail; }
            l.tok[l.n++] = tk;
        }
        if (l.n == 0 || l.tok[0][0] == '#') continue;
        const char *kw = l.tok[0];
        if (stage == 5) { perr(&l, "text after 'end'"); goto fail; }
        if (stage == 0) {
            if (strcmp(kw, "nunart-launch") != 0 || l.n != 2) { perr(&l, "not a launch table (expected 'nunart-launch 1')"); goto fail; }
            if (strcmp(l.tok[1], "1") != 0) { perr(&l, "unsupported launch table version %s (this runtime reads 1)", l.tok[1]); goto fail; }
            stage = 1;
        } else if (stage == 1) {
            if (strcmp(kw, "plan")) { perr(&l, "expected 'plan', found '%s'", kw); goto fail; }
            if (gets_(&l, "name", t->name, sizeof t->name) || gets_(&l, "collective", t->collective, sizeof t->collective)
                || geti(&l, "ranks", 1, MAX_RANKS, &t->ranks) || geti(&l, "chunk_factor", 1, 1 << 20, &t->cf)
                || geti(&l, "inplace", 0, 1, &t->inplace) || geti(&l, "root", 0, MAX_RANKS - 1, &t->root)
                || gets_(&l, "protocol", t->protocol, sizeof t->protocol)) goto fail;
            if (t->root >= t->ranks) { perr(&l, "root=%d is not a rank (ranks=%d)", t->root, t->ranks); goto fail; }
            t->rank = calloc((size_t) t->ranks, sizeof *t->rank);
            if (!t->rank) { perr(&l, "out of memory"); goto fail; }
            stage = 2;
        } else if (stage == 2) {
            if (strcmp(kw, "device")) { perr(&l, "expected 'device', found '%s'", kw); goto fail; }
            if (gets_(&l, "topology", t->topology, sizeof t->topology) || geti(&l, "cus", 1, 1 << 20, &t->cus)
                || geti(&l, "dies", 1, 1024, &t->dies) || geti(&l, "stacks", 0, 1 << 16, &t->stacks)
                || geti(&l, "mask_words", 1, MAX_MASK_WORDS, &t->mask_words)
                || gets_(&l, "dispatch", t->dispatch, sizeof t->dispatch)) goto fail;
            if ((int64_t) t->mask_words * 32 < t->cus) { perr(&l, "mask_words=%d cannot address %d CUs", t->mask_words, t->cus); goto fail; }
            stage = 3;
        } else if (stage == 3) {
            if (strcmp(kw, "placement")) { perr(&l, "expected 'placement', found '%s'", kw); goto fail; }
            if (gets_(&l, "policy", t->policy, sizeof t->policy)
                || getl(&l, "chunk_bytes", 4, (1LL << 30), &t->chunk_bytes)
                || getl(&l, "page_bytes", 1, (1LL << 30), &t->page_bytes)) goto fail;
            if (t->chunk_bytes % 4) { perr(&l, "chunk_bytes=%lld is not a multiple of 4 (the runtime moves floats)", (long long) t->chunk_bytes); goto fail; }
            t->chunk_elems = t->chunk_bytes / 4;
            stage = 4;
        } else if (strcmp(kw, "part") == 0) {
            /* A per-rank table (nunac --per-rank): one rank's block, its partners on ranks it leaves out. */
            if (seen_ranks || t->part >= 0) { perr(&l, "'part' must come once, before the first rank"); goto fail; }
            if (geti(&l, "rank", 0, MAX_RANKS - 1, &t->part)) goto fail;
            if (t->part >= t->ranks) { perr(&l, "part rank=%d is not a rank (ranks=%d)", t->part, t->ranks); goto fail; }
        } else if (strcmp(kw, "end") == 0) {
            int want = t->part >= 0 ? 1 : t->ranks;
            if (seen_ranks != want) { perr(&l, "'end' after %d of %d ranks", seen_ranks, want); goto fail; }
            stage = 5;
        } else if (strcmp(kw, "rank") == 0) {
            int id, expect = t->part >= 0 ? t->part : seen_ranks;
            if (geti(&l, "id", 0, MAX_RANKS, &id)) goto fail;
            if (t->part >= 0 && seen_ranks) { perr(&l, "a per-rank table holds rank %d alone, found rank %d", t->part, id); goto fail; }
            if (id != expect || id >= t->ranks) { perr(&l, "expected rank %d, found rank %d", expect, id); goto fail; }
            if (cur_rank >= 0) {
                nr_rank *p = &t->rank[cur_rank];
                if (p->seen_tb != p->ntb || p->seen_sto != p->nsto || p->seen_stream != p->nstream || p->seen_grid != 1
                    || p->seen_expect != p->nexpect) {
                    perr(&l, "rank %d ended early (storages %d/%d, threadblocks %d/%d, streams %d/%d, grid %d/1, expects %d/%d)", cur_rank,
                         p->seen_sto, p->nsto, p->seen_tb, p->ntb, p->seen_stream, p->nstream, p->seen_grid, p->seen_expect, p->nexpect);
                    goto fail;
                }
            }
            nr_rank *rk = &t->rank[id];
            rk->id = id;
            if (geti(&l, "storages", 1, 1024, &rk->nsto) || geti(&l, "threadblocks", 0, MAX_TBS, &rk->ntb)
                || geti(&l, "grid", 0, MAX_TBS, &rk->ngrid) || geti(&l, "streams", 0, 4096, &rk->nstream)
                || geti_or(&l, "expects", 0, MAX_RANKS, 0, &rk->nexpect)) goto fail;
            rk->sto = calloc((size_t) rk->nsto, sizeof *rk->sto);
            rk->streams = calloc((size_t) (rk->nstream ? rk->nstream : 1), sizeof *rk->streams);
            rk->expect = calloc((size_t) (rk->nexpect ? rk->nexpect : 1), sizeof *rk->expect);
            if (!rk->sto || !rk->streams || !rk->expect) { perr(&l, "out of memory"); goto fail; }
            rk->first_tb = t->ntb;
            cur_rank = id;
            cur_tb = -1;
            seen_ranks++;
        } else {
            if (cur_rank < 0) { perr(&l, "'%s' before the first 'rank'", kw); goto fail; }
            nr_rank *rk = &t->rank[cur_rank];
            int r;
            if (geti(&l, "rank", 0, MAX_RANKS, &r)) goto fail;
            if (r != cur_rank) { perr(&l, "'%s' of rank %d inside rank %d", kw, r, cur_rank); goto fail; }
            if (strcmp(kw, "storage") == 0) {
                int id;
                if (geti(&l, "id", 0, 1024, &id)) goto fail;
                if (id != rk->seen_sto || id >= rk->nsto) { perr(&l, "expected storage %d of rank %d (storages=%d)", rk->seen_sto, r, rk->nsto); goto fail; }
                nr_storage *st = &rk->sto[id];
                int np;
                if (gets_(&l, "name", st->name, sizeof st->name) || geti(&l, "chunks", 0, 1 << 24, &st->chunks)
                    || geti(&l, "pages", 0, 1 << 28, &st->pages)
                    || get_list(&l, "stacks", -1, t->stacks ? t->stacks - 1 : -1, &st->stacks, &np)) goto fail;
                if (np != st->pages) { perr(&l, "pages=%d but %d stacks listed", st->pages, np); goto fail; }
                if (storage_fits(&l, t, r, id)) goto fail;
                t->pages += st->pages;
                rk->seen_sto++;
            } else if (strcmp(kw, "view") == 0) {
                char b[16];
                nr_view v = {.present = 1};
                if (gets_(&l, "buffer", b, sizeof b) || geti(&l, "storage", 0, 1023, &v.storage)
                    || geti(&l, "offset", 0, 1 << 24, &v.offset) || geti(&l, "chunks", 1, 1 << 24, &v.chunks)) goto fail;
                if (v.storage >= rk->seen_sto) { perr(&l, "view on storage %d, which is not declared", v.storage); goto fail; }
                if ((long long) v.offset + v.chunks > rk->sto[v.storage].chunks) { perr(&l, "view [%d, %d) exceeds storage %d (%d chunks)", v.offset, v.offset + v.chunks, v.storage, rk->sto[v.storage].chunks); goto fail; }
                if (strcmp(b, "input") == 0) rk->in = v;
                else if (strcmp(b, "output") == 0) rk->out = v;
                else { perr(&l, "view of unknown buffer '%s' (input or output)", b); goto fail; }
            } else if (strcmp(kw, "expect") == 0) {
                if (rk->seen_tb) { perr(&l, "'expect' after the threadblocks of rank %d", r); goto fail; }
                if (rk->seen_expect >= rk->nexpect) { perr(&l, "more than expects=%d expect lines", rk->nexpect); goto fail; }
                nr_expect *e = &rk->expect[rk->seen_expect];
                char op[8], src[32];
                if (geti(&l, "out", 0, 1 << 24, &e->out) || geti(&l, "count", 1, 1 << 24, &e->count)
                    || gets_(&l, "op", op, sizeof op) || gets_(&l, "src", src, sizeof src)) goto fail;
                if (strcmp(op, "copy") == 0) e->sum = 0;
                else if (strcmp(op, "sum") == 0) e->sum = 1;
                else { perr(&l, "op=%s: an expectation is copy or sum", op); goto fail; }
                char *colon = strchr(src, ':');
                long long sr = -1, si;
                if (!colon || parse_long(colon + 1, 0, 1 << 24, &si)
                    || (*src == '*' ? colon != src + 1 : (*colon = 0, parse_long(src, 0, t->ranks - 1, &sr)))) {
                    perr(&l, "src=%s is not RANK:INDEX (RANK a rank, or * for every rank with op=sum)", val(&l, "src")); goto fail;
                }
                if ((sr < 0) != e->sum) { perr(&l, "op=%s takes src=%s", op, e->sum ? "*:INDEX" : "RANK:INDEX"); goto fail; }
                e->src_rank = (int) sr;
                e->src_idx = (int) si;
                if (!rk->out.present || (long long) e->out + e->count > rk->out.chunks) {
                    perr(&l, "expected output chunks [%d, %lld) outside rank %d's output (%d chunks)", e->out, (long long) e->out + e->count, r,
                         rk->out.present ? rk->out.chunks : 0);
                    goto fail;
                }
                rk->seen_expect++;
            } else if (strcmp(kw, "tb") == 0) {
                int id;
                if (geti(&l, "id", 0, MAX_TBS, &id)) goto fail;
                if (rk->seen_sto != rk->nsto) { perr(&l, "threadblock before all %d storages of rank %d", rk->nsto, r); goto fail; }
                if (id != rk->seen_tb || id >= rk->ntb) { perr(&l, "expected threadblock %d of rank %d (threadblocks=%d)", rk->seen_tb, r, rk->ntb); goto fail; }
                if (cur_tb >= 0 && t->tb[t->ntb - 1].first_step + t->tb[t->ntb - 1].nsteps != t->nstep) {
                    perr(&l, "threadblock %d of rank %d declared %d steps, %d given", cur_tb, r, t->tb[t->ntb - 1].nsteps, t->nstep - t->tb[t->ntb - 1].first_step);
                    goto fail;
                }
                if (t->ntb >= MAX_TBS || grow((void **) &t->tb, &t->cap_tb, t->ntb + 1, sizeof *t->tb)) { perr(&l, "too many threadblocks"); goto fail; }
                nr_tb *tb = &t->tb[t->ntb];
                memset(tb, 0, sizeof *tb);
                tb->rank = r;
                tb->id = id;
                if (geti(&l, "cu", 0, 1 << 20, &tb->cu) || geti(&l, "die", 0, 1023, &tb->die)
                    || geti(&l, "slot", 0, MAX_TBS, &tb->slot) || geti(&l, "domain", -1, 4096, &tb->domain)
                    || geti(&l, "group", -1, MAX_TBS, &tb->group) || geti(&l, "send", -1, MAX_RANKS, &tb->send)
                    || geti(&l, "recv", -1, MAX_RANKS, &tb->recv) || geti(&l, "channel", 0, 1 << 16, &tb->channel)
                    || geti(&l, "steps", 0, MAX_TB_STEPS, &tb->nsteps)) goto fail;
                t->ntb++; /* counted before the mask so that free() sees it */
                if (get_mask(&l, "mask", t->mask_words, &tb->mask)) goto fail;
                if (tb->cu >= t->cus) { perr(&l, "threadblock on CU %d, but the table's device has %d CUs", tb->cu, t->cus); goto fail; }
                if (tb->die >= t->dies) { perr(&l, "threadblock on die %d, but the table's device has %d dies", tb->die, t->dies); goto fail; }
                if (tb->slot >= rk->ngrid) { perr(&l, "grid slot %d outside the grid of %d slots", tb->slot, rk->ngrid); goto fail; }
                if (tb->send >= t->ranks || tb->recv >= t->ranks) { perr(&l, "peer rank outside 0..%d", t->ranks - 1); goto fail; }
                tb->first_step = t->nstep;
                cur_tb = id;
                rk->seen_tb++;
            } else if (strcmp(kw, "step") == 0) {
                int tbid, id;
                if (geti(&l, "tb", 0, MAX_TBS, &tbid) || geti(&l, "id", 0, MAX_TB_STEPS, &id)) goto fail;
                if (tbid != cur_tb) { perr(&l, "step of threadblock %d inside threadblock %d", tbid, cur_tb); goto fail; }
                nr_tb *tb = &t->tb[t->ntb - 1];
                if (id != t->nstep - tb->first_step || id >= tb->nsteps) { perr(&l, "expected step %d of threadblock %d (steps=%d)", t->nstep - tb->first_step, tbid, tb->nsteps); goto fail; }
                if (t->nstep >= MAX_STEPS || grow((void **) &t->step, &t->cap_step, t->nstep + 1, sizeof *t->step)) { perr(&l, "too many steps"); goto fail; }
                nr_step *s = &t->step[t->nstep];
                memset(s, 0, sizeof *s);
                const char *opn = val(&l, "op");
                if (!opn) { perr(&l, "'step' needs op=..."); goto fail; }
                s->op = op_of(opn);
                if (s->op < 0) { perr(&l, "unknown op '%s'", opn); goto fail; }
                int src[4], dst[4], fs, fd, from[3], to[3], ff, ft;
                if (get_tuple(&l, "src", 4, src, &fs) || get_tuple(&l, "dst", 4, dst, &fd)
                    || geti(&l, "peer", -1, MAX_RANKS, &s->peer)
                    || get_tuple(&l, "from", 3, from, &ff) || get_tuple(&l, "to", 3, to, &ft)) goto fail;
                if (check_operand(&l, t, "src", src, fs, &s->src_cnt) || check_operand(&l, t, "dst", dst, fd, &s->dst_cnt)) goto fail;
                s->src_rank = src[0]; s->src_sto = src[1]; s->src_idx = src[2];
                s->dst_rank = dst[0]; s->dst_sto = dst[1]; s->dst_idx = dst[2];
                if (op_reads(s->op) && !fs) { perr(&l, "op %s needs a src operand", opn); goto fail; }
                if (op_writes(s->op) && !fd) { perr(&l, "op %s needs a dst operand", opn); goto fail; }
                if (s->peer >= t->ranks) { perr(&l, "peer %d does not exist", s->peer); goto fail; }
                if ((s->op >= OP_PUT) && s->peer < 0) { perr(&l, "op %s needs a peer", opn); goto fail; }
                if (op_sends(s->op) && tb->send < 0) { perr(&l, "op %s in a threadblock without a send peer", opn); goto fail; }
                if (op_recvs(s->op) && tb->recv < 0) { perr(&l, "op %s in a threadblock without a recv peer", opn); goto fail; }
                /* Partners are stored as (rank, tb, step) for now and resolved after parsing. */
                s->from = ff ? -2 : -1;
                s->to = ft ? -2 : -1;
                const char *dv = val(&l, "deps");
                if (!dv) { perr(&l, "'step' needs deps=..."); goto fail; }
                /* deps are t:s pairs; parse them by hand into global ids of this rank. */
                s->dep_first = t->ndeps;
                if (strcmp(dv, "-") != 0) {
                    char dbuf[4096];
                    if (strlen(dv) >= sizeof dbuf) { perr(&l, "deps list too long"); goto fail; }
                    strcpy(dbuf, dv);
                    char *s3 = NULL;
                    for (char *d = strtok_r(dbuf, ",", &s3); d; d = strtok_r(NULL, ",", &s3)) {
                        long long dt, ds;
                        char *c = strchr(d, ':');
                        if (!c) { perr(&l, "dep '%s' is not tb:step", d); goto fail; }
                        *c = 0;
                        if (parse_long(d, 0, MAX_TBS, &dt) || parse_long(c + 1, 0, MAX_TB_STEPS, &ds)) { perr(&l, "dep '%s:%s' is not tb:step", d, c + 1); goto fail; }
                        if (dt == tbid && own_dep(&l, tb, id, ds, dv)) goto fail;
                        if (t->ndeps > INT_MAX - 2) { perr(&l, "more than %d dependencies in the table", INT_MAX / 2); goto fail; }
                        if (grow((void **) &t->deps, &t->cap_deps, t->ndeps + 2, sizeof *t->deps)) { perr(&l, "out of memory"); goto fail; }
                        /* Encoded as tb and step for now; resolved after parsing. */
                        t->deps[t->ndeps++] = (int) dt;
                        t->deps[t->ndeps++] = (int) ds;
                        s->ndeps++;
                    }
                }
                /* Keep the partner tuples until the whole table is read. */
                if (pack_partner(&l, t, "from", from, ff, &s->src_off) || pack_partner(&l, t, "to", to, ft, &s->dst_off)) goto fail;
                s->line = lineno;
                t->nstep++;
            } else if (strcmp(kw, "stream") == 0) {
                if (rk->seen_stream >= rk->nstream) { perr(&l, "more than streams=%d streams", rk->nstream); goto fail; }
                nr_stream *st = &rk->streams[rk->seen_stream];
                if (geti(&l, "domain", -1, 4096, &st->domain) || geti(&l, "cus", 0, 1 << 20, &st->cus)
                    || geti(&l, "added", 0, 1 << 20, &st->added)) goto fail;
                rk->seen_stream++;
                if (get_mask(&l, "mask", t->mask_words, &st->mask)) goto fail;
            } else if (strcmp(kw, "grid") == 0) {
                int n;
                if (rk->seen_grid) { perr(&l, "second grid for rank %d", r); goto fail; }
                if (get_list(&l, "slots", -1, MAX_TBS, &rk->grid, &n)) goto fail;
                rk->seen_grid = 1;
                if (n != rk->ngrid) { perr(&l, "grid has %d slots, rank line says %d", n, rk->ngrid); goto fail; }
                if (rk->seen_tb != rk->ntb) { perr(&l, "grid before all threadblocks of rank %d", r); goto fail; }
                for (int i = 0; i < rk->ntb; i++) {
                    const nr_tb *tb = &t->tb[rk->first_tb + i];
                    if (rk->grid[tb->slot] != i) { perr(&l, "slot %d holds %d, but threadblock %d says it is there", tb->slot, rk->grid[tb->slot], i); goto fail; }
                }
                for (int s = 0; s < n; s++) {
                    int g = rk->grid[s];
                    if (g >= rk->ntb || (g >= 0 && t->tb[rk->first_tb + g].slot != s)) { perr(&l, "slot %d names threadblock %d, which is not placed there", s, g); goto fail; }
                }
            } else {
                perr(&l, "unknown line '%s'", kw);
                goto fail;
            }
            if (strcmp(kw, "step") != 0 && strcmp(kw, "tb") != 0 && cur_tb >= 0) {
                nr_tb *tb = &t->tb[t->ntb - 1];
                if (tb->first_step + tb->nsteps != t->nstep) { perr(&l, "threadblock %d of rank %d declared %d steps, %d given", tb->id, r, tb->nsteps, t->nstep - tb->first_step); goto fail; }
            }
        }
    }
    if (stage != 5) {
        snprintf(err, errlen, "launch table: ends early (no %s)", stage == 0 ? "header" : stage < 4 ? "plan/device/placement lines" : "'end' line");
        goto fail;
    }
    if (t->ntb > 0) {
        nr_tb *tb = &t->tb[t->ntb - 1];
        if (tb->first_step + tb->nsteps != t->nstep) { snprintf(err, errlen, "launch table: the last threadblock declared %d steps, %d given", tb->nsteps, t->nstep - tb->first_step); goto fail; }
    }
    if (resolve(t, err, errlen) || finish(t, err, errlen)) goto fail;
    free(buf);
    return t;
fail:
    free(buf);
    nr_table_free(t);
    return NULL;
}
