import Foundation
import Testing
import SkillGateHTTP
import SkillGateTestSupport
@testable import SkillGateServer

/// Streams that fail after their first event, through the real gateway against upstream doubles speaking the real wire
/// formats: they count against the deployment's health, cool it down, and show in the log and the metrics as failed
/// mid-stream, not `ok` (decision 0107).
@Suite(.serialized) struct GatewayStreamHealthTests {
    typealias R = OpenAIRecordings

    /// The recorded stream's `message_start`, its thinking block's start, a `ping` and its first thinking delta, then the
    /// `event: error` with `overloaded_error` Anthropic sends after HTTP 200 when it is overloaded mid-answer. The
    /// error comes after the first content: an error right after `message_start` is no longer mid-stream, it falls back
    /// (decision 0134, `GatewayAnthropicHeldStartTests`).
    static var anthropicOverloadedMidStream: [UInt8] {
        let recorded = UpstreamDouble.events(anthropicBytes("test_anthropic_model_thinking_part_stream.0.response.sse"))
        return recorded[0..<4].joined() + Array("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n".utf8)
    }

    static func anthropicBytes(_ name: String) -> [UInt8] {
        (try? Array(Data(contentsOf: R.root.deletingLastPathComponent().appendingPathComponent("anthropic/" + name)))) ?? []
    }

    @Test func anthropicErrorEventsAfterTheFirstContentCoolTheDeploymentDown() async throws {
        let a = try UpstreamDouble([.sse(Self.anthropicOverloadedMidStream)])
        let b = try UpstreamDouble([R.streamedText])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":3,"seconds":30}}"#,
                                       wireFormats: ["up-a": "anthropic-messages"])
        for n in 1...3 {
            let (status, headers, text) = try await gw.streamWithHeaders(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200 && headers["x-skillgate-provider"] == "up-a")
            #expect(text.contains("\"error\""), "the stream ends with an error event: \(text.suffix(300))")
            let attempts = await gw.logLines(atLeast: n).last?["attempts"] as? [String] ?? []
            #expect(attempts == ["up-a/m: 200, then 503 upstream_overloaded mid-stream"], "\(attempts)")
        }
        #expect(a.requestCount == 3)
        let (status, headers, text) = try await gw.streamWithHeaders(ResilienceGateway.body(model: "light", stream: true))
        #expect(status == 200 && headers["x-skillgate-provider"] == "up-b" && text.hasSuffix("data: [DONE]\n\n"))
        #expect(a.requestCount == 3, "up-a is cooling down after 3 failed streams: not called")
        let attempts = await gw.logLines(atLeast: 4).last?["attempts"] as? [String] ?? []
        #expect(attempts.first?.hasPrefix("up-a/m: skipped (cooling down") == true && attempts.last == "up-b/m: 200 ok", "\(attempts)")

        let metrics = String(decoding: try await gw.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"skillgate_upstream_attempts_total{model="up-a/m",outcome="stream_failed"} 3"#), "\(metrics)")
        #expect(!metrics.contains(#"skillgate_upstream_attempts_total{model="up-a/m",outcome="ok"}"#), "no failed stream counts as ok")
        #expect(metrics.contains(#"skillgate_upstream_attempts_total{model="up-b/m",outcome="ok"} 1"#))
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    /// OpenAI: the role chunk, then the connection is cut.
    @Test func anOpenAIStreamCutAfterItsRoleChunkCoolsTheDeploymentDown() async throws {
        let roleChunk = UpstreamDouble.events(R.bytes("test_run_stream_sync_streams_real_model.1.response.sse"))[0]
        let a = try UpstreamDouble([.dropAfter(prefix: roleChunk, contentType: "text/event-stream")])
        let b = try UpstreamDouble([R.streamedText])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":1,"seconds":30}}"#)
        let (status, headers, text) = try await gw.streamWithHeaders(ResilienceGateway.body(model: "light", stream: true))
        #expect(status == 200 && headers["x-skillgate-provider"] == "up-a" && text.contains("\"error\""), "\(text.suffix(300))")
        let first = await gw.logLines(atLeast: 1).last?["attempts"] as? [String] ?? []
        #expect(first.count == 1 && first[0].hasPrefix("up-a/m: 200, then ") && first[0].hasSuffix(" mid-stream"), "\(first)")
        let next = try await gw.streamWithHeaders(ResilienceGateway.body(model: "light", stream: true))
        #expect(next.status == 200 && next.headers["x-skillgate-provider"] == "up-b" && next.text.hasSuffix("data: [DONE]\n\n"))
        let attempts = await gw.logLines(atLeast: 2).last?["attempts"] as? [String] ?? []
        #expect(attempts.first?.hasPrefix("up-a/m: skipped (cooling down") == true, "up-a cooled down after its stream broke: \(attempts)")
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    /// A stream that completes is the success that resets the deployment's failure count, as an answer does.
    @Test func aCompletedStreamResetsTheFailures() async throws {
        let failing = UpstreamDouble.Reply.sse(Self.anthropicOverloadedMidStream)
        let whole = UpstreamDouble.Reply.sse(Self.anthropicBytes("test_anthropic_model_thinking_part_stream.0.response.sse"))
        let a = try UpstreamDouble([failing, failing, whole, failing, failing])
        let b = try UpstreamDouble([R.streamedText])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"cooldown":{"after_failures":3,"seconds":30}}"#, wireFormats: ["up-a": "anthropic-messages"])
        for _ in 0..<2 { _ = try await gw.stream(ResilienceGateway.body(model: "light", stream: true)) }
        let ok = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
        #expect(ok.status == 200 && ok.text.hasSuffix("data: [DONE]\n\n") && !ok.text.contains("\"error\""), "\(ok.text.suffix(300))")
        for _ in 0..<2 { _ = try await gw.stream(ResilienceGateway.body(model: "light", stream: true)) }
        let sixth = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
        #expect(a.requestCount == 6 && b.requestCount == 0,
                "the completed stream reset the count: 2 failures on either side of it never reach 3 in a row")
        #expect(sixth.status == 200)
        let attempts = await gw.logLines(atLeast: 6).map { $0["attempts"] as? [String] ?? [] }
        #expect(attempts.allSatisfy { $0.count == 1 && !$0[0].contains("skipped") }, "\(attempts)")
        await gw.stop()
        await a.stop()
        await b.stop()
    }
}
