/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate every server sends (`Sun, 06 Nov 1994 08:49:37 GMT`) and the
/// obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, parsed to
/// seconds since 1970 without a locale-aware date formatter.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Seconds since 1970-01-01 UTC, or `nil` when `text` is no HTTP date.
    public static func secondsSince1970(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
        let day: Int?, month: Int?, year: Int?, time: String
        switch parts.count {
        case 6 where parts[5] == "gmt":                                    // IMF-fixdate
            (day, month, year, time) = (Int(parts[1]), months.firstIndex(of: parts[2]), Int(parts[3]), parts[4])
        case 4 where parts[3] == "gmt":                                    // RFC 850
            let d = parts[1].split(separator: "-").map(String.init)
            guard d.count == 3, let yy = Int(d[2]), d[2].count == 2 else { return nil }
            (day, month, year, time) = (Int(d[0]), months.firstIndex(of: d[1]), yy < 70 ? 2000 + yy : 1900 + yy, parts[2])
        case 5:                                                            // asctime
            (day, month, year, time) = (Int(parts[2]), months.firstIndex(of: parts[1]), Int(parts[4]), parts[3])
        default:
            return nil
        }
        guard let day, let month, let year, (1...31).contains(day), (1600...9999).contains(year),
              let (h, m, s) = clock(time) else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: month + 1, day: day)
        return Double(days * 86_400 + h * 3600 + m * 60 + s)
    }

    private static func clock(_ text: String) -> (Int, Int, Int)? {
        let f = text.split(separator: ":").compactMap { Int($0) }
        guard f.count == 3, (0..<24).contains(f[0]), (0..<60).contains(f[1]), (0...60).contains(f[2]) else { return nil }
        return (f[0], f[1], f[2])
    }
}
