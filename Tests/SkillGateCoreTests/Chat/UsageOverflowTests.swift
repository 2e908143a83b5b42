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
        #expect((Usage(inputTokens: 3) + Usage(inputTokens: 4)).inputTokens == 7)
    }

    /// A negative count from a provider (a broken or hostile upstream) would lower a budget's spend, a tokens-per-minute
    /// window and the ledger: every count is kept at 0 or more, however it is set.
    @Test func aNegativeCountIsKeptAsZero() {
        let made = Usage(inputTokens: -1_000_000_000, outputTokens: -5, cachedInputTokens: .min, cacheWriteTokens: -1, reasoningTokens: -2)
        #expect(made == Usage())
        var set = Usage(inputTokens: 10, outputTokens: 10, cachedInputTokens: 10, cacheWriteTokens: 10, reasoningTokens: 10)
        set.inputTokens = -1
        set.outputTokens = .min
        set.cachedInputTokens = -3
        set.cacheWriteTokens = -4
        set.reasoningTokens = -5
        #expect(set == Usage())
        #expect((Usage(inputTokens: .min) + Usage(inputTokens: 7)).inputTokens == 7)
        #expect(Usage(inputTokens: 3, outputTokens: 4).totalTokens == 7)
    }

    @Test func clampedArithmetic() {
        #expect(Int.max.clampedAdding(1) == .max)
        #expect(Int.min.clampedAdding(-1) == .min)
        #expect(Int.max.clampedSubtracting(-1) == .max)
        #expect(Int.min.clampedSubtracting(1) == .min)
        #expect(5.clampedSubtracting(7) == -2)
    }
}
