import Foundation
import Testing
import SkillGateHTTP
import SkillGateTestSupport
@testable import SkillGateServer

/// Fallbacks and retries through the real gateway against upstream doubles on loopback.
@Suite(.serialized) struct GatewayFallbackTests {
    typealias R = OpenAIRecordings

    /// Runs `body` with a gateway whose light tier is `up-a/m`, `up-b/m` over doubles with these scripts.
    func withGateway(a: [UpstreamDouble.Reply], b: [UpstreamDouble.Reply], tier: [String] = ["up-a/m", "up-b/m"],
                     resilience: String = "{}", firstByteSeconds: Double = 5,
                     _ body: (ResilienceGateway, UpstreamDouble, UpstreamDouble) async throws -> Void) async throws {
        try await ResilienceGateway.withTwoUpstreams(a: a, b: b, tier: tier, resilience: resilience, firstByteSeconds: firstByteSeconds, body)
    }

    static let retryable: [(String, UpstreamDouble.Reply, String)] = [
        ("429", R.rateLimited(retryAfter: "1"), "up-a/m: 429 rate_limited"),
        ("500", R.serverError, "up-a/m: 502 upstream_error"),
        ("503", R.overloaded, "up-a/m: 503"),
    ]

    @Test(arguments: 0..<3)
    func retryableStatusesFallBackToTheNextDeployment(_ i: Int) async throws {
        let (_, reply, logged) = Self.retryable[i]
        try await withGateway(a: [reply], b: [R.text]) { gw, a, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
            #expect(r.headers["x-skillgate-provider"] == "up-b")
            #expect(a.requestCount == 1 && b.requestCount == 1)
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts[0].hasPrefix(logged) && attempts[1] == "up-b/m: 200 ok", "\(attempts)")
        }
    }

    /// A 429 or 408 whose body is a proxy's HTML or plain text is still a rate limit or a timeout: it falls back (it
    /// was a 502 the executor did not move on from), and a 5xx page still does.
    @Test(arguments: [("HTML 429", R.nginxRateLimited(), "up-a/m: 429 rate_limited"), ("text 408", R.proxyTimedOut, "up-a/m: 504 upstream_timeout"),
                      ("HTML 502", R.nginxBadGateway, "up-a/m: 502 upstream_error")])
    func aProxysPageFallsBackByItsStatus(_ name: String, _ reply: UpstreamDouble.Reply, _ logged: String) async throws {
        try await withGateway(a: [reply], b: [R.text]) { gw, a, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b", "\(name): \(r.status)")
            #expect(a.requestCount == 1 && b.requestCount == 1, "\(name)")
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.count == 2 && attempts[0].hasPrefix(logged) && attempts[1] == "up-b/m: 200 ok", "\(name): \(attempts)")
        }
    }

    @Test func aProxysHTML429ReachesTheClientAs429WithItsRetryAfter() async throws {
        try await withGateway(a: [R.nginxRateLimited(retryAfter: "30")], b: [R.text], tier: ["up-a/m"]) { gw, a, _ in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(r.status == 429, "\(text)")
            #expect(r.headers["retry-after"] == "30")
            #expect(text.contains("rate limiting") && !text.contains("<html>"), "\(text)")
            #expect(a.requestCount == 1)
        }
    }

    @Test func retryAfterIsHonouredOnTheOnlyDeployment() async throws {
        try await withGateway(a: [R.rateLimited(retryAfter: "1"), R.text], b: [R.text], tier: ["up-a/m"]) { gw, a, _ in
            let start = ContinuousClock.now
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200)
            #expect(ContinuousClock.now - start >= .milliseconds(950), "the gateway waited out Retry-After: 1")
            #expect(a.requestCount == 2)
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            // "up-a/m: 200 ok after 1000 ms": the wait is measured between two clock readings, so it may print 999.
            let waited = attempts.last.flatMap { $0.hasPrefix("up-a/m: 200 ok after ") ? Int($0.dropFirst(21).prefix { $0.isNumber }) : nil }
            #expect((waited ?? 0) >= 950, "\(attempts)")
        }
    }

    @Test func aRetryAfterLongerThanTheGatewayWaitsIsPassedOn() async throws {
        try await withGateway(a: [R.rateLimited(retryAfter: "30")], b: [R.text], tier: ["up-a/m"]) { gw, a, _ in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 429)
            #expect(r.headers["retry-after"] == "30")
            #expect(r.headers["x-skillgate-provider"] == "up-a")
            #expect(a.requestCount == 1)
        }
    }

    /// `Retry-After: 1e300` from an upstream once stopped the whole gateway (an Int conversion trapped where the
    /// client's header was made); `inf`, `nan` and a negative delay are no delay at all.
    @Test(arguments: [("1e300", "3600"), ("99999999", "3600"), ("inf", nil), ("nan", nil), ("-5", nil)] as [(String, String?)])
    func anUpstreamsAbsurdRetryAfterIsBoundedAndTheGatewayLives(_ said: String, _ passedOn: String?) async throws {
        try await withGateway(a: [R.rateLimited(retryAfter: said)], b: [R.text], tier: ["up-a/m"]) { gw, a, _ in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 429)
            #expect(r.headers["retry-after"] == passedOn)
            let again = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(again.status == 429 || again.status == 503, "the gateway still answers: \(again.status)")
        }
    }

    @Test func aHeadDelayedPastTheFirstByteTimeoutFallsBack() async throws {
        try await withGateway(a: [.delayed(.seconds(3), R.text)], b: [R.text], firstByteSeconds: 0.4) { gw, _, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
            #expect(b.requestCount == 1)
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 504 upstream_timeout", "\(attempts)")
        }
    }

    @Test func aConnectionClosedMidResponseFallsBack() async throws {
        let half = Array(R.bytes("openai-text.json").prefix(120))
        try await withGateway(a: [.dropAfter(prefix: half, contentType: "application/json")], b: [R.text]) { gw, a, b in
            let r = try await gw.send(ResilienceGateway.body(model: "light"))
            #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
            #expect(a.requestCount == 1 && b.requestCount == 1)
            let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
            #expect(attempts.first == "up-a/m: 502 upstream_unavailable", "\(attempts)")
        }
    }

    @Test func aRefusedConnectionFallsBack() async throws {
        // A port nothing listens on and no test running in parallel can take.
        let base = "http://127.0.0.1:\(try ClosedPort.make())/v1"
        let b = try UpstreamDouble([R.text])
        let gw = try ResilienceGateway(providers: [("up-a", base), ("up-b", b.baseURL)], tier: ["up-a/m", "up-b/m"])
        let r = try await gw.send(ResilienceGateway.body(model: "light"))
        #expect(r.status == 200 && r.headers["x-skillgate-provider"] == "up-b")
        let attempts = await gw.logLines().last?["attempts"] as? [String] ?? []
        #expect(attempts.first == "up-a/m: 502 upstream_unavailable", "\(attempts)")
        await gw.stop()
        await b.stop()
    }

    @Test func aStreamFailingBeforeItsFirstByteFallsBack() async throws {
        try await withGateway(a: [R.overloaded], b: [R.streamedText]) { gw, _, b in
            let (status, text) = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200)
            #expect(text.contains("capital") && text.hasSuffix("data: [DONE]\n\n"), "\(text.suffix(200))")
            #expect(b.requestCount == 1)
        }
    }

    @Test func nothingIsRetriedAfterTheFirstStreamedBytes() async throws {
        let events = UpstreamDouble.events(R.bytes("test_run_stream_sync_streams_real_model.1.response.sse"))
        let prefix = Array(events.prefix(3).joined())
        try await withGateway(a: [.dropAfter(prefix: prefix, contentType: "text/event-stream")], b: [R.streamedText]) { gw, a, b in
            let (status, text) = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200, "the stream was committed to up-a")
            #expect(text.contains("The") && text.contains(" capital"), "the first bytes reached the client")
            #expect(text.contains("\"error\""), "the failure ends the stream with an error event: \(text.suffix(300))")
            #expect(a.requestCount == 1)
            #expect(b.requestCount == 0, "nothing is retried once bytes reached the client")
        }
    }
}

