#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of the monotonic clock; cheap enough to read in every libcurl callback.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped at zero.
    var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// The duration in milliseconds for libcurl options, at least 1.
    var curlMilliseconds: Int {
        Int(min(clampedNanoseconds / 1_000_000, UInt64(Int32.max))).clamped(toAtLeast: 1)
    }
}

fileprivate extension Int {
    func clamped(toAtLeast lower: Int) -> Int { Swift.max(self, lower) }
}
