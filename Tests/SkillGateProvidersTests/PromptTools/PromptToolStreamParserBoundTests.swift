import Testing
import SkillGateCore
import SkillGateTestSupport
@testable import SkillGateProviders

/// A call's tag opened and never closed is held at most as long as an answer's bound (decision 0155): an upstream that
/// opened `<tool_call>` and then streamed 600 MB took the gateway to 2.4 GB before the tag closed.
@Suite struct PromptToolStreamParserBoundTests {
    /// The parser is fed 33 MiB or more: most of a second of CPU in a debug build, on a thread of its own
    /// (`offThePool`) rather than one of the shared task pool's.
    @Test func aCallHeldOpenPastTheBoundIsRefused() async throws {
        let (fed, outcome) = try await offThePool { () -> (Int, Result<Void, any Error>) in
            var parser = PromptToolStreamParser(offeredTools: ["f"], provider: "up")
            let piece = String(repeating: "x", count: 1 << 20)
            var fed = 0
            let outcome = Result {
                _ = try parser.feed(#"<tool_call>{"name":"f","arguments":{"x":""#)
                while fed < 100 {
                    _ = try parser.feed(piece)
                    fed += 1
                }
            }
            return (fed, outcome)
        }
        do {
            try outcome.get()
            Issue.record("100 MiB held in an open tag")
        } catch let error as GatewayError {
            #expect(error.kind == .upstreamProtocol && error.message.contains("32 MiB"), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(fed <= 33, "\(fed) MiB held")
    }
}
