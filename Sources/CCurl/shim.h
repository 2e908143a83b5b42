#ifndef SKILLGATE_CCURL_SHIM_H
#define SKILLGATE_CCURL_SHIM_H
// libcurl's option setters are variadic C functions, which Swift cannot call directly.
// These typed, non-variadic wrappers are the only way the Swift code sets options.
#include <curl/curl.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>

// A lane's own epoll set for libcurl's sockets (decision 0035). struct epoll_event is packed on x86_64, so Swift
// goes through these. Level-triggered.
static inline int sg_lane_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
/// Watches `fd` for `readable`/`writable`: modifies its registration when `registered`, else adds one; either way
/// falls back to the other operation when the set disagrees (already there, or gone with a closed descriptor).
static inline int sg_lane_epoll_set(int ep, int fd, int readable, int writable, int registered) {
    struct epoll_event ev;
    ev.events = (readable ? EPOLLIN : 0) | (writable ? EPOLLOUT : 0);
    ev.data.u64 = 0;
    ev.data.fd = fd;
    int first = registered ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    if (epoll_ctl(ep, first, fd, &ev) == 0) return 0;
    if (errno != (registered ? ENOENT : EEXIST)) return -1;
    return epoll_ctl(ep, registered ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
}
/// Forgets `fd` (already gone is fine).
static inline int sg_lane_epoll_remove(int ep, int fd) {
    if (epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL) == 0 || errno == ENOENT || errno == EBADF) return 0;
    return -1;
}
/// What open socket `fd` refers to (its inode, unique per socket): tells a descriptor number that was closed and
/// reused from the one registered under it. 0 when `fd` is not open or not a socket: an eventfd or other anonymous
/// file shares one inode with every other, so it could not be told apart and is never parked.
static inline unsigned long long sg_descriptor_identity(int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) return 0;
    return (unsigned long long)st.st_ino;
}
/// Ready sockets without waiting: fills `fds` and `flags` (CURL_CSELECT_*), returns how many (or -1).
static inline int sg_lane_epoll_ready(int ep, int *fds, int *flags, int max) {
    struct epoll_event events[64];
    if (max > 64) max = 64;
    int n = epoll_wait(ep, events, max, 0);
    for (int i = 0; i < n; i++) {
        fds[i] = events[i].data.fd;
        int f = 0;
        if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) f |= CURL_CSELECT_IN;
        if (events[i].events & EPOLLOUT) f |= CURL_CSELECT_OUT;
        if (events[i].events & EPOLLERR) f |= CURL_CSELECT_ERR;
        flags[i] = f;
    }
    return n;
}

typedef size_t (*sg_curl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*sg_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode sg_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_datafn(CURL *h, CURLoption o, sg_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sg_easy_setopt_xferinfofn(CURL *h, CURLoption o, sg_curl_xferinfo_callback v) { return curl_easy_setopt(h, o, v); }
/// Marks every socket libcurl opens close-on-exec, so no child process (an MCP stdio server, a test's subprocess)
/// inherits an upstream connection and keeps it open after the gateway closed it.
static inline int sg_cloexec_sockopt(void *clientp, curl_socket_t fd, curlsocktype purpose) {
    (void)clientp; (void)purpose;
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    return CURL_SOCKOPT_OK;
}
static inline CURLcode sg_easy_set_cloexec_sockets(CURL *h) { return curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, sg_cloexec_sockopt); }
static inline CURLcode sg_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sg_easy_getinfo_ptr(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sg_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLMcode sg_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode sg_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) { return curl_multi_setopt(m, o, v); }
static inline CURLMcode sg_multi_setopt_socketfn(CURLM *m, curl_socket_callback f) { return curl_multi_setopt(m, CURLMOPT_SOCKETFUNCTION, f); }
static inline CURLMcode sg_multi_setopt_timerfn(CURLM *m, curl_multi_timer_callback f) { return curl_multi_setopt(m, CURLMOPT_TIMERFUNCTION, f); }

// Macros and union members Swift cannot import directly.
static inline CURLcode sg_global_init_default(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
// The CA bundle libcurl was built to trust (CURLOPT_CAINFO's default), or NULL.
static inline const char *sg_default_cainfo(void) { return curl_version_info(CURLVERSION_NOW)->cainfo; }
static inline size_t sg_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }
static inline CURLcode sg_easy_unpause(CURL *h) { return curl_easy_pause(h, CURLPAUSE_CONT); }
static inline CURLcode sg_multi_msg_result(const CURLMsg *m) { return m->data.result; }
static inline curl_socket_t sg_socket_timeout(void) { return CURL_SOCKET_TIMEOUT; }

#endif
