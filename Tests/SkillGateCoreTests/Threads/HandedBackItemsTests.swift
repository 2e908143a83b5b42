import Foundation
import Glibc
import SkillGateCore
import Synchronization
import Testing

/// A background writer hands the items it has written back, and each thread that queues new items releases two of
/// its own with each (decision 0109): items go back to the thread that queued them, at most one batch waits, and a
/// batch not taken yet goes back to the writer to release.
@Suite struct HandedBackItemsTests {
    /// The threads that released `Tracked` items.
    final class Releases: Sendable {
        let threads = Mutex<[pthread_t]>([])
    }

    /// Remembers which thread released it.
    final class Tracked: Sendable {
        let releases: Releases
        init(_ releases: Releases) { self.releases = releases }
        deinit { releases.threads.locked { $0.append(pthread_self()) } }
    }

    private let me = HandedBackItems<Int>.currentOwner
    /// A thread id that is not this one's (never dereferenced).
    private var someoneElse: pthread_t { me &+ 4096 }

    private func batch(_ values: [Int], by owner: pthread_t) -> OwnedItems<Int> {
        var items = OwnedItems<Int>()
        for v in values { items.append(v, by: owner) }
        return items
    }

    @Test func nothingHandedBackGivesNothing() {
        var items = HandedBackItems<Int>()
        let (first, second, emptied) = items.takeSome(for: me)
        #expect(first == nil && second == nil && emptied == nil)
        #expect(items.count == 0)
    }

    @Test func itemsAreTakenTwoAtATimeAndTheBufferWithTheLast() {
        var items = HandedBackItems<Int>()
        var written = batch([1, 2, 3, 4, 5], by: me)
        #expect(items.handBack(&written).isEmpty)
        #expect(written.isEmpty)
        #expect(items.count == 5)
        let (a, b, none) = items.takeSome(for: me)
        #expect(a == 5 && b == 4 && none == nil)
        _ = items.takeSome(for: me)
        #expect(items.count == 1)
        let (last, nothing, emptied) = items.takeSome(for: me)
        #expect(last == 1 && nothing == nil)
        #expect(emptied?.isEmpty == true)
        #expect(items.count == 0)
    }

    /// With two loops queueing, each gets only its own items back: one loop never frees the other's buffers.
    @Test func eachThreadTakesOnlyWhatItQueued() {
        var items = HandedBackItems<Int>()
        var written = OwnedItems<Int>()
        for v in 0..<6 { written.append(v, by: v.isMultiple(of: 2) ? me : someoneElse) }
        _ = items.handBack(&written)
        var mine: [Int] = []
        for _ in 0..<3 {
            let (a, b, _) = items.takeSome(for: me)
            mine += [a, b].compactMap { $0 }
        }
        #expect(mine.sorted() == [0, 2, 4])
        #expect(items.count == 3)
        let (none, nothing, _) = items.takeSome(for: me)
        #expect(none == nil && nothing == nil)
        let (x, y, _) = items.takeSome(for: someoneElse)
        #expect([x, y].compactMap { $0 }.allSatisfy { !$0.isMultiple(of: 2) })
    }

    @Test func aBatchNotTakenYetComesBackWhenTheNextIsHandedBack() {
        var items = HandedBackItems<Int>()
        var first = batch([1, 2, 3], by: me)
        _ = items.handBack(&first)
        _ = items.takeSome(for: me)
        var second = batch([7, 8], by: me)
        let unreleased = items.handBack(&second)
        #expect(unreleased.flatMap { $0.items } == [1])
        #expect(items.count == 2)
    }

    /// The point of it: the writer thread hands items back and releases none of them; the thread that takes them does.
    @Test func theTakingThreadReleasesTheItems() throws {
        let releases = Releases()
        let shared = Mutex(HandedBackItems<Tracked>())
        let handedBack = DispatchSemaphore(value: 0)
        let owner = HandedBackItems<Tracked>.currentOwner
        let writer = Thread {
            var written = OwnedItems<Tracked>()
            for _ in 0..<4 { written.append(Tracked(releases), by: owner) }
            let unreleased = shared.locked { $0.handBack(&written) }
            precondition(unreleased.isEmpty && written.isEmpty)
            handedBack.signal()
        }
        writer.start()
        try #require(handedBack.wait(timeout: .now() + 10) == .success)
        #expect(shared.locked { $0.count } == 4)
        #expect(releases.threads.locked { $0.isEmpty })
        for _ in 0..<2 { _ = shared.locked { $0.takeSome(for: owner) } }
        #expect(releases.threads.locked { $0.count } == 4)
        #expect(releases.threads.locked { $0.allSatisfy { pthread_equal($0, owner) != 0 } })
    }
}
