import CEvent

import CCurl
import Glibc

// A lane: a CurlMultiLoop on a server event loop's base (decision 0035). A loop with a thread of its own enforces
// the deadlines libcurl does not know and finishes a drain after every turn of its loop (`run`); a lane has no loop
// of its own, so its callbacks activate one end-of-turn event instead, which libevent runs after the events already
// active — once per batch of the lane's callbacks, however many there were.
//
// libcurl's sockets are not libevent events on the server's base: they sit in an epoll set of the lane's own, and
// that set's descriptor is the one event the lane has on the base. libevent keeps one registration per descriptor
// number for all events of a base; with libcurl's sockets among the server's, a socket libcurl asked to watch was at
// times never handed to epoll, and its answer sat unread until some later call (measured: stalls of 0.1–1.5 s under
// load, decision 0035). libcurl's timers stay timer events on the base.

extension CurlMultiLoop {
    /// After a callback of this loop: a lane queues its end-of-turn work (a loop with a thread does it in `run`).
    func scheduleTurnEnd() {
        guard attachedLoop != nil, !turnEndPending, let turnEndEvent else { return }
        turnEndPending = true
        event_active(turnEndEvent, Int32(EV_TIMEOUT), 0)
    }

    /// A lane's end of turn: the deadline timer, and the end of a drain.
    func laneTurnEnded() {
        turnEndPending = false
        guard attachedLoop != nil, !stopped else { return }
        if finishDrainIfIdle() { return }
        armDeadlineTimer(now: MonotonicClock.nanoseconds())
    }
}

extension CurlMultiLoop {
    /// libcurl wants `fd` watched for `what`, or forgotten: in the lane's own epoll set, where a socket libcurl stops
    /// watching between two transfers stays parked (`LaneSocketRegistry`).
    func watchOnLane(_ fd: Int32, _ what: Int32) {
        var interest: LaneSocketRegistry.Interest = 0
        if what != CURL_POLL_REMOVE {
            if what & CURL_POLL_IN != 0 { interest |= LaneSocketRegistry.readable }
            if what & CURL_POLL_OUT != 0 { interest |= LaneSocketRegistry.writable }
        }
        let reusedBefore = laneSockets.reused
        let action = laneSockets.watch(fd, for: interest) { LaneSocketRegistry.identity(of: fd) }
        if laneSockets.reused > reusedBefore { counters.countLaneSocketReuse() }
        // A failure leaves the socket unwatched; libcurl's own timeouts then end its transfer with an error.
        switch action {
        case .none: break
        case .add(let interest): setOnLane(fd, interest, registered: false)
        case .modify(let interest): setOnLane(fd, interest, registered: true)
        case .remove: _ = sg_lane_epoll_remove(laneEpoll, fd)
        }
    }

    private func setOnLane(_ fd: Int32, _ interest: LaneSocketRegistry.Interest, registered: Bool) {
        let readable: Int32 = interest & LaneSocketRegistry.readable != 0 ? 1 : 0
        let writable: Int32 = interest & LaneSocketRegistry.writable != 0 ? 1 : 0
        _ = sg_lane_epoll_set(laneEpoll, fd, readable, writable, registered ? 1 : 0)
    }

    /// The lane's epoll set has ready sockets: hands each to libcurl. Runs for every batch of upstream reads, so the
    /// ready list lives on the stack, not in arrays allocated per call.
    func laneSocketsReady() {
        sawActivity = true
        let batch = 64  // sg_lane_epoll_ready reports at most 64 per call
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * batch) { buffer in
            guard let fds = buffer.baseAddress else { return }
            let flags = fds + batch
            while !stopped {
                let count = Int(sg_lane_epoll_ready(laneEpoll, fds, flags, Int32(batch)))
                guard count > 0 else { break }
                for i in 0..<count where !stopped {
                    // A parked socket has no transfer: the upstream closed the pooled connection (or sent something
                    // unasked). It leaves the set; libcurl sees the connection's state when it next uses it.
                    if laneSockets.eventOnParkedSocket(fds[i]) {
                        _ = sg_lane_epoll_remove(laneEpoll, fds[i])
                        continue
                    }
                    socketAction(fds[i], flags[i])
                }
                if count < batch { break }
            }
        }
        scheduleTurnEnd()
    }
}

/// The lane's epoll set is readable.
func curlLaneSocketsReady(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue().laneSocketsReady()
}

/// A lane's end-of-turn event.
func curlLaneTurnEnded(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue().laneTurnEnded()
}

extension LaneSocketRegistry {
    /// Which open socket `fd` refers to (`sg_descriptor_identity`); 0 when it is not open or not a socket.
    static func identity(of fd: Int32) -> UInt64 { UInt64(sg_descriptor_identity(fd)) }
}
