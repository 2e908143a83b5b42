#ifndef SKILLGATE_CEVENT_EVHTTP_INTERNALS_H
#define SKILLGATE_CEVENT_EVHTTP_INTERNALS_H
// libevent 2.1's evhttp has no public way to reach a server request before its body is read
// (`evhttp_set_newreqcb` arrived in 2.2), yet `evhttp_request_set_header_cb` is what lets a server refuse a
// request at header time. This mirrors the head of libevent's private `struct evhttp_connection`
// (http-internal.h), byte-identical in every release from 2.1.8 to 2.1.12, to read the connection's current
// request and its close-callback argument. `sg_evhttp_internals_supported()` checks the running library is
// one of those releases; EventLoop refuses to start otherwise, and compares the close-callback argument it
// set through the public API with the one read here before trusting the mirror on a connection.

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>

// `struct event` is kept opaque to Swift (event_struct.h would change every libevent pointer Swift sees);
// its size in the mirror is checked at run time against event_get_struct_event_size().
#define SG_EV_STRUCT_EVENT_SIZE 128

struct sg_evhttp_connection_2_1 {
    struct { struct sg_evhttp_connection_2_1 *tqe_next; struct sg_evhttp_connection_2_1 **tqe_prev; } next;
    evutil_socket_t fd;
    struct bufferevent *bufev;
    unsigned char retry_ev[SG_EV_STRUCT_EVENT_SIZE] __attribute__((aligned(8)));
    char *bind_address;
    ev_uint16_t bind_port;
    char *address;
    ev_uint16_t port;
    size_t max_headers_size;
    ev_uint64_t max_body_size;
    int flags;
    struct timeval timeout;
    int retry_cnt;
    int retry_max;
    struct timeval initial_retry_timeout;
    int state;  /* enum evhttp_connection_state */
    struct evhttp *http_server;
    struct { struct evhttp_request *tqh_first; struct evhttp_request **tqh_last; } requests;
    void (*cb)(struct evhttp_connection *, void *);
    void *cb_arg;
    void (*closecb)(struct evhttp_connection *, void *);
    void *closecb_arg;
};

/// Whether the running libevent is a release whose `struct evhttp_connection` starts as mirrored above.
static inline int sg_evhttp_internals_supported(void) {
    ev_uint32_t v = event_get_version_number();
    return v >= 0x02010800 && v < 0x02020000 && event_get_struct_event_size() == SG_EV_STRUCT_EVENT_SIZE;
}

/// The request a server connection is reading or answering (the first of its queue), or NULL.
static inline struct evhttp_request *sg_evhttp_connection_current_request(struct evhttp_connection *evcon) {
    return ((struct sg_evhttp_connection_2_1 *)evcon)->requests.tqh_first;
}

/// The argument given to `evhttp_connection_set_closecb`.
static inline void *sg_evhttp_connection_closecb_arg(struct evhttp_connection *evcon) {
    return ((struct sg_evhttp_connection_2_1 *)evcon)->closecb_arg;
}

/// The connection of a bufferevent evhttp drives (evhttp passes it as the callbacks' argument), or NULL
/// once the bufferevent was freed (bufferevent_free clears the callbacks).
static inline struct evhttp_connection *sg_evhttp_connection_of(struct bufferevent *bev) {
    void *arg = NULL;
    bufferevent_getcb(bev, NULL, NULL, NULL, &arg);
    return (struct evhttp_connection *)arg;
}

/// Runs the pending write of a socket bufferevent in the current loop iteration instead of after the next poll
/// (decision 0053). When evhttp queues a reply, the bufferevent adds its write event (`EPOLLOUT`) and libevent writes
/// once epoll reports the socket writable: one more loop iteration, with an `epoll_ctl` before it and another after.
/// Activated here, from inside the loop, the write event's own callback (libevent's `bufferevent_writecb`) runs before
/// the loop polls again, so evhttp sees the same callbacks in the same order, only sooner; with the base's changelist
/// on, the add and the delete of `EPOLLOUT` cancel out.
///
/// `struct bufferevent` (event2/bufferevent_struct.h, the same in every 2.x release) starts with two pointers and its
/// read event, and the write event follows. That header is not included: it would make `struct event` a complete type
/// for Swift (see SG_EV_STRUCT_EVENT_SIZE). The event found there is used only if it is this bufferevent's write event
/// (its callback argument is the bufferevent and it watches for writing), writing is enabled, output waits and the
/// event is pending: a bufferevent that did not ask to write is never made to. Loop thread only. Returns 1 when it
/// activated the write.
static inline int sg_bufferevent_write_now(struct bufferevent *bev) {
    if (bev == NULL) return 0;
    struct event *write = (struct event *)((char *)bev + 2 * sizeof(void *) + event_get_struct_event_size());
    if (event_get_callback_arg(write) != (void *)bev || (event_get_events(write) & EV_WRITE) == 0) return 0;
    if ((bufferevent_get_enabled(bev) & EV_WRITE) == 0) return 0;
    if (evbuffer_get_length(bufferevent_get_output(bev)) == 0) return 0;
    if (!event_pending(write, EV_WRITE, NULL)) return 0;
    event_active(write, EV_WRITE, 1);
    return 1;
}

#endif
