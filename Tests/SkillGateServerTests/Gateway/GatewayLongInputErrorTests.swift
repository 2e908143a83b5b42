import Foundation
import Testing
import SkillGateCore
@testable import SkillGateServer

/// An error that quotes what the caller sent stays small in the answer and in the log (decision 0082).
@Suite struct GatewayLongInputErrorTests {
    typealias Harness = GatewayLoopbackTests.Harness

    @Test func aHugeModelNameMakesASmallErrorAndASmallLogLine() async throws {
        let h = try Harness()
        let model = String(repeating: "m", count: 30_000)
        let r = try await h.post("/v1/chat/completions", #"{"model":"\#(model)","messages":[{"role":"user","content":"hi"}]}"#)
        let log = await h.log()
        await h.stop()
        #expect(r.status == 404)
        #expect(r.body.count < 2_500, "the error answer is \(r.body.count) bytes")
        let message = try #require(try JSONValue.parse(r.body)["error"]?["message"]?.stringValue)
        #expect(message.hasPrefix("model \"mmm") && message.contains(" … "))
        let line = try #require(log.split(separator: "\n").last { $0.contains(#""status":404"#) })
        #expect(line.utf8.count < 3_000, "the log line is \(line.utf8.count) bytes")
    }

    /// A request body for `path` declaring one tool named `name`.
    static func body(_ path: String, toolNamed name: String) -> String {
        let schema = #"{"type":"object","properties":{}}"#
        switch path {
        case "/v1/messages":
            return #"{"model":"light","max_tokens":64,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"\#(name)","input_schema":\#(schema)}]}"#
        case "/v1/responses":
            return #"{"model":"light","input":"hi","store":false,"tools":[{"type":"function","name":"\#(name)","parameters":\#(schema)}]}"#
        default:
            return #"{"model":"light","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"\#(name)","parameters":\#(schema)}}]}"#
        }
    }

    /// A tool's name is at most 256 bytes on every surface (decision 0083): a longer one is a 400 naming the field,
    /// before it reaches the skill caches, the headers or the log; one of 64 characters is served.
    @Test(arguments: ["/v1/chat/completions", "/v1/messages", "/v1/responses"])
    func aToolNameNoProviderAcceptsIsRefused(path: String) async throws {
        let h = try Harness()
        let refused = try await h.post(path, Self.body(path, toolNamed: String(repeating: "t", count: 5_000)))
        let served = try await h.post(path, Self.body(path, toolNamed: String(repeating: "t", count: 64)))
        await h.stop()
        #expect(refused.status == 400)
        let text = String(decoding: refused.body, as: UTF8.self)
        #expect(text.contains("5000 bytes long") && text.contains("name"), "\(text.prefix(300))")
        #expect(refused.body.count < 1_000)
        #expect(served.status == 200, "\(String(decoding: served.body.prefix(300), as: UTF8.self))")
    }

    /// A NUL in a tool's name went into `x-skillgate-skills` and made curl and Node refuse the whole answer; a
    /// semicolon faked the header's fields. Refused on every surface, naming the field.
    @Test(arguments: ["/v1/chat/completions", "/v1/messages", "/v1/responses"], [#"a\u0000b"#, "evil;visible=calculator"])
    func aToolNameThatWouldBreakTheSkillsHeaderIsRefused(path: String, name: String) async throws {
        let h = try Harness()
        let refused = try await h.post(path, Self.body(path, toolNamed: name))
        await h.stop()
        #expect(refused.status == 400)
        let text = String(decoding: refused.body, as: UTF8.self)
        #expect(text.contains("rename the tool") && text.contains("name"), "\(text.prefix(300))")
    }

    /// A request's path may be 64 KiB long, token or not: its log line keeps the path's start and end
    /// (`RequestLogEntry.targetWindow`), so one request no longer writes ~64 KB to the log.
    @Test(arguments: [true, false])
    func aHugePathMakesASmallLogLine(withToken: Bool) async throws {
        let h = try Harness()
        let path = "/v1/" + String(repeating: "q", count: 60_000) + "/end"
        let r = try await h.post(path, "{}", auth: withToken)
        let log = await h.log()
        await h.stop()
        #expect(r.status == 404, "an unknown route, with or without a token")
        // The path (~1 KB) and the 404's message, which quotes it within its own bound (~1.5 KB, decision 0082).
        let line = try #require(log.split(separator: "\n").last { $0.contains("qqqq") }, "\(log.suffix(500))")
        #expect(line.utf8.count < 3_000, "the log line is \(line.utf8.count) bytes")
        let logged = try #require(try JSONValue.parse(String(line))["path"]?.stringValue)
        #expect(logged.hasPrefix("/v1/qqq") && logged.hasSuffix("qqq/end") && logged.contains(" … "))
    }
}
