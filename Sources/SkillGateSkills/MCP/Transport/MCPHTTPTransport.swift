import SkillGateCore
import SkillGateHTTP
import Synchronization

/// MCP over streamable HTTP: every message is a POST to the server's one endpoint; an answer comes
/// back as `application/json` or as a `text/event-stream` whose events carry the answer (and any
/// notifications sent before it, handed to `inbound`). The `Mcp-Session-Id` the server gives at
/// `initialize` and the negotiated `MCP-Protocol-Version` are sent on every later request.
///
/// The URL comes from the operator's config (like a provider's base URL), so the SSRF guard of
/// skills does not apply; redirects are never followed (decision 0029).
public final class MCPHTTPTransport: MCPTransport {
    let http: HTTPClient
    let url: String
    /// Header name and value template (`${secret:NAME}` expanded per request).
    let headers: [(String, String)]
    let secrets: @Sendable (String) -> String?
    let maxMessageBytes: Int
    let inbound: MCPInbound
    private let session = Mutex<(id: String?, version: String?)>((nil, nil))
    /// The secret values requests carried, newest last, at most `keptSecrets` distinct ones: a secret rotated in the
    /// key store while a call was out is still known when its answer is redacted.
    private let sent = Mutex<[String]>([])
    private static let keptSecrets = 8

    public init(http: HTTPClient, url: String, headers: [(String, String)], secrets: @escaping @Sendable (String) -> String?,
                maxMessageBytes: Int = 4 * 1024 * 1024, inbound: @escaping MCPInbound) {
        self.http = http
        self.url = url
        self.headers = headers
        self.secrets = secrets
        self.maxMessageBytes = maxMessageBytes
        self.inbound = inbound
    }

    /// The session id the server assigned, if any.
    public var sessionId: String? { session.locked { $0.id } }

    public func initialized(protocolVersion: String) {
        session.locked { $0.version = protocolVersion }
    }

    public var isOpen: Bool { true }

    public func close() async {
        // A server that issued a session may be told it ended (DELETE); failures do not matter.
        guard let id = session.locked({ s -> String? in defer { s = (nil, nil) }; return s.id }) else { return }
        var h = (try? requestHeaders().headers) ?? HTTPHeaders()
        h.set("Mcp-Session-Id", id)
        _ = try? await http.send(HTTPRequest(method: "DELETE", url: url, headers: h, timeouts: HTTPTimeouts(connect: .seconds(2), firstByte: .seconds(2), idle: .seconds(2), total: .seconds(2))))
    }

    public func notify(_ message: JSONRPCMessage, timeout: Duration) async throws(MCPError) {
        _ = try await post(message, expecting: nil, timeout: timeout)
    }

    public func exchange(_ request: JSONRPCMessage, id: JSONRPCId, timeout: Duration) async throws(MCPError) -> JSONRPCMessage {
        guard let answer = try await post(request, expecting: id, timeout: timeout) else {
            throw MCPError(.protocolViolation, "the server answered the request without a JSON-RPC response; it must answer with application/json or text/event-stream")
        }
        return answer
    }

    /// The secrets the requests carried (`sent`), and those the headers name as the key store holds them now.
    public var secretsSent: [String] {
        let now = headers.flatMap { (try? SecretTemplate.expand($0.1, secrets: secrets))?.used ?? [] }
        return sent.locked { sent in sent + now.filter { !sent.contains($0) } }
    }

    private func noteSent(_ used: [String]) {
        guard !used.isEmpty else { return }
        sent.locked { sent in
            for secret in used where sent.last != secret {
                sent.removeAll { $0 == secret }
                sent.append(secret)
            }
            if sent.count > Self.keptSecrets { sent.removeFirst(sent.count - Self.keptSecrets) }
        }
    }

    private func requestHeaders() throws(MCPError) -> (headers: HTTPHeaders, secrets: [String]) {
        var h = HTTPHeaders()
        var used: [String] = []
        for (field, template) in headers {
            do {
                let expanded = try SecretTemplate.expand(template, secrets: secrets)
                used += expanded.used
                h.add(field, expanded.text)
            } catch {
                throw MCPError(.unavailable, error.message)
            }
        }
        h.set("Content-Type", "application/json")
        h.set("Accept", "application/json, text/event-stream")
        let s = session.locked { $0 }
        if let id = s.id { h.set("Mcp-Session-Id", id) }
        if let v = s.version { h.set("MCP-Protocol-Version", v) }
        return (h, used)
    }

