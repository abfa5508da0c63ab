/* The fidelity check of nunart-run --require-fidelity, on the report's placement-fidelity line
 * (nunart.c): "F (P/T threadblocks ran on their planned CU|die, device readback)" or "emulated
 * (P/T threadblocks ...)". It compares the exact counts P and T, never the rounded fraction F,
 * so that 2499 of 2500 fails; a line that is missing, says "unknown", or has no counts fails
 * too. Included by nunart_run.c and by the native tests. */
#ifndef NUNART_TOOLS_FIDELITY_H
#define NUNART_TOOLS_FIDELITY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when every threadblock ran where it was planned; 0 with the reason in why otherwise. */
static int nunart_fidelity_check(const char *line, char *why, size_t cap) {
    if (!line || !line[0]) {
        snprintf(why, cap, "the report has no placement-fidelity line");
        return 0;
    }
    const char *open = strchr(line, '(');
    char *end = NULL;
    long placed = open ? strtol(open + 1, &end, 10) : -1, total = -1;
    if (end && end > open + 1 && *end == '/') {
        const char *t = end + 1;
        total = strtol(t, &end, 10);
        if (end == t) total = -1;
    }
    if (placed < 0 || total < 0) {
        snprintf(why, cap, "no threadblock counts in the placement-fidelity line: %s", line);
        return 0;
    }
    if (total == 0) {
        snprintf(why, cap, "no threadblock was placed: %s", line);
        return 0;
    }
    if (placed != total) {
        snprintf(why, cap, "%s, below 1.000 (%ld of %ld threadblocks off their planned unit)", line, total - placed, total);
        return 0;
    }
    return 1;
}

#endif
