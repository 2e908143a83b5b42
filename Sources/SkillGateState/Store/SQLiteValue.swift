/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text given as its UTF-8 bytes (stored as TEXT, like `.text`, without making a `String` first).
    case utf8([UInt8])
    case blob([UInt8])

    /// `.integer`, or `.null` for nil.
    public static func int(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    /// `.integer`, or `.null` for nil.
    public static func int64(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    /// `.text`, or `.null` for nil.
    public static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