    /// POSTs `message`; returns the response with id `expecting` (nil for notifications: 202 expected).
    private func post(_ message: JSONRPCMessage, expecting: JSONRPCId?, timeout: Duration) async throws(MCPError) -> JSONRPCMessage? {
        let (h, used) = try requestHeaders()
        noteSent(used)
        let request = HTTPRequest(method: "POST", url: url, headers: h, body: message.bytes,
                                  timeouts: HTTPTimeouts(connect: min(timeout, .seconds(10)), firstByte: timeout, idle: timeout, total: timeout))
        let response: HTTPStreamingResponse
        do { response = try await http.stream(request) } catch {
            throw Self.failure(error, timeout: timeout)
        }
        if let id = response.headers["Mcp-Session-Id"], !id.isEmpty {
            session.locked { $0.id = id }
        }
        let contentType = (response.headers["Content-Type"] ?? "").lowercased()
        guard (200..<300).contains(response.status) else {
            let body = (try? await response.collectBody(limit: 4096)) ?? []
            let text = SecretTemplate.redact(String(decoding: body.prefix(300), as: UTF8.self), used)
            if response.status == 404, sessionId != nil {
                session.locked { $0 = (nil, nil) }
                throw MCPError(.unavailable, "the server no longer knows the session (HTTP 404); the gateway starts a new one")
            }
            throw MCPError(.unavailable, "the server answered HTTP \(response.status)\(text.isEmpty ? "" : ": " + text)")
        }
        guard let expecting else { return nil }
        do {
            if contentType.hasPrefix("text/event-stream") {
                return try await readEvents(response.body, expecting: expecting)
            }
            var body: [UInt8] = []
            for try await chunk in response.body {
                body += chunk
                if body.count > maxMessageBytes { throw MCPError(.protocolViolation, "the server's answer is longer than \(maxMessageBytes) bytes") }
            }
            let answer = try JSONRPCMessage.decode(body)
            return try Self.check(answer, expecting: expecting)
        } catch let error as MCPError {
            throw error
        } catch let error as JSONRPCError {
            throw MCPError(.protocolViolation, "the server's answer is not JSON-RPC: \(error.message)")
        } catch {
            throw Self.failure(error, timeout: timeout)
        }
    }

    /// Reads SSE events until the answer to `expecting`; other messages go to `inbound`.
    private func readEvents(_ body: AsyncThrowingStream<[UInt8], any Error>, expecting: JSONRPCId) async throws -> JSONRPCMessage {
        var decoder = SSEDecoder(maxLineBytes: maxMessageBytes)
        var total = 0
        for try await chunk in body {
            total += chunk.count
            for event in decoder.feed(chunk) where !event.data.isEmpty {
                let message: JSONRPCMessage
                do { message = try JSONRPCMessage.decode(Array(event.data.utf8)) } catch {
                    throw MCPError(.protocolViolation, "the server sent an event that is not JSON-RPC: \(error.message)")
                }
                switch message {
                case .result(expecting, _), .error(expecting?, _): return try Self.check(message, expecting: expecting)
                case .result, .error: continue
                default: inbound(message)
                }
            }
            if total > 16 * maxMessageBytes { throw MCPError(.protocolViolation, "the server's event stream passed \(16 * maxMessageBytes) bytes without the answer") }
        }
        throw MCPError(.protocolViolation, "the server's event stream ended without the answer to request \(expecting)")
    }

    private static func check(_ answer: JSONRPCMessage, expecting: JSONRPCId) throws(MCPError) -> JSONRPCMessage {
        switch answer {
        case .result(let id, _) where id == expecting: return answer
        case .error(let id, _) where id == expecting || id == nil: return answer
        default: throw MCPError(.protocolViolation, "the server answered with a message that is not the response to request \(expecting)")
        }
    }

    private static func failure(_ error: any Error, timeout: Duration) -> MCPError {
        if let e = error as? HTTPClientError {
            if e.isTimeout { return MCPError(.timeout, "the server did not answer within \(timeout.mcpSeconds) s") }
            return MCPError(.unavailable, "the server is unreachable (\(e.detail))")
        }
        return MCPError(.unavailable, "the request failed: \(error)")
    }
}
