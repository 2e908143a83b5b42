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
    /// The label values of each series, by slot. A series keeps its slot for the life of the process, so a caller
    /// that counts the same series on every request can look its slot up once (`GatewayMetrics` does).
    private(set) var labelSets: [[String]] = []
    private var slots: [[String]: Int] = [:]
    /// Counter and gauge values by slot.
    private var values: [Double] = []
    /// Histograms by slot.
    private var histograms: [Histogram] = []

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

    /// The slot of the series `labelValues`: its own, or that of `other` once the family holds `maxSeries` series
    /// and this one is new. Created (zero) the first time.
    mutating func slot(_ labelValues: [String]) -> Int {
        if let slot = slots[labelValues] { return slot }
        let key = labelSets.count < Self.maxSeries ? labelValues : labelValues.map { _ in "other" }
        if let slot = slots[key] { return slot }
        labelSets.append(key)
        values.append(0)
        histograms.append(Histogram(counts: Array(repeating: 0, count: kind == .histogram ? buckets.count : 0)))
        slots[key] = labelSets.count - 1
        return labelSets.count - 1
    }

    /// Adds to a counter or gauge.
    mutating func add(_ amount: Double, _ labelValues: [String]) {
        add(amount, slot: slot(labelValues))
    }

    /// Adds to the counter or gauge in `slot` (from `slot(_:)`).
    mutating func add(_ amount: Double, slot: Int) {
        values[slot] += amount
    }

    /// Counts an observation.
    mutating func observe(_ value: Double, _ labelValues: [String]) {
        observe(value, slot: slot(labelValues))
    }

    /// Counts an observation in the histogram in `slot` (from `slot(_:)`), in place.
    mutating func observe(_ value: Double, slot: Int) {
        if let bucket = buckets.firstIndex(where: { value <= $0 }) { histograms[slot].counts[bucket] += 1 }
        histograms[slot].sum += value
        histograms[slot].count += 1
    }

    /// The value of the counter or gauge `labelValues`, nil when it was never counted.
    func value(_ labelValues: [String]) -> Double? {
        slots[labelValues].map { values[$0] }
    }

    /// How many series the family holds.
    var seriesCount: Int { labelSets.count }

    /// The family in the Prometheus text exposition format (version 0.0.4), series sorted for stable output.
    func render(into out: inout String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        let order = labelSets.indices.sorted { labelSets[$0].lexicographicallyPrecedes(labelSets[$1]) }
        if kind == .histogram {
            for slot in order {
                let labelValues = labelSets[slot], h = histograms[slot]
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
            if labels.isEmpty && labelSets.isEmpty { out += "\(name) 0\n" }
            for slot in order {
                out += "\(name)\(Self.labelText(labels, labelSets[slot])) \(Self.number(values[slot]))\n"
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
