import Foundation
import Synchronization
import SkillGateHTTP

/// A fake OpenAI Chat Completions provider on 127.0.0.1 (an ephemeral port), built on SkillGate's
/// own `HTTPServer`. Each request gets the next scripted reply (the last one repeats): recorded
/// bodies from `Tests/Fixtures/openai/` byte for byte, OpenAI error bodies, a head delayed past
/// the first-byte timeout, or a connection closed mid-response.
final class UpstreamDouble: HTTPHandler {
    indirect enum Reply: Sendable {
        /// A complete response.
        case json(status: Int, body: [UInt8], headers: HTTPHeaders)
        /// A complete response that is not JSON (a proxy's HTML page, plain text), with its own content type.
        case page(status: Int, body: [UInt8], contentType: String, headers: HTTPHeaders)
        /// `200 text/event-stream`, one chunk per SSE event.
        case sse([UInt8])
        /// The reply, after `delay` (before the head is sent).
        case delayed(Duration, Reply)
        /// `200` with `contentType`, `prefix` of the body, then the connection is closed (the server
        /// stops: later requests get "connection refused").
        case dropAfter(prefix: [UInt8], contentType: String)
        /// An SSE reply that goes quiet for `pause` after its first `after` events (a model thinking mid-stream).
        case ssePaused([UInt8], after: Int, pause: Duration)
        /// `200 text/event-stream`, each of `writes` sent on its own with `pause` before the next (events whose
        /// separators are CRLF CRLF, as Google sends them, which `events` does not split).
        case sseWrites([[UInt8]], pause: Duration)
        /// `200 text/event-stream`, each of `writes` sent on its own, then the stream stays open, silent, until the
        /// client (the gateway) leaves (`sawDisconnect`), for at most `atMost`: an upstream that never ends its stream.
        case sseThenOpen([[UInt8]], atMost: Duration)
    }

