import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
@testable import SkillGateServer

/// A call that timed out waiting for a free pooled connection (`limits.upstream_connections_per_host`) never reached its
/// deployment: the fallback answers it, and the deployment's health is not told (decision 0171). Before, the wait
/// counted as the deployment's failure, so a deployment busy with long answers, or a model whose provider's connections
/// were held by another model's calls, was cooled down while it answered well.
@Suite struct GatewayConnectionWaitHealthTests {
    /// An OpenAI stream whose first two events come at once and the rest `pause` later: it holds its connection that long.
    static func slowStream(pause: Duration) -> UpstreamDouble.Reply {
        let events = String(decoding: OpenAIRecordings.bytes("test_run_stream_sync_streams_real_model.1.response.sse"), as: UTF8.self)
            .components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { $0 + "\n\n" }
        return .sseWrites([Array(events.prefix(2).joined().utf8), Array(events.dropFirst(2).joined().utf8)], pause: pause)
    }

    /// One connection per host and event loop (decision 0035); a cooldown starts after a single failure. Four streams
    /// at once: `up-a` answers each with a long answer (its rest 8 s after its first events), so the calls that reach
    /// it hold its connections, and the others, queued behind them, end at their first byte's time (1 s) and `up-b`
    /// answers them. While the long answers still stream, `up-a` is neither cooled down nor counted as failing, and
    /// the long answers end whole. Both HTTP clients: the own HTTP/1.1 client's queue and libcurl's.
    @Test(arguments: ["own", "libcurl"])
    func callsQueuedForAConnectionDoNotCoolTheirDeploymentDown(_ engine: String) async throws {
        let calls = 4
        let busy = try UpstreamDouble([UpstreamDouble.Reply](repeating: Self.slowStream(pause: .seconds(8)), count: calls))
        let fallback = try UpstreamDouble([UpstreamDouble.Reply](repeating: OpenAIRecordings.streamedText, count: calls))
        let gw = try ResilienceGateway(providers: [("up-a", busy.baseURL), ("up-b", fallback.baseURL)], tier: ["up-a/m", "up-b/m"],
                                       resilience: #"{"deadline_seconds":20,"max_attempts":2,"cooldown":{"after_failures":1,"seconds":600}}"#,
                                       firstByteSeconds: 1, idleSeconds: 30, limits: #"{"upstream_connections_per_host":1}"#,
                                       upstreamHTTP1: engine)
        let admin = try gw.server.services.tokens.create(name: "console", admin: true).token
        let started = ContinuousClock.now
        var replies: [(status: Int, text: String)] = []
        var cooldowns: [[String: Any]]?
        var readAfter: Duration = .zero
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for _ in 0..<calls { group.addTask { try await gw.stream(ResilienceGateway.body(model: "light", stream: true)) } }
            for try await reply in group {
                replies.append(reply)
                // Once every call that did not reach up-a has its answer, and while up-a's long answers still stream.
                if cooldowns == nil, replies.count == calls - busy.requestCount {
                    readAfter = ContinuousClock.now - started
                    let listed = try await gw.http.send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(gw.server.boundPort)/admin/api/cooldowns",
                                                                    headers: ["authorization": "Bearer \(admin)"]))
                    cooldowns = (try JSONSerialization.jsonObject(with: Data(listed.body)) as? [String: Any])?["data"] as? [[String: Any]] ?? []
                }
            }
        }
        let lines = await gw.logLines(atLeast: calls)
        let reached = busy.requestCount, fellBack = fallback.requestCount
        await gw.stop()
        await busy.stop()
        await fallback.stop()

        #expect(replies.allSatisfy { $0.status == 200 && $0.text.contains("[DONE]") }, "\(replies.map { "\($0.status) \($0.text.suffix(200))" })")
        #expect(reached <= 2 && reached + fellBack == calls, "each loop's one connection took one call, the others queued: \(reached) reached up-a, \(fellBack) up-b")
        let queuedLines = lines.filter { ($0["attempts"] as? [String])?.count == 2 }
        #expect(queuedLines.count == fellBack && queuedLines.allSatisfy { ($0["attempts"] as? [String])?.first?.contains("504 upstream_timeout") == true }, "\(lines)")
        // The long answers' rest comes 8 s after their first events, and their success would end any cooldown.
        #expect(readAfter < .seconds(8), "the cooldowns were read while the long answers still streamed, not \(readAfter) after they began")
        let row = cooldowns?.first { $0["model"] as? String == "up-a/m" }
        #expect(cooldowns != nil && (row == nil || (row?["cooling_down"] as? Bool == false && row?["consecutive_failures"] as? Int == 0)),
                "up-a was told the queue's timeouts as its failures: \(cooldowns ?? [])")
    }
}
