import Foundation
import Testing
import SkillGateHTTP
@testable import SkillGateServer

/// A stream still running when a shutdown's grace period (`limits.shutdown_grace_seconds`) ends is cut off by the
/// gateway, and says so (decision 0137): its client reads an error event naming the shutdown and what to do, and the log
/// line carries that error, not 499 `client_gone`. Before, the connection was closed mid-stream, the client saw a
/// transfer cut short, and the log said the client had left.
@Suite struct GatewayShutdownCutOffTests {
    @Test func aStreamRunningWhenTheGraceEndsIsToldWhyAndNotLoggedAsAClientThatLeft() async throws {
        guard case .sse(let bytes) = OpenAIRecordings.streamedText else { Issue.record("the recording is not an event stream"); return }
        let upstream = try UpstreamDouble([.ssePaused(bytes, after: 2, pause: .seconds(300))])
        // The model stays quiet longer than the upstream idle and total timeouts, which are long: the shutdown runs in a task, and
        // a loaded parallel run kept tasks waiting for a pool thread for ~25 s (the fifty-eighth session's stress run,
        // where the idle timeout of 25 s then ended the stream first). The stream must end by the cut-off, however
        // late that comes, not by that timeout.
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], idleSeconds: 150, totalSeconds: 180,
                                            limits: #"{"shutdown_grace_seconds":0.3}"#)
        let request = HTTPRequest(url: gateway.url, headers: ["authorization": "Bearer \(gateway.token)", "content-type": "application/json"],
                                  body: ResilienceGateway.body(model: "light", stream: true),
                                  timeouts: HTTPTimeouts(connect: .seconds(5), firstByte: .seconds(30), idle: .seconds(200), total: .seconds(250)))
        let response = try await gateway.http.stream(request)
        var text = ""
        var shutdown: Task<Void, Never>?
        do {
            for try await chunk in response.body {
                text += String(decoding: chunk, as: UTF8.self)
                // The model went quiet after its first events: the gateway shuts down under the stream.
                if shutdown == nil { shutdown = Task { await gateway.server.shutdown() } }
            }
        } catch {
            text += "<cut: \(error)>"
        }
        await shutdown?.value
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(response.status == 200)
        #expect(text.contains(#"data: {"error""#) && text.contains("the gateway is shutting down"), "\(text.suffix(400))")
        #expect(!text.contains("<cut"), "the stream was cut: \(text.suffix(300))")
        #expect(line?["status"] as? Int != 499 && line?["outcome"] as? String == "timeout", "\(String(describing: line))")
        #expect((line?["error"] as? String)?.contains("shutdown_grace_seconds") == true, "\(String(describing: line))")
    }

    /// The same for a whole answer: a 503 in the surface's shape with `Retry-After`, where the connection used to close
    /// without an answer.
    @Test func aWholeAnswerRunningWhenTheGraceEndsIsA503() async throws {
        let upstream = try UpstreamDouble([.delayed(.seconds(30), OpenAIRecordings.text)])
        let gateway = try ResilienceGateway(providers: [("up-a", upstream.baseURL)], tier: ["up-a/m"], firstByteSeconds: 60,
                                            limits: #"{"shutdown_grace_seconds":0.3}"#)
        let answer = Task { try await gateway.send(ResilienceGateway.body(model: "light")) }
        while upstream.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        await gateway.server.shutdown()
        let response = try? await answer.value
        let line = await gateway.logLines().first { ($0["path"] as? String) == "/v1/chat/completions" }
        await gateway.stop()
        await upstream.stop()
        #expect(response?.status == 503, "no answer: the connection was closed under the request")
        #expect(response?.headers["retry-after"] == "1")
        let text = String(decoding: response?.body ?? [], as: UTF8.self)
        #expect(text.contains("the gateway is shutting down"), "\(text)")
        #expect(line?["status"] as? Int == 503 && line?["outcome"] as? String == "timeout", "\(String(describing: line))")
    }
}
