/// The object and array grammar, written once: building a tree (`parseValue`), skipping a value
/// (`skipValue`) and walking it with a `JSONCursor` all go through these two walks, so they
/// count nesting against the same limit and fail with the same errors at the same offsets.
extension JSONParser {
    /// Counts one more level of nesting; fails past `maxDepth`.
    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
    }

    /// Walks the object whose `{` is at `index`: `key` reads each key (its opening quote at
    /// `index`), then `member` gets the key with `index` at the member's value (whitespace
    /// skipped) and must move past that value. `member` owns the key, so the tree parser moves it
    /// into the member it builds (a borrowed key cost a copy per member, ~5 % of a parse).
    /// With `refusesDuplicateKeys`, each key is checked against the object's earlier ones as it is
    /// read (`registerKey`), before its value, whoever reads the object.
    @inline(__always)
    mutating func walkObject<Key>(key: (inout JSONParser) throws(JSONSyntaxError) -> Key,
                                  _ member: (inout JSONParser, consuming Key) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        let firstKey = refusesDuplicateKeys ? keys.spans.count : 0
        try walk(closer: UInt8(ascii: "}"), name: "object") { (p) throws(JSONSyntaxError) in
            guard p.next == UInt8(ascii: "\"") else { throw p.fail("expected a string key in an object") }
            let quote = p.index
            p.sawEscape = false
            let name = try key(&p)
            if p.refusesDuplicateKeys { try p.registerKey(quoteAt: quote, objectFrom: firstKey) }
            p.skipWhitespace()
            guard p.next == UInt8(ascii: ":") else { throw p.fail("expected ':' after an object key") }
            p.index += 1
            p.skipWhitespace()
            try member(&p, name)
        }
        if refusesDuplicateKeys { keys.close(from: firstKey) }
    }

    /// Walks the array whose `[` is at `index`: `element` is called with `index` at each element
    /// (whitespace skipped) and must move past it.
    @inline(__always)
    mutating func walkArray(_ element: (inout JSONParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        try walk(closer: UInt8(ascii: "]"), name: "array", element)
    }

    /// The part objects and arrays share: the opening byte at `index`, then items separated by
    /// commas up to `closer`, with whitespace around each; `item` reads one (whitespace skipped).
    @inline(__always)
    private mutating func walk(closer: UInt8, name: StaticString,
                               _ item: (inout JSONParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        try enter()
        index += 1
        skipWhitespace()
        if next == closer {
            index += 1; depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try item(&self)
            skipWhitespace()
            guard let b = next else { throw fail("unexpected end of input inside an \(name)") }
            if b == UInt8(ascii: ",") { index += 1; continue }
            if b == closer { index += 1; break }
            throw fail("expected ',' or '\(Unicode.Scalar(closer))' in an \(name)")
        }
        depth -= 1
    }
}
