import Testing
import SkillGateCore
@testable import SkillGateServer

/// What the answer bound counts (decision 0155): text, and what each event and each tool call costs to hold, so that
/// many tiny events cannot take the gateway's memory past the bound's spirit while their text stays under it.
@Suite struct AnswerSizeLimitTests {
    static let target = ResponseCacheEntriesTests.target

    /// Sixteen million one-byte argument deltas were 16 MB of text and 1.6 GB held: now the limit stops them after about
    /// half a million.
    @Test func manyTinyEventsReachTheLimitLongBeforeTheirTextWould() {
        var size = AnswerSizeLimit()
        var events = 0
        do {
            while events < 16_000_000 {
                try size.count(.toolCallArgumentsDelta(ordinal: 0, fragment: "x"), from: Self.target)
                events += 1
            }
            Issue.record("sixteen million events passed the limit")
        } catch {
            #expect(error.kind == .upstreamProtocol && error.message.contains("32 MiB"))
        }
        #expect(events < 600_000, "\(events) one-byte events held before the limit")
    }

    /// A tool call costs its state besides its text: some sixty thousand calls, not three million.
    @Test func toolCallsCountTheirState() {
        var size = AnswerSizeLimit()
        var calls = 0
        do {
            while calls < 3_000_000 {
                try size.count(.toolCallStart(ordinal: calls, id: "c\(calls)", name: "f"), from: Self.target)
                try size.count(.toolCallEnd(ordinal: calls), from: Self.target)
                calls += 1
            }
            Issue.record("three million calls passed the limit")
        } catch {
            #expect(error.kind == .upstreamProtocol)
        }
        #expect(calls < 70_000, "\(calls) calls held before the limit")
    }

    /// A long real answer is far below it: 200,000 tokens of text and reasoning, one event each.
    @Test func aLongModelAnswerIsFarBelowTheLimit() throws {
        var size = AnswerSizeLimit()
        for _ in 0..<200_000 { try size.count(.textDelta(" word"), from: Self.target) }
        #expect(size.bytes < AnswerSizeLimit.defaultMaxBytes / 2)
    }
}
