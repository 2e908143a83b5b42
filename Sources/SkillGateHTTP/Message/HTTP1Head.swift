import Glibc
import SkillGateCore

/// HTTP/1.1 head syntax both sides read the same way: the inbound server's request heads (`RequestHeadParser`) and the
/// own client's response heads (`HTTP1ResponseDecoder`).
enum HTTP1Head {
    /// The offset just past the empty line that ends a head starting at `start` (a line ends at LF, a CR before it is
    /// dropped), or nil when it has not all arrived. `scanned` is how far an earlier call already looked at the same
    /// bytes, so a head that arrives a byte at a time is scanned once.
    static func end(of bytes: UnsafeRawBufferPointer, from start: Int, scanned: Int = 0) -> Int? {
        // Resume two bytes back so a terminator split across reads is found.
        var index = max(start, scanned - 2)
        let count = bytes.count
        while index < count {
            guard let newline = firstIndex(of: 0x0A, in: bytes, index..<count) else { return nil }
            var next = newline + 1
            if next < count && bytes[next] == 0x0D { next += 1 }
            if next < count && bytes[next] == 0x0A { return next + 1 }
            if next >= count { return nil }
            index = newline + 1
        }
        return nil
    }

    /// The lines of a head from `position` to `end`, each without its line end; nil at the empty line that ends the
    /// head, or at `end`. A last line without LF (a head cut short) is a line too.
    struct Lines {
        let bytes: UnsafeRawBufferPointer
        var position: Int
        let end: Int

        init(_ bytes: UnsafeRawBufferPointer, from position: Int = 0, to end: Int? = nil) {
            self.bytes = bytes
            self.position = position
            self.end = end ?? bytes.count
        }

        mutating func next() -> Range<Int>? {
            guard position < end else { return nil }
            let start = position
            var lineEnd = HTTP1Head.firstIndex(of: 0x0A, in: bytes, start..<end) ?? end
            position = min(end, lineEnd + 1)
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            return lineEnd > start ? start..<lineEnd : nil
        }
    }

    /// Whether a `Connection` field's value lists `close` and `keep-alive` (comma-separated tokens, any case).
    static func connectionTokens(_ value: String) -> (close: Bool, keepAlive: Bool) {
        var tokens = (close: false, keepAlive: false)
        // Over the value's bytes, without a string per token (a keep-alive upstream says `Connection: keep-alive` in
        // every answer).
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x2C { end += 1 }
                var low = start, high = end
                while low < high && (bytes[low] == 0x20 || bytes[low] == 0x09) { low += 1 }
                while high > low && (bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09) { high -= 1 }
                let token = UnsafeBufferPointer(rebasing: bytes[low..<high])
                if HTTPHeaders.sameName(token, "close") { tokens.close = true }
                if HTTPHeaders.sameName(token, "keep-alive") { tokens.keepAlive = true }
                start = end + 1
            }
        }
        return tokens
    }

    /// The first `byte` in `range` of `bytes` (`memchr`).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
