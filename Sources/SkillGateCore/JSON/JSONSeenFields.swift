/// The fields a `JSONCursor` reader has already met in one object, so it reads only the first
/// occurrence of a repeated key — the member a `JSONValue` lookup would find — and a reader
/// without a tree answers as a lookup in the tree would.
///
/// This is for documents read with `JSONDuplicateKeys.allowed`: bodies from upstream providers
/// (stream events, whole answers), where the first occurrence counts. A body a client sends is read
/// with `.refused`, and a repeated key is an error before its value is read (decision 0093), so
/// its readers need no such record.
///
/// `Field` is the reader's own enumeration of the keys it reads, with raw values 0 to 63.
public struct JSONSeenFields<Field: RawRepresentable> where Field.RawValue == Int {
    @usableFromInline var bits: UInt64 = 0

    @inlinable public init() {}

    /// Marks `field` as met; `true` the first time.
    @inlinable @inline(__always)
    public mutating func first(_ field: Field) -> Bool {
        let bit: UInt64 = 1 << UInt64(field.rawValue)
        defer { bits |= bit }
        return bits & bit == 0
    }
}
