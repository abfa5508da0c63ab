/* Host backend: one CPU thread per threadblock of every rank executes the plan's steps on
 * host memory. A step waits for its dependencies and for its partner (the send a receive
 * takes, the signal a wait takes) through per-step done flags under one mutex, so every wait
 * is bounded by the launch deadline: a plan that cannot finish fails with a timeout naming the
 * step, it never hangs. CU affinity, grid order and stream masks are emulated; pages advisory. */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned char *done;
    int aborted;
    int stuck_step;        /* first step that timed out, -1 if none */
    struct timespec deadline;
    nunart_ctx *ctx;
} run_t;

typedef struct {
    run_t *run;
    int tb;
} worker_t;

static nunart_status host_open(nunart_ctx *ctx) {
    ctx->dev.emulated = 1;
    ctx->dev.max_ranks = ctx->want.max_ranks ? ctx->want.max_ranks : 1024;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(ctx->dev.name, sizeof ctx->dev.name, "host CPU (%ld cores), emulated device", cpus);
    return NUNART_OK;
}

static nunart_status host_alloc(nunart_ctx *ctx) {
    const nr_table *t = ctx->table;
    snprintf(ctx->page_placement, sizeof ctx->page_placement,
             "advisory (host memory has no HBM stacks; the map of %lld pages over %d stacks is recorded, not applied)",
             (long long) t->pages, t->stacks);
    snprintf(ctx->executor, sizeof ctx->executor, "CPU threads, one per logical threadblock%s",
             ctx->arch[0] ? "; option arch applies to HIP only" : "");
    return NUNART_OK;
}

/* Waits until step g is done; returns 0, or -1 on abort or deadline. Called with mu held. */
static int wait_done(run_t *run, int g, int waiter) {
    while (!run->done[g]) {
        if (run->aborted) return -1;
        int rc = pthread_cond_timedwait(&run->cv, &run->mu, &run->deadline);
        if (rc == ETIMEDOUT && !run->done[g]) {
            if (!run->aborted) run->stuck_step = waiter;
            run->aborted = 1;
            pthread_cond_broadcast(&run->cv);
            return -1;
        }
    }
    return 0;
}

static void *worker(void *arg) {
    worker_t *w = arg;
    run_t *run = w->run;
    const nr_table *t = run->ctx->table;
    const nr_tb *tb = &t->tb[w->tb];
    /* The emulated CU is the planned one: nothing else exists to run it on. */
    run->ctx->ran_on[w->tb] = tb->cu;
    for (int g = tb->first_step; g < tb->first_step + tb->nsteps; g++) {
        const nr_step *s = &t->step[g];
        pthread_mutex_lock(&run->mu);
        int bad = 0;
        for (int d = 0; d < s->ndeps && !bad; d++) bad = wait_done(run, t->deps[s->dep_first + d], g);
        if (!bad && s->from >= 0) bad = wait_done(run, s->from, g);
        pthread_mutex_unlock(&run->mu);
        if (bad) return NULL;
        /* Data moves outside the lock; the mutex orders it against the partner's writes. */
        nr_exec_step(t, s, run->ctx->host);
        pthread_mutex_lock(&run->mu);
        run->done[g] = 1;
        pthread_cond_broadcast(&run->cv);
        pthread_mutex_unlock(&run->mu);
    }
    return NULL;
}

static nunart_status host_launch(nunart_ctx *ctx, int pinned, double *elapsed_us) {
    const nr_table *t = ctx->table;
    run_t run = {.ctx = ctx, .stuck_step = -1};
    run.done = calloc((size_t) (t->nstep ? t->nstep : 1), 1);
    pthread_t *th = calloc((size_t) (t->ntb ? t->ntb : 1), sizeof *th);
    worker_t *ws = calloc((size_t) (t->ntb ? t->ntb : 1), sizeof *ws);
    if (!run.done || !th || !ws) {
        free(run.done); free(th); free(ws);
        return nr_fail(ctx, NUNART_E_MEMORY, "out of memory");
    }
    pthread_mutex_init(&run.mu, NULL);
    pthread_cond_init(&run.cv, NULL);
    clock_gettime(CLOCK_REALTIME, &run.deadline);
    run.deadline.tv_sec += ctx->timeout_ms / 1000;
    run.deadline.tv_nsec += (long) (ctx->timeout_ms % 1000) * 1000000L;
    if (run.deadline.tv_nsec >= 1000000000L) { run.deadline.tv_sec++; run.deadline.tv_nsec -= 1000000000L; }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 128 * 1024);
    int64_t t0 = nr_now_ns();
    int started = 0, err = 0;
    /* Threads start in grid-slot order when pinned, in threadblock order otherwise: the only
     * trace of the grid order a host can show. */
    for (int r = 0; r < t->ranks && !err; r++) {
        const nr_rank *rk = &t->rank[r];
        for (int i = 0; i < (pinned ? rk->ngrid : rk->ntb) && !err; i++) {
            int local = pinned ? rk->grid[i] : i;
            if (local < 0) continue;
            ws[started].run = &run;
            ws[started].tb = rk->first_tb + local;
            err = pthread_create(&th[started], &attr, worker, &ws[started]);
            if (!err) started++;
        }
    }
    if (err) {
        pthread_mutex_lock(&run.mu);
        run.aborted = 1;
        pthread_cond_broadcast(&run.cv);
        pthread_mutex_unlock(&run.mu);
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    *elapsed_us = (double) (nr_now_ns() - t0) / 1000.0;
    pthread_attr_destroy(&attr);
    pthread_mutex_destroy(&run.mu);
    pthread_cond_destroy(&run.cv);
    int stuck = run.stuck_step;
    free(run.done); free(th); free(ws);
    if (err) return nr_fail(ctx, NUNART_E_DEVICE, "cannot start thread %d of %d: %s", started + 1, t->ntb, strerror(err));
    if (stuck >= 0) {
        int tbi = 0;
        while (tbi + 1 < t->ntb && t->tb[tbi + 1].first_step <= stuck) tbi++;
        return nr_fail(ctx, NUNART_E_TIMEOUT, "launch timed out after %d ms: rank %d threadblock %d step %d waits for a step that never completes",
                       ctx->timeout_ms, t->tb[tbi].rank, t->tb[tbi].id, stuck - t->tb[tbi].first_step);
    }
    snprintf(ctx->cu_affinity, sizeof ctx->cu_affinity,
             "emulated (%d host threads stand in for the planned CUs; no CPU pinning)", t->ntb);
    snprintf(ctx->grid_order, sizeof ctx->grid_order, "emulated (threads started in grid-slot order)");
    snprintf(ctx->stream_masks, sizeof ctx->stream_masks, "emulated (no device queues; masks validated only)");
    return NUNART_OK;
}

const nr_backend nr_backend_host = {
    .name = "host",
    .open = host_open,
    .alloc = host_alloc,
    .launch = host_launch,
    .fetch = NULL,
    .stream = NULL,
    .close = NULL,
};
