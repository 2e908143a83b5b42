import Foundation
import SkillGateClient

/// Small text helpers shared by the renderer.
public enum ChatFormat {
    /// Compact JSON of skill or tool arguments (members sorted by key), cut to `limit` characters with "…".
    public static func arguments(_ value: JSONValue, limit: Int = 120) -> String {
        let bytes = (try? CompactJSONEncoder().encode(value)) ?? []
        return truncate(String(decoding: bytes, as: UTF8.self), limit: limit)
    }

    /// `text` on one line (newlines become spaces), cut to `limit` characters with "…".
    public static func truncate(_ text: String, limit: Int) -> String {
        let oneLine = text.contains(where: \.isNewline)
            ? String(text.map { $0.isNewline ? " " : $0 }) : text
        guard oneLine.count > limit else { return oneLine }
        return String(oneLine.prefix(max(0, limit - 1))) + "…"
    }

    /// A cost in US dollars, with enough digits to show small amounts (`$0`, `$0.0123`, `$0.000042`).
    public static func cost(_ usd: Double) -> String {
        if usd == 0 { return "$0" }
        if usd >= 0.01 { return String(format: "$%.4f", usd) }
        return String(format: "$%.6f", usd)
    }
}
