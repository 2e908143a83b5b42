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

    private func key(_ labelValues: [String], existing: Bool) -> [String] {
        if existing || (kind == .histogram ? histograms.count : values.count) < Self.maxSeries { return labelValues }
        return labelValues.map { _ in "other" }
    }

    mutating func add(_ amount: Double, _ labelValues: [String]) {
        let k = key(labelValues, existing: values[labelValues] != nil)
        values[k, default: 0] += amount
    }

    mutating func observe(_ value: Double, _ labelValues: [String]) {
        let k = key(labelValues, existing: histograms[labelValues] != nil)
        var h = histograms[k] ?? Histogram(counts: Array(repeating: 0, count: buckets.count))
        if let i = buckets.firstIndex(where: { value <= $0 }) { h.counts[i] += 1 }
        h.sum += value
        h.count += 1
        histograms[k] = h
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
