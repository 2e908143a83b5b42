import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// The loop's two spins (see `SpinRule` and decision 0014). Loop thread only.
extension CurlMultiLoop {
    /// Polls the transfers' sockets without sleeping until one is ready or a command arrives,
    /// at most until `deadline`. Returns true when either happened.
    func spinForActivity(_ multi: UnsafeMutableRawPointer, until deadline: UInt64) -> Bool {
        spinning.store(true, ordering: .sequentiallyConsistent)
        var ready: Int32 = 0
        while !hasCommands.load(ordering: .sequentiallyConsistent), MonotonicClock.nanoseconds() < deadline {
            _ = curl_multi_poll(multi, nil, 0, 0, &ready)
            if ready > 0 { break }
        }
        spinning.store(false, ordering: .sequentiallyConsistent)
        return ready > 0 || hasCommands.load(ordering: .sequentiallyConsistent)
    }

    /// Checks for a command until `deadline` instead of sleeping. Returns true when one arrived
    /// (no wake-up was sent for it). Yields the CPU between checks, so a thread about to submit
    /// on the same core can run.
    func spinForNextCommand(until deadline: UInt64) -> Bool {
        spinning.store(true, ordering: .sequentiallyConsistent)
        while !hasCommands.load(ordering: .sequentiallyConsistent), MonotonicClock.nanoseconds() < deadline {
            sched_yield()
        }
        spinning.store(false, ordering: .sequentiallyConsistent)
        return hasCommands.load(ordering: .sequentiallyConsistent)
    }
}
