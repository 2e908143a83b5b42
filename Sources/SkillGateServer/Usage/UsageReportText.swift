import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateState

/// How `skillgate usage` prints a report: an aligned table with a total line, or one JSON object.
public enum UsageReportText {
    /// The table, one row per group and a TOTAL row.
    public static func table(_ rows: [UsageReportRow], by: UsageGrouping) -> String {
        var lines = [[by.rawValue.uppercased(), by == .model ? "CALLS" : "REQUESTS", "ERRORS", "INPUT", "OUTPUT", "COST USD"]]
        for r in rows + [total(rows)] {
            lines.append([r.key, String(r.requests), String(r.errors), String(r.inputTokens), String(r.outputTokens), usd(r.costMicrodollars)])
        }
        let widths = (0..<6).map { c in lines.map { $0[c].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { c, cell in
                c == 0 ? cell + String(repeating: " ", count: max(0, widths[c] - cell.count)) : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// `{"since": ..., "by": ..., "rows": [...], "total": {...}}`.
    public static func json(_ rows: [UsageReportRow], since: Date, by: UsageGrouping) -> JSONValue {
        func row(_ r: UsageReportRow) -> JSONValue {
            ["key": .string(r.key), "requests": .int(r.requests), "errors": .int(r.errors), "input_tokens": .int(r.inputTokens),
             "output_tokens": .int(r.outputTokens), "cached_input_tokens": .int(r.cachedInputTokens), "reasoning_tokens": .int(r.reasoningTokens),
             "cost_usd": .double(Double(r.costMicrodollars) / 1e6)]
        }
        return ["since": .string(Date.ISO8601FormatStyle().format(since)), "by": .string(by.rawValue), "rows": .array(rows.map(row)),
                "total": row(total(rows))]
    }

    static func total(_ rows: [UsageReportRow]) -> UsageReportRow {
        rows.reduce(UsageReportRow(key: "TOTAL", requests: 0, errors: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0,
                                   costMicrodollars: 0)) { t, r in
            UsageReportRow(key: "TOTAL", requests: t.requests + r.requests, errors: t.errors + r.errors, inputTokens: t.inputTokens + r.inputTokens,
                           outputTokens: t.outputTokens + r.outputTokens, cachedInputTokens: t.cachedInputTokens + r.cachedInputTokens,
                           reasoningTokens: t.reasoningTokens + r.reasoningTokens, costMicrodollars: t.costMicrodollars + r.costMicrodollars)
        }
    }

    static func usd(_ micro: Int64) -> String { CFormat.string("%.6f", Double(micro) / 1e6) }
}
