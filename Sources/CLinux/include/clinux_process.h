#ifndef CLINUX_PROCESS_H
#define CLINUX_PROCESS_H

#include <spawn.h>
#include <sys/types.h>

/* pidfd_open(2) (Linux 5.3), which glibc's headers do not declare for Swift: a descriptor
   that becomes readable when the process exits, so a child is awaited without a thread
   blocked in waitpid and without SIGCHLD. Returns the descriptor (close-on-exec), or -1
   with errno set. */
int sw_pidfd_open(pid_t pid);

/* pipe2(2) with O_CLOEXEC (and O_NONBLOCK on the read end when `nonblocking_read`), which
   glibc declares only under _GNU_SOURCE. Returns 0, or -1 with errno set. */
int sw_pipe_cloexec(int fds[2], int nonblocking_read);

/* An eventfd (close-on-exec, non-blocking) that wakes a poll(2) from another thread.
   Returns the descriptor, or -1 with errno set. */
int sw_wake_fd(void);

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34), declared only under _GNU_SOURCE:
   the child closes every descriptor from `from` up before it runs the program, whatever
   their close-on-exec flag (one a library opened without it reaches no program). Returns 0,
   or an errno value. */
int sw_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
