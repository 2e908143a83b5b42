/// Why the inbound HTTP server or a responder refused an operation.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// A configuration value is out of range.
        case invalidConfiguration
        /// The listening socket could not be created or bound.
        case bindFailed
        /// Another socket already listens on the address (another process, or another server in this one).
        case addressInUse
        /// libevent could not set up an event loop.
        case eventLoopSetupFailed
        /// `start()` was called twice, or after `shutdown`.
        case alreadyStarted
        /// The client disconnected; stop producing output for it.
        case clientGone
        /// The responder was used out of order (write before startStream, a second reply, ...).
        case responderMisuse
    }

    public var kind: Kind
    /// What went wrong and what to do next.
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    static let clientGone = HTTPServerError(
        kind: .clientGone,
        message: "The client closed the connection; stop producing output for this request.")
}
