/// What SkillGate's JSON readers (`JSONValue.parse`, `JSONCursor.read`) do with an object that names a key twice.
///
/// RFC 8259 leaves it open ("the names within an object SHOULD be unique"); parsers differ: SkillGate's keep the first
/// occurrence, Python's and JavaScript's the last. A body a client sends is read with `.refused` (I-JSON, RFC 7493
/// §2.3), so a proxy in front of the gateway that checks one occurrence cannot be shown a body the gateway reads
/// otherwise (decision 0093). Bodies from upstream providers, and the arguments a model writes for a tool, are read
/// with `.allowed`: the first occurrence counts, as it always did.
public enum JSONDuplicateKeys: Sendable, Hashable {
    /// A repeated key is accepted; a lookup in the tree (`JSONObject`'s subscript) and the readers that keep to it
    /// (`JSONSeenFields`) take the first occurrence.
    case allowed
    /// A repeated key anywhere in the document, in a value that is read, skipped or kept as bytes alike, is a
    /// `JSONSyntaxError` at the second occurrence's opening quote that names the key and where it came first. Keys are
    /// compared by their decoded value (`"\u006dodel"` is `"model"`), byte for byte (no Unicode normalisation, as in
    /// I-JSON).
    case refused
}
