import Foundation
@testable import SkillGateCore

/// Foundation's `JSONSerialization` as the reference reader, and the comparison of its values
/// with SkillGate's.
enum FoundationJSON {
    /// Foundation's reading of `bytes` (top-level scalars allowed), or `nil` when it rejects them.
    static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    private static let booleanType = type(of: NSNumber(value: true))

    /// Where `ours` and Foundation's `theirs` differ (a path and both values), or `nil` when they
    /// hold the same value. Strings are compared scalar by scalar (not by canonical equivalence);
    /// integers exactly, by their digits (a `Double` would merge neighbours past 2^53); other
    /// numbers as `Double`, or as `Decimal` where Foundation kept a long mantissa as a decimal
    /// (its conversion of those to `Double` is not correctly rounded).
    static func difference(_ ours: JSONValue, _ theirs: Any, path: String = "$") -> String? {
        let mismatch = "\(path): ours \(ours), Foundation's \(theirs) (\(type(of: theirs)))"
        switch ours {
        case .null:
            return theirs is NSNull ? nil : mismatch
        case .bool(let b):
            guard let n = theirs as? NSNumber, type(of: n) == booleanType, n.boolValue == b else { return mismatch }
            return nil
        case .number(let literal):
            guard let n = theirs as? NSNumber, type(of: n) != booleanType else { return mismatch }
            return sameNumber(literal, n) ? nil : mismatch
        case .string(let s):
            guard let t = theirs as? String, Array(s.unicodeScalars) == Array(t.unicodeScalars) else { return mismatch }
            return nil
        case .array(let elements):
            guard let items = theirs as? [Any], items.count == elements.count else { return mismatch }
            for (i, (a, b)) in zip(elements, items).enumerated() {
                if let d = difference(a, b, path: "\(path)[\(i)]") { return d }
            }
            return nil
        case .object(let object):
            guard let members = theirs as? [String: Any], members.count == object.count else { return mismatch }
            for m in object {
                guard let value = members[m.key] else { return "\(path): Foundation has no member \(m.key)" }
                if let d = difference(m.value, value, path: "\(path).\(m.key)") { return d }
            }
            return nil
        }
    }

    private static func sameNumber(_ literal: String, _ n: NSNumber) -> Bool {
        let isInteger = !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if isInteger {
            var digits = Substring(literal)
            if digits.allSatisfy({ $0 == "-" || $0 == "0" }) { digits = "0" }  // -0 reads as 0
            return String(digits) == n.stringValue
        }
        if let decimal = n as? NSDecimalNumber {
            return Decimal(string: literal) == decimal.decimalValue
        }
        return Double(literal) == n.doubleValue
    }
}
