import SkillGateCore
import Synchronization

/// One MCP session over a transport: the lifecycle (`initialize`, then `notifications/initialized`),
/// `tools/list` (pages followed up to a limit, tools capped) and `tools/call`. Every request has a
/// timeout; answers that are not the MCP shape are errors naming what was wrong.
public final class MCPClientSession: Sendable {
    /// The protocol revisions this client speaks, newest first.
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"]

    public let transport: any MCPTransport
    private let nextId = Atomic<Int>(1)
    private let negotiated = Mutex<String?>(nil)

    public init(transport: any MCPTransport) {
        self.transport = transport
    }

    /// The protocol revision the server agreed to (after `initialize`).
    public var protocolVersion: String? { negotiated.locked { $0 } }

    /// Sends `method` and returns its result; a JSON-RPC error answer is thrown as `.remote`.
    public func request(_ method: String, _ params: JSONValue?, timeout: Duration) async throws(MCPError) -> JSONValue {
        let id = JSONRPCId.number(nextId.wrappingAdd(1, ordering: .relaxed).oldValue)
        let answer = try await transport.exchange(.request(id: id, method: method, params: params), id: id, timeout: timeout)
        switch answer {
        case .result(_, let result): return result
        case .error(_, let error): throw MCPError(.remote, "\(method) failed: \(error.message) (JSON-RPC error \(error.code))")
        default: throw MCPError(.protocolViolation, "\(method) got a message that is not a response")
        }
    }

    /// `initialize` and `notifications/initialized`. Returns the server's name from `serverInfo`.
    @discardableResult
    public func initialize(clientName: String = "skillgate", clientVersion: String = "1.0", timeout: Duration) async throws(MCPError) -> String {
        let params: JSONValue = ["protocolVersion": .string(Self.protocolVersions[0]), "capabilities": .object([:]),
                                 "clientInfo": ["name": .string(clientName), "version": .string(clientVersion)]]
        let result = try await request("initialize", params, timeout: timeout)
        guard let version = result["protocolVersion"]?.stringValue else {
            throw MCPError(.protocolViolation, "the initialize result has no \"protocolVersion\"")
        }
        guard Self.protocolVersions.contains(version) else {
            throw MCPError(.protocolViolation, "the server speaks MCP \(version); SkillGate speaks \(Self.protocolVersions.joined(separator: ", "))")
        }
        negotiated.locked { $0 = version }
        transport.initialized(protocolVersion: version)
        try await transport.notify(.notification(method: "notifications/initialized", params: nil), timeout: timeout)
        return result["serverInfo"]?["name"]?.stringValue ?? ""
    }

    /// What `listTools` found.
    public struct ToolListing: Sendable {
        public var tools: [MCPTool]
        /// Why the listing is incomplete (tools capped, pages capped, entries skipped), for the log.
        public var notes: [String]
    }

    /// `tools/list`, following `nextCursor` for at most `maxPages` pages and keeping at most `maxTools` tools. The
    /// secrets the transport gave the server are taken out of the tools and the notes (a server that sends them back
    /// in a description, a schema or a cursor): the listing is what the model, the clients and the log see.
    public func listTools(maxTools: Int, maxPages: Int, timeout: Duration) async throws(MCPError) -> ToolListing {
        let secrets = transport.secretsSent
        var tools: [MCPTool] = []
        var notes: [String] = []
        var cursor: String?
        var skipped = 0, dropped = 0, secretNames = 0
        for page in 1...max(1, maxPages) {
            let result = try await request("tools/list", cursor.map { ["cursor": .string($0)] }, timeout: timeout)
            guard let list = result["tools"]?.arrayValue else {
                throw MCPError(.protocolViolation, "the tools/list result has no \"tools\" array")
            }
            for entry in list {
                guard let listed = MCPTool(entry) else { skipped += 1; continue }
                guard let tool = listed.redacting(secrets) else { secretNames += 1; continue }
                if tools.count < maxTools { tools.append(tool) } else { dropped += 1 }
            }
            cursor = result["nextCursor"]?.stringValue
            guard let next = cursor, !next.isEmpty, tools.count < maxTools else { break }
            if page == maxPages {
                // The cursor is the server's text, of any length: the log line quotes its start (decision 0113).
                notes.append("stopped after \(maxPages) pages of tools/list (max_pages); the tools after cursor \(SecretTemplate.redact(next, secrets).quotedExcerpt(100)) are not used")
            }
        }
        if dropped > 0 || (cursor != nil && tools.count >= maxTools) {
            notes.append("the server lists more than \(maxTools) tools; only the first \(maxTools) are used (raise max_tools to use more)")
        }
        if skipped > 0 { notes.append("\(skipped) listed tool(s) had no name or no object inputSchema and were skipped") }
        if secretNames > 0 {
            notes.append("\(secretNames) listed tool(s) had a name holding a secret the gateway sends this server and were skipped; fix the server so it does not echo its credentials")
        }
        return ToolListing(tools: tools, notes: notes)
    }

    /// `tools/call`.
    public func callTool(_ name: String, arguments: JSONValue, timeout: Duration) async throws(MCPError) -> MCPCallResult {
        let result = try await request("tools/call", ["name": .string(name), "arguments": arguments], timeout: timeout)
        return try MCPCallResult(result)
    }
}
