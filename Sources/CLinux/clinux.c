#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "clinux.h"

int sw_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}

int sw_malloc_limit(int arenas, int map_from, int give_back) {
    int ok = mallopt(M_ARENA_MAX, arenas);
    if (map_from > 0) ok &= mallopt(M_MMAP_THRESHOLD, map_from);
    if (give_back > 0) {
        ok &= mallopt(M_TRIM_THRESHOLD, give_back);
        ok &= mallopt(M_TOP_PAD, 0);
    }
    return ok;
}

__attribute__((noinline)) long sw_stack_release(void) {
    // The lowest address of this thread's stack above its guard, found once a thread.
    static __thread uintptr_t lowest;
    if (lowest == 0) {
        pthread_attr_t attributes;
        void *address;
        size_t size;
        int e = pthread_getattr_np(pthread_self(), &attributes);
        if (e != 0) return -e;
        e = pthread_attr_getstack(&attributes, &address, &size);
        pthread_attr_destroy(&attributes);
        if (e != 0) return -e;
        lowest = (uintptr_t)address;
    }
    long page = sysconf(_SC_PAGESIZE);
    // A page of room below this frame for madvise's own frames and the red zone.
    volatile char here = 0;
    uintptr_t end = ((uintptr_t)&here - (uintptr_t)page) & ~((uintptr_t)page - 1);
    if (end <= lowest) return 0;
    if (madvise((void *)lowest, end - lowest, MADV_DONTNEED) != 0) return -errno;
    return (long)(end - lowest);
}

void sw_pread_all(const int *fds, size_t count, unsigned char *buffer, size_t stride, long *lengths,
                  struct sw_read_progress *progress) {
    for (size_t i = 0; i < count; i++) {
        if (progress) {
            // Relaxed: the watch only needs to see the index move, not in step with the data.
            if (__atomic_load_n(&progress->abandoned, __ATOMIC_RELAXED)) {
                for (; i < count; i++) lengths[i] = -ECANCELED;
                return;
            }
            __atomic_store_n(&progress->index, (long)i, __ATOMIC_RELAXED);
        }
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

void sw_read_files_at(const char *dir, const char *names, size_t count, unsigned char *buffer, size_t stride,
                      long *lengths, struct sw_read_progress *progress) {
    long dfd;
    do {
        dfd = syscall(SYS_openat, AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    } while (dfd < 0 && errno == EINTR);
    if (dfd < 0) {
        long e = -errno;
        for (size_t i = 0; i < count; i++)
            if (lengths[i] >= 0) lengths[i] = e;
        return;
    }
    const char *name = names;
    for (size_t i = 0; i < count; i++, name += strlen(name) + 1) {
        if (lengths[i] < 0) continue;
        if (progress) {
            if (__atomic_load_n(&progress->abandoned, __ATOMIC_RELAXED)) {
                for (; i < count; i++)
                    if (lengths[i] >= 0) lengths[i] = -ECANCELED;
                break;
            }
            __atomic_store_n(&progress->index, (long)i, __ATOMIC_RELAXED);
        }
        long fd;
        do {
            fd = syscall(SYS_openat, (int)dfd, name, O_RDONLY | O_CLOEXEC);
        } while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            lengths[i] = -errno;
            continue;
        }
        long n;
        do {
            n = syscall(SYS_pread64, (int)fd, buffer + i * stride, stride, (off_t)0);
        } while (n < 0 && errno == EINTR);
        lengths[i] = n >= 0 ? n : -errno;
        syscall(SYS_close, (int)fd);
    }
    syscall(SYS_close, (int)dfd);
}

long sw_progress_index(const struct sw_read_progress *progress) {
    return __atomic_load_n(&progress->index, __ATOMIC_RELAXED);
}

void sw_progress_set_index(struct sw_read_progress *progress, long index) {
    __atomic_store_n(&progress->index, index, __ATOMIC_RELAXED);
}

int sw_progress_abandoned(const struct sw_read_progress *progress) {
    return __atomic_load_n(&progress->abandoned, __ATOMIC_RELAXED);
}

void sw_progress_abandon(struct sw_read_progress *progress) {
    __atomic_store_n(&progress->abandoned, 1, __ATOMIC_RELAXED);
}

int sw_timer_create(void) {
    int fd = timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int sw_timer_arm(int fd, long long nanoseconds) {
    struct itimerspec spec = {0};
    if (nanoseconds >= 0) {
        if (nanoseconds == 0) nanoseconds = 1;
        spec.it_value.tv_sec = nanoseconds / 1000000000LL;
        spec.it_value.tv_nsec = nanoseconds % 1000000000LL;
    }
    return timerfd_settime(fd, 0, &spec, NULL) < 0 ? -errno : 0;
}


int sw_rename_exchange(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0 ? 0 : -errno;
}

int sw_is_sole_opener(int fd) {
    // A break of the lease (an open between the two calls) is signalled with SIGURG, which
    // is ignored by default; the default SIGIO would end the process.
    if (fcntl(fd, F_SETSIG, SIGURG) != 0) return -errno;
    if (fcntl(fd, F_SETLEASE, F_WRLCK) != 0) return errno == EAGAIN ? 0 : -errno;
    fcntl(fd, F_SETLEASE, F_UNLCK);
    return 1;
}

const char *sw_errno_words(int code) {
    return strerrordesc_np(code);
}

const char *sw_errno_name(int code) {
    return strerrorname_np(code);
}

static int sw_signal_pipe_fds[2] = {-1, -1};

static void sw_signal_pipe_handler(int signal) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal;
    ssize_t ignored = write(sw_signal_pipe_fds[1], &byte, 1);
    (void)ignored;
    errno = saved;
}

int sw_signal_pipe(int signal) {
    if (sw_signal_pipe_fds[0] < 0 && pipe2(sw_signal_pipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) return -errno;
    struct sigaction action = {0};
    action.sa_handler = sw_signal_pipe_handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(signal, &action, NULL) != 0) return -errno;
    return sw_signal_pipe_fds[0];
}

/* The record getdents64(2) fills in (glibc declares no struct for the raw call). */
struct sw_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* splitmix64's finaliser: spreads a name's FNV-1a hash so that sums of similar names
 * (thermal_zone1, thermal_zone2, ...) do not cancel out. */
static unsigned long long sw_mix(unsigned long long h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

int sw_dir_fingerprint(const char *path, unsigned long long *fingerprint) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -errno;
    /* 8 KiB: a class directory of a few hundred entries in one call. */
    char buffer[8192] __attribute__((aligned(8)));
    unsigned long long sum = 0, count = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int error = errno;
            close(fd);
            return -error;
        }
        if (n == 0) break;
        for (long offset = 0; offset < n;) {
            const struct sw_dirent64 *entry = (const struct sw_dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            const unsigned char *name = (const unsigned char *)entry->d_name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
            unsigned long long h = 14695981039346656037ULL;
            for (; *name; name++) {
                h ^= *name;
                h *= 1099511628211ULL;
            }
            sum += sw_mix(h);
            count++;
        }
    }
    close(fd);
    *fingerprint = sum ^ sw_mix(count);
    return 0;
}
