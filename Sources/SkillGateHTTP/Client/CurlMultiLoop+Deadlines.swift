import CCurl

extension CurlMultiLoop {
    /// Enforces the timeouts libcurl does not tell apart (first byte, idle, total): fails the
    /// transfers past one, and returns when the next one is due (monotonic ns). While a transfer
    /// with a first-byte timeout has not been sent yet the answer is at most 1 s away, so the
    /// loop looks again even if no socket event comes.
    func enforceDeadlines(now: UInt64) -> UInt64? {
        var nextDeadline: UInt64 = .max
        var expired: [(TransferControl, HTTPClientError)] = []
        for transfer in active.values {
            let t = transfer.timeouts
            if let total = t.total {
                let deadline = transfer.startedAt &+ total
                if now >= deadline {
                    expired.append((transfer.control, .totalTimeout(total)))
                    continue
                }
                nextDeadline = min(nextDeadline, deadline)
            }
            if !transfer.hasHead {
                guard t.firstByte != nil || t.head != nil else { continue }
                if transfer.requestSentAt == nil {
                    // The first-byte clock starts when libcurl begins sending the request
                    // (not while it waits for a pooled connection or connects).
                    var pretransfer: curl_off_t = 0
                    _ = sg_easy_getinfo_off(transfer.easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer)
                    if pretransfer > 0 { transfer.requestSentAt = transfer.startedAt &+ UInt64(pretransfer) * 1000 }
                }
                if let head = t.head {
                    // The head clock counts from the call: the wait for a pooled connection and connecting too.
                    let deadline = transfer.startedAt &+ head
                    if now >= deadline {
                        expired.append((transfer.control, transfer.requestSentAt != nil ? .firstByteTimeout(head)
                                        : Self.leftTheQueue(transfer.easy) ? .headTimeoutWhileConnecting(head, to: nil) : .connectionWaitTimeout(head)))
                        continue
                    }
                    nextDeadline = min(nextDeadline, deadline)
                }
                guard let firstByte = t.firstByte else {
                    // Whether the request went out is learnt by looking (libcurl does not say): at most 1 s apart.
                    if transfer.requestSentAt == nil { nextDeadline = min(nextDeadline, now &+ 1_000_000_000) }
                    continue
                }
                guard let sent = transfer.requestSentAt else {
                    nextDeadline = min(nextDeadline, now &+ 1_000_000_000)
                    continue
                }
                let deadline = sent &+ firstByte
                if now >= deadline {
                    expired.append((transfer.control, .firstByteTimeout(firstByte)))
                    continue
                }
                nextDeadline = min(nextDeadline, deadline)
            } else if let idle = t.idle, !transfer.pausedForConsumer {
                let deadline = transfer.lastActivity &+ idle
                if now >= deadline {
                    expired.append((transfer.control, .idleTimeout(idle)))
                    continue
                }
                nextDeadline = min(nextDeadline, deadline)
            }
        }
        for (control, error) in expired { remove(control, reason: error) }
        if let own = http1?.enforceDeadlines(now: now) { nextDeadline = min(nextDeadline, own) }
        return nextDeadline == .max ? nil : nextDeadline
    }

    /// Whether a transfer whose request has not gone out is past libcurl's queue for a pooled connection
    /// (`CURLMOPT_MAX_HOST_CONNECTIONS`), that is resolving, connecting or in its TLS handshake: libcurl resolves the
    /// name only once a connection may be made, so a queued transfer's name-lookup time is still 0.
    private static func leftTheQueue(_ easy: UnsafeMutableRawPointer) -> Bool {
        var lookedUp: curl_off_t = 0
        _ = sg_easy_getinfo_off(easy, CURLINFO_NAMELOOKUP_TIME_T, &lookedUp)
        return lookedUp > 0
    }
}

extension HTTPClientError {
    private static func milliseconds(_ ns: UInt64) -> String { "\(ns / 1_000_000) ms" }

    static func totalTimeout(_ ns: UInt64) -> HTTPClientError {
        HTTPClientError(kind: .totalTimeout,
                        detail: "the request did not finish within its total timeout of \(milliseconds(ns)); raise HTTPTimeouts.total or ask for a shorter answer")
    }

    static func firstByteTimeout(_ ns: UInt64) -> HTTPClientError {
        HTTPClientError(kind: .firstByteTimeout,
                        detail: "no response head arrived within \(milliseconds(ns)) of sending the request; the upstream is overloaded or hung, retry or raise HTTPTimeouts.firstByte")
    }

    static func connectionWaitTimeout(_ ns: UInt64) -> HTTPClientError {
        HTTPClientError(kind: .connectionWaitTimeout,
                        detail: "no pooled connection to the upstream came free within \(milliseconds(ns)) of the call, so the request was not sent; its connections are all busy with other calls, retry, or raise Configuration.maxConnections or HTTPTimeouts.head")
    }

    /// `endpoint`: the addresses and port being connected to, when known.
    static func headTimeoutWhileConnecting(_ ns: UInt64, to endpoint: String?) -> HTTPClientError {
        HTTPClientError(kind: .headTimeoutWhileConnecting,
                        detail: "no connection to \(endpoint ?? "the upstream") was made within \(milliseconds(ns)) of the call (its head timeout, shorter than the connect timeout), so the request was not sent; the upstream is slow to accept, check reachability or raise HTTPTimeouts.head")
    }

    static func idleTimeout(_ ns: UInt64) -> HTTPClientError {
        HTTPClientError(kind: .idleTimeout,
                        detail: "the response body stalled for more than \(milliseconds(ns)); the upstream stopped sending, retry or raise HTTPTimeouts.idle")
    }
}
