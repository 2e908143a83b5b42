import Foundation
import SkillGateCore
import SkillGateProviders
import SkillGateRouting

/// router: feature extraction + tier decision for `auto` with the learned router (default), on
/// request.json and on a long prompt; the marker scorer of earlier releases alongside. Reference
/// in the same run: the naive way — `lowercased()` of the task text and `contains()`
/// of every marker (which also matches "prove" inside "improve"). Thread CPU time, with wall
/// clock alongside (the build machine is shared).
func runRouterBench() async throws {
    let request = try OpenAIChatFormat.decodeInboundRequest(try benchRequestBody()).request
    let paragraph = """
    Our deploy to the Zurich region failed twice with timeouts talking to the object store; the runbook says to \
    check the retry budget first. 我们在苏黎世区域的部署两次失败，请分析日志并给出原因。 The on-call engineer restarted \
    the workers, which helped for an hour. Then the queue grew again and the dashboards showed p99 latency above two seconds. \n
    """
    let long = String(repeating: paragraph, count: 64) + "Please analyse this step by step and prove the fix is correct."
    var longRequest = request
    longRequest.messages.append(Message(role: .user, text: long))
    let scorer = TierScorer()
    let learned = LearnedTierScorer(model: DefaultRouterModel.model)
    let naiveMarkers = MarkerLexicon.markers.map(\.text)

    func line(_ name: String, iterations: Int, target: String = "", _ body: () -> Void) {
        let cpu = measureCPUMicros(iterations: iterations, body)
        let wall = measureMicros(iterations: iterations, body)
        report(name, cpu, unit: "µs cpu", target: "(wall \(String(format: "%.2f", wall)) µs) \(target)")
    }
    func naive(_ r: ChatRequest) -> Int {
        let text = (r.messages.last(where: { $0.role == .user })?.text ?? "").lowercased()
        return naiveMarkers.reduce(0) { $0 + (text.contains($1) ? 1 : 0) }
    }

    for (label, r) in [("request.json", request), ("long prompt \(long.utf8.count / 1024) KiB", longRequest)] {
        print("  \(label): \(learned.decide(r).headerValue())")
        line("\(label): learned router: features + n-grams + decision", iterations: label == "request.json" ? 20000 : 300, target: "target ≤ 50 µs (request.json)") {
            _ = learned.decide(r)
        }
        line("\(label):   marker scorer: features + decision", iterations: label == "request.json" ? 20000 : 300) {
            _ = scorer.decide(TaskFeatures(request: r))
        }
        line("\(label):   + header value", iterations: label == "request.json" ? 20000 : 300) {
            _ = scorer.decide(TaskFeatures(request: r)).headerValue()
        }
        line("\(label):   ref: lowercased() copy alone", iterations: label == "request.json" ? 20000 : 300) {
            _ = (r.messages.last(where: { $0.role == .user })?.text ?? "").lowercased()
        }
        line("\(label):   ref: lowercased() + contains() × \(naiveMarkers.count)", iterations: label == "request.json" ? 500 : 5) {
            _ = naive(r)
        }
    }
}

