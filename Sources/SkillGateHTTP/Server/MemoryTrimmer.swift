import CEvent
import Dispatch
import Synchronization

/// Gives freed heap back to the kernel after large request bodies were released.
///
/// glibc keeps freed memory in its arenas (and raises its mmap threshold after the first large free,
/// so later multi-megabyte bodies come from the arenas too): after a burst of large bodies the
/// process keeps its peak RSS. `malloc_trim(0)` returns the free pages. Bursts are coalesced: a trim
/// runs `delay` after the first large body of a burst was released, off the event loops.
final class MemoryTrimmer: Sendable {
    /// Bodies at least this large schedule a trim when released.
    let threshold: Int
    let delay: DispatchTimeInterval
    private let pending = Atomic<Bool>(false)
    private let counters: ServerCounters

    init(threshold: Int, delay: DispatchTimeInterval = .milliseconds(200), counters: ServerCounters) {
        self.threshold = threshold
        self.delay = delay
        self.counters = counters
    }

    /// A body of `bytes` was released (its request answered and its handler returned).
    func released(bodyBytes bytes: Int) {
        guard bytes >= threshold,
              pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [self] in
            pending.store(false, ordering: .releasing)
            sg_malloc_trim()
            counters.memoryTrims.add(1, ordering: .relaxed)
        }
    }
}
