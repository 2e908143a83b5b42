import Testing
@testable import SkillGateServer

@Suite struct WriteAllowanceTests {
    @Test func atMostTheLimitStartsInAnyWindowThenRoomWhenTheOldestLeavesIt() {
        var allowance = WriteAllowance(limit: 3, window: .seconds(60))
        let t0 = ContinuousClock.now
        #expect(allowance.take(at: t0) == nil)
        #expect(allowance.take(at: t0 + .seconds(10)) == nil)
        #expect(allowance.take(at: t0 + .seconds(20)) == nil)
        #expect(allowance.take(at: t0 + .seconds(30)) == t0 + .seconds(60), "full: room when the first start is a window old")
        #expect(allowance.take(at: t0 + .seconds(59)) == t0 + .seconds(60), "a refused take takes nothing")
        #expect(allowance.take(at: t0 + .seconds(60)) == nil, "the first start left the window")
        #expect(allowance.take(at: t0 + .seconds(61)) == t0 + .seconds(70), "now the second start is the oldest")
    }

    @Test func aLimitBelowOneIsOne() {
        var allowance = WriteAllowance(limit: 0, window: .seconds(1))
        let t0 = ContinuousClock.now
        #expect(allowance.take(at: t0) == nil)
        #expect(allowance.take(at: t0) != nil)
    }
}
