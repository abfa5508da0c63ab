/* What the native test programs share: counters and a failure line on stderr. */
#ifndef NUNART_TEST_CHECK_H
#define NUNART_TEST_CHECK_H
#include <stdarg.h>
#include <stdio.h>

static int failures, passed;

static void fail(const char *test, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *test, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", test);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    failures++;
}
#endif
