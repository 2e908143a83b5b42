import Testing
import SkillGateCore
@testable import SkillGateProviders

/// A provider answer with negative token counts (a broken or hostile compatible server) must not lower what a token
/// has spent: the counts read are kept at 0 (`Usage`).
@Suite struct NegativeUsageTests {
    @Test func anOpenAIAnswersNegativeCountsAreReadAsZero() throws {
        let body = #"{"id":"c","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":-1000000000,"completion_tokens":-5,"prompt_tokens_details":{"cached_tokens":-3},"completion_tokens_details":{"reasoning_tokens":-2}}}"#
        let response = try OpenAIChatFormat.parseCompletion(Array(body.utf8), provider: "p")
        #expect(response.usage == Usage())
    }

    @Test func anAnthropicAnswersNegativeCountsAreReadAsZero() throws {
        let body = #"{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","usage":{"input_tokens":-1000000000,"output_tokens":-5,"cache_read_input_tokens":-7,"cache_creation_input_tokens":-9}}"#
        let response = try AnthropicMessagesFormat.parseMessageBody(Array(body.utf8), provider: "p")
        #expect(response.usage == Usage())
    }
}
