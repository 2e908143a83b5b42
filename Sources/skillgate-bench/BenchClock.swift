import Foundation

/// Measures `body` over `iterations` runs after a warm-up and returns microseconds per run (median of 5 rounds).
func measureMicros(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<max(1, iterations / 10) { try body() }
    var rounds: [Double] = []
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for _ in 0..<iterations { try body() }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        rounds.append(seconds * 1e6 / Double(iterations))
    }
    return rounds.sorted()[2]
}

/// Prints one figure line: name, value, unit, and the target it is held to.
func report(_ name: String, _ value: Double, unit: String, target: String = "") {
    let v = String(format: value < 10 ? "%.2f" : "%.1f", value)
    print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(v.leftPad(10)) \(unit)  \(target)")
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
