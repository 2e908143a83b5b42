/// Whether the libcurl loop should spin through a wait instead of sleeping (loop thread only).
///
/// The loop waits in two places where spinning can pay: for the next request after its last
/// transfer finished (a caller sending requests one after another submits the next one a few
/// microseconds later), and for the answer of its only transfer (a local upstream answers within
/// microseconds). Sleeping costs a wake-up — syscalls on both sides and a thread switch — that
/// is larger than such a wait. A rule per place spins only if the previous wait there was shorter
/// than the window, and a spin that times out turns spinning off until a wait is short again, so
/// idle, sporadic or slow traffic (real LLM answers take milliseconds or more) costs at most one
/// wasted window per change of pattern.
struct SpinRule {
    private var waitingSince: UInt64?
    private var lastWaitWasShort = false
    private(set) var window: UInt64 = 0

    /// The loop is about to wait at `now`. Returns whether it should spin for `window`.
    mutating func waitStarted(at now: UInt64, window configured: Duration) -> Bool {
        if waitingSince == nil { waitingSince = now }
        window = configured.clampedNanoseconds
        return window > 0 && lastWaitWasShort
    }

    /// The spin ended without what it waited for.
    mutating func timedOut() { lastWaitWasShort = false }

    /// What the loop waited for arrived at `now`.
    mutating func waitEnded(at now: UInt64) {
        guard let since = waitingSince else { return }
        lastWaitWasShort = now &- since < window
        waitingSince = nil
    }
}
