extension GatewayError {
    /// What clients and the log see of a message: at most its first 1,024 and last 512 UTF-8 bytes, around " … "
    /// (decision 0082). Messages quote what the caller sent (a model's or a scenario's name, a tool's), so without a
    /// bound one request could make its error answer and its log line megabytes long. The end is kept because it
    /// says what to do next.
    public static let clientMessageWindow = TextWindow(headBytes: 1_024, tailBytes: 512)

    /// The message with the provider named, as clients see it, within `clientMessageWindow`.
    public var clientMessage: String {
        guard let provider, !message.contains(provider) else { return Self.clientMessageWindow.apply(message, joinedBy: " … ") }
        return Self.clientMessageWindow.apply("\(provider): \(message)", joinedBy: " … ")
    }
}
