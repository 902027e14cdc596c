#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "clinux_wake.h"

static int address(const char *path, struct sockaddr_un *a) {
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(a->sun_path)) return -ENAMETOOLONG;
    memset(a, 0, sizeof(*a));
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path, path, n);
    return 0;
}

/* A socket of `type` bound at `path` (close-on-exec, non-blocking), any stale file there
   removed first (a file left by a crash refuses the bind, and nobody listens on it any
   more), made `mode`. Returns the descriptor, or -errno. */
static int bound(const char *path, int type, unsigned mode) {
    struct sockaddr_un a;
    int r = address(path, &a);
    if (r < 0) return r;
    int fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -errno;
    if (unlink(path) != 0 && errno != ENOENT) goto fail;
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) goto fail;
    if (chmod(path, mode) != 0) goto fail;
    return fd;
fail:
    r = -errno;
    close(fd);
    return r;
}

int sw_wake_listen(const char *path, unsigned mode) { return bound(path, SOCK_DGRAM, mode); }

int sw_wake_socket(void) {
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    return fd < 0 ? -errno : fd;
}

int sw_wake_send(int fd, const char *path) {
    struct sockaddr_un a;
    int r = address(path, &a);
    if (r < 0) return r;
    if (sendto(fd, "", 0, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&a, sizeof(a)) < 0) return -errno;
    return 0;
}

int sw_wake_drain(int fd) {
    /* A batch a call: anyone may send, and a queue of them must not cost a call each. */
    enum { batch = 64 };
    struct mmsghdr messages[batch];
    struct iovec vectors[batch];
    char bytes[batch];
    memset(messages, 0, sizeof messages);
    for (int i = 0; i < batch; i++) {
        vectors[i].iov_base = &bytes[i];
        vectors[i].iov_len = 1;
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    int total = 0;
    for (;;) {
        int n = recvmmsg(fd, messages, batch, MSG_DONTWAIT, NULL);
        if (n <= 0) break;
        total += n;
        if (n < batch) break;
    }
    return total;
}

int sw_stream_listen(const char *path, unsigned mode, int backlog) {
    int fd = bound(path, SOCK_STREAM, mode);
    if (fd < 0 || listen(fd, backlog) == 0) return fd;
    int r = -errno;
    close(fd);
    return r;
}

int sw_stream_connect(const char *path) {
    struct sockaddr_un a;
    int r = address(path, &a);
    if (r < 0) return r;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        r = -errno;
        close(fd);
        return r;
    }
    return fd;
}

int sw_stream_accept(int fd) {
    int c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    return c < 0 ? -errno : c;
}
