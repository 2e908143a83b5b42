import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// Load balancing through the real gateway against upstream doubles.
@Suite(.serialized) struct GatewayBalancingTests {
    typealias R = OpenAIRecordings

    @Test func leastInFlightSendsTheNextRequestToTheIdleDeployment() async throws {
        // The slow answer takes long enough that the quick request surely overlaps it even when
        // tests running in parallel delay this one by seconds (3 s was once not enough in a stress iteration).
        let a = try UpstreamDouble([.delayed(.seconds(10), R.text), R.text])
        let b = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"balance":"least_in_flight"}"#, firstByteSeconds: 20)
        async let slow = gw.send(ResilienceGateway.body(model: "light"))
        for _ in 0..<2000 {
            if a.requestCount > 0 { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let quick = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(quick.headers["x-skillgate-provider"] == "up-b", "up-a is busy with the slow request")
        let first = try await slow
        #expect(first.headers["x-skillgate-provider"] == "up-a")
        let idle = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(idle.headers["x-skillgate-provider"] == "up-a", "both idle again: the tier order decides")
        await gw.stop()
        await a.stop()
        await b.stop()
    }

    @Test func weightedBalancingSpreadsRequestsByWeight() async throws {
        let a = try UpstreamDouble([R.text])
        let b = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", a.baseURL), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"balance":"weighted","weights":{"up-a/m":3,"up-b/m":1}}"#)
        // 400 draws at p = 0.75: one standard deviation is 2.2 points, so the 11-point bound is 5σ (a false failure
        // about once in three million runs; 200 draws and 10 points, 3.3σ, failed once in a 20-run stress loop),
        // and ignoring or inverting the weights (50 % or 25 %) still fails every time.
        let n = 400
        for _ in 0..<n {
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
        }
        let share = Double(a.requestCount) / Double(n)
        #expect(a.requestCount + b.requestCount == n)
        #expect(abs(share - 0.75) < 0.11, "up-a answered \(share * 100)% of requests, expected 75%")
        await gw.stop()
        await a.stop()
        await b.stop()
    }
}
