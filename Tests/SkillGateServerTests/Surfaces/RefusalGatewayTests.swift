import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A model's refusal through the real gateway, for every client format × every upstream format that can express one
/// (decision 0114): a streamed answer shows the client what the whole answer shows — the finish signal, the answer
/// text and the refusal text — and the archive and the request log see the same answer either way.
///
/// Upstreams: OpenAI's recorded refusal stream (`test_parse_pydantic_model_refusal.sse`) and its whole form; Anthropic's
/// documented classifier refusal (`stop_reason: "refusal"` after partial text); Gemini's recorded blocked prompt
/// (`promptFeedback.blockReason: "SAFETY"`).
@Suite(.serialized) struct RefusalGatewayTests {
    enum Upstream: String, CaseIterable, Sendable {
        case openAI = "openai-chat", anthropic = "anthropic-messages", gemini

        static let fixtures = OpenAIRecordings.root.deletingLastPathComponent()
        static func bytes(_ path: String) -> [UInt8] { (try? Array(Data(contentsOf: fixtures.appendingPathComponent(path)))) ?? [] }

        /// The whole answer, then the streamed one, then whole ones again (the double answers its script in order).
        var replies: [UpstreamDouble.Reply] { answers + [answers[0]] }

        var answers: [UpstreamDouble.Reply] {
            switch self {
            case .openAI:
                [.json(status: 200, body: Self.bytes("openai/skillgate-refusal.json"), headers: [:]),
                 .sse(Self.bytes("openai/test_parse_pydantic_model_refusal.sse"))]
            case .anthropic:
                [.json(status: 200, body: Self.bytes("anthropic/skillgate-refusal.json"), headers: [:]),
                 .sse(Self.bytes("anthropic/skillgate-refusal.sse"))]
            case .gemini:
                [.json(status: 200, body: Array(Self.bytes("gemini/googleai-streaming-failure-prompt-blocked-safety.txt").dropFirst("data: ".count)), headers: [:]),
                 .sse(Self.bytes("gemini/googleai-streaming-failure-prompt-blocked-safety.txt"))]
            }
        }
    }

    enum Surface: String, CaseIterable, Sendable {
        case chat = "/v1/chat/completions", messages = "/v1/messages", responses = "/v1/responses"

        func body(stream: Bool) -> [UInt8] {
            switch self {
            case .chat: Array(#"{"model":"light","stream":\#(stream),"messages":[{"role":"user","content":"hi"}]}"#.utf8)
            case .messages: Array(#"{"model":"light","stream":\#(stream),"max_tokens":100,"messages":[{"role":"user","content":"hi"}]}"#.utf8)
            case .responses: Array(#"{"model":"light","stream":\#(stream),"input":"hi"}"#.utf8)
            }
        }
    }

    /// What a client sees of an answer.
    struct Seen: Equatable, CustomStringConvertible {
        /// Chat `finish_reason`, Messages `stop_reason`, Responses `status` (and `/` the incomplete reason).
        var finish: String
        var text = ""
        var refusal = ""
        var description: String { "finish \(finish), text \(text.debugDescription), refusal \(refusal.debugDescription)" }
    }

    static let openAIRefusal = "I'm sorry, I can't assist with that request."

    static func expected(_ upstream: Upstream, _ surface: Surface) -> Seen {
        switch (upstream, surface) {
        case (.openAI, .chat): Seen(finish: "stop", refusal: openAIRefusal)
        case (.openAI, .messages): Seen(finish: "refusal", text: openAIRefusal)
        case (.openAI, .responses): Seen(finish: "completed", refusal: openAIRefusal)
        case (.anthropic, .chat): Seen(finish: "content_filter", text: "Hello..")
        case (.anthropic, .messages): Seen(finish: "refusal", text: "Hello..")
        case (.anthropic, .responses): Seen(finish: "incomplete/content_filter", text: "Hello..")
        case (.gemini, .chat): Seen(finish: "content_filter")
        case (.gemini, .messages): Seen(finish: "refusal")
        case (.gemini, .responses): Seen(finish: "incomplete/content_filter")
        }
    }

    @Test(arguments: Upstream.allCases, Surface.allCases)
    func aStreamShowsTheRefusalAsTheWholeAnswerDoes(_ upstream: Upstream, _ surface: Surface) async throws {
        let double = try UpstreamDouble(upstream.replies)
        let gw = try ResilienceGateway(providers: [("up-a", double.baseURL)], tier: ["up-a/m"], wireFormats: ["up-a": upstream.rawValue])
        do {
            let whole = try await send(gw, surface, stream: false)
            #expect(whole.status == 200, "\(whole.text)")
            let streamed = try await send(gw, surface, stream: true)
            #expect(streamed.status == 200, "\(streamed.text)")
            let expected = Self.expected(upstream, surface)
            #expect(try Self.seenWhole(surface, whole.text) == expected, "whole: \(whole.text)")
            #expect(try Self.seenStreamed(surface, streamed.text) == expected, "streamed: \(streamed.text)")
            let lines = await gw.logLines(atLeast: 2)
            #expect(lines.count >= 2 && lines[0]["output_tokens"] as? Int == lines[1]["output_tokens"] as? Int, "\(lines)")
            if surface == .responses { try await expectTheArchiveHoldsTheSameAnswer(gw, double, whole: whole.text, streamed: streamed.text,
                                                                                     carrying: expected.text + expected.refusal) }
        } catch {
            Issue.record(error)
        }
        await gw.stop()
        await double.stop()
    }

    func send(_ gw: ResilienceGateway, _ surface: Surface, stream: Bool) async throws -> (status: Int, text: String) {
        try await send(gw, surface, body: surface.body(stream: stream))
    }

    func send(_ gw: ResilienceGateway, _ surface: Surface, body: [UInt8]) async throws -> (status: Int, text: String) {
        let request = HTTPRequest(method: "POST", url: "http://127.0.0.1:\(gw.server.boundPort)\(surface.rawValue)",
                                  headers: ["authorization": "Bearer \(gw.token)", "content-type": "application/json", "anthropic-version": "2023-06-01"],
                                  body: body,
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(30), total: .seconds(60)))
        let response = try await gw.http.stream(request)
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes += chunk }
        return (response.status, String(decoding: bytes, as: UTF8.self))
    }

