/// One metric family in memory: counters (or gauges) by label values, or histograms by label values.
/// Label values come from bounded sets (surfaces, status codes, configured scenarios, catalog models, registered
/// skills, limit names); past `maxSeries` distinct label sets a family folds new ones into `other`, so a bug can
/// never make the exposition grow without bound.
struct MetricFamily: Sendable {
    enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    let name: String
    let help: String
    let kind: Kind
    let labels: [String]
    /// Upper bounds of a histogram's buckets (seconds), ascending; `+Inf` is implied.
    let buckets: [Double]
    var values: [[String]: Double] = [:]
    var histograms: [[String]: Histogram] = [:]

    static let maxSeries = 2000

    struct Histogram: Sendable {
        var counts: [UInt64]
        var sum = 0.0
        var count: UInt64 = 0
    }

    init(_ name: String, _ kind: Kind, _ help: String, labels: [String] = [], buckets: [Double] = []) {
        self.name = name
        self.kind = kind
        self.help = help
        self.labels = labels
        self.buckets = buckets
    }

    /// The series `labelValues` is counted under: itself, or `other` once the family holds `maxSeries` series and
    /// this one is new.
    private func key(_ labelValues: [String], seriesCount: Int, exists: () -> Bool) -> [String] {
        if seriesCount < Self.maxSeries || exists() { return labelValues }
        return labelValues.map { _ in "other" }
    }

    /// Adds to a counter or gauge: one hash of the labels below the series cap (two at it).
    mutating func add(_ amount: Double, _ labelValues: [String]) {
        let k = key(labelValues, seriesCount: values.count) { values[labelValues] != nil }
        values[k, default: 0] += amount
    }

    /// Counts an observation in place (no copy of the bucket array per observation).
    mutating func observe(_ value: Double, _ labelValues: [String]) {
        let k = key(labelValues, seriesCount: histograms.count) { histograms[labelValues] != nil }
        let bucket = buckets.firstIndex(where: { value <= $0 })
        let empty = buckets.count
        Self.record(value, bucket: bucket, in: &histograms[k, default: Histogram(counts: Array(repeating: 0, count: empty))])
    }

    private static func record(_ value: Double, bucket: Int?, in h: inout Histogram) {
        if let bucket { h.counts[bucket] += 1 }
        h.sum += value
        h.count += 1
    }

    /// The family in the Prometheus text exposition format (version 0.0.4), series sorted for stable output.
    func render(into out: inout String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        if kind == .histogram {
            for (labelValues, h) in histograms.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                var cumulative: UInt64 = 0
                for (i, bound) in buckets.enumerated() {
                    cumulative += h.counts[i]
                    out += "\(name)_bucket\(Self.labelText(labels + ["le"], labelValues + [Self.number(bound)])) \(cumulative)\n"
                }
                out += "\(name)_bucket\(Self.labelText(labels + ["le"], labelValues + ["+Inf"])) \(h.count)\n"
                out += "\(name)_sum\(Self.labelText(labels, labelValues)) \(Self.number(h.sum))\n"
                out += "\(name)_count\(Self.labelText(labels, labelValues)) \(h.count)\n"
            }
        } else {
            if labels.isEmpty && values.isEmpty { out += "\(name) 0\n" }
            for (labelValues, v) in values.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                out += "\(name)\(Self.labelText(labels, labelValues)) \(Self.number(v))\n"
            }
        }
    }

    /// `{a="x",b="y"}` with `\`, `"` and newlines escaped; empty without labels.
    static func labelText(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        var s = "{"
        for (i, name) in names.enumerated() {
            if i > 0 { s += "," }
            s += name + "=\""
            for ch in values[i].unicodeScalars {
                switch ch {
                case "\\": s += "\\\\"
                case "\"": s += "\\\""
                case "\n": s += "\\n"
                default: s.unicodeScalars.append(ch)
                }
            }
            s += "\""
        }
        return s + "}"
    }

    /// A sample value: integers without a fraction, others in full precision.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
