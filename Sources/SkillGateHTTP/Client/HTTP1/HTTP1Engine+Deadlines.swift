/// The own HTTP/1.1 client's timeouts, enforced by the loop's deadline timer together with libcurl's transfers'.
extension HTTP1Engine {
    /// Fails the transfers past a deadline (connect, first byte, idle, total) and returns when the next one is due
    /// (monotonic ns), nil when none is.
    func enforceDeadlines(now: UInt64) -> UInt64? {
        var nextDeadline: UInt64 = .max
        var expired: [(HTTP1Transfer, HTTPClientError)] = []
        func check(_ deadline: UInt64, _ error: @autoclosure () -> HTTPClientError, _ transfer: HTTP1Transfer) -> Bool {
            if now >= deadline {
                expired.append((transfer, error()))
                return true
            }
            nextDeadline = min(nextDeadline, deadline)
            return false
        }
        for transfer in transfers.values {
            let t = transfer.timeouts
            if let total = t.total, check(transfer.startedAt &+ total, .totalTimeout(total), transfer) { continue }
            // The head clock counts from the call: the wait for a pooled connection and connecting too.
            if let head = t.head, !transfer.hasHead,
               check(transfer.startedAt &+ head, Self.headTimeout(head, transfer), transfer) {
                continue
            }
            if let connection = transfer.connection, connection.connecting {
                if let connect = t.connect {
                    _ = check(connection.openedAt &+ connect, .connectTimeout(connect, connection.pool.endpoint), transfer)
                }
            } else if !transfer.hasHead {
                // The first-byte clock starts when the request's first byte goes out (not while it waits for a
                // connection or connects).
                if let firstByte = t.firstByte, let sent = transfer.requestSentAt {
                    _ = check(sent &+ firstByte, .firstByteTimeout(firstByte), transfer)
                }
            } else if let idle = t.idle, !transfer.pausedForConsumer {
                _ = check(transfer.lastActivity &+ idle, .idleTimeout(idle), transfer)
            }
        }
        for (transfer, error) in expired { fail(transfer, error) }
        return nextDeadline == .max ? nil : nextDeadline
    }

    /// What the head timeout ends `transfer` as: a first-byte timeout once its request went out; before that, a wait
    /// for a pooled connection while it has none, or a slow connect while its connection is being made.
    private static func headTimeout(_ head: UInt64, _ transfer: HTTP1Transfer) -> HTTPClientError {
        if transfer.requestSentAt != nil { return .firstByteTimeout(head) }
        if let connection = transfer.connection, connection.connecting {
            return .headTimeoutWhileConnecting(head, to: connection.pool.endpoint.described)
        }
        return .connectionWaitTimeout(head)
    }
}

extension HTTPClientError {
    static func connectTimeout(_ ns: UInt64, _ endpoint: HTTP1Target.Endpoint) -> HTTPClientError {
        HTTPClientError(kind: .connectTimeout,
            detail: "no connection to \(endpoint.described) within \(ns / 1_000_000) ms; the upstream did not accept the connection in time, check reachability or raise HTTPTimeouts.connect")
    }
}
