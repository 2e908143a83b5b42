#ifndef SKILLGATE_CEVENT_SHIM_H
#define SKILLGATE_CEVENT_SHIM_H
// System headers first: libevent's headers use their types without including them.
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/util.h>

/// Creates a non-blocking TCP socket bound to host:port with SO_REUSEADDR and TCP_NODELAY (inherited by
/// accepted sockets on Linux), listening with `backlog`. SO_REUSEPORT only when `reuse_port` is non-zero:
/// without it a second process binding the same address fails with EADDRINUSE instead of sharing the
/// port. `host` must be a numeric IPv4 or IPv6 address. Returns the fd, or -errno (-EINVAL for an
/// unparsable host). Writes the bound port to `*bound_port`.
static inline int sg_ev_listen(const char *host, int port, int backlog, int reuse_port, int *bound_port) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
    char service[16];
    snprintf(service, sizeof(service), "%d", port);
    struct addrinfo *info = NULL;
    if (getaddrinfo(host, service, &hints, &info) != 0 || info == NULL) return -EINVAL;
    int fd = socket(info->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) { int e = errno; freeaddrinfo(info); return -e; }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (reuse_port) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    if (bind(fd, info->ai_addr, info->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        int e = errno; freeaddrinfo(info); close(fd); return -e;
    }
    freeaddrinfo(info);
    struct sockaddr_storage bound;
    socklen_t len = sizeof(bound);
    if (getsockname(fd, (struct sockaddr *)&bound, &len) == 0) {
        *bound_port = bound.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&bound)->sin6_port)
                                                  : ntohs(((struct sockaddr_in *)&bound)->sin_port);
    }
    return fd;
}

// accept4 is a GNU extension: declared here in case the C library's headers were read without _GNU_SOURCE.
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

/// Accepts one connection from a non-blocking listening socket as a non-blocking, close-on-exec socket. Writes the
/// peer's numeric address (NUL-terminated, at most `address_len` bytes) and port. Returns the descriptor, or -errno
/// (-EAGAIN: nothing waiting).
/// Writes an IPv4 address in dotted decimal (what `inet_ntop` writes, without its `sprintf`, which cost ~1.9k
/// instructions per accepted connection); `address` has room for 16 bytes.
static inline void sg_ev_format_ipv4(const struct in_addr *in4, char *address) {
    const unsigned char *octets = (const unsigned char *)&in4->s_addr;
    char *out = address;
    for (int i = 0; i < 4; i++) {
        unsigned v = octets[i];
        if (v >= 100) { *out++ = (char)('0' + v / 100); v %= 100; *out++ = (char)('0' + v / 10); *out++ = (char)('0' + v % 10); }
        else if (v >= 10) { *out++ = (char)('0' + v / 10); *out++ = (char)('0' + v % 10); }
        else { *out++ = (char)('0' + v); }
        *out++ = i < 3 ? '.' : 0;
    }
}

static inline int sg_ev_accept(int listen_fd, char *address, size_t address_len, int *port) {
    struct sockaddr_storage peer;
    socklen_t len = sizeof(peer);
    int fd = accept4(listen_fd, (struct sockaddr *)&peer, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return -errno;
    address[0] = 0;
    *port = 0;
    if (peer.ss_family == AF_INET6) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&peer;
        inet_ntop(AF_INET6, &in6->sin6_addr, address, (socklen_t)address_len);
        *port = ntohs(in6->sin6_port);
    } else if (peer.ss_family == AF_INET) {
        struct sockaddr_in *in4 = (struct sockaddr_in *)&peer;
        if (address_len >= 16) sg_ev_format_ipv4(&in4->sin_addr, address);
        else inet_ntop(AF_INET, &in4->sin_addr, address, (socklen_t)address_len);
        *port = ntohs(in4->sin_port);
    }
    return fd;
}

/// Reads into `buffer` without blocking. Returns the byte count, 0 at the peer's end of stream, or -errno.
static inline long sg_ev_read(int fd, void *buffer, size_t len) {
    for (;;) {
        ssize_t n = recv(fd, buffer, len, 0);
        if (n >= 0) return (long)n;
        if (errno != EINTR) return -(long)errno;
    }
}

/// Writes without blocking and without SIGPIPE. Returns the byte count or -errno (-EAGAIN: the socket buffer is full).
static inline long sg_ev_write(int fd, const void *bytes, size_t len) {
    for (;;) {
        ssize_t n = send(fd, bytes, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n >= 0) return (long)n;
        if (errno != EINTR) return -(long)errno;
    }
}

/// A second descriptor for a listening socket (close-on-exec), so each event loop owns and closes its own.
static inline int sg_ev_dup_listener(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 0); }

/// Peeks at a connected socket without consuming data: 1 = data waiting, 0 = the peer closed (EOF or error),
/// -1 = nothing to read yet (still open).
static inline int sg_ev_peek_socket(int fd) {
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0) return 1;
    if (n == 0) { errno = 0; return 0; }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return -1;
    return 0;
}

/// What a socket looks like now: 0 at its end, 1 with bytes to read, 2 open with nothing to read, or -errno
/// (-EBADF: the descriptor was already closed).
static inline int sg_ev_socket_state(int fd) {
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n > 0) return 1;
    if (n == 0) return 0;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return 2;
    return -errno;
}

/// Writes `len` bytes without blocking and without SIGPIPE (best effort: a canned reply before closing).
static inline long sg_ev_send_now(int fd, const void *bytes, size_t len) {
    return (long)send(fd, bytes, len, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/// Gives free heap pages back to the kernel (glibc); a no-op elsewhere.
static inline void sg_malloc_trim(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

static inline struct timeval sg_ev_timeval_ms(long long ms) {
    struct timeval tv;
    tv.tv_sec = (time_t)(ms / 1000);
    tv.tv_usec = (suseconds_t)((ms % 1000) * 1000);
    return tv;
}

#endif
