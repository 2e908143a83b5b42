import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateServer
import SkillGateState

/// `skillgate usage`: what was spent, from the usage ledger in the state store.
enum UsageCommand {
    static let help = """
    Usage: skillgate usage [--since 7d] [--by token|model|scenario|day] [--json]
    Options: --config PATH

    --since   how far back: 30m, 12h, 7d (default 7d), or a date like 2026-12-01 (UTC)
    --by      group by token (default), model (each model call of an agent run under its model), scenario or day
    --json    one JSON object ({"since":...,"by":...,"rows":[...],"total":{...}}) instead of a table

    The gateway writes usage in batches (every 25 ms on SQLite, every second on PostgreSQL: ledger.flush_interval_ms), so the last moment may be missing.
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["--config", "--since", "--by"], flags: ["--json"])
        if args.wantsHelp { print(help); return 0 }
        guard args.positionals.isEmpty else { throw UsageError(message: "usage takes no arguments besides options") }
        let since = try parseSince(args.value("--since") ?? "7d", now: Date())
        let byText = args.value("--by") ?? "token"
        guard let by = UsageGrouping(rawValue: byText) else {
            throw UsageError(message: "--by must be one of \(UsageGrouping.allCases.map(\.rawValue).joined(separator: ", ")) (got \"\(byText)\")")
        }
        let config = try CLI.loadConfig(args)
        let rows = try GatewayServer.openStateStore(config: config).usageReport(since: since, by: by)
        if args.flags.contains("--json") {
            print(UsageReportText.json(rows, since: since, by: by).serialized())
        } else {
            print(UsageReportText.table(rows, by: by), terminator: "")
            if rows.isEmpty { printErr("no usage since \(Date.ISO8601FormatStyle().format(since)); try a longer --since") }
        }
        return 0
    }

    /// `30m`, `12h`, `7d`, or `YYYY-MM-DD` (UTC midnight).
    static func parseSince(_ text: String, now: Date) throws -> Date {
        if let unit = text.last, let n = Double(text.dropLast()), n >= 0 {
            switch unit {
            case "m": return now.addingTimeInterval(-n * 60)
            case "h": return now.addingTimeInterval(-n * 3600)
            case "d": return now.addingTimeInterval(-n * 86_400)
            default: break
            }
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 3, let y = parts[0], let m = parts[1], let d = parts[2], (1...12).contains(m),
           (1...CivilTime.daysIn(month: m, year: y)).contains(d) {
            return Date(timeIntervalSince1970: Double(CivilTime.daysSince1970(year: y, month: m, day: d)) * 86_400)
        }
        throw UsageError(message: "--since takes a span like 30m, 12h or 7d, or a date like 2026-12-01 (got \"\(text)\")")
    }
}
