import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Counts at the bounds of `Int` (an upstream may send any integer) price and encode without trapping
/// (fuzzing, docs/decisions/0025-fuzzing-and-sanitizers.md).
@Suite struct ModelPriceOverflowTests {
    @Test func costOfExtremeCounts() {
        let price = ModelPrice(inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.5)
        #expect(price.cost(of: Usage(inputTokens: .max, cachedInputTokens: -5)).isFinite)
        #expect(price.cost(of: Usage(inputTokens: .min, outputTokens: .max, cachedInputTokens: .max)).isFinite)
    }

    @Test func anthropicUsageOfExtremeCounts() {
        let wire = AnthropicMessagesFormat.wireUsage(Usage(inputTokens: .max, cachedInputTokens: -1, cacheWriteTokens: .min))
        #expect(wire["input_tokens"]?.intValue == Usage.maximumCount)  // held there since decision 0096
        #expect(AnthropicMessagesFormat.wireUsage(Usage(inputTokens: .min, cachedInputTokens: 1))["input_tokens"]?.intValue == 0)
    }
}
