/* nunart-run TABLE [--backend B] [--options "k=v ..."] [--time N]
 * Runs a launch table once, verifies it and prints the launch report; with --time N also
 * prints the median of N pinned and N plain launches. Exit: 0 ok, 1 the run failed (report
 * printed; stderr: "nunart-run: STATUS: message"), 2 usage or unreadable table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nunart.h"

int main(int argc, char **argv) {
    const char *path = NULL, *backend = "auto", *options = NULL;
    int time_n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) backend = argv[++i];
        else if (!strcmp(argv[i], "--options") && i + 1 < argc) options = argv[++i];
        else if (!strcmp(argv[i], "--time") && i + 1 < argc) time_n = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else { fprintf(stderr, "usage: nunart-run TABLE [--backend auto|host|cuda|hip] [--options \"k=v ...\"] [--time N]\n"); return 2; }
    }
    if (!path) { fprintf(stderr, "nunart-run: no launch table given\n"); return 2; }
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 2; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(len > 0 ? (size_t) len : 1);
    if (!buf || fread(buf, 1, (size_t) len, f) != (size_t) len) { fprintf(stderr, "nunart-run: cannot read %s\n", path); fclose(f); return 2; }
    fclose(f);
    nunart_ctx *ctx = NULL;
    nunart_status st = nunart_open(&ctx, backend, options);
    if (!st) st = nunart_load(ctx, buf, (size_t) len);
    if (!st) st = nunart_alloc(ctx);
    double pinned = -1, plain = -1;
    if (!st && time_n > 0 && !(st = nunart_time_launches(ctx, time_n, 0, &plain))) st = nunart_time_launches(ctx, time_n, 1, &pinned);
    if (!st) st = nunart_launch(ctx);
    if (!st) st = nunart_verify(ctx);
    fputs(nunart_report(ctx), stdout);
    if (time_n > 0 && !st) printf("median-launch-us: pinned %.1f plain %.1f (n=%d)\n", pinned, plain, time_n);
    /* The status of the call that failed and its message, for scripts and tests. */
    if (st) fprintf(stderr, "nunart-run: %s: %s\n", nunart_status_name(st), nunart_message(ctx));
    int rc = st ? 1 : 0;
    nunart_close(ctx);
    free(buf);
    return rc;
}
