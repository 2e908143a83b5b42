import Dispatch
import Synchronization

/// The answers being fetched for the response cache right now, by key, for request coalescing (decision 0172): a
/// request that misses while an identical one of the same token is already asking a model waits, up to its scenario's
/// `coalesce_seconds`, for that answer to be kept, instead of asking the model too.
final class ResponseCacheFills: Sendable {
    /// What a request that missed does: it leads the fill of its key (nobody else is fetching it), or it may wait for
    /// the one under way.
    enum Claim {
        case lead(ResponseCacheFillLease)
        case follow(ResponseCacheFill)
    }

    private let underWay = Mutex<[ResponseCacheKey: ResponseCacheFill]>([:])

    /// The fill of `key` under way, or a new one that the caller leads (it ends when the caller's lease is released).
    func claim(_ key: ResponseCacheKey) -> Claim {
        underWay.locked { fills in
            if let fill = fills[key] { return .follow(fill) }
            let fill = ResponseCacheFill(key: key, fills: self)
            fills[key] = fill
            return .lead(ResponseCacheFillLease(fill))
        }
    }

    /// How many fills are under way (for tests).
    var count: Int { underWay.locked { $0.count } }

    /// Removes `fill` once it ended (a newer fill of the same key stays).
    fileprivate func remove(_ fill: ResponseCacheFill) {
        underWay.locked { fills in
            if fills[fill.key] === fill { fills[fill.key] = nil }
        }
    }
}

/// The leading request's hold on its fill: kept with a whole answer until it was kept, and with a stream in its relay
/// until its end was kept. The fill ends when the lease goes, however the request ended: kept, failed, or left by its
/// client.
final class ResponseCacheFillLease: Sendable {
    let fill: ResponseCacheFill

    fileprivate init(_ fill: ResponseCacheFill) { self.fill = fill }

    deinit { fill.end() }
}

/// One answer being fetched for the cache, while its leading request's lease lasts. Requests that follow it wait for
/// its end (`wait`), each up to its own bound, and then look the answer up.
final class ResponseCacheFill: Sendable {
    let key: ResponseCacheKey
    private let fills: ResponseCacheFills

    private struct Waiters {
        var ended = false
        var nextId: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }
    private let waiters = Mutex(Waiters())

    fileprivate init(key: ResponseCacheKey, fills: ResponseCacheFills) {
        self.key = key
        self.fills = fills
    }

    /// Ends the fill: the key is free for the next request to lead, and every follower stops waiting.
    fileprivate func end() {
        fills.remove(self)
        let woken = waiters.locked { w -> [CheckedContinuation<Void, Never>] in
            w.ended = true
            defer { w.waiting = [:] }
            return Array(w.waiting.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Waits until the fill ends, `bound` has passed, or the waiting task is cancelled (its client left), whichever
    /// comes first; true when it ended.
    @discardableResult
    func wait(upTo bound: Duration) async -> Bool {
        let id = waiters.locked { w -> UInt64 in
            w.nextId += 1
            return w.nextId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = waiters.locked { w -> Bool in
                    guard !w.ended, !Task.isCancelled else { return false }
                    w.waiting[id] = continuation
                    return true
                }
                guard waits else { return continuation.resume() }
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(bound / .nanoseconds(1)))) { [self] in
                    stopWaiting(id)
                }
            }
        } onCancel: {
            stopWaiting(id)
        }
        return waiters.locked { $0.ended }
    }

    /// Resumes the waiter `id`, if it still waits.
    private func stopWaiting(_ id: UInt64) {
        waiters.locked { $0.waiting.removeValue(forKey: id) }?.resume()
    }
}
