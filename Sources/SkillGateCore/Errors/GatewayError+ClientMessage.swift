extension GatewayError {
    /// What clients and the log see of a message: at most its first 1,024 and last 512 UTF-8 bytes, around " … "
    /// (decision 0082). Messages quote what the caller sent (a model's or a scenario's name, a tool's), so without a
    /// bound one request could make its error answer and its log line megabytes long. The end is kept because it
    /// says what to do next.
    public static let clientMessageWindow = TextWindow(headBytes: 1_024, tailBytes: 512)

    /// The message with the provider named, as clients see it, within `clientMessageWindow`: prefixed with
    /// `"<provider>: "` unless the message already names the provider as a word of its own (a short name such as `mp`
    /// inside `complete` does not count; decision 0111).
    public var clientMessage: String {
        guard let provider, !provider.isEmpty, !Self.names(provider, in: message) else {
            return Self.clientMessageWindow.apply(message, joinedBy: " … ")
        }
        return Self.clientMessageWindow.apply("\(provider): \(message)", joinedBy: " … ")
    }

    /// Whether `name` occurs in `text` with no letter, digit, `-` or `_` right before or after it.
    static func names(_ name: String, in text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isWordByte(_ i: Int) -> Bool {
            guard bytes.indices.contains(i) else { return false }
            let b = bytes[i]
            return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
        return bytes.ranges(of: Array(name.utf8)).contains { !isWordByte($0.lowerBound - 1) && !isWordByte($0.upperBound) }
    }
}
