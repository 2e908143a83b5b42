import SkillGateCore
import SkillGateHTTP
@testable import SkillGateProviders

/// Shared pieces of the Anthropic Messages tests.
enum AnthropicTestSupport {
    static let secret = "sk-ant-test-secret-0123456789"

    static let deployment = Deployment(
        providerId: "anthropic", model: "claude-test", baseURL: "https://api.anthropic.com/v1/", auth: .xApiKey,
        apiKey: secret, extraHeaders: ["anthropic-version": "2023-06-01"])

    static let format = AnthropicMessagesFormat()

    static func translator() -> AnthropicMessagesStreamTranslator {
        format.makeStreamTranslator(deployment: deployment)
    }

    /// The raw SSE body of a streaming fixture; vercel/ai `*.chunks.txt` are rebuilt with named events.
    static func streamBody(_ file: String) throws -> [UInt8] {
        let path = "anthropic/" + file
        return file.hasSuffix(".chunks.txt") ? try Fixtures.sseFromChunks(path, namedEvents: true) : try Fixtures.bytes(path)
    }

    /// The events of a body fed whole.
    static func events(_ body: [UInt8]) throws -> [ChatStreamEvent] {
        try StreamFeeding.whole(translator(), body)
    }

    /// The error thrown while translating `body`, or `nil` when none was thrown.
    static func streamError(_ body: [UInt8]) -> GatewayError? {
        do {
            _ = try StreamFeeding.whole(translator(), body)
            return nil
        } catch let error as GatewayError {
            return error
        } catch {
            return GatewayError.internalError("unexpected error type \(error)")
        }
    }

    /// The wire body `makeRequest` produces for `request`, parsed.
    static func wire(_ request: ChatRequest, stream: Bool = false) throws -> JSONValue {
        try JSONValue.parse(try format.makeRequest(request, deployment: deployment, stream: stream).body)
    }

    /// Parses an inbound body given as JSON text.
    static func inbound(_ json: String) throws -> ChatRequest {
        try AnthropicMessagesFormat.decodeInboundRequest(Array(json.utf8))
    }

    /// The `GatewayError` an inbound body is rejected with, or `nil` when it is accepted.
    static func inboundError(_ json: String) -> GatewayError? {
        do {
            _ = try inbound(json)
            return nil
        } catch {
            return error as? GatewayError
        }
    }

    /// `value` with object members sorted by key at every level, for comparing with the recorded
    /// pydantic-ai bodies (re-serialised with alphabetical keys upstream).
    static func sortedKeys(_ value: JSONValue?) -> JSONValue? {
        guard let value else { return nil }
        switch value {
        case .object(let o):
            return .object(JSONObject(o.members.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: sortedKeys($0.value)!) }))
        case .array(let a):
            return .array(a.map { sortedKeys($0)! })
        default:
            return value
        }
    }
}
