/// Turns the server-sent events of one response into the elements of a stream.
protocol StreamDecoding<Element>: Sendable {
    associatedtype Element: Sendable
    /// The element of `event`; nil for events that carry none (skipped).
    mutating func decode(_ event: ServerSentEvent) throws -> Element?
    /// Called when the body ended: throws when it ended too early.
    func finish() throws
}
