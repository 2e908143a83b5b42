#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// A JSON number as its literal text, so a value passed through SkillGate keeps its digits
/// (`12345678901234567890` and `1.50` are written back as they came, not rounded through `Double`).
public struct JSONNumber: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number's JSON text (`42`, `-1.5e3`).
    public let text: String

    /// The shortest text that reads back as `value` (integral values below 10^15 without a fraction).
    public init(_ value: Double) {
        text = String(decoding: JSONText.number(value), as: UTF8.self)
    }

    /// An integer.
    public init<I: BinaryInteger>(_ value: I) {
        text = String(describing: value)
    }

    /// A JSON number literal, or `nil` when `literal` is not one (RFC 8259 grammar).
    public init?(literal: String) {
        guard Self.isNumberLiteral(literal) else { return nil }
        text = literal
    }

    private init(rawText: String) { text = rawText }

    /// The value as a `Double` (large integers round).
    public var doubleValue: Double { Double(text) ?? .nan }

    /// The value as an `Int`, when the text is an integer that fits.
    public var intValue: Int? { Int(text) }

    public var description: String { text }

    /// Decodes any JSON number exactly (through `Decimal`, which keeps up to 38 digits).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let i = try? container.decode(Int64.self) {
            self.init(i)
        } else {
            self.init(rawText: try container.decode(Decimal.self).description)
        }
    }

    /// Writes the literal: exactly with SkillGate's `CompactJSONEncoder`, as a `Decimal` with
    /// Foundation's `JSONEncoder`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let i = Int64(text) { try container.encode(i) } else if let d = Decimal(string: text) { try container.encode(d) } else { try container.encode(doubleValue) }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    static func isNumberLiteral(_ s: String) -> Bool {
        var bytes = Array(s.utf8)[...]
        func digits() -> Int {
            var n = 0
            while let b = bytes.first, b >= 0x30, b <= 0x39 { bytes = bytes.dropFirst(); n += 1 }
            return n
        }
        if bytes.first == 0x2D { bytes = bytes.dropFirst() }
        if bytes.first == 0x30 { bytes = bytes.dropFirst() } else if digits() == 0 { return false }
        if bytes.first == 0x2E { bytes = bytes.dropFirst(); if digits() == 0 { return false } }
        if bytes.first == 0x65 || bytes.first == 0x45 {
            bytes = bytes.dropFirst()
            if bytes.first == 0x2B || bytes.first == 0x2D { bytes = bytes.dropFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
