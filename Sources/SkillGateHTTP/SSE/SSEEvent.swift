/// One server-sent event (the WHATWG `text/event-stream` format).
public struct SSEEvent: Sendable, Hashable {
    /// The `event:` field; `nil` when absent (the default type "message").
    public var event: String?
    /// The `data:` lines joined with "\n".
    public var data: String
    /// The `id:` field, if any.
    public var id: String?
    /// The `retry:` field in milliseconds, if any.
    public var retry: Int?

    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Whether this is OpenAI's end-of-stream marker `data: [DONE]`.
    public var isDone: Bool { data == "[DONE]" }
}
