import CEvent

/// evhttp 2.1 keeps one inactivity timeout per connection (`Configuration.connectionInactivityTimeout`), and every
/// chunk it writes re-arms it as a *read* timeout (`evhttp_write_buffer` enables reading to notice a close). So a
/// streamed reply that stays quiet for longer than that timeout — a model thinking before its next event, a traffic
/// tail between requests — was cut, although its client sends nothing by design. While a reply streams the connection
/// has no read timeout: a client that leaves is still seen at once (end of stream or reset, through evhttp's read
/// event and the handler's peer watch), and a client that stops reading still meets the write timeout once the
/// reply's bytes back up. The read timeout returns when the reply is done, for the next request's head and the
/// keep-alive wait.
extension EventLoop {
    /// Loop thread, when a streamed reply starts on `connection`.
    func suspendReadTimeout(on connection: Connection) {
        var write = inactivityTimeval
        bufferevent_set_timeouts(connection.bufferevent, nil, &write)
        connection.readTimeoutSuspended = true
    }

    /// Loop thread, when `connection`'s reply was written out (before evhttp reads the next request).
    func restoreReadTimeout(on connection: Connection) {
        guard connection.readTimeoutSuspended else { return }
        connection.readTimeoutSuspended = false
        var read = inactivityTimeval, write = inactivityTimeval
        bufferevent_set_timeouts(connection.bufferevent, &read, &write)
    }

    /// `Configuration.connectionInactivityTimeout` as libevent takes it.
    var inactivityTimeval: timeval {
        let (seconds, attoseconds) = configuration.connectionInactivityTimeout.components
        return sg_ev_timeval_ms(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