    /// The archive (`store`) kept the same answer streamed as whole: a turn continuing each with `previous_response_id`
    /// sends the upstream the same conversation.
    func expectTheArchiveHoldsTheSameAnswer(_ gw: ResilienceGateway, _ double: UpstreamDouble, whole: String, streamed: String,
                                            carrying answer: String) async throws {
        let wholeId = try #require(try JSONValue.parse(whole)["id"]?.stringValue)
        let streamedId = try #require(try Self.dataEvents(streamed).last?["response"]?["id"]?.stringValue)
        for id in [wholeId, streamedId] {
            _ = try await send(gw, .responses, body: Array(#"{"model":"light","previous_response_id":"\#(id)","input":"Why?"}"#.utf8))
        }
        let sent = double.requests.suffix(2).map { (try? JSONValue.parse($0.body)) ?? .null }
        #expect(sent.count == 2 && sent[0] == sent[1] && sent[0] != .null, "\(sent)")
        let history = String(decoding: double.requests.last?.body ?? [], as: UTF8.self)
        #expect(answer.isEmpty || history.contains(answer), "the answer is in the history: \(history)")
    }

    // MARK: What a client sees

    /// The JSON of each `data:` line but `[DONE]`.
    static func dataEvents(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").filter { $0.hasPrefix("data: ") && $0 != "data: [DONE]" }.map { try JSONValue.parse(String($0.dropFirst(6))) }
    }

    static func seenWhole(_ surface: Surface, _ text: String) throws -> Seen {
        let body = try JSONValue.parse(text)
        switch surface {
        case .chat:
            let choice = body["choices"]?.arrayValue?.first
            return Seen(finish: choice?["finish_reason"]?.stringValue ?? "?", text: choice?["message"]?["content"]?.stringValue ?? "",
                        refusal: choice?["message"]?["refusal"]?.stringValue ?? "")
        case .messages:
            let text = (body["content"]?.arrayValue ?? []).filter { $0["type"] == "text" }.compactMap { $0["text"]?.stringValue }.joined()
            return Seen(finish: body["stop_reason"]?.stringValue ?? "?", text: text)
        case .responses:
            return responseSeen(body)
        }
    }

    static func responseSeen(_ response: JSONValue) -> Seen {
        var seen = Seen(finish: response["status"]?.stringValue ?? "?")
        if let reason = response["incomplete_details"]?["reason"]?.stringValue { seen.finish += "/" + reason }
        for item in response["output"]?.arrayValue ?? [] {
            for part in item["content"]?.arrayValue ?? [] {
                if part["type"] == "output_text" { seen.text += part["text"]?.stringValue ?? "" }
                if part["type"] == "refusal" { seen.refusal += part["refusal"]?.stringValue ?? "" }
            }
        }
        return seen
    }

    static func seenStreamed(_ surface: Surface, _ text: String) throws -> Seen {
        let events = try dataEvents(text)
        switch surface {
        case .chat:
            var seen = Seen(finish: "?")
            for choice in events.compactMap({ $0["choices"]?.arrayValue?.first }) {
                seen.text += choice["delta"]?["content"]?.stringValue ?? ""
                seen.refusal += choice["delta"]?["refusal"]?.stringValue ?? ""
                if let finish = choice["finish_reason"]?.stringValue { seen.finish = finish }
            }
            return seen
        case .messages:
            var seen = Seen(finish: "?")
            for event in events {
                if event["delta"]?["type"] == "text_delta" { seen.text += event["delta"]?["text"]?.stringValue ?? "" }
                if event["type"] == "message_delta" { seen.finish = event["delta"]?["stop_reason"]?.stringValue ?? "?" }
            }
            return seen
        case .responses:
            var seen = Seen(finish: "?")
            for event in events {
                if event["type"] == "response.output_text.delta" { seen.text += event["delta"]?.stringValue ?? "" }
                if event["type"] == "response.refusal.delta" { seen.refusal += event["delta"]?.stringValue ?? "" }
            }
            let last = events.last?["response"] ?? .null
            let final = responseSeen(last)
            seen.finish = final.finish
            // The deltas and the final object agree.
            #expect(final.text == seen.text && final.refusal == seen.refusal, "final \(final), deltas \(seen)")
            return seen
        }
    }
}
