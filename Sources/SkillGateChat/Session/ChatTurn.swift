/// How one answer ended.
public enum TurnEnding: Sendable, Hashable {
    /// `run.completed` arrived.
    case completed
    /// `run.failed` arrived (the renderer already showed its error).
    case failed
    /// The user pressed Ctrl-C; the request was cancelled.
    case stopped
    /// The request failed, or the stream ended early (the message says what to do).
    case transportError(String)
}

/// What one answer produced: the assistant's text (also when cut short) and how it ended.
public struct TurnResult: Sendable, Hashable {
    public var text: String
    public var ending: TurnEnding

    public init(text: String, ending: TurnEnding) {
        self.text = text
        self.ending = ending
    }
}
