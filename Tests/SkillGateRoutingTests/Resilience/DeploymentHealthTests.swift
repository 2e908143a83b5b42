import Testing
import SkillGateTestSupport
import SkillGateRouting

@Suite struct DeploymentHealthTests {
    let clock = ManualClock()

    @Test func coolsDownAfterConsecutiveFailuresAndRecoversThroughOneProbe() {
        let health = DeploymentHealth(failureThreshold: 3, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m")
        health.recordFailure("a/m")
        #expect(health.admit("a/m") == .open, "two failures are below the threshold")
        health.recordFailure("a/m")
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(30)))
        clock.advance(by: .seconds(29))
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(health.admit("a/m") == .probe, "after the cooldown one request probes")
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(30)), "others keep skipping while the probe runs")
        health.recordSuccess("a/m")
        #expect(health.admit("a/m") == .open)
        #expect(health.snapshot("a/m").consecutiveFailures == 0)
    }

    @Test func aFailedProbeStartsANewCooldown() {
        let health = DeploymentHealth(failureThreshold: 1, cooldown: .seconds(10), clock: clock)
        health.recordFailure("a/m")
        clock.advance(by: .seconds(10))
        #expect(health.admit("a/m") == .probe)
        health.recordFailure("a/m")
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(10)))
    }

    @Test func aProbeThatNeverReportsIsForgottenAfterAnotherCooldown() {
        let health = DeploymentHealth(failureThreshold: 1, cooldown: .seconds(10), clock: clock)
        health.recordFailure("a/m")
        clock.advance(by: .seconds(10))
        #expect(health.admit("a/m") == .probe)
        clock.advance(by: .seconds(10))
        #expect(health.admit("a/m") == .probe)
    }

    @Test func aSuccessResetsTheFailureCount() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(10), clock: clock)
        health.recordFailure("a/m")
        health.recordSuccess("a/m")
        health.recordFailure("a/m")
        #expect(health.admit("a/m") == .open, "failures must be consecutive")
    }

    @Test func thresholdZeroNeverCoolsDown() {
        let health = DeploymentHealth(failureThreshold: 0, cooldown: .seconds(10), clock: clock)
        for _ in 0..<10 { health.recordFailure("a/m") }
        #expect(health.admit("a/m") == .open)
    }

    @Test func countsCallsInFlightPerDeployment() {
        let health = DeploymentHealth(failureThreshold: 3, cooldown: .seconds(10), clock: clock)
        health.beginCall("a/m")
        health.beginCall("a/m")
        health.beginCall("b/m")
        health.endCall("a/m")
        #expect(health.inFlight(["a/m", "b/m", "c/m"]) == [1, 1, 0])
        health.endCall("c/m")
        health.endCall("b/m")
        health.endCall("b/m")
        #expect(health.inFlight("b/m") == 0, "never negative")
    }
}
