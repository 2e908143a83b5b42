import Foundation
import Synchronization
@testable import SkillGateState

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(millisecondsSince1970: 1_750_000_000_000)) { current = Mutex(start) }

    var now: Date { current.locked { $0 } }

    func advance(seconds: TimeInterval) { current.locked { $0 += seconds } }
}
