#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "clinux_process.h"

int sw_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int sw_pipe_cloexec(int fds[2], int nonblocking_read) {
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    if (nonblocking_read && fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    return 0;
}

int sw_wake_fd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int sw_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
