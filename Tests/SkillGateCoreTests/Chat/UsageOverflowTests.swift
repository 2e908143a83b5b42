import Testing
import SkillGateCore

/// Token counts come from upstream bytes: sums of them hold at the bounds instead of trapping
/// (fuzzing, docs/decisions/0025-fuzzing-and-sanitizers.md).
@Suite struct UsageOverflowTests {
    @Test func sumsAndTotalsHoldAtTheBounds() {
        let huge = Usage(inputTokens: .max, outputTokens: .max, cachedInputTokens: .max, cacheWriteTokens: .max, reasoningTokens: .max)
        let sum = huge + Usage(inputTokens: 1, outputTokens: 1, cachedInputTokens: 1, cacheWriteTokens: 1, reasoningTokens: 1)
        #expect(sum == huge)
        #expect(huge.totalTokens == 2 * Usage.maximumCount)
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

    /// A count of 4e18 tokens from an upstream, priced or added to a tokens-per-minute window, trapped (decision 0096):
    /// every count is held at `maximumCount`, however it is set.
    @Test func aCountOverTheMaximumIsHeldAtIt() {
        let made = Usage(inputTokens: 4_611_686_018_427_387_903, outputTokens: .max, cachedInputTokens: Usage.maximumCount + 1,
                         cacheWriteTokens: Usage.maximumCount, reasoningTokens: 1 << 40)
        #expect([made.inputTokens, made.outputTokens, made.cachedInputTokens, made.cacheWriteTokens, made.reasoningTokens]
                == Array(repeating: Usage.maximumCount, count: 5))
        var set = Usage()
        set.inputTokens = .max
        set.outputTokens = Usage.maximumCount - 1
        #expect(set.inputTokens == Usage.maximumCount && set.outputTokens == Usage.maximumCount - 1)
        #expect((made + made).inputTokens == Usage.maximumCount)
    }

    /// A number an upstream or an operator wrote becomes an integer without trapping: rounded, held at the bounds, NaN 0.
    @Test(arguments: [(1e300, Int64.max), (-1e300, Int64.min), (.infinity, Int64.max), (-.infinity, Int64.min), (.nan, 0),
                      (9_223_372_036_854_775_807.0, Int64.max), (-9_223_372_036_854_775_808.0, Int64.min),
                      (9_223_372_036_854_774_784.0, 9_223_372_036_854_774_784), (1.5, 2), (-2.5, -3), (0.4, 0)] as [(Double, Int64)])
    func saturatingConversion(_ value: Double, _ expected: Int64) {
        #expect(Int64(saturating: value) == expected)
        #expect(Int(saturating: value) == Int(expected))
        #expect(Int32(saturating: value) == Int32(clamping: expected))
    }

    @Test func clampedArithmetic() {
        #expect(Int64.max.clampedAdding(1) == .max)
        #expect(Int64.min.clampedSubtracting(1) == .min)
        #expect(Int.max.clampedAdding(1) == .max)
        #expect(Int.min.clampedAdding(-1) == .min)
        #expect(Int.max.clampedSubtracting(-1) == .max)
        #expect(Int.min.clampedSubtracting(1) == .min)
        #expect(5.clampedSubtracting(7) == -2)
    }
}
