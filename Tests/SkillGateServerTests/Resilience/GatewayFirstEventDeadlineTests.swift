import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A hung deployment leaves its fallback time whatever it sends before its answer (decision 0156): its first event is
/// due within `first_byte_seconds` (capped at the route's deadline) from when the call was made, so a head and then
/// silence, keep-alive comments or pings, or a wait for a pooled connection end the attempt there and the next
/// deployment answers. Before, a head (or any byte) satisfied the first-byte timeout, the idle timer was reset by every
/// comment, and a queued call's clock started only once it was sent: the route's deadline ran out and the client got a
/// 504 without its fallback being tried.
@Suite(.serialized) struct GatewayFirstEventDeadlineTests {
    typealias Surface = GatewayFailedAnswerTests.Surface

    /// What the hung deployment does before it would answer.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let wireFormat: String
        let surface: Surface
        let hung: UpstreamDouble.Reply
        let good: UpstreamDouble.Reply
        let phrase: String
        var testDescription: String { name }
    }

    /// `200 text/event-stream`, then nothing for 20 s. (Made on each use, not kept in a global: LeakSanitizer does not
    /// see a global indirect enum's box, whose pointer carries the case in its spare bits, as reachable.)
    static var silence: UpstreamDouble.Reply { .sseWrites([[], []], pause: .seconds(20)) }

    static var cases: [Case] {
        let comments = [[UInt8]](repeating: Array(": PROCESSING\n\n".utf8), count: 100)
        let anthropicGood = UpstreamDouble.Reply.sse(GatewayStreamHealthTests.anthropicBytes("test_anthropic_model_thinking_part_stream.0.response.sse"))
        let messageStart = Array(#"event: message_start\#ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":1}}}\#n\#n"#.utf8)
        let pings = [messageStart] + [[UInt8]](repeating: Array("event: ping\ndata: {\"type\": \"ping\"}\n\n".utf8), count: 100)
        return [
            Case(name: "openai-chat, a head and then silence", wireFormat: "openai-chat", surface: .chat,
                 hung: Self.silence, good: OpenAIRecordings.streamedText, phrase: " London"),
            Case(name: "openai-chat, keep-alive comments", wireFormat: "openai-chat", surface: .chat,
                 hung: .sseWrites(comments, pause: .milliseconds(200)), good: OpenAIRecordings.streamedText, phrase: " London"),
            Case(name: "anthropic-messages, message_start and pings", wireFormat: "anthropic-messages", surface: .messages,
                 hung: .sseWrites(pings, pause: .milliseconds(200)), good: anthropicGood, phrase: "Here are"),
        ]
    }

    /// A gateway whose light tier is `up-a` (hung) then `up-b` (good): the first event is due within 1 s, the route's
    /// deadline is 8 s, and the idle timer (10 s) would outlast the deadline, as the defaults' 120 s and 120 s do.
    static func gateway(a: UpstreamDouble, b: UpstreamDouble, wireFormat: String, limits: String = "{}") throws -> ResilienceGateway {
        try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                              resilience: #"{"deadline_seconds":8,"max_attempts":2}"#, firstByteSeconds: 1, idleSeconds: 10,
                              limits: limits, wireFormats: ["up-a": wireFormat, "up-b": wireFormat])
    }

    @Test(arguments: cases)
    func aHungDeploymentLeavesItsFallbackTime(_ c: Case) async throws {
        let hung = try UpstreamDouble([c.hung, c.hung])
        let good = try UpstreamDouble([c.good])
        let gw = try Self.gateway(a: hung, b: good, wireFormat: c.wireFormat)
        let started = ContinuousClock.now
        let reply = try await GatewayFailedAnswerTests.send(gw, c.surface, stream: true)
        let took = ContinuousClock.now - started
        await gw.stop()
        await hung.stop()
        await good.stop()
        // The fallback's answer: it was tried within the route's deadline (no attempt starts after it). Not a bound on
        // `took`, which a loaded parallel run stretches; without the watch, a 504 at the idle timeout (10 s).
        #expect(reply.status == 200 && reply.text.contains(c.phrase), "the fallback's answer after \(took): \(reply.status) \(reply.text.prefix(400))")
    }

    /// Calls queued for a pooled connection (one per host here) count against the same deadline: while the hung
    /// deployment holds its one connection, every other call waiting for it ends at its first event's deadline and the
    /// fallback answers it, within the route's deadline. Only the calls the hung deployment received are charged an
    /// estimate of their input (decision 0130): a call that never left its queue cost nothing (decision 0162; before,
    /// every one of the four was charged).
    @Test func callsQueuedForAConnectionLeaveTheirFallbackTime() async throws {
        let run = try await Self.queuedCalls(4, stream: true, hung: Self.silence, good: OpenAIRecordings.streamedText)
        #expect(run.replies.allSatisfy { $0.0 == 200 && $0.1.contains(" London") }, "after \(run.took): \(run.replies.map { "\($0.0) \($0.1.prefix(200))" })")
        #expect(run.sent < 4 && run.estimated == run.sent, "the hung deployment received \(run.sent) of the 4 calls; \(run.estimated) were charged as sent")
    }

    /// A whole (non-streamed) call waits for the head that comes with its answer, and its wait for a pooled connection
    /// counts against the same time (decision 0162): with the hung deployment holding its connections and answering
    /// nothing, twenty whole calls at once all get the fallback's answer. Before, a queued call's first-byte clock
    /// started only when it was sent, so the calls went through the hung deployment one first-byte timeout (1 s) after
    /// another, and those queued past the route's deadline (8 s) got a 504 without the fallback being tried. Only the
    /// calls the hung deployment received are charged an estimate of their input.
    @Test func wholeCallsQueuedForAConnectionLeaveTheirFallbackTime() async throws {
        let run = try await Self.queuedCalls(20, stream: false, hung: .delayed(.seconds(20), OpenAIRecordings.text), good: OpenAIRecordings.text)
        let fallbackAnswers = run.replies.filter { $0.0 == 200 && $0.1.contains("chat.completion") }.count
        #expect(fallbackAnswers == 20, "after \(run.took): \(run.replies.map { "\($0.0) \($0.1.prefix(200))" })")
        #expect(run.sent < 20 && run.estimated == run.sent, "the hung deployment received \(run.sent) of the 20 calls; \(run.estimated) were charged as sent")
    }

    /// `count` calls at once through a gateway with one connection per host and loop, whose first deployment answers
    /// each call with `hung` and whose fallback with `good`: the replies, how long they took, how many calls the hung
    /// deployment received, and how many log lines were charged an estimate as sent (decision 0130).
    static func queuedCalls(_ count: Int, stream: Bool, hung: UpstreamDouble.Reply, good: UpstreamDouble.Reply) async throws
        -> (replies: [(Int, String)], took: Duration, sent: Int, estimated: Int) {
        let hungDouble = try UpstreamDouble([UpstreamDouble.Reply](repeating: hung, count: count))
        let goodDouble = try UpstreamDouble([UpstreamDouble.Reply](repeating: good, count: count))
        let gw = try Self.gateway(a: hungDouble, b: goodDouble, wireFormat: "openai-chat", limits: #"{"upstream_connections_per_host":1}"#)
        let started = ContinuousClock.now
        let replies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for _ in 0..<count { group.addTask { try await GatewayFailedAnswerTests.send(gw, .chat, stream: stream) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let took = ContinuousClock.now - started
        let lines = await gw.logLines(atLeast: count)
        let sent = hungDouble.requestCount
        await gw.stop()
        await hungDouble.stop()
        await goodDouble.stop()
        return (replies, took, sent, lines.filter { ($0["usage_estimated"] as? Bool) == true }.count)
    }
}