extension GatewayFallbackTests {
    /// A stream's head is written ahead for the plan's first deployment (decision 0087); it names the deployment that
    /// answered, and carries the same fields whichever way it was made.
    @Test(arguments: [false, true])
    func aStreamsHeadNamesTheDeploymentThatAnswered(_ firstFails: Bool) async throws {
        try await withGateway(a: [firstFails ? R.overloaded : R.streamedText], b: [R.streamedText]) { gw, _, _ in
            let (status, headers, text) = try await gw.streamWithHeaders(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200 && text.hasSuffix("data: [DONE]\n\n"))
            let answered = firstFails ? "up-b" : "up-a"
            #expect(headers["x-skillgate-provider"] == answered && headers["x-skillgate-model"] == answered + "/m", "\(headers)")
            #expect(headers["content-type"] == "text/event-stream" && headers["cache-control"] == "no-cache")
            #expect(headers["x-accel-buffering"] == "no" && headers["transfer-encoding"] == "chunked")
            #expect(headers["x-request-id"]?.hasPrefix("req_") == true && headers["x-skillgate-route"] != nil && headers["date"] != nil)
            let names = headers.fields.map { $0.name.lowercased() }
            #expect(Set(names).count == names.count, "no field twice: \(names)")
        }
    }

    @Test func aStreamWhoseHeadIsLateFallsBack() async throws {
        try await withGateway(a: [.delayed(.seconds(3), R.streamedText)], b: [R.streamedText], firstByteSeconds: 0.4) { gw, _, b in
            let (status, text) = try await gw.stream(ResilienceGateway.body(model: "light", stream: true))
            #expect(status == 200 && text.contains("capital"))
            #expect(b.requestCount == 1)
        }
    }
}
