#ifndef SG_SOCKETS_SHIM_H
#define SG_SOCKETS_SHIM_H
// Non-blocking TCP connects to numeric addresses, for SkillGate's own HTTP/1.1 client (decision 0051). Header-only:
// the socket calls are glibc's; only the sockaddr handling is easier in C.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/// 4 for a dotted IPv4 address, 6 for an IPv6 address (no brackets), 0 for anything else (a name, a hex or octal
/// form, a zone index): only what inet_pton accepts counts.
static inline int sg_numeric_address_family(const char *text) {
    unsigned char buffer[sizeof(struct in6_addr)];
    if (inet_pton(AF_INET, text, buffer) == 1) return 4;
    if (inet_pton(AF_INET6, text, buffer) == 1) return 6;
    return 0;
}

/// Opens a non-blocking, close-on-exec TCP socket with TCP_NODELAY and SO_KEEPALIVE and starts connecting it to the
/// numeric `address` (IPv4 dotted, or IPv6 without brackets) on `port`. Returns the descriptor and sets
/// `*in_progress` when the connect has not completed yet (wait for the socket to become writable, then read
/// `sg_socket_error`); returns -1 with errno set on failure (EINVAL: not a numeric address).
static inline int sg_tcp_connect_start(const char *address, int port, int *in_progress) {
    struct sockaddr_storage storage;
    socklen_t length;
    memset(&storage, 0, sizeof storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((unsigned short)port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((unsigned short)port);
        length = sizeof *v6;
    } else {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
    if (fd < 0) return -1;
    int on = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    *in_progress = 0;
    if (connect(fd, (struct sockaddr *)&storage, length) != 0) {
        if (errno != EINPROGRESS) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        *in_progress = 1;
    }
    return fd;
}

/// The pending error of a socket (SO_ERROR): 0 once a non-blocking connect succeeded, else its errno.
static inline int sg_socket_error(int fd) {
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return errno;
    return error;
}

/// Sends without raising SIGPIPE on a connection the peer closed (EPIPE is returned instead).
static inline long sg_send_nosignal(int fd, const void *bytes, unsigned long count) {
    return (long)send(fd, bytes, count, MSG_NOSIGNAL);
}

#endif
