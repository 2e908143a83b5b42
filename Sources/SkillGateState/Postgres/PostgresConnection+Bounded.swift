import CPostgres
import Glibc

/// Sending a statement and waiting for its answer at most `answerTimeout` (decision 0163). libpq's `PQexec` waits as
/// long as the socket stays open, and a database that hangs rather than refuses — a frozen server, a failover whose old
/// address swallows packets, a partition — keeps it open: every token lookup, ledger batch and stored-response read
/// queued behind the connection's lock would wait with it. Here the statement is sent on the connection in libpq's
/// non-blocking mode and its results are read as they come (`poll`), and when the time runs out the connection is
/// dropped: the statement fails with a message saying so, and the next one connects again.
extension PostgresConnection {
    /// What waiting for a statement's answer came to.
    enum BoundedOutcome {
        /// `PQexec`'s result: the last of the statement's results (nil when libpq could not even send it, with the
        /// reason in `PQerrorMessage`).
        case finished(OpaquePointer?)
        /// The answer did not come within `answerTimeout`; the connection was dropped.
        case timedOut
    }

    /// Sends with `send` (`PQsendQuery`, `PQsendQueryParams`) and returns the last result, as `PQexec` does, within
    /// `answerTimeout` counted from now. A COPY's start (`PGRES_COPY_IN`) is returned as soon as it comes, for the rows
    /// to follow.
    func sendAndAwait(_ send: (OpaquePointer) -> Int32) -> BoundedOutcome {
        let deadline = answerTimeout.map { ContinuousClock.now + $0 }
        guard send(handle) == 1 else { return .finished(nil) }
        return awaitAnswer(until: deadline)
    }

    /// Sends what is queued and returns the last result, as `sendAndAwait` does after sending, by `deadline`.
    func awaitAnswer(until deadline: ContinuousClock.Instant?) -> BoundedOutcome {
        guard flushAll(until: deadline) else { return timedOutIfPast(deadline) }
        return awaitLastResult(until: deadline)
    }

    /// Sends what libpq has queued (`PQflush` until 0), reading whatever the server sends meanwhile, as libpq asks of
    /// a non-blocking connection. False when the time ran out or the connection failed.
    func flushAll(until deadline: ContinuousClock.Instant?) -> Bool {
        while true {
            switch PQflush(handle) {
            case 0: return true
            case 1:
                guard let ready = waitForSocket(POLLIN | POLLOUT, until: deadline) else { return false }
                if ready & Int16(POLLIN) != 0, PQconsumeInput(handle) == 0 { return false }
            default: return false
            }
        }
    }

    /// Reads results until libpq has none left (or a COPY starts), keeping the last as `PQexec` does.
    private func awaitLastResult(until deadline: ContinuousClock.Instant?) -> BoundedOutcome {
        var last: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                guard waitForSocket(POLLIN, until: deadline) != nil else {
                    if let last { PQclear(last) }
                    return timedOutIfPast(deadline)
                }
                // A failed read leaves the connection bad; `PQgetResult` then reports why.
                if PQconsumeInput(handle) == 0 { break }
            }
            guard let result = PQgetResult(handle) else { return .finished(last) }
            if let last { PQclear(last) }
            last = result
            let status = PQresultStatus(result)
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH || PQstatus(handle) == CONNECTION_BAD {
                return .finished(last)
            }
        }
    }

    /// After a wait that gave up: when the deadline passed, the connection is dropped (its socket shut, which libpq
    /// takes as the server having closed it), so no later statement reads this one's late answer.
    private func timedOutIfPast(_ deadline: ContinuousClock.Instant?) -> BoundedOutcome {
        guard let deadline, ContinuousClock.now >= deadline else { return .finished(PQgetResult(handle)) }
        dropConnection()
        return .timedOut
    }

    /// Shuts the connection's socket and lets libpq see it closed (its status becomes `CONNECTION_BAD`): the next
    /// statement outside a transaction connects again.
    func dropConnection() {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        // A shut socket reads as closed at once (after any bytes already received): a few reads at most.
        for _ in 0..<64 where PQstatus(handle) == CONNECTION_OK {
            if PQconsumeInput(handle) == 0 { break }
        }
        while let stale = PQgetResult(handle) { PQclear(stale) }
    }

    /// Waits until the socket is ready for `events`; the events it is ready for, or nil when the deadline passed first
    /// (or the socket is gone).
    private func waitForSocket(_ events: Int32, until deadline: ContinuousClock.Instant?) -> Int16? {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return nil }
        var descriptor = pollfd(fd: socket, events: Int16(events), revents: 0)
        while true {
            var waitMs: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return nil }
                let (seconds, attoseconds) = left.components
                waitMs = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            let ready = poll(&descriptor, 1, waitMs)
            if ready > 0 { return descriptor.revents }
            if ready < 0 && errno != EINTR { return nil }
        }
    }

    /// Queues COPY data (or its end) on the non-blocking connection: `put` returns 1 once libpq took it, 0 while its
    /// buffer is full (then what it holds is sent and `put` tried again), -1 on failure. False when the time ran out
    /// (the connection is then dropped) or `put` failed.
    func putWithin(_ deadline: ContinuousClock.Instant?, _ put: () -> Int32) -> Bool {
        while true {
            switch put() {
            case 1: return true
            case 0:
                guard flushAll(until: deadline) else {
                    if let deadline, ContinuousClock.now >= deadline { dropConnection() }
                    return false
                }
            default: return false
            }
        }
    }
}
