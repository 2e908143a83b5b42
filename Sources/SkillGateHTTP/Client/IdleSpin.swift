/// When the libcurl loop may spin for the next command instead of sleeping (loop thread only).
///
/// Spinning pays only while requests come back to back: a caller that sends one request after
/// another submits the next one a few microseconds after the previous one completed. So the loop
/// spins after a transfer finished only if the previous idle gap was shorter than the window,
/// and a spin that times out (sporadic or no traffic) turns spinning off until requests come
/// back to back again. The worst case is one wasted window per burst of requests.
struct IdleSpin {
    private var idleSince: UInt64?
    private var lastGapWasShort = false
    private(set) var window: UInt64 = 0

    /// The loop has no transfer left at `now`. Returns whether it should spin for `window`.
    mutating func idleStarted(at now: UInt64, window configured: Duration) -> Bool {
        if idleSince == nil { idleSince = now }
        window = configured.clampedNanoseconds
        return window > 0 && lastGapWasShort
    }

    /// The spin ended without a command.
    mutating func timedOut() { lastGapWasShort = false }

    /// A request arrived while the loop had no transfer.
    mutating func idleEnded(at now: UInt64) {
        guard let since = idleSince else { return }
        lastGapWasShort = now &- since < window
        idleSince = nil
    }
}
