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

/// Like `measureMicros`, but this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): time other processes
/// take on a shared machine is not counted (median of 5 rounds, after a warm-up).
func measureCPUMicros(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
    }
    for _ in 0..<max(1, iterations / 10) { try body() }
    var rounds: [Double] = []
    for _ in 0..<5 {
        let start = now()
        for _ in 0..<iterations { try body() }
        rounds.append((now() - start) / Double(iterations))
    }
    return rounds.sorted()[2]
}

/// Prints one figure line: name, value, unit, and the target it is held to.
func report(_ name: String, _ value: Double, unit: String, target: String = "") {
    let v = String(format: value < 10 ? "%.2f" : "%.1f", value)
    print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(v.leftPad(10)) \(unit)  \(target)")
}

extension String {
    func leftPad(_ n: Int, with pad: Character = " ") -> String { count >= n ? self : String(repeating: pad, count: n - count) + self }
}

/// CPU time (user + system) of the whole process so far, in microseconds: with a client and a
/// server in one process, the CPU each request costs on all threads, which other processes on a
/// busy machine inflate far less than wall time.
func processCPUMicros() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
    let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    return user + system
}
