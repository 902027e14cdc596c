/* The cost of the look a sysfs source takes before each poll (SPEC §20): sw_dir_fingerprint
 * of a class directory, ROUNDS times, in CPU time (getrusage), printed in µs per look.
 * Usage: dir-look DIR ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "clinux.h"

static double cpu_us(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: dir-look DIR ROUNDS\n");
        return 64;
    }
    long rounds = atol(argv[2]);
    unsigned long long fingerprint = 0, all = 0;
    double start = cpu_us();
    for (long i = 0; i < rounds; i++) {
        if (sw_dir_fingerprint(argv[1], &fingerprint) != 0) {
            perror(argv[1]);
            return 66;
        }
        all ^= fingerprint;
    }
    printf("%.2f %llx\n", (cpu_us() - start) / rounds, all & 0xf);
    return 0;
}
