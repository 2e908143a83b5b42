import Foundation
import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Guard of decision 0134: every recorded Anthropic stream gives, event for event, what the translator gave before its
/// `start` was held back to the first content block.
@Suite struct AnthropicStreamEventsGoldenTests {
    /// The recorded streams whose events the translator gave before this change, one event a line, in
    /// `Tests/Fixtures/anthropic/events-golden/` (written by the translator at the decision's base commit).
    static let recorded = AnthropicStreamFixtureTests.cases.map(\.file)

    /// Guard: every recorded stream gives the same events as before, whole and byte by byte.
    @Test(arguments: recorded)
    func everyRecordedStreamGivesTheEventsItGaveBefore(_ file: String) throws {
        let body = try AnthropicTestSupport.streamBody(file)
        let golden = try Fixtures.text("anthropic/events-golden/\(file).events.txt")
        let whole = try AnthropicTestSupport.events(body).map { "\($0)" }.joined(separator: "\n") + "\n"
        #expect(whole == golden)
        let bytes = try StreamFeeding.byteByByte(AnthropicTestSupport.translator(), body).map { "\($0)" }.joined(separator: "\n") + "\n"
        #expect(bytes == golden)
    }
}
