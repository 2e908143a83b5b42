/// One server-sent event whose data is handed over as bytes, by `SSEDecoder`'s closure-taking
/// `feed` and `finish`, for readers that parse the data themselves (JSON chunks) and so need no
/// `String` of it.
///
/// `data` points into the decoder's buffer and is valid only during the call that received the
/// event. It holds the same bytes as `SSEEvent.data.utf8` would: the `data:` lines joined with
/// "\n", with invalid UTF-8 replaced by U+FFFD.
public struct SSERawEvent {
    /// The `event:` field; `nil` when absent (the default type "message").
    public var event: String?
    /// The `data:` lines joined with "\n", as UTF-8 bytes (valid only during the call).
    public var data: UnsafeBufferPointer<UInt8>
    /// The `id:` field, if any.
    public var id: String?
    /// The `retry:` field in milliseconds, if any.
    public var retry: Int?

    public init(event: String? = nil, data: UnsafeBufferPointer<UInt8>, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Whether this is OpenAI's end-of-stream marker `data: [DONE]`.
    public var isDone: Bool {
        let done: StaticString = "[DONE]"
        guard data.count == done.utf8CodeUnitCount else { return false }
        for i in 0..<data.count where data[i] != done.utf8Start[i] { return false }
        return true
    }
}
