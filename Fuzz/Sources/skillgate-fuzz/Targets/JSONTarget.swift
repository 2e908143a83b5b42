import SkillGateCore

/// `JSONValue.parse` and `JSONCursor` (SkillGateCore/JSON). Invariants: the tree parser, the
/// cursor reading the whole value, the cursor walking by kind and the cursor skipping all accept
/// and reject the same documents with the same error, with repeated keys allowed or refused; refusing
/// them accepts the same value or fails on a repeated key; an accepted document serializes to text that
/// parses back to the same value, and serializing that value again gives the same text.
enum JSONTarget: FuzzTarget {
    static func run(_ data: [UInt8]) {
        let tree = Result { () throws(JSONSyntaxError) in try JSONValue.parse(data) }
        checkRefusingDuplicateKeys(data, allowed: tree)
        data.withUnsafeBufferPointer { buffer in
            let read = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try c.readValue() } }
            invariant(read == tree, "cursor.readValue \(read) != parse \(tree)")
            let walked = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in try walk(&c) } }
            invariant(walked == tree, "cursor walk \(walked) != parse \(tree)")
            let skipped = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer) { _ throws(JSONSyntaxError) in } }
            invariant(skipped.error == tree.error, "cursor skip \(skipped) disagrees with parse \(tree)")
        }
        _ = try? JSONValue.parse(data, maxDepth: 4)
        guard case .success(let value) = tree else { return }
        let text = value.serializedBytes()
        let again = Result { () throws(JSONSyntaxError) in try JSONValue.parse(text) }
        invariant(again == .success(value), "round trip: \(again) != \(value)")
        invariant(value.serialized() == String(decoding: text, as: UTF8.self), "serialized() != serializedBytes()")
        if case .success(let v2) = again { invariant(v2.serializedBytes() == text, "serialization not stable") }
    }

    /// `JSONDuplicateKeys.refused`: every reader agrees, and a document is refused only for a repeated key (decision 0093).
    static func checkRefusingDuplicateKeys(_ data: [UInt8], allowed: Result<JSONValue, JSONSyntaxError>) {
        let tree = Result { () throws(JSONSyntaxError) in try JSONValue.parse(data, duplicateKeys: .refused) }
        data.withUnsafeBufferPointer { buffer in
            let walked = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer, duplicateKeys: .refused) { (c) throws(JSONSyntaxError) in try walk(&c) } }
            invariant(walked == tree, "refusing duplicate keys: cursor walk \(walked) != parse \(tree)")
            let skipped = Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer, duplicateKeys: .refused) { _ throws(JSONSyntaxError) in } }
            invariant(skipped.error == tree.error, "refusing duplicate keys: cursor skip \(skipped) disagrees with parse \(tree)")
        }
        switch (tree, allowed) {
        case (.success(let a), .success(let b)): invariant(a == b, "refusing duplicate keys changed the value: \(a) != \(b)")
        case (.failure(let e), .success): invariant(e.reason.contains("appears twice in one object"), "refused for another reason: \(e)")
        case (.failure, .failure): break   // the same syntax error, or a repeated key met before it
        case (.success, .failure(let e)): invariant(false, "refusing duplicate keys accepted a document that fails: \(e)")
        }
    }

    /// Rebuilds the value through the cursor's typed readers, chosen by `kind`.
    static func walk(_ c: inout JSONCursor) throws(JSONSyntaxError) -> JSONValue {
        switch c.kind {
        case .object?:
            var members: [JSONObject.Member] = []
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in members.append(.init(key: key.string, value: try walk(&c))) }
            return .object(JSONObject(members))
        case .array?:
            var elements: [JSONValue] = []
            _ = try c.readArray { (c) throws(JSONSyntaxError) in elements.append(try walk(&c)) }
            return .array(elements)
        case .string?:
            return .string(try c.readString()!)
        case .bool?:
            guard let b = try c.readBool() else { return try c.readValue() }
            return .bool(b)
        case .number?, .null?, nil:
            return try c.readValue()
        }
    }

    static func seeds(_ fixtures: Fixtures) -> [[UInt8]] {
        fixtures.allJSON() + [Array(#"{"a":[1,-0.5e+3,true,false,null,"\u00e9\ud83d\ude00\n"],"a":{}}"#.utf8)]
    }
}

extension Result {
    var error: Failure? { if case .failure(let e) = self { return e } else { return nil } }
}
