import Testing
import SkillGateRouting
@testable import SkillGateServer

/// The text exposition format, rendered by hand.
@Suite struct MetricFamilyTests {
    @Test func countersRenderSortedWithEscapedLabels() {
        var f = MetricFamily("x_total", .counter, "Things.", labels: ["a", "b"])
        f.add(2, ["z", "1"])
        f.add(1, ["q\"uote\\back\nline", "2"])
        var out = ""
        f.render(into: &out)
        #expect(out == """
        # HELP x_total Things.
        # TYPE x_total counter
        x_total{a="q\\"uote\\\\back\\nline",b="2"} 1
        x_total{a="z",b="1"} 2

        """)
    }

    @Test func histogramsAreCumulativeWithInfSumAndCount() {
        var f = MetricFamily("d_seconds", .histogram, "Durations.", labels: ["s"], buckets: [0.1, 1])
        for v in [0.05, 0.5, 0.7, 3] { f.observe(v, ["x"]) }
        var out = ""
        f.render(into: &out)
        #expect(out.contains("d_seconds_bucket{s=\"x\",le=\"0.1\"} 1\n"))
        #expect(out.contains("d_seconds_bucket{s=\"x\",le=\"1\"} 3\n"))
        #expect(out.contains("d_seconds_bucket{s=\"x\",le=\"+Inf\"} 4\n"))
        #expect(out.contains("d_seconds_sum{s=\"x\"} 4.25\n"))
        #expect(out.contains("d_seconds_count{s=\"x\"} 4\n"))
    }

    @Test func labelSetsAreBounded() {
        var f = MetricFamily("c_total", .counter, "Bounded.", labels: ["k"])
        for i in 0..<(MetricFamily.maxSeries + 500) { f.add(1, ["v\(i)"]) }
        #expect(f.seriesCount == MetricFamily.maxSeries + 1)
        #expect(f.value(["other"]) == 500)
        #expect(f.value(["v1"]) == 1)
        #expect(f.value(["v\(MetricFamily.maxSeries)"]) == nil, "counted under other")
    }

    @Test func aGaugeWithoutLabelsRendersZeroBeforeAnyUpdate() {
        var out = ""
        MetricFamily("g", .gauge, "A gauge.").render(into: &out)
        #expect(out.hasSuffix("g 0\n"))
    }
}

/// The whole gateway's metrics with a realistic number of series, rendered: what a scrape costs.
@Suite struct GatewayMetricsRenderTests {
    @Test func aScrapeOfSomeHundredSeriesIsCheap() {
        let metrics = GatewayMetrics()
        for surface in ["openai", "anthropic", "agent"] {
            for status in [200, 400, 429, 502] {
                for model in ["p/light-a", "p/light-b", "q/strong-a", "q/strong-b"] {
                    var e = RequestLogEntry(requestId: "req_1", method: "POST", path: "/v1/chat/completions")
                    e.surface = surface
                    e.status = status
                    e.scenario = "chat"
                    e.model = model
                    e.provider = String(model.prefix(1))
                    e.upstreamMs = 120
                    e.totalMs = 130
                    e.usage = .init(inputTokens: 10, outputTokens: 20)
                    e.costUSD = 0.0001
                    metrics.finished(e, outcome: status == 200 ? "ok" : "error")
                }
            }
        }
        var e = RequestLogEntry(requestId: "req_1", method: "POST", path: "/v1/chat/completions")
        (e.surface, e.status, e.scenario, e.model, e.provider, e.upstreamMs, e.totalMs) = ("openai", 200, "chat", "p/light-a", "p", 120, 130)
        e.usage = .init(inputTokens: 10, outputTokens: 20)
        e.costUSD = 0.0001
        let updates = ContinuousClock.now
        for _ in 0..<10_000 { metrics.finished(e, outcome: "ok") }
        print("metrics: one request's update \((ContinuousClock.now - updates) / 10_000)")
        let start = ContinuousClock.now
        var text = ""
        for _ in 0..<100 { text = metrics.render() }
        let each = (ContinuousClock.now - start) / 100
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        print("metrics: \(lines) samples rendered in \(each)")
        #expect(lines > 100)
        #expect(text.contains(#"skillgate_requests_total{surface="agent",status="429",outcome="error",scenario="chat",model="q/strong-b"} 1"#))
        #expect(text.contains(#"skillgate_requests_total{surface="openai",status="200",outcome="ok",scenario="chat",model="p/light-a"} 10001"#))
        #expect(each < .milliseconds(50))
    }
}

/// A finished request counts under the same series whether its slots come from the kind-of-request cache or from
/// its labels: a request that fell back, one that was refused before any upstream call, an agent run, and the
/// common single-attempt answer, counted twice each.
@Suite struct GatewayMetricsSeriesTests {
    static func entry(status: Int = 200, model: String? = "p/a", upstreamMs: Double? = 80) -> RequestLogEntry {
        var e = RequestLogEntry(requestId: "req_1", method: "POST", path: "/v1/chat/completions")
        (e.surface, e.status, e.scenario, e.model, e.provider, e.upstreamMs, e.totalMs) = ("openai", status, "chat", model, "p", upstreamMs, 90)
        e.usage = .init(inputTokens: 10, outputTokens: 20, cachedInputTokens: 4)
        e.costUSD = 0.5
        return e
    }

    @Test func everyKindOfRequestCountsUnderItsLabels() {
        let metrics = GatewayMetrics()
        var single = Self.entry()
        single.attemptRecords = [AttemptRecord(deployment: "p/a", outcome: .succeeded(status: 200))]
        var fellBack = Self.entry(model: "q/b")
        fellBack.attemptRecords = [AttemptRecord(deployment: "p/a", outcome: .failed(status: 429, kind: .rateLimited), key: "OPENAI_API_KEY_2",
                                                 keyRefused: true),
                                   AttemptRecord(deployment: "p/a", outcome: .skipped(reason: "cooling down")),
                                   AttemptRecord(deployment: "q/b", outcome: .succeeded(status: 200))]
        var refused = Self.entry(status: 429, model: nil, upstreamMs: nil)
        refused.usage = nil
        refused.costUSD = nil
        var run = Self.entry(model: "q/b")
        run.modelCalls = [ModelCallUsage(model: "p/a", usage: .init(inputTokens: 1, outputTokens: 2), costUSD: 0.25),
                          ModelCallUsage(model: "q/b", usage: .init(inputTokens: 3, outputTokens: 4), costUSD: 0.75)]
        run.attemptRecords = [AttemptRecord(deployment: "p/a", outcome: .succeeded(status: 200)),
                              AttemptRecord(deployment: "q/b", outcome: .succeeded(status: 200))]
        for _ in 0..<2 {
            metrics.finished(single, outcome: "ok")
            metrics.finished(fellBack, outcome: "ok")
            metrics.finished(refused, outcome: "rate_limited")
            metrics.finished(run, outcome: "ok")
        }
        let text = metrics.render()
        for line in [
            #"skillgate_requests_total{surface="openai",status="200",outcome="ok",scenario="chat",model="p/a"} 2"#,
            #"skillgate_requests_total{surface="openai",status="200",outcome="ok",scenario="chat",model="q/b"} 4"#,
            #"skillgate_requests_total{surface="openai",status="429",outcome="rate_limited",scenario="chat",model=""} 2"#,
            #"skillgate_request_duration_seconds_count{surface="openai"} 8"#,
            #"skillgate_upstream_seconds_count{provider="p",stream="false"} 6"#,
            #"skillgate_tokens_total{model="p/a",direction="input"} 22"#,
            #"skillgate_tokens_total{model="p/a",direction="cached_input"} 8"#,
            #"skillgate_tokens_total{model="q/b",direction="input"} 26"#,
            #"skillgate_tokens_total{model="q/b",direction="cached_input"} 8"#,
            #"skillgate_cost_usd_total{model="p/a"} 1.5"#,
            #"skillgate_cost_usd_total{model="q/b"} 2.5"#,
            #"skillgate_upstream_attempts_total{model="p/a",outcome="ok"} 4"#,
            #"skillgate_upstream_attempts_total{model="p/a",outcome="failed"} 2"#,
            #"skillgate_upstream_attempts_total{model="p/a",outcome="skipped"} 2"#,
            #"skillgate_upstream_attempts_total{model="q/b",outcome="ok"} 4"#,
            #"skillgate_key_failures_total{model="p/a",key="OPENAI_API_KEY_2"} 2"#,
            #"skillgate_cooldown_skips_total{model="p/a"} 2"#,
            #"skillgate_fallbacks_total{scenario="chat"} 4"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
    }
}
