#ifndef SENSORWATCH_CLINUX_H
#define SENSORWATCH_CLINUX_H
#include <stddef.h>

/// glibc's malloc_trim(3), which Swift's Glibc module does not import: gives free heap
/// memory back to the kernel, also from the middle of the heap. Returns 1 if any was.
int sw_malloc_trim(size_t pad);

/// glibc's mallopt(3), which Swift's Glibc module does not import. At most `arenas` malloc
/// arenas for all threads (glibc's default is 8 a core, one per thread that finds the others
/// busy, each keeping its own free pages). With `map_from` > 0, blocks of that many bytes or
/// more are mapped on their own, so their pages go back to the kernel when they are freed
/// rather than staying in an arena between smaller blocks. With `give_back` > 0, free memory
/// at the top of the heap past that many bytes goes back too, and none is added beyond a
/// request (a small, long-lived process: `top`). 0 keeps glibc's setting. Returns 1 when
/// every setting took.
int sw_malloc_limit(int arenas, int map_from, int give_back);

/// Gives the kernel back the pages of the calling thread's stack that lie more than a page
/// below this call's frame: what deeper calls touched and left (a poll's FreeIPMI and
/// libgcrypt frames), which stays resident while the thread sleeps. Those pages come back
/// zeroed at their next use, a minor fault each. For threads made by pthread_create only
/// (the main thread's stack bounds are not its own). Returns the length of the range given
/// back, resident or not, or -errno.
long sw_stack_release(void);

/// Where a batch of reads (sw_pread_all) has got to, shared with a watch on another
/// thread: `index` is the descriptor being read now; a non-zero `abandoned` makes the
/// batch stop before its next read (its remaining lengths become -ECANCELED).
struct sw_read_progress {
    long index;
    int abandoned;
};

/// pread(fds[i], buffer + i * stride, stride, 0) for each of `count` descriptors, retried on
/// EINTR; lengths[i] is the byte count or -errno (-EBADF for a negative descriptor).
/// `progress` (may be NULL) is updated before each read and checked for abandonment.
///
/// The raw system call, not glibc's pread(): that one is a thread cancellation point and
/// pays for switching asynchronous cancellation on and off around every read, which the
/// daemon (it never cancels threads) does not need.
void sw_pread_all(const int *fds, size_t count, unsigned char *buffer, size_t stride, long *lengths,
                  struct sw_read_progress *progress);

/// For each of `count` files of directory `dir`, named in `names` (back to back, each ending
/// in NUL): openat(2) it read-only relative to the directory, pread(fd, buffer + i * stride,
/// stride, 0), close it; lengths[i] is the byte count or -errno (of the open or the read).
/// An entry whose lengths[i] is negative on entry is skipped and keeps it (a file known to
/// block). `progress` (may be NULL) is set to i before each open — an open may block as a
/// read does — and once abandoned the rest become -ECANCELED. When `dir` cannot be opened,
/// every entry not skipped gets that -errno.
///
/// One directory descriptor (O_PATH) for all: each open walks one path component, not the
/// whole absolute path. Raw system calls, as in sw_pread_all.
void sw_read_files_at(const char *dir, const char *names, size_t count, unsigned char *buffer, size_t stride,
                      long *lengths, struct sw_read_progress *progress);

/// The names in directory `path` (without "." and ".."), reduced to one number that does not
/// depend on their order: each name's 64-bit hash, mixed, summed, and the count folded in.
/// Stores it in *fingerprint and returns 0, or returns -errno when the directory cannot be
/// opened or read. One open, getdents64 until the end, one close; no allocation: it runs
/// before every poll of a sysfs source (SPEC §20: a device appearing or going).
int sw_dir_fingerprint(const char *path, unsigned long long *fingerprint);

/// Atomic accessors of a struct sw_read_progress, for Swift.
long sw_progress_index(const struct sw_read_progress *progress);
void sw_progress_set_index(struct sw_read_progress *progress, long index);
int sw_progress_abandoned(const struct sw_read_progress *progress);
void sw_progress_abandon(struct sw_read_progress *progress);

/// A timer on CLOCK_BOOTTIME (timerfd, close-on-exec); returns the descriptor or -errno.
/// A read(2) of 8 bytes blocks until it expires.
int sw_timer_create(void);

/// Arms `fd` to expire once, `nanoseconds` from now (at least 1 ns), or disarms it when
/// `nanoseconds` is negative. Returns 0 or -errno. Never blocks.
int sw_timer_arm(int fd, long long nanoseconds);

/// renameat2(2) with RENAME_EXCHANGE: swaps the files named `a` and `b` atomically, both
/// names staying. Returns 0 or -errno (-ENOENT if either is missing, -EINVAL where the
/// file system cannot exchange).
int sw_rename_exchange(const char *a, const char *b);

/// Whether `fd` (open for writing) is the only open file description of its file: 1 yes,
/// 0 another is open (someone is still reading it), -errno when the check cannot be made
/// (no leases on this file system, a file the caller does not own, a system call filter).
///
/// Takes a write lease and drops it at once: the kernel grants one only when no other
/// descriptor has the file open.
int sw_is_sole_opener(int fd);

/// The English words for `code` (`Too many open files` for EMFILE), or NULL for a code glibc
/// does not know. strerrordesc_np(3): thread-safe and the same in every locale, unlike
/// strerror(3).
const char *sw_errno_words(int code);

/// The symbolic name of `code` (`EMFILE`), or NULL for a code glibc does not know.
const char *sw_errno_name(int code);

/// Routes `signal` to a pipe (the self-pipe trick): from now on each delivery of it writes
/// its number as one byte to the pipe whose read end this returns (non-blocking,
/// close-on-exec), or -errno. The handler runs with SA_RESTART, keeps errno, and drops a
/// byte only when the pipe is full (64 KiB of signals nobody read). One pipe per process:
/// every call returns the same read end. A handler is reset to the default by exec(2), so
/// children start with the usual dispositions.
///
/// A handler, not a blocked mask read through signalfd: libdispatch parks the main thread
/// in sigsuspend(2) with an empty mask, so a blocked signal would still reach it and take
/// the default action (termination) before any signalfd was registered.
int sw_signal_pipe(int signal);

#endif
