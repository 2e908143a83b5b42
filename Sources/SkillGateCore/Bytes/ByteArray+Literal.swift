extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes (`out += #"{"role":"#`): one copy from the binary's constant data.
    ///
    /// Appending a `String`'s `utf8` view goes through the generic sequence path, ~100 instructions a call, and the
    /// writers of request and response bodies append dozens of literals per request (decision 0064).
    @inlinable @inline(__always)
    public static func += (bytes: inout [UInt8], literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
