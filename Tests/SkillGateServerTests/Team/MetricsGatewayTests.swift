import Foundation
import Testing
import SkillGateCore
import SkillGateHTTP
import SkillGateState
import SkillGateTestSupport
@testable import SkillGateServer

/// `/metrics` through a real gateway, and scraped by a real Prometheus server when one is installed
/// (`SKILLGATE_PROMETHEUS_BIN`; scripts/test.sh installs the Debian package and sets it).
@Suite(.serialized) struct MetricsGatewayTests {
    static let chat = #"{"model":"light","messages":[{"role":"user","content":"Hello"}]}"#

    @Test func metricsCountRequestsTokensCostAndRejections() async throws {
        let h = try TeamHarness(tokenLimits: TokenLimits(requestsPerMinute: 2))
        _ = try await h.post("/v1/chat/completions", Self.chat)
        _ = try await h.post("/v1/messages", #"{"model":"light","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"Hi"}]}"#)
        _ = try await h.post("/v1/chat/completions", Self.chat)
        let r = try await h.get("/metrics")
        await h.stop()
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(r.status == 200)
        #expect(r.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(text.contains(#"skillgate_requests_total{surface="openai",status="200",outcome="ok",scenario="chat",model="demo/demo-light"} 1"#), "\(text)")
        #expect(text.contains(#"skillgate_requests_total{surface="anthropic",status="200",outcome="ok",scenario="chat",model="demo/demo-light"} 1"#))
        #expect(text.contains(#"skillgate_requests_total{surface="openai",status="429",outcome="rate_limited",scenario="chat",model=""} 1"#))
        #expect(text.contains(#"skillgate_limit_rejections_total{limit="requests_per_minute",scope="token"} 1"#))
        #expect(text.contains(#"skillgate_tokens_total{model="demo/demo-light",direction="input"}"#))
        #expect(text.contains(#"skillgate_cost_usd_total{model="demo/demo-light"}"#))
        #expect(text.contains(#"skillgate_request_duration_seconds_bucket{surface="openai",le="+Inf"} 2"#))
        #expect(text.contains(#"skillgate_upstream_attempts_total{model="demo/demo-light",outcome="ok"} 2"#))
        #expect(text.contains("skillgate_in_flight_requests 0\n"))
        #expect(text.contains("skillgate_in_flight_streams 0\n"))
        #expect(text.contains("# TYPE skillgate_ledger_written_records_total counter"))
    }

    /// The same `tools` array sent twice by one token is read once and taken from the gateway's tool-list cache the
    /// second time; another token's identical array is its own entry (decision 0057). `/metrics` shows the lookups.
    @Test func aRepeatedToolListIsTakenFromTheCachePerToken() async throws {
        let h = try TeamHarness()
        let other = try h.server.services.tokens.create(name: "other-app", limits: TokenLimits()).token
        let body = #"{"model":"light","messages":[{"role":"user","content":"Hello"}],"tools":[{"type":"function","function":{"name":"lookup","description":"Looks it up.","parameters":{"type":"object","properties":{"q":{"type":"string"}}}}}]}"#
        let first = try await h.post("/v1/chat/completions", body)
        let second = try await h.post("/v1/chat/completions", body)
        let third = try await h.post("/v1/chat/completions", body, token: other)
        let stats = h.server.services.toolLists.statistics
        let metrics = String(decoding: try await h.get("/metrics").body, as: UTF8.self)
        await h.stop()
        #expect([first.status, second.status, third.status] == [Int](repeating: 200, count: 3))
        #expect(second.body.count > 0)
        #expect(stats.hits == 1)
        #expect(stats.misses == 2)
        #expect(stats.entries == 2)
        #expect(metrics.contains("skillgate_tool_list_cache_lookups_total{result=\"hit\"} 1\n"), "\(metrics)")
        #expect(metrics.contains("skillgate_tool_list_cache_lookups_total{result=\"miss\"} 2\n"))
        #expect(metrics.contains("skillgate_tool_list_cache_entries 2\n"))
    }

    /// The server's admission counters: a token looked up in the store off the loop, one refused at the head.
    @Test func metricsShowTokenLookupsAndRefusalsAtTheHead() async throws {
        let h = try TeamHarness()
        h.server.services.tokens.invalidateCache()
        let admitted = try await h.post("/v1/chat/completions", Self.chat)
        let madeUp = "sgk_" + String(repeating: "B", count: 43)
        let refused = try await h.post("/v1/chat/completions", Self.chat, token: madeUp)
        let metrics = String(decoding: try await h.get("/metrics").body, as: UTF8.self)
        await h.stop()
        #expect(admitted.status == 200)
        #expect(refused.status == 401)
        // The cache was dropped, so the first request's token is read from the store; the made-up one is too.
        #expect(metrics.contains("skillgate_token_store_lookups_total 2\n"), "\(metrics)")
        #expect(metrics.contains("skillgate_token_store_lookup_timeouts_total 0\n"))
        #expect(metrics.contains("skillgate_requests_refused_at_head_total 1\n"))
        #expect(metrics.contains("skillgate_connections_refused_total{cap=\"per_ip\"} 0\n"))
        #expect(metrics.contains("skillgate_request_read_timeouts_total{part=\"head\"} 0\n"))
        #expect(metrics.contains("# TYPE skillgate_connections_open gauge"))
        // The refused connection lingers until its client closes it, which may come before or after the scrape.
        #expect(metrics.contains("# TYPE skillgate_connections_lingering gauge"))
        #expect(metrics.contains("skillgate_lingering_closes_total{end=\"cut_short\"} 0\n"), "\(metrics)")
        #expect(!metrics.contains(madeUp), "the presented token was exposed")
    }

    @Test func aSeparateListenerServesMetricsAndTheMainOneSaysWhere() async throws {
        let h = try TeamHarness(extraConfig: #","metrics":{"listen":"127.0.0.1:0"}"#)
        _ = try await h.post("/v1/chat/completions", Self.chat)
        let port = try #require(h.server.metricsPort)
        // The reply goes out before its request is counted (decision 0059), and the separate listener may be served
        // by another event loop: the count shows up within moments, not necessarily by the first scrape.
        let series = "skillgate_requests_total{surface=\"openai\""
        var separate = try await h.get("/metrics", port: port)
        let deadline = ContinuousClock.now + .seconds(5)
        while !String(decoding: separate.body, as: UTF8.self).contains(series) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
            separate = try await h.get("/metrics", port: port)
        }
        let other = try await h.get("/v1/models", port: port)
        let main = try await h.get("/metrics")
        await h.stop()
        #expect(separate.status == 200)
        #expect(String(decoding: separate.body, as: UTF8.self).contains(series))
        #expect(other.status == 404)
        #expect(main.status == 404)
        #expect(String(decoding: main.body, as: UTF8.self).contains("metrics.listen"))
    }

    /// The separate metrics listener takes no token, so it keeps the limits of the main listener's endpoints without one
    /// (decision 0137): a body of at most 16 KiB (refused with 413 from its head), the connection caps and the read
    /// deadlines of `limits`. It read 4 MiB bodies and had no connection cap at all.
    @Test func theSeparateListenerKeepsTheLimitsOfAnEndpointWithoutAToken() async throws {
        let h = try TeamHarness(extraConfig: #","metrics":{"listen":"127.0.0.1:0"}"#)
        defer { Task { await h.stop() } }
        let port = try #require(h.server.metricsPort)
        let answer = try await RawSocket.run { () throws -> String in
            let socket = try RawSocket(port: port, receiveTimeout: 5)
            socket.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
            return socket.readAll().text
        }
        #expect(answer.hasPrefix("HTTP/1.1 413") && answer.contains("16384 bytes"), "\(answer.prefix(300))")
        let main = h.server.server.configuration, metrics = try #require(h.server.metricsServer?.configuration)
        #expect(metrics.maxConnections == main.maxConnections && metrics.maxConnections != nil)
        #expect(metrics.maxConnectionsPerIP == main.maxConnectionsPerIP)
        #expect(metrics.headerTimeout == main.headerTimeout && metrics.bodyReadTimeout == main.bodyReadTimeout)
    }

    @Test func disabledMetricsAreNotServedAndNotCounted() async throws {
        let h = try TeamHarness(extraConfig: #","metrics":{"enabled":false}"#)
        _ = try await h.post("/v1/chat/completions", Self.chat)
        let r = try await h.get("/metrics")
        let rendered = h.server.services.renderMetrics()
        await h.stop()
        #expect(r.status == 404)
        #expect(String(decoding: r.body, as: UTF8.self).contains("metrics.enabled"))
        #expect(!rendered.contains("skillgate_requests_total{"))
    }

    static let prometheus = ProcessInfo.processInfo.environment["SKILLGATE_PROMETHEUS_BIN"]

    /// A real Prometheus scrapes the gateway every 200 ms; its HTTP API then answers a query for the request counter.
    @Test(.enabled(if: prometheus != nil,
                   "set SKILLGATE_PROMETHEUS_BIN to a prometheus binary (apt-get install prometheus; scripts/test.sh does both) to run the scrape test"))
    func aRealPrometheusScrapesAndQueriesTheRequestCounter() async throws {
        let binary = try #require(Self.prometheus)
        let h = try TeamHarness()
        for _ in 0..<3 { _ = try await h.post("/v1/chat/completions", Self.chat) }
        let work = h.dir.appendingPathComponent("prometheus").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let config = """
        global: {scrape_interval: 200ms, scrape_timeout: 150ms}
        scrape_configs:
          - job_name: skillgate
            static_configs: [{targets: ["127.0.0.1:\(h.server.boundPort)"]}]
        """
        try config.writeAtomically(toFile: work + "/prometheus.yml")
        let port = try Self.freePort()
        let process = try SpawnedProcess(binary, ["--config.file=\(work)/prometheus.yml", "--storage.tsdb.path=\(work)/data",
                                                  "--web.listen-address=127.0.0.1:\(port)"])
        defer { process.stop() }
        let query = "sum(skillgate_requests_total{surface=\"openai\",status=\"200\"})"
        let url = "http://127.0.0.1:\(port)/api/v1/query?query=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        var value: String?
        let deadline = ContinuousClock.now + .seconds(30)
        while value == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            guard let r = try? await h.http.send(HTTPRequest(method: "GET", url: url)), r.status == 200,
                  let result = try? JSONValue.parse(r.body)["data"]?["result"]?.arrayValue?.first else { continue }
            value = result["value"]?.arrayValue?.last?.stringValue
        }
        await h.stop()
        #expect(value == "3", "Prometheus at 127.0.0.1:\(port) answered \(value ?? "nothing") for \(query)")
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
