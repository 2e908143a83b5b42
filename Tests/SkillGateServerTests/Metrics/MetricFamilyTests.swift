import Testing
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
        #expect(f.values.count == MetricFamily.maxSeries + 1)
        #expect(f.values[["other"]] == 500)
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
