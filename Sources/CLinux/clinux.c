#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "clinux.h"

int sw_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}

void sw_pread_all(const int *fds, size_t count, unsigned char *buffer, size_t stride, long *lengths) {
    for (size_t i = 0; i < count; i++) {
        if (fds[i] < 0) {
            lengths[i] = -EBADF;
            continue;
        }
        long n;
        do {
            n = syscall(SYS_pread64, fds[i], buffer + i * stride, stride, (off_t)0);
        } while (n < 0 && errno == EINTR);
        lengths[i] = n >= 0 ? n : -errno;
    }
}
