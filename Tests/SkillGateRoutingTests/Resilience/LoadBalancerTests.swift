import Testing
import SkillGateRouting
import SkillGateTestSupport

@Suite struct LoadBalancerTests {
    @Test func orderedKeepsThePlanOrder() {
        let b = LoadBalancer(strategy: .ordered)
        #expect(b.order(["a", "b", "c"], inFlight: [], unitRandom: { 0.5 }) == [0, 1, 2])
    }

    @Test func weightedPicksFirstInProportionToTheWeights() {
        let b = LoadBalancer(strategy: .weighted, weights: ["a": 3, "b": 1])
        var rng = SeededUnitRandom(seed: 42)
        var firsts = [0, 0]
        let n = 8000
        for _ in 0..<n {
            let order = b.order(["a", "b"], inFlight: [], unitRandom: { rng.next() })
            #expect(Set(order) == [0, 1], "every deployment stays in the order as a fallback")
            firsts[order[0]] += 1
        }
        let share = Double(firsts[0]) / Double(n)
        #expect(abs(share - 0.75) < 0.03, "a went first \(share * 100)% of the time, expected 75%")
    }

    @Test func unlistedDeploymentsWeighOne() {
        let b = LoadBalancer(strategy: .weighted)
        var rng = SeededUnitRandom(seed: 1)
        var firsts = [0, 0, 0]
        for _ in 0..<6000 { firsts[b.order(["a", "b", "c"], inFlight: [], unitRandom: { rng.next() })[0]] += 1 }
        for count in firsts { #expect(abs(Double(count) / 6000 - 1.0 / 3) < 0.03, "\(firsts)") }
    }

    @Test func leastInFlightPicksTheIdleOne() {
        let b = LoadBalancer(strategy: .leastInFlight)
        #expect(b.order(["a", "b", "c"], inFlight: [2, 0, 1], unitRandom: { 0 }) == [1, 2, 0])
        #expect(b.order(["a", "b"], inFlight: [1, 1], unitRandom: { 0 }) == [0, 1], "ties keep the plan order")
    }
}
