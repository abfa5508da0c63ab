/* What the fake drivers share: environment, trace, and the executor's semantics. */
#include "mock.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

#define ARG_PTR(i, T) ((T *) (uintptr_t) *(unsigned long long *) args[i])

enum { OP_S, OP_R, OP_RCS, OP_RRS, OP_RRC, OP_RRCS, OP_CPY, OP_RE, OP_RA, OP_NOP, OP_PUT, OP_GET, OP_GETRE };

static void run_step(const long long *s, float *arena) {
    long long ne = s[1];
    float *dst = arena + s[3], *self = arena + s[4];
    const float *src = arena + s[2], *got = arena + (s[5] >= 0 ? s[5] : 0);
    for (long long i = 0; i < ne; i++) {
        switch ((int) s[0]) {
        case OP_S: self[i] = src[i]; break;
        case OP_R: dst[i] = got[i]; break;
        case OP_RCS: dst[i] = got[i]; self[i] = got[i]; break;
        case OP_RRS: self[i] = got[i] + src[i]; break;
        case OP_RRC: dst[i] = got[i] + src[i]; break;
        case OP_RRCS: self[i] = got[i] + src[i]; dst[i] = self[i]; break;
        case OP_CPY: case OP_PUT: case OP_GET: dst[i] = src[i]; break;
        case OP_RE: case OP_RA: case OP_GETRE: dst[i] += src[i]; break;
        default: break;
        }
    }
}

static int ready(const long long *s, const int *deps, const int *done) {
    for (long long d = 0; d < s[7]; d++)
        if (!done[deps[s[8] + d]]) return 0;
    return s[6] < 0 || done[s[6]];
}

void mock_exec(void **args, unsigned grid, int amd) {
    const long long *steps = ARG_PTR(0, const long long);
    const int *deps = ARG_PTR(1, const int), *tbinfo = ARG_PTR(2, const int);
    int ntb = *(int *) args[3];
    float *arena = ARG_PTR(4, float);
    int *done = ARG_PTR(5, int), *ran_on = ARG_PTR(6, int), *hw_id = ARG_PTR(7, int), *claim = ARG_PTR(8, int);
    int pinned = *(int *) args[9];
    int units = mock_env_int("NUNART_MOCK_UNITS", 8), forced = mock_env_int("NUNART_MOCK_LOCATION", -1);
    int *mine = malloc(sizeof(int) * (grid ? grid : 1)), *cur = malloc(sizeof(int) * (size_t) (ntb ? ntb : 1));
    if (!mine || !cur || units < 1) { claim[ntb] = 1; free(mine); free(cur); return; }
    /* The dispatcher: where block b lands (round-robin over the units, as SPX does with XCDs),
     * a claim on a threadblock planned there, then the steal by blocks that found none. */
    for (unsigned b = 0; b < grid; b++) {
        int loc = forced >= 0 ? forced : (int) (b % (unsigned) units);
        mine[b] = -1;
        if (!pinned) {
            if ((int) b < ntb && !claim[b]) { claim[b] = 1; mine[b] = (int) b; }
        } else {
            for (int t = 0; t < ntb && mine[b] < 0; t++)
                if (tbinfo[3 * t + 2] == loc && !claim[t]) { claim[t] = 1; mine[b] = t; }
        }
    }
    for (unsigned b = 0; b < grid; b++) {
        for (int t = 0; t < ntb && pinned && mine[b] < 0; t++)
            if (!claim[t]) { claim[t] = 1; mine[b] = t; }
        if (mine[b] < 0) continue;
        int loc = forced >= 0 ? forced : (int) (b % (unsigned) units), slot = (int) (b / (unsigned) units);
        ran_on[mine[b]] = loc;
        /* HW_ID as gfx9 lays it out: CU_ID 11:8, SH_ID 12, SE_ID 15:13; 10 CUs per SE. */
        hw_id[mine[b]] = amd ? (slot / 10 % 4) << 13 | (slot % 10) << 8 : loc;
    }
    /* The blocks run concurrently on a device; here one step of each claimed threadblock per
     * round, in block order, each step only once its dependencies and its partner are done. */
    int left = 0;
    for (int t = 0; t < ntb; t++) { cur[t] = tbinfo[3 * t]; left += tbinfo[3 * t + 1]; }
    int hang = mock_env_int("NUNART_MOCK_HANG", 0);
    while (left > 0) {
        int progressed = 0;
        for (unsigned b = 0; b < grid && !hang; b++) {
            int t = mine[b];
            if (t < 0 || cur[t] >= tbinfo[3 * t] + tbinfo[3 * t + 1]) continue;
            const long long *s = steps + 9LL * cur[t];
            if (!ready(s, deps, done)) continue;
            run_step(s, arena);
            done[cur[t]++] = 1;
            left--;
            progressed = 1;
        }
        if (!progressed) { claim[ntb] = 1; break; } /* a wait that is never satisfied: abort */
    }
    free(mine);
    free(cur);
}
