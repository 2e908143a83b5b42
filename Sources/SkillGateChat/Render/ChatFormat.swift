#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
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
        return "$" + fixed(usd, places: usd >= 0.01 ? 4 : 6)
    }

    /// `value` with exactly `places` decimals (`fixed(0.5, places: 2)` is `"0.50"`).
    static func fixed(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e18 else { return String(value) }
        let units = Int(scaled)
        let whole = units / Int(scale)
        var fraction = String(units % Int(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (value < 0 && units > 0 ? "-" : "") + String(whole) + (places > 0 ? "." + fraction : "")
    }
}
