import SkillGateCore

/// Why an exchange with an MCP server failed, in words an operator can act on.
public struct MCPError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// No answer within the time allowed.
        case timeout
        /// The server is not reachable or its process is not running.
        case unavailable
        /// The server answered with something that is not valid JSON-RPC or not the MCP shape.
        case protocolViolation = "protocol"
        /// The server answered with a JSON-RPC error.
        case remote
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Messages the server sent that are not answers to our requests.
public typealias MCPInbound = @Sendable (JSONRPCMessage) -> Void

/// A way to exchange JSON-RPC messages with one MCP server (streamable HTTP, stdio).
public protocol MCPTransport: Sendable {
    /// Sends `request` and returns its answer (a result or a JSON-RPC error) within `timeout`.
    /// Throws `MCPError` for timeouts, transport failures and answers that are not JSON-RPC.
    func exchange(_ request: JSONRPCMessage, id: JSONRPCId, timeout: Duration) async throws(MCPError) -> JSONRPCMessage
    /// Sends a notification (no answer).
    func notify(_ message: JSONRPCMessage, timeout: Duration) async throws(MCPError)
    /// Remembers what `initialize` answered (the HTTP transport sends the version and session id in headers).
    func initialized(protocolVersion: String)
    /// Whether the transport can still be used (a stdio server's process is alive).
    var isOpen: Bool { get }
    /// Ends the connection (a stdio server's process is stopped and reaped).
    func close() async
    /// The key-store secrets this transport gives the server (its `${secret:NAME}` headers or environment values).
    /// What the server says is not trusted to keep them: they are taken out of its answers before a model, a client
    /// or the log sees them (`MCPServerLink.call`).
    var secretsSent: [String] { get }
}

extension MCPTransport {
    public var secretsSent: [String] { [] }
}
