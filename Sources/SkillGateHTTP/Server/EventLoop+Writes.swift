import CEvent

/// Replies written in the loop iteration that queued them (decision 0053).
///
/// evhttp queues a reply in the connection's bufferevent, which adds its write event; libevent writes once the next
/// poll reports the socket writable. That is one more loop iteration per reply and per stream chunk, with an
/// `epoll_ctl` adding `EPOLLOUT` before it and another removing it after. Instead, the connections a batch of jobs
/// queued bytes on are collected, and once the batch is done their bufferevents' write events are activated directly:
/// libevent runs each bufferevent's own write callback before it polls again (evhttp sees the same callbacks in the
/// same order, only sooner), and the changelist (`EventLoop.makeBase`) cancels the add against the delete
/// (`sg_bufferevent_write_now` in CEvent/evhttp_internals.h).
extension EventLoop {
    /// Notes that a job queued reply bytes on `connection`.
    func queueWrite(on connection: Connection?) {
        guard configuration.writesRepliesAtOnce, let connection, !connection.writeDue else { return }
        connection.writeDue = true
        writesDue.append(connection)
    }

    /// After a batch of jobs: starts the writes it queued, on the connections still open.
    func writeQueuedReplies() {
        var written = 0
        for connection in writesDue {
            connection.writeDue = false
            // A connection closed during the batch is gone from the table, and evhttp freed its bufferevent.
            guard connections[ObjectIdentifier(connection)] === connection else { continue }
            written += Int(sg_bufferevent_write_now(connection.bufferevent))
        }
        writesDue.removeAll(keepingCapacity: true)
        if written > 0 { shared.counters.repliesWrittenAtOnce.add(written, ordering: .relaxed) }
    }
}
