import Testing
import SkillGateCore

/// Token counts come from upstream bytes: sums of them hold at the bounds instead of trapping
/// (fuzzing, docs/decisions/0025-fuzzing-and-sanitizers.md).
@Suite struct UsageOverflowTests {
    @Test func sumsAndTotalsHoldAtTheBounds() {
        let huge = Usage(inputTokens: .max, outputTokens: .max, cachedInputTokens: .max, cacheWriteTokens: .max, reasoningTokens: .max)
        let sum = huge + Usage(inputTokens: 1, outputTokens: 1, cachedInputTokens: 1, cacheWriteTokens: 1, reasoningTokens: 1)
        #expect(sum == huge)
        #expect(huge.totalTokens == .max)
        #expect((Usage(inputTokens: .min) + Usage(inputTokens: -1)).inputTokens == .min)
        #expect((Usage(inputTokens: 3) + Usage(inputTokens: 4)).inputTokens == 7)
    }

    @Test func clampedArithmetic() {
        #expect(Int.max.clampedAdding(1) == .max)
        #expect(Int.min.clampedAdding(-1) == .min)
        #expect(Int.max.clampedSubtracting(-1) == .max)
        #expect(Int.min.clampedSubtracting(1) == .min)
        #expect(5.clampedSubtracting(7) == -2)
    }
}
