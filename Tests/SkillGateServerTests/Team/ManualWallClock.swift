import Foundation
import Synchronization

/// A wall clock tests move by hand (limit windows, budgets).
final class ManualWallClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date) { time = Mutex(start) }

    var now: Date { time.locked { $0 } }

    func advance(_ seconds: Double) { time.locked { $0 = $0.addingTimeInterval(seconds) } }

    func set(_ date: Date) { time.locked { $0 = date } }
}
