/* The floor for reading N sysfs-style attributes: one kept-open fd per file and a bare
 * pread(fd, buf, 64, 0) per sample, nothing else. Prints CPU ns per sample and RSS.
 * usage: pread-floor DIR ZONES ROUNDS [INTERVAL_MS]   (reads DIR/thermal_zoneI/temp)
 * With INTERVAL_MS it never ends: one round every INTERVAL_MS, to be measured from outside
 * like the daemons (caches go cold between rounds, as they do for them). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kib;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) { fprintf(stderr, "usage: %s DIR ZONES ROUNDS [INTERVAL_MS]\n", argv[0]); return 2; }
    int zones = atoi(argv[2]), rounds = atoi(argv[3]);
    int *fds = calloc(zones, sizeof *fds);
    char path[4096], buf[64];
    for (int i = 0; i < zones; i++) {
        snprintf(path, sizeof path, "%s/thermal_zone%d/temp", argv[1], i);
        if ((fds[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0) { perror(path); return 1; }
    }
    if (argc == 5) {
        long ms = atol(argv[4]);
        struct timespec pause = { ms / 1000, (ms % 1000) * 1000000L };
        for (;;) {
            for (int i = 0; i < zones; i++) (void)!pread(fds[i], buf, sizeof buf, 0);
            nanosleep(&pause, NULL);
        }
    }
    struct timespec a, b;
    long long bytes = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < zones; i++) bytes += pread(fds[i], buf, sizeof buf, 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
    printf("%.3f %ld %lld\n", ns / ((double)zones * rounds) / 1000.0, rss_kib(), bytes);
    return 0;
}
