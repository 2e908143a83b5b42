/// A tool's parameter schema: a JSON Schema object.
///
/// A schema decoded from a client's request is kept as its compact JSON text — byte for byte what
/// serialising its tree would give — so a request passed on to a provider copies those bytes instead of
/// building a tree and writing it out again (tool schemas are most of a tool-using request's JSON).
/// The tree is built only when someone asks for `value` (a format that rewrites schemas, argument
/// validation, skill ranking), and then kept beside the text for every copy of the schema (up to `treeKeepLimit` bytes
/// of text), so an answer's calls are checked against it without parsing it again. Equality and hashing do not depend
/// on which form a schema is kept in.
///
/// A wire format that rewrites schemas (Gemini's sanitiser) keeps its rewrite beside a schema kept as text (`derived`),
/// made once and shared by every copy of the schema: a tool list from the tool-list cache is rewritten once, not per
/// request.
public struct ToolSchema: Sendable, Hashable {
    private enum Storage: Sendable {
        case tree(JSONValue)
        /// Compact JSON text, equal to the serialisation of its tree, with the forms derived from it.
        case text(KeptText)
    }

    private let storage: Storage

    /// The schema of a tool that takes no arguments: `{"type":"object","properties":{}}` (what a tool declared without
    /// `parameters` gets).
    public static let emptyObject = ToolSchema(keepingTextOf: ["type": "object", "properties": [:]])

    /// A schema from its tree.
    public init(_ value: JSONValue) { storage = .tree(value) }

    /// A schema from its tree, kept as its compact text: for a schema written out on many requests (one in a cached
    /// tool list) and seldom read as a tree. Writing it is then a copy. The tree is kept too (within `treeKeepLimit`).
    public init(keepingTextOf value: JSONValue) {
        let text = value.serializedBytes()
        // `JSONValue` is itself expressible by `nil` (JSON's null), so the absent tree is spelled out.
        let tree: JSONValue? = text.count <= Self.treeKeepLimit ? .some(value) : .none
        storage = .text(KeptText(text, tree: tree))
    }

    /// The longest text whose tree a schema kept as text keeps once it is built: 16 KiB, far above a typical tool's
    /// schema (a few hundred bytes), so that a cached tool list's trees stay a small multiple of its bounded text.
    public static let treeKeepLimit = 16 << 10

    /// A schema from the source bytes of a JSON object that a `JSONCursor` has already checked
    /// (`JSONCursor.readObjectBytes`), kept as text. Whitespace between tokens is dropped; a schema with an escape in
    /// one of its strings is parsed and its tree written out instead, since its compact text is not a plain copy of the
    /// input (`\u00e9` is written `é`).
    public init(checkedObject bytes: UnsafeBufferPointer<UInt8>) {
        let text = Self.compacted(bytes) ?? ((try? JSONValue.parse(bytes)) ?? .object(JSONObject())).serializedBytes()
        storage = .text(KeptText(text))
    }

    /// The schema as a tree. For a schema kept as text, built from the text on the first call and kept for the next
    /// ones, shared by every copy (a text longer than `treeKeepLimit` is parsed on each call).
    public var value: JSONValue {
        switch storage {
        case .tree(let value): return value
        case .text(let kept): return kept.tree()
        }
    }

    /// Whether this schema, kept as text, keeps its tree now (for tests).
    var keepsTree: Bool { if case .text(let kept) = storage { return kept.keepsTree } else { return false } }

    /// Whether the schema is kept as text (for tests and benchmarks).
    public var isText: Bool { if case .text = storage { return true } else { return false } }

    /// The same schema kept as text: itself when it already is, otherwise its tree written out once. For a schema that
    /// lives long and goes out on many requests (a server-side skill's), so each body copies it and the forms derived
    /// from it are made once.
    public var keptAsText: ToolSchema {
        guard case .tree(let value) = storage else { return self }
        return ToolSchema(keepingTextOf: value)
    }

    /// Appends the compact JSON text of the schema to `out`.
    public func write(to out: inout [UInt8]) {
        switch storage {
        case .tree(let value): value.write(to: &out)
        case .text(let kept): out.append(contentsOf: kept.bytes)
        }
    }

    /// The compact JSON text (a copy of the text when kept as text).
    public var compactText: [UInt8] {
        switch storage {
        case .tree(let value): return value.serializedBytes()
        case .text(let kept): return kept.bytes
        }
    }

    /// The bytes `make` derives from this schema. For a schema kept as text (how a client's schemas are decoded and kept
    /// in the tool-list cache), made on the first call for `form` and kept for every copy of the schema; for a tree
    /// (a server-side skill's, made per request), made on each call. `make` must be a pure function of the schema (two
    /// racing first calls may both run it; one result is kept).
    public func derived(_ form: DerivedForm, _ make: (ToolSchema) -> [UInt8]) -> [UInt8] {
        guard case .text(let kept) = storage else { return make(self) }
        if let bytes = kept.derived(form) { return bytes }
        return kept.keep(make(self), for: form)
    }

    public static func == (a: ToolSchema, b: ToolSchema) -> Bool {
        switch (a.storage, b.storage) {
        case (.tree(let x), .tree(let y)): return x == y
        case (.text(let x), .text(let y)): return x === y || x.bytes == y.bytes
        default: return a.compactText == b.compactText   // the serialisation of a tree is one-to-one
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(compactText) }

    /// `bytes` without whitespace between tokens, or `nil` when a string in it has an escape.
    static func compacted(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = bytes.baseAddress else { return [] }
        let end = bytes.count
        var escaped = false
        let out = [UInt8](unsafeUninitializedCapacity: end) { out, count in
            let to = out.baseAddress!
            var i = 0, n = 0
            while i < end {
                let b = base[i]
                if b == UInt8(ascii: "\"") {
                    // A string is copied whole, up to its closing quote, found a word at a time; the input
                    // was checked, so the only other byte that can stop the scan is an escape's backslash.
                    var high: UInt8 = 0
                    let close = ByteScan.jsonStringStop(in: base, from: i + 1, to: end, high: &high)
                    guard close < end, base[close] == UInt8(ascii: "\"") else { escaped = true; break }
                    (to + n).update(from: base + i, count: close + 1 - i)
                    n += close + 1 - i
                    i = close + 1
                    continue
                }
                i += 1
                switch b {
                case 0x20, 0x0A, 0x0D, 0x09: continue
                default: to[n] = b; n += 1
                }
            }
            count = n
        }
        return escaped ? nil : out
    }
}
