/// A budget in US dollars as a person writes it: the one reader of every dollar amount that comes from outside (the
/// CLI's `--budget-day` and `--budget-month`, the admin API's and the config's `budget_usd_per_day` and
/// `budget_usd_per_month`), and the one writer that shows one.
///
/// Only plain decimal dollars are read: digits, then optionally a point and 1 to 6 digits (`5`, `5.25`, `0.01`,
/// `0.000125`). No sign, exponent, hex, `inf` or `nan`: Swift's `Double("0x10")` is 16 and `Double("1e-12")` a budget
/// that rounds to no money at all, so a typing slip became a budget nobody meant (decision 0103). Six decimal places
/// because spend is counted in whole microdollars (`UsageRecord.microdollars`): a seventh digit would be rounded away
/// without a word, and any amount above 0 that is read is at least one microdollar. The largest is
/// `TokenLimits.maximumBudgetUSD` (decision 0096).
public enum BudgetAmount {
    /// The most digits after the point: budgets are kept to the microdollar.
    public static let decimalPlaces = 6

    /// Valid amounts, for messages.
    public static let examples = "5, 5.25 or 0.01"

    /// Why a text is not a budget. `description` completes a sentence that starts with what was read
    /// (`--budget-day …`, `limits.budget_usd_per_day …`).
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not digits with an optional point and digits after it (a sign, an exponent, hex, a word, nothing).
        case notPlainDecimal
        /// More than `decimalPlaces` digits after the point.
        case finerThanAMicrodollar
        /// More than `TokenLimits.maximumBudgetUSD`.
        case overTheLargest

        public var description: String {
            switch self {
            case .notPlainDecimal:
                return "must be an amount of US dollars, 0 or more, written as plain digits with an optional decimal point, like \(BudgetAmount.examples) (no sign, exponent, hex, inf or nan)"
            case .finerThanAMicrodollar:
                return "has more than \(BudgetAmount.decimalPlaces) digits after the point; budgets are kept to the microdollar ($0.000001), so give at most \(BudgetAmount.decimalPlaces), like \(BudgetAmount.examples)"
            case .overTheLargest:
                return "is over the largest budget, 1000000000 US dollars"
            }
        }
    }

    /// The amount `text` writes, in microdollars, exactly. Throws the `Refusal` that says what is wrong with it.
    public static func microdollars(_ text: String) throws(Refusal) -> Int64 {
        let bytes = Array(text.utf8)
        let point = bytes.firstIndex(of: 0x2E)
        let whole = bytes[..<(point ?? bytes.endIndex)]
        let fraction = point.map { bytes[($0 + 1)...] } ?? []
        func isDigits(_ part: ArraySlice<UInt8>) -> Bool { !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard isDigits(whole), point == nil || isDigits(fraction) else { throw .notPlainDecimal }
        guard fraction.count <= decimalPlaces else { throw .finerThanAMicrodollar }
        let largest = Int64(TokenLimits.maximumBudgetUSD)
        var dollars: Int64 = 0
        for digit in whole {
            dollars = dollars * 10 + Int64(digit - 0x30)
            if dollars > largest { throw .overTheLargest }  // checked per digit: a thousand-digit amount never overflows
        }
        var micro = dollars * 1_000_000
        var scale: Int64 = 100_000
        for digit in fraction {
            micro += Int64(digit - 0x30) * scale
            scale /= 10
        }
        guard micro <= largest * 1_000_000 else { throw .overTheLargest }
        return micro
    }

    /// The amount `text` writes, in US dollars (the nearest `Double`, which reads back as the same microdollars).
    public static func dollars(_ text: String) throws(Refusal) -> Double {
        Double(try microdollars(text)) / 1_000_000
    }

    /// `usd` as plain decimal dollars, to the microdollar, without trailing zeros (`5`, `5.25`, `0.000001`): the way
    /// budgets are shown and written back, so a shown budget is always one `dollars(_:)` reads (Swift's own `1e-06`
    /// is not).
    public static func text(_ usd: Double) -> String {
        let micro = UsageRecord.microdollars(usd) ?? 0
        let sign = micro < 0 ? "-" : ""
        let magnitude = micro.magnitude
        let whole = magnitude / 1_000_000
        var fraction = String(magnitude % 1_000_000)
        guard fraction != "0" else { return sign + String(whole) }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + "." + fraction
    }
}