    /// One request as the double saw it.
    struct Seen: Sendable {
        var path: String
        var headers: HTTPHeaders
        var body: [UInt8]
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }
    }

    private let script: Mutex<[Reply]>
    /// Replies chosen by the request's bearer key instead of the script (a provider refusing one key).
    private let byKey: [String: Reply]
    /// Replies chosen by a text the request's body contains (a request the provider cannot serve).
    private let byBody: [String: Reply]
    private let seen = Mutex<[Seen]>([])
    private let server = Mutex<HTTPServer?>(nil)
    private let boundPort = Mutex(0)
    private let gone = Mutex(false)

    init(_ replies: [Reply], byKey: [String: Reply] = [:], byBodyContaining byBody: [String: Reply] = [:]) throws {
        script = Mutex(replies)
        self.byKey = byKey
        self.byBody = byBody
        let s = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: self)
        try s.start()
        server.locked { $0 = s }
        boundPort.locked { $0 = s.boundPort }
    }

    /// The port the double listens on.
    var port: Int { boundPort.locked { $0 } }

    /// The base URL for a provider file (`http://127.0.0.1:PORT/v1`).
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    var requests: [Seen] { seen.locked { $0 } }
    var requestCount: Int { seen.locked { $0.count } }
    /// Whether a stream kept open (`sseThenOpen`) saw its client leave.
    var sawDisconnect: Bool { gone.locked { $0 } }

    func stop() async {
        // The server is dropped once stopped: it holds its event loops, which hold this handler
        // (a cycle that AddressSanitizer's leak check reported; docs/decisions/0025).
        if let s = server.locked({ s in defer { s = nil }; return s }) { await s.shutdown(deadline: .milliseconds(100)) }
    }

    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        seen.locked { $0.append(Seen(path: request.path, headers: request.headers, body: request.body)) }
        let bearer = request.headers["authorization"].map { String($0.dropFirst("Bearer ".count)) }
        if let bearer, let keyed = byKey[bearer] { return await send(keyed, responder) }
        if !byBody.isEmpty {
            let text = String(decoding: request.body, as: UTF8.self)
            if let matched = byBody.first(where: { text.contains($0.key) }) { return await send(matched.value, responder) }
        }
        let reply = script.locked { s in s.count > 1 ? s.removeFirst() : s[0] }
        await send(reply, responder)
    }

    private func send(_ reply: Reply, _ responder: HTTPResponder) async {
        switch reply {
        case .json(let status, let body, var headers):
            headers.set("content-type", "application/json")
            responder.respond(status: status, headers: headers, body: body)
        case .page(let status, let body, let contentType, var headers):
            headers.set("content-type", contentType)
            responder.respond(status: status, headers: headers, body: body)
        case .sse(let bytes):
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for event in Self.events(bytes) { try? await responder.write(event) }
            responder.end()
        case .ssePaused(let bytes, let after, let pause):
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for (index, event) in Self.events(bytes).enumerated() {
                if index == after { try? await Task.sleep(for: pause) }
                try? await responder.write(event)
            }
            responder.end()
        case .sseWrites(let writes, let pause):
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for (index, bytes) in writes.enumerated() {
                if index > 0 { try? await Task.sleep(for: pause) }
                try? await responder.write(bytes)
            }
            responder.end()
        case .sseThenOpen(let writes, let atMost):
            try? await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
            for bytes in writes { try? await responder.write(bytes) }
            let until = ContinuousClock.now + atMost
            while !responder.isClientGone, !Task.isCancelled, ContinuousClock.now < until { try? await Task.sleep(for: .milliseconds(5)) }
            if responder.isClientGone { gone.locked { $0 = true } }
            responder.end()
        case .delayed(let delay, let next):
            try? await Task.sleep(for: delay)
            if Task.isCancelled { return }
            await send(next, responder)
        case .dropAfter(let prefix, let contentType):
            try? await responder.startStream(status: 200, headers: ["content-type": contentType])
            try? await responder.write(prefix)
            try? await Task.sleep(for: .milliseconds(100))  // let the prefix reach the socket
            let s = server.locked { $0 }
            Task { await s?.shutdown(deadline: .zero) }
            try? await Task.sleep(for: .seconds(10))  // cancelled when the server closes the connection
        }
    }

    /// Splits an SSE body after each blank line (`\n\n`), keeping the bytes exact.
    static func events(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0A, bytes[i + 1] == 0x0A {
                out.append(Array(bytes[start...(i + 1)]))
                start = i + 2
                i += 2
            } else {
                i += 1
            }
        }
        if start < bytes.count { out.append(Array(bytes[start...])) }
        return out
    }
}

/// Recorded OpenAI bodies and OpenAI-shaped errors for the double.
enum OpenAIRecordings {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/openai")

    static func bytes(_ name: String) -> [UInt8] {
        (try? Array(Data(contentsOf: root.appendingPathComponent(name)))) ?? []
    }

    /// A text answer (`openai-text.json`).
    static var text: UpstreamDouble.Reply { .json(status: 200, body: bytes("openai-text.json"), headers: [:]) }
    /// An answer with two tool calls (`call_jYdIdRZHxZTn5bWCq5jlMrJi`, `call_TmlTVWQbzrXCZ4jNsCVNbNqu`).
    static var toolCalls: UpstreamDouble.Reply { .json(status: 200, body: bytes("test_temporal_agent_with_hitl_tool.0.response.json"), headers: [:]) }
    static let toolCallIds = ["call_jYdIdRZHxZTn5bWCq5jlMrJi", "call_TmlTVWQbzrXCZ4jNsCVNbNqu"]
    /// A streamed text answer.
    static var streamedText: UpstreamDouble.Reply { .sse(bytes("test_run_stream_sync_streams_real_model.1.response.sse")) }
    /// A streamed answer with a tool call.
    static var streamedToolCall: UpstreamDouble.Reply { .sse(bytes("test_run_stream_sync_streams_real_model.0.response.sse")) }

