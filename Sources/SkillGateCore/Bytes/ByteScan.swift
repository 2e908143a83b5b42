/// Word-at-a-time byte searches ("SWAR": SIMD within a register) for the hot scanning loops
/// (JSON strings, SSE lines). Eight bytes are tested per step with the classic has-zero-byte
/// bit trick. Its flags can be wrong only above the first true match (a borrow runs upwards),
/// so the lowest flag of a word gives the exact position; only the last few bytes of a buffer
/// (less than a word) are tested byte by byte.
public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero when some byte of `word` is zero.
    @inlinable @inline(__always)
    static func zeroByte(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// Non-zero when some byte of `word` equals `byte`.
    @inlinable @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> UInt64 { zeroByte(word ^ (ones &* UInt64(byte))) }

    /// Non-zero when some byte of `word` is below `limit` (`limit` ≤ 0x80).
    @inlinable @inline(__always)
    static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 { (word &- ones &* UInt64(limit)) & ~word & highs }

    /// Non-zero when some byte of `word` is a `"`, a `\` or below 0x20 (the three tests OR-ed
    /// before the one mask).
    @inlinable @inline(__always)
    static func jsonStop(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & highs
    }

    /// The index of the first byte at or after `start` that is a `"`, a `\\` or below 0x20 (the
    /// bytes that end the plain part of a JSON string), or `end`. `high` accumulates the OR of the
    /// skipped bytes, so bit 7 tells whether any of them was non-ASCII. Short strings (keys, most
    /// values) are done inline a word at a time; past 32 bytes the scan goes on out of line, two
    /// words per step.
    @inlinable
    public static func jsonStringStop(in base: UnsafePointer<UInt8>, from start: Int, to end: Int, high: inout UInt8) -> Int {
        var i = start
        if let stop = jsonStopByWord(in: base, from: &i, to: min(end, start &+ 32), high: &high) { return stop }
        if i + 8 <= end { return longJSONStringStop(in: base, from: i, to: end, high: &high) }
        return jsonStopByByte(in: base, from: i, to: end, high: &high)
    }

    /// `jsonStringStop` for the rest of a long string, two words per step.
    @usableFromInline @inline(never)
    static func longJSONStringStop(in base: UnsafePointer<UInt8>, from start: Int, to end: Int, high: inout UInt8) -> Int {
        var i = start
        var highWord: UInt64 = 0
        let raw = UnsafeRawPointer(base)
        while i + 16 <= end {
            let w0 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            if jsonStop(w0) | jsonStop(w1) != 0 { break }
            highWord |= w0 | w1
            i += 16
        }
        if highWord & highs != 0 { high |= 0x80 }
        if let stop = jsonStopByWord(in: base, from: &i, to: end, high: &high) { return stop }
        return jsonStopByByte(in: base, from: i, to: end, high: &high)
    }

    /// Whole words from `i` while they fit before `limit`: the index of the first stop byte, or
    /// nil with `i` at the first byte not tested. `high` takes the bytes passed.
    @inlinable @inline(__always)
    static func jsonStopByWord(in base: UnsafePointer<UInt8>, from i: inout Int, to limit: Int, high: inout UInt8) -> Int? {
        var highWord: UInt64 = 0
        defer { if highWord & highs != 0 { high |= 0x80 } }
        let raw = UnsafeRawPointer(base)
        while i + 8 <= limit {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let stops = jsonStop(word)
            if stops != 0 {
                // The lowest flag is exact (false flags only ever sit above a true one).
                let k = stops.trailingZeroBitCount >> 3
                highWord |= word & ((1 &<< UInt64(k &* 8)) &- 1)
                return i + k
            }
            highWord |= word
            i += 8
        }
        return nil
    }

    /// The last bytes of a JSON string scan (less than a word), one at a time.
    @inlinable @inline(__always)
    static func jsonStopByByte(in base: UnsafePointer<UInt8>, from start: Int, to end: Int, high: inout UInt8) -> Int {
        var i = start
        while i < end {
            let b = base[i]
            if b == 0x22 || b == 0x5C || b < 0x20 { return i }
            high |= b
            i += 1
        }
        return end
    }

    /// The index of the first LF or CR at or after `start`, or `end`. Long runs are tested two
    /// words per step.
    @inlinable
    public static func lineEnd(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        @inline(__always) func lineStop(_ word: UInt64) -> UInt64 {
            let lf = word ^ (ones &* 0x0A)
            let cr = word ^ (ones &* 0x0D)
            return ((lf &- ones) & ~lf | (cr &- ones) & ~cr) & highs
        }
        var i = start
        let raw = UnsafeRawPointer(base)
        while i + 16 <= end {
            let w0 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            if lineStop(w0) | lineStop(w1) != 0 { break }
            i += 16
        }
        while i + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let stops = lineStop(word)
            if stops != 0 { return i + stops.trailingZeroBitCount >> 3 }  // the lowest flag is exact
            i += 8
        }
        while i < end {
            let b = base[i]
            if b == 0x0A || b == 0x0D { return i }
            i += 1
        }
        return end
    }

    /// Whether the `count` bytes at `base` are all ASCII (below 0x80).
    @inlinable
    public static func isASCII(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        var any: UInt64 = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
            any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        var tail: UInt8 = 0
        while i < count { tail |= base[i]; i += 1 }
        return any & highs == 0 && tail < 0x80
    }
}
