/// A small fixed-width text table for evaluation reports: stable column order and number
/// formats, so two builds' reports can be diffed line by line.
public struct EvalTable: Sendable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(_ header: [String]) {
        self.header = header
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    /// The table as text, the first column left-aligned and the rest right-aligned.
    public func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0.indices.contains(c) ? $0[c].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: max(0, widths[c] - cell.count))
                return c == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// `83.3% (25/30)`.
    public static func ratio(_ hits: Int, _ total: Int) -> String {
        guard total > 0 else { return "-" }
        return percent(Double(hits) / Double(total)) + " (\(hits)/\(total))"
    }

    /// `83.3%`.
    public static func percent(_ x: Double) -> String {
        let tenths = Int((x * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// A number with `digits` decimals.
    public static func fixed(_ x: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let v = Int((abs(x) * scale).rounded())
        let whole = v / Int(scale), frac = v % Int(scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return (x < 0 && v != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + f : "")
    }
}
