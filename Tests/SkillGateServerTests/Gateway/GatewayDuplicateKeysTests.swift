import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
@testable import SkillGateServer

/// A body a client sends that names a key twice in any object (the top level, a message, a tool's schema kept as text)
/// is refused with a 400 in the surface's own error shape, naming the key and where it came again (decision 0093): a
/// proxy in front that reads the other occurrence cannot be shown a body the gateway reads otherwise.
@Suite(.serialized) struct GatewayDuplicateKeysTests {
    typealias Harness = GatewayLoopbackTests.Harness

    /// What the error must say for `body`, whose last `"key"` is the repeated one.
    static func expectedMessage(_ body: String, key: String) -> String {
        let bytes = Array(body.utf8), quoted = Array("\"\(key)\"".utf8)
        let starts = (0...(bytes.count - quoted.count)).filter { Array(bytes[$0..<$0 + quoted.count]) == quoted }
        return "invalid JSON at byte \(starts.last!): the key \"\(key)\" appears twice in one object (first at byte \(starts[starts.count - 2])); send each key once"
    }

    static let user = #"{"role":"user","content":"What time is it?"}"#

    /// Posts `body` to `path` of a fresh gateway; expects a 400 and returns its JSON body.
    static func refused(_ path: String, _ body: String) async throws -> JSONValue {
        let h = try Harness()
        let r = try await h.post(path, body)
        await h.stop()
        #expect(r.status == 400, "\(String(decoding: r.body, as: UTF8.self))")
        return try JSONValue.parse(r.body)
    }

    /// Per surface: the path, then bodies with a repeated key and the key.
    static let chatBodies: [(path: String, body: String, key: String)] = [
        ("/v1/chat/completions", #"{"model":"light","messages":[\#(user)],"model":"strong"}"#, "model"),
        ("/v1/chat/completions", #"{"model":"light","messages":[{"role":"user","content":"hi","role":"system"}]}"#, "role"),
        ("/v1/chat/completions", #"{"model":"light","messages":[\#(user)],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{},"properties":{"q":{}}}}}]}"#, "properties"),
        ("/v1/agent", #"{"model":"light","messages":[\#(user)],"model":"strong"}"#, "model"),
        ("/v1/agent", #"{"messages":[{"role":"user","content":"hi","content":"again"}]}"#, "content"),
        ("/v1/agent", #"{"messages":[\#(user)],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","required":[],"required":["q"]}}}]}"#, "required"),
        ("/v1/responses", #"{"model":"light","input":"hi","model":"strong"}"#, "model"),
        ("/v1/responses", #"{"model":"light","input":[{"role":"user","content":"hi","role":"assistant"}]}"#, "role"),
        ("/v1/responses", #"{"model":"light","input":"hi","tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":{"q":{"type":"string","type":"integer"}}}}]}"#, "type"),
    ]

    /// The OpenAI-shaped surfaces (Chat Completions, the agent surface before its stream, Responses): 400,
    /// `invalid_request_error`, the message naming the key and where, nothing answered by a model.
    @Test(arguments: chatBodies)
    func openAIShapedSurfacesRefuseARepeatedKey(path: String, body: String, key: String) async throws {
        let error = try await Self.refused(path, body)["error"]
        #expect(error?["type"] == "invalid_request_error")
        let message = error?["message"]?.stringValue ?? ""
        #expect(message.contains(Self.expectedMessage(body, key: key)), "\(message)")
        #expect(message.hasPrefix("the request body is not valid JSON ("))
    }

    static let anthropicBodies: [(body: String, key: String)] = [
        (#"{"model":"light","max_tokens":16,"messages":[\#(user)],"model":"strong"}"#, "model"),
        (#"{"model":"light","max_tokens":16,"messages":[{"role":"user","content":[{"type":"text","text":"hi","text":"again"}]}]}"#, "text"),
        (#"{"model":"light","max_tokens":16,"messages":[\#(user)],"tools":[{"name":"f","input_schema":{"type":"object","properties":{"q":{"description":"a","description":"b"}}}}]}"#, "description"),
    ]

    /// `/v1/messages`: 400 in the Anthropic shape.
    @Test(arguments: anthropicBodies)
    func theAnthropicSurfaceRefusesARepeatedKeyInItsShape(body: String, key: String) async throws {
        let answer = try await Self.refused("/v1/messages", body)
        #expect(answer["type"] == "error")
        #expect(answer["error"]?["type"] == "invalid_request_error")
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(Self.expectedMessage(body, key: key)), "\(message)")
    }

    static let mcpBodies: [(body: String, key: String)] = [
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}"#, "method"),
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"clock","arguments":{},"name":"ticket"}}"#, "name"),
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"multiply","arguments":{"a":2,"b":3,"a":5}}}"#, "a"),
    ]

    /// `/mcp`: a JSON-RPC parse error (-32700, HTTP 400) with a null id: the message's own id cannot be trusted.
    @Test(arguments: mcpBodies)
    func theMCPEndpointRefusesARepeatedKeyAsAParseError(body: String, key: String) async throws {
        let answer = try await Self.refused("/mcp", body)
        #expect(answer["jsonrpc"] == "2.0" && answer["id"] == .null)
        #expect(answer["error"]?["code"]?.intValue == -32700)
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(Self.expectedMessage(body, key: key)), "\(message)")
    }

    static let adminBodies: [(method: String, path: String, body: String, key: String)] = [
        ("POST", "/admin/api/tokens", #"{"name":"ci-bot","scenarios":["chat"],"name":"other-bot"}"#, "name"),
        ("POST", "/admin/api/tokens", #"{"name":"ci-bot","limits":{"requests_per_minute":1,"requests_per_minute":1000}}"#, "requests_per_minute"),
        ("PUT", "/admin/api/tokens/test-app/limits", #"{"requests_per_minute":5,"requests_per_minute":50}"#, "requests_per_minute"),
    ]

    /// The admin API: a 400 in its (OpenAI) error shape, and nothing done.
    @Test(arguments: adminBodies)
    func theAdminAPIRefusesARepeatedKeyAndDoesNothing(method: String, path: String, body: String, key: String) async throws {
        let h = try Harness()
        let admin = try h.server.services.tokens.create(name: "ops", admin: true, chat: false).token
        let r = try await h.http.send(HTTPRequest(method: method, url: h.base + path,
                                                  headers: ["content-type": "application/json", "authorization": "Bearer \(admin)"],
                                                  body: Array(body.utf8)))
        let tokens = try h.server.services.tokens.list()
        await h.stop()
        #expect(r.status == 400, "\(String(decoding: r.body, as: UTF8.self))")
        let error = try JSONValue.parse(r.body)["error"]
        #expect(error?["type"] == "invalid_request_error")
        let message = error?["message"]?.stringValue ?? ""
        #expect(message.contains(Self.expectedMessage(body, key: key)), "\(message)")
        #expect(tokens.map(\.name).sorted() == ["ops", "test-app"], "no token was created")
        #expect(tokens.allSatisfy { $0.limits == TokenLimits() }, "no limits were changed")
    }
}
