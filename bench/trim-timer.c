/* LD_PRELOAD shim: times each malloc_trim(3) call of the process (the rule loop's, in
 * sensorwatch) and prints "malloc_trim: N calls, mean X µs, max Y µs" to stderr at exit.
 * build: cc -O2 -shared -fPIC -o trim-timer.so trim-timer.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static long calls;
static double total_us, max_us;

int malloc_trim(size_t pad) {
    static int (*real)(size_t);
    if (!real) real = (int (*)(size_t))dlsym(RTLD_NEXT, "malloc_trim");
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int r = real(pad);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double us = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    total_us += us;
    if (us > max_us) max_us = us;
    return r;
}

__attribute__((destructor)) static void report(void) {
    if (calls) fprintf(stderr, "malloc_trim: %ld calls, mean %.1f µs, max %.1f µs\n", calls, total_us / calls, max_us);
}
