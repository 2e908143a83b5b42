import Foundation
import SkillGateCore
import SkillGateRouting

/// Measures the per-request bookkeeping of retries and fallbacks: ordering a plan (ordered,
/// weighted, least in flight), the sticky tool-call lookup, admitting and recording one attempt
/// on the shared health table, and the first retry-schedule step; with a 3-entry dictionary
/// lookup + insert as the reference in the same run.
func runResilienceBench() async throws {
    let names = ["openai/gpt-6.1-terra", "anthropic/claude-light", "gemini/gemini-flash"]
    let health = DeploymentHealth(failureThreshold: 3, cooldown: .seconds(30))
    let affinity = ToolCallAffinity(capacity: 10_000)
    for i in 0..<10_000 { affinity.remember("call_\(i)", deployment: names[i % 3]) }
    let followUp = ChatRequest(model: "light", messages: [
        Message(role: .user, text: "weather?"),
        Message(role: .assistant, content: [.toolCall(ToolCall(id: "call_9999", name: "get_weather", arguments: "{}"))]),
        Message(role: .tool, content: [.toolResult(ToolResult(callId: "call_9999", text: "sunny"))]),
    ])
    let fresh = ChatRequest(model: "light", messages: [Message(role: .user, text: "hello")])
    let ordered = LoadBalancer(strategy: .ordered)
    let weighted = LoadBalancer(strategy: .weighted, weights: [names[0]: 3])
    let least = LoadBalancer(strategy: .leastInFlight)
    let random: () -> Double = UnitRandom().next
    var sink = 0

    var dict: [String: Int] = [:]
    let reference = measureMicros(iterations: 200_000) {
        dict[names[sink % 3]] = sink
        sink &+= dict[names[(sink + 1) % 3]] ?? 0
    }
    let orderedUs = measureMicros(iterations: 200_000) { sink &+= ordered.order(names, inFlight: [], unitRandom: random)[0] }
    let weightedUs = measureMicros(iterations: 200_000) { sink &+= weighted.order(names, inFlight: [], unitRandom: random)[0] }
    let leastUs = measureMicros(iterations: 200_000) { sink &+= least.order(names, inFlight: health.inFlight(names), unitRandom: random)[0] }
    let stickyHit = measureMicros(iterations: 200_000) { sink &+= affinity.issuer(of: followUp) == nil ? 0 : 1 }
    let stickyNone = measureMicros(iterations: 200_000) { sink &+= affinity.issuer(of: fresh) == nil ? 0 : 1 }
    let attempt = measureMicros(iterations: 200_000) {
        if health.admit(names[0]) == .open { health.beginCall(names[0]) }
        health.recordSuccess(names[0])
        health.endCall(names[0])
    }
    let policy = RetryPolicy()
    let schedule = measureMicros(iterations: 200_000) {
        var s = RetrySchedule(order: [0, 1, 2], policy: policy, start: .now)
        if case .attempt(let i, _) = s.next(now: .now, admit: { _ in nil }) { sink &+= i }
    }
    report("dictionary lookup + insert (reference)", reference, unit: "µs")
    report("order plan: ordered (3 deployments)", orderedUs, unit: "µs")
    report("order plan: weighted (3 deployments)", weightedUs, unit: "µs")
    report("order plan: least in flight (3 deployments)", leastUs, unit: "µs")
    report("sticky lookup, follow-up (10k ids)", stickyHit, unit: "µs")
    report("sticky lookup, no tool results", stickyNone, unit: "µs")
    report("admit + begin + success + end (health)", attempt, unit: "µs")
    report("retry schedule: first step", schedule, unit: "µs")
    report("total per request (sum)", orderedUs + stickyHit + attempt + schedule, unit: "µs", target: "target < 5 µs")
    if sink == Int.min { print(sink) }
}
