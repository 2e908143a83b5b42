/// Times a decision function over a set of inputs: several passes, the per-decision time of
/// each pass, and the median and best pass (a benchmark figure, not a test assertion).
public struct DecisionTiming: Sendable {
    /// Per-decision time of the median pass, in microseconds.
    public var medianMicros: Double
    /// Per-decision time of the fastest pass, in microseconds.
    public var bestMicros: Double
    /// The slowest single decision of all passes, in microseconds.
    public var worstMicros: Double
    public var decisions: Int

    /// Runs `body` on every index `0..<count`, `passes` times.
    public static func measure(count: Int, passes: Int = 7, _ body: (Int) -> Void) -> DecisionTiming {
        let clock = ContinuousClock()
        for i in 0..<count { body(i) }  // warm-up: caches, lazy tables
        var perPass: [Double] = []
        var worst = 0.0
        for _ in 0..<passes {
            var total = Duration.zero
            for i in 0..<count {
                let start = clock.now
                body(i)
                let d = clock.now - start
                total += d
                worst = max(worst, Self.micros(d))
            }
            perPass.append(Self.micros(total) / Double(max(1, count)))
        }
        perPass.sort()
        return DecisionTiming(medianMicros: perPass[perPass.count / 2], bestMicros: perPass[0], worstMicros: worst, decisions: count * passes)
    }

    public static func micros(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }
}
