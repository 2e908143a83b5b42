import Testing
import SkillGateCore
import SkillGateRouting
@testable import SkillGateServer

/// The invisible-call rule on a relayed stream: a call to a tool the model was not shown ends the stream, whether the
/// shown names are scanned (a few) or looked up in a set (many).
@Suite struct UpstreamStreamTests {
    private static func stream(calling name: String, shown: Int) -> UpstreamStream {
        var stream = UpstreamStream(replaying: [.toolCallStart(ordinal: 0, id: "c1", name: name), .finish(.toolCalls)],
                                    target: ResilienceFixtures.target("light-up"), affinity: ToolCallAffinity(capacity: 10))
        stream.offered = UpstreamStream.offering((0..<shown).map { "tool_\($0)" }, scenario: "s")
        return stream
    }

    @Test(arguments: [3, 40])
    func aShownToolPassesAndAnotherEndsTheStream(shown: Int) async throws {
        #expect((UpstreamStream.offering((0..<shown).map { "tool_\($0)" }, scenario: "s").lookup != nil) == (shown > 16))
        var passing = Self.stream(calling: "tool_2", shown: shown)
        #expect(try await passing.next() == .toolCallStart(ordinal: 0, id: "c1", name: "tool_2"))
        var failing = Self.stream(calling: "delete_files", shown: shown)
        do {
            _ = try await failing.next()
            Issue.record("a call to a tool that was not shown was handed on")
        } catch let error as GatewayError {
            #expect(error.status == 502)
        }
    }
}
