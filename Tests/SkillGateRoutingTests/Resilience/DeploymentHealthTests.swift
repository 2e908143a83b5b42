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

    // MARK: Failures attributed to callers (decision 0115)

    @Test func oneCallersFailuresCoolTheDeploymentForThatCallerOnly() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m", caller: "t1")
        health.recordFailure("a/m", caller: "t1")
        #expect(health.admit("a/m", caller: "t1") == .coolingDown(remaining: .seconds(30)))
        #expect(health.admit("a/m", caller: "t2") == .open, "another caller is not held back")
        #expect(health.admit("a/m") == .open, "nor a call with no caller")
        #expect(health.remainingCooldown("a/m", caller: "t1") == .seconds(30) && health.remainingCooldown("a/m", caller: "t2") == nil)
        #expect(health.snapshot("a/m").cooledUntil == nil && health.snapshot("a/m").cooledCallers == 1)

        health.recordSuccess("a/m", caller: "t2")
        #expect(health.admit("a/m", caller: "t1") == .coolingDown(remaining: .seconds(30)), "another caller's success leaves it")
        clock.advance(by: .seconds(30))
        #expect(health.admit("a/m", caller: "t1") == .probe, "after its cooldown the caller probes")
        #expect(health.admit("a/m", caller: "t1") == .coolingDown(remaining: .seconds(30)), "one probe at a time")
        health.recordFailure("a/m", caller: "t1")
        #expect(health.admit("a/m", caller: "t1") == .coolingDown(remaining: .seconds(30)), "a failed probe cools it again")
        #expect(health.admit("a/m", caller: "t2") == .open)
        clock.advance(by: .seconds(30))
        #expect(health.admit("a/m", caller: "t1") == .probe)
        health.recordSuccess("a/m", caller: "t1")
        #expect(health.admit("a/m", caller: "t1") == .open && health.snapshot("a/m").cooledCallers == 0)
    }

    @Test func failuresOfTwoCallersCoolTheDeploymentForAll() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m", caller: "t1")
        health.recordFailure("a/m", caller: "t2")
        for caller in ["t1", "t2", "t3", nil] as [String?] {
            #expect(health.admit("a/m", caller: caller) == .coolingDown(remaining: .seconds(30)))
        }
        #expect(health.snapshot("a/m").cooledUntil != nil)
    }

    @Test func failuresWithoutACallerAreTheDeployments() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m", caller: "t1")
        health.recordFailure("a/m")
        #expect(health.admit("a/m", caller: "t2") == .coolingDown(remaining: .seconds(30)))
    }

    @Test func aCallerCooledAloneIsForgottenAfterItsCooldownWhenOthersSucceed() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m", caller: "t1")
        health.recordFailure("a/m", caller: "t1")
        clock.advance(by: .seconds(31))
        health.recordSuccess("a/m", caller: "t2")
        #expect(health.snapshot("a/m").cooledCallers == 0)
        #expect(health.admit("a/m", caller: "t1") == .open, "its next failures start a run of their own")
        health.recordFailure("a/m", caller: "t1")
        #expect(health.admit("a/m", caller: "t1") == .open)
    }

    @Test func tooManyCallersCooledAloneCoolTheDeploymentForAll() {
        let health = DeploymentHealth(failureThreshold: 1, cooldown: .seconds(30), clock: clock)
        for n in 0..<DeploymentHealth.maxCooledCallers {
            health.recordFailure("a/m", caller: "t\(n)")
            health.recordSuccess("a/m", caller: "healthy")  // ends the run; each caller's cooldown stays
        }
        #expect(health.snapshot("a/m").cooledCallers == DeploymentHealth.maxCooledCallers && health.admit("a/m", caller: "new") == .open)
        health.recordFailure("a/m", caller: "one-more")
        #expect(health.admit("a/m", caller: "new") == .coolingDown(remaining: .seconds(30)))
    }

    @Test func aCooldownForARefusedKeyEndsWhenTheKeyChanges() {
        let health = DeploymentHealth(failureThreshold: 1, cooldown: .seconds(30), clock: clock)
        #expect(health.refusedKeyVersion("a/m") == nil)
        health.recordFailure("a/m", keyVersion: 7)
        #expect(health.refusedKeyVersion("a/m") == 7)
        #expect(!health.forgiveRenewedKey("a/m", currentKeyVersion: 7), "the same secret stays cooled")
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(30)))
        #expect(health.forgiveRenewedKey("a/m", currentKeyVersion: 8))
        #expect(health.admit("a/m") == .open && health.snapshot("a/m").consecutiveFailures == 0)
        #expect(health.refusedKeyVersion("a/m") == nil)
    }

    @Test func aCooldownEndedByAnotherFailureIsNotTheKeys() {
        let health = DeploymentHealth(failureThreshold: 2, cooldown: .seconds(30), clock: clock)
        health.recordFailure("a/m", keyVersion: 7)
        health.recordFailure("a/m")  // a 5xx after the refusal: the cooldown is not only the key's
        #expect(health.refusedKeyVersion("a/m") == nil)
        #expect(!health.forgiveRenewedKey("a/m", currentKeyVersion: 8))
        #expect(health.admit("a/m") == .coolingDown(remaining: .seconds(30)))
    }
}
