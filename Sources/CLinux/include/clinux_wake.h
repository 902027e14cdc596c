#ifndef CLINUX_WAKE_H
#define CLINUX_WAKE_H

/* The daemon's wake for `sensorwatch notify`: a datagram on a Unix socket at a path (not an
   abstract name: the daemon runs with PrivateNetwork=, which gives it a network namespace of
   its own, and abstract sockets belong to one). Swift's Glibc module makes sockaddr_un
   awkward, so these few calls are here. */

/* A datagram socket bound at `path` (close-on-exec, non-blocking), any stale file there
   removed first, the socket file made writable by everyone (`mode`, e.g. 0666: the daemon
   runs as another, dynamic user; the datagrams carry nothing). Returns the descriptor, or
   -errno. */
int sw_wake_listen(const char *path, unsigned mode);

/* An unbound datagram socket (close-on-exec) to send wakes from. Returns it, or -errno. */
int sw_wake_socket(void);

/* Sends one empty datagram from `fd` to `path` without waiting and without SIGPIPE.
   Returns 0, or -errno (ENOENT or ECONNREFUSED: nobody listens; EAGAIN: a wake is
   already queued). */
int sw_wake_send(int fd, const char *path);

/* Reads every datagram queued on `fd` (non-blocking), 64 a system call (recvmmsg). Returns
   how many there were. */
int sw_wake_drain(int fd);

/* The live stream's socket (SPEC §22): a stream socket listening at `path` (close-on-exec,
   non-blocking), any stale file there removed first, made `mode` (0666: it shows what
   status.json shows and takes no command). Returns the descriptor, or -errno. */
int sw_stream_listen(const char *path, unsigned mode, int backlog);

/* The next connection waiting on listening socket `fd`, non-blocking and close-on-exec.
   Returns it, or -errno (EAGAIN: none waits). */
int sw_stream_accept(int fd);

/* A blocking stream socket (close-on-exec) connected to `path`. Returns it, or -errno. */
int sw_stream_connect(const char *path);

#endif
