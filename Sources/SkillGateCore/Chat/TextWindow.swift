/// The part of a long text that the gateway's own decisions read (decision 0078), or that an error message keeps of
/// what a caller sent (decision 0082).
///
/// The router, the skill ranking and the demo model read the conversation's text on the event loop. Their work grows
/// with the text, so a 3 MB message would hold the loop, and every other request on it, for tens of milliseconds in each.
/// They read a window instead: a text within the window's size as it is, a longer one as its start and its end joined
/// by a line break (what a request asks is most often said before or after what it pastes). Only the decisions read
/// the window; the request itself goes upstream whole.
public struct TextWindow: Sendable, Hashable {
    /// UTF-8 bytes kept from the start of a long text.
    public var headBytes: Int
    /// UTF-8 bytes kept from its end.
    public var tailBytes: Int

    public init(headBytes: Int, tailBytes: Int) {
        precondition(headBytes >= 0 && tailBytes >= 0, "a text window keeps a non-negative number of bytes")
        self.headBytes = headBytes
        self.tailBytes = tailBytes
    }

    /// `text` when its UTF-8 form is at most `headBytes + tailBytes` long; else its first `headBytes` and its last
    /// `tailBytes` bytes, each cut back to whole Unicode scalars, joined by `separator` (a line break by default). The
    /// window's work does not grow with the text (a native string knows its UTF-8 length).
    public func apply(_ text: String, joinedBy separator: String = "\n") -> String {
        guard text.utf8.count > headBytes + tailBytes else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var headEnd = headBytes
            while headEnd > 0, Self.isContinuation(bytes[headEnd]) { headEnd -= 1 }
            var tailStart = bytes.count - tailBytes
            while tailStart < bytes.count, Self.isContinuation(bytes[tailStart]) { tailStart += 1 }
            let head = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<headEnd]), as: UTF8.self)
            let tail = String(decoding: UnsafeBufferPointer(rebasing: bytes[tailStart...]), as: UTF8.self)
            return head + separator + tail
        }
    }

    /// A UTF-8 continuation byte (`10xxxxxx`): not the first byte of a scalar.
    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
