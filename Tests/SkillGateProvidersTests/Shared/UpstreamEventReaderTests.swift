import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import Synchronization
import Testing

/// `HTTPLLMClient.stream` reads its call on demand, in the task that asks for the events (`UpstreamEventReader`,
/// decision 0036): the request goes out when the first event is asked for, events arrive in order and end with the
/// body, and a refused call is the provider's error.
@Suite struct UpstreamEventReaderTests {
    /// An OpenAI-compatible double: streams two text deltas and a finish in the wire format of the recordings, or
    /// answers every request with `failStatus`.
    final class StreamingUpstream: HTTPHandler {
        let failStatus: Int?
        /// Writes every event and the end in one write (a short answer arriving whole), or holds the events after the
        /// first until `release()` (60 s at most: only a safety net for a failing test. With 10 s, a parallel run on a
        /// loaded 2-core machine once stalled the client past it, and the held event arrived before it was asked for).
        let together: Bool
        let holdAfterFirst: Bool
        private let count = Mutex(0)
        private let released = Mutex(false)
        var requests: Int { count.locked { $0 } }

        init(failStatus: Int? = nil, together: Bool = false, holdAfterFirst: Bool = false) {
            self.failStatus = failStatus
            self.together = together
            self.holdAfterFirst = holdAfterFirst
        }

        func release() { released.locked { $0 = true } }

        func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
            count.locked { $0 += 1 }
            if let failStatus {
                let error = #"{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}"#
                return responder.respond(status: failStatus, headers: ["content-type": "application/json"], body: Array(error.utf8))
            }
            func chunk(_ delta: String, _ finish: String = "null") -> [UInt8] {
                Array((#"data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finish)}]}"# + "\n\n").utf8)
            }
            do {
                try await responder.startStream(status: 200, headers: ["content-type": "text/event-stream"])
                if together {
                    try await responder.write(chunk(#"{"role":"assistant","content":"Hello"}"#) + chunk(#"{"content":", world"}"#)
                                              + chunk("{}", #""stop""#) + Array("data: [DONE]\n\n".utf8))
                    return responder.end()
                }
                try await responder.write(chunk(#"{"role":"assistant","content":"Hello"}"#))
                if holdAfterFirst {
                    responder.sendQueuedNow()
                    let deadline = ContinuousClock.now + .seconds(60)
                    while !released.locked({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
                }
                try await responder.write(chunk(#"{"content":", world"}"#))
                try await responder.write(chunk("{}", #""stop""#))
                try await responder.write(Array("data: [DONE]\n\n".utf8))
                responder.end()
            } catch {}
        }
    }

    private static func withUpstream(_ upstream: StreamingUpstream,
                                     _ body: (HTTPLLMClient<OpenAIChatFormat>) async throws -> Void) async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0), handler: upstream)
        try server.start()
        let deployment = Deployment(providerId: "double", model: "m", baseURL: "http://127.0.0.1:\(server.boundPort)/v1",
                                    auth: .bearer, apiKey: "sk-test")
        let http = HTTPClient()
        do {
            try await body(HTTPLLMClient(format: OpenAIChatFormat(), deployment: deployment, http: http))
        } catch {
            _ = await server.shutdown(deadline: .seconds(5))
            throw error
        }
        _ = await server.shutdown(deadline: .seconds(5))
    }

    private static let question = ChatRequest(model: "m", messages: [Message(role: .user, text: "Say hello")])

    @Test func theRequestGoesOutWhenTheFirstEventIsAskedFor() async throws {
        let upstream = StreamingUpstream()
        try await Self.withUpstream(upstream) { client in
            let events = client.stream(Self.question)
            try await Task.sleep(for: .milliseconds(100))
            #expect(upstream.requests == 0, "the stream sent its request before anyone read it")
            var text = ""
            var finish: FinishReason?
            for try await event in events {
                if case .textDelta(let delta) = event { text += delta }
                if case .finish(let reason) = event { finish = reason }
            }
            #expect(text == "Hello, world")
            #expect(finish == .stop)
            #expect(upstream.requests == 1)
        }
    }

    /// Events that arrived with the first one are ready without waiting, up to the stream's end (decision 0063).
    @Test func eventsThatArrivedTogetherAreReadyWithoutWaiting() async throws {
        try await Self.withUpstream(StreamingUpstream(together: true)) { client in
            var events = client.events(Self.question)
            #expect(try events.nextIfReady() == nil, "ready before the request went out")
            #expect(try await events.next() != nil)
            var ready: [ChatStreamEvent] = []
            while let event = try events.nextIfReady() {
                guard let event else { break }
                ready.append(event)
            }
            #expect(ready.contains(.textDelta(", world")) && ready.last == .finish(.stop), "\(ready)")
            // The body's end is known once the client's loop finished the transfer, a moment after it handed on the
            // last bytes; this task can get between the two (a whole-suite AddressSanitizer run did).
            if try events.nextIfReady() == nil { #expect(try await events.next() == nil) }
            #expect(try events.nextIfReady() == .some(nil), "the end, once known, stays known")
            #expect(try await events.next() == nil)
        }
    }

    /// An event still on its way is not ready; `next()` waits for it, and after it the stream goes on as before.
    @Test func anEventStillOnItsWayIsNotReady() async throws {
        let upstream = StreamingUpstream(holdAfterFirst: true)
        try await Self.withUpstream(upstream) { client in
            var events = client.events(Self.question)
            var seen: [ChatStreamEvent] = []
            while let event = try await events.next() {
                seen.append(event)
                if event == .textDelta("Hello") { break }
            }
            let ready = try events.nextIfReady()
            #expect(ready == nil, "an event the upstream still holds was ready: \(String(describing: ready))")
            if case .some(.some(let event)) = ready { seen.append(event) }
            upstream.release()
            while let event = try await events.next() { seen.append(event) }
            #expect(seen.contains(.textDelta(", world")) && seen.last == .finish(.stop), "\(seen)")
        }
    }

    @Test func aRefusedCallIsTheProvidersError() async throws {
        let upstream = StreamingUpstream(failStatus: 429)
        try await Self.withUpstream(upstream) { client in
            var iterator = client.stream(Self.question).makeAsyncIterator()
            let error = try await #require(throws: GatewayError.self) { _ = try await iterator.next() }
            #expect(error.status == 429)
            #expect(error.kind == .rateLimited)
            #expect(error.message.contains("Rate limit reached"))
            // The stream is over after its error.
            #expect(try await iterator.next() == nil)
        }
    }
}
