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

#endif
