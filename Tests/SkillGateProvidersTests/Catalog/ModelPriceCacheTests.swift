import Testing
import SkillGateCore
@testable import SkillGateProviders

/// Cache reads and writes priced apart from the rest of the input.
@Suite struct ModelPriceCacheTests {
    @Test func cacheReadsAndWritesArePricedAtTheirOwnPrices() {
        let price = ModelPrice(inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.1, cacheWritePerMTok: 2.5)
        // 12 fresh + 2048 read + 1000 written = 3060 input tokens.
        let usage = Usage(inputTokens: 3060, outputTokens: 29, cachedInputTokens: 2048, cacheWriteTokens: 1000)
        let expected: Double = (24.0 + 204.8 + 2500.0 + 290.0) / 1_000_000
        #expect(abs(price.cost(of: usage) - expected) < 1e-12)
    }

    @Test func withoutCachePricesTheInputPriceApplies() {
        let price = ModelPrice(inputPerMTok: 2, outputPerMTok: 10)
        let usage = Usage(inputTokens: 3060, outputTokens: 29, cachedInputTokens: 2048, cacheWriteTokens: 1000)
        let expected: Double = (6120.0 + 290.0) / 1_000_000
        #expect(abs(price.cost(of: usage) - expected) < 1e-12)
    }

    @Test func countersLargerThanTheInputAreClamped() {
        let price = ModelPrice(inputPerMTok: 2, outputPerMTok: 10, cachedInputPerMTok: 0.1, cacheWritePerMTok: 2.5)
        let usage = Usage(inputTokens: 100, outputTokens: 0, cachedInputTokens: 80, cacheWriteTokens: 80)
        let expected: Double = (8.0 + 50.0) / 1_000_000
        #expect(abs(price.cost(of: usage) - expected) < 1e-12, "reads first, then at most the rest as writes")
    }
}
