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