    static func rateLimited(retryAfter: String) -> UpstreamDouble.Reply {
        .json(status: 429, body: Array(#"{"error":{"message":"Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#.utf8),
              headers: ["retry-after": retryAfter])
    }

    static var serverError: UpstreamDouble.Reply {
        .json(status: 500, body: Array(#"{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}"#.utf8), headers: [:])
    }

    /// nginx's own 429 page (`limit_req`), as it sends it: HTML, not an OpenAI error object.
    static func nginxRateLimited(retryAfter: String? = nil) -> UpstreamDouble.Reply {
        .page(status: 429, body: Array("<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".utf8),
              contentType: "text/html", headers: retryAfter.map { ["retry-after": $0] } ?? [:])
    }

    /// A proxy's plain-text 408.
    static var proxyTimedOut: UpstreamDouble.Reply {
        .page(status: 408, body: Array("stream timeout".utf8), contentType: "text/plain", headers: [:])
    }

    /// nginx's 502 page.
    static var nginxBadGateway: UpstreamDouble.Reply {
        .page(status: 502, body: Array("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n".utf8),
              contentType: "text/html", headers: [:])
    }

    static var overloaded: UpstreamDouble.Reply {
        .json(status: 503, body: Array(#"{"error":{"message":"The engine is currently overloaded, please try again later","type":"server_error","param":null,"code":null}}"#.utf8), headers: [:])
    }
}

/// A provider refusing the gateway itself (its key, its account, the catalog's model id), in each wire format as the
/// providers send it: OpenAI's bodies as its API answers them, Anthropic's and Gemini's from `Tests/Fixtures/`.
enum RefusalRecordings {
    static let fixtures = OpenAIRecordings.root.deletingLastPathComponent()

    static func fixture(_ path: String) -> [UInt8] {
        (try? Array(Data(contentsOf: fixtures.appendingPathComponent(path)))) ?? []
    }

    static func reply(_ status: Int, _ body: String) -> UpstreamDouble.Reply {
        .json(status: status, body: Array(body.utf8), headers: [:])
    }

    /// OpenAI: a wrong key (it echoes a masked one).
    static var openAIBadKey: UpstreamDouble.Reply {
        reply(401, #"{"error":{"message":"Incorrect API key provided: sk-proj-****************************wxyz. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#)
    }

    /// OpenAI: an account the API will not serve.
    static var openAIForbidden: UpstreamDouble.Reply {
        reply(403, #"{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}"#)
    }

    /// OpenAI: a retired model id.
    static var openAIRetiredModel: UpstreamDouble.Reply {
        reply(404, #"{"error":{"message":"The model `gpt-4-0314` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#)
    }

    /// Anthropic: a wrong `x-api-key`.
    static var anthropicBadKey: UpstreamDouble.Reply {
        reply(401, #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}"#)
    }

    /// Anthropic: a model id it does not know (recorded).
    static var anthropicUnknownModel: UpstreamDouble.Reply {
        .json(status: 404, body: fixture("anthropic/test_model_name_suggestion_anthropic.0.response.json"), headers: [:])
    }

    /// Gemini: a key it does not accept, which Google answers with 400 `API_KEY_INVALID` (recorded).
    static var geminiBadKey: UpstreamDouble.Reply {
        .json(status: 400, body: fixture("gemini/googleai-unary-failure-api-key.json"), headers: [:])
    }

    /// Gemini: a model id it does not know (recorded).
    static var geminiUnknownModel: UpstreamDouble.Reply {
        .json(status: 404, body: fixture("gemini/googleai-unary-failure-unknown-model.json"), headers: [:])
    }

    /// OpenAI: the client's own bad input (a value the model does not accept).
    static var openAIBadInput: UpstreamDouble.Reply {
        .json(status: 400, body: OpenAIRecordings.bytes("test_openai_o1_mini_system_role_developer.0.response.json"), headers: [:])
    }
}
