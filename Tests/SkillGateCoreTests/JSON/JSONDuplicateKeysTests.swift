import SkillGateTestSupport
import Testing
@testable import SkillGateCore

/// `JSONDuplicateKeys.refused` (decision 0093): an object anywhere in the document that names a key twice, compared by
/// decoded value, is refused at the second occurrence by every reader alike (the tree parser, the cursor reading,
/// skipping or keeping a value's bytes), with the same error; anything else reads as with `.allowed`.
@Suite struct JSONDuplicateKeysTests {
    static func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        Result { () throws(JSONSyntaxError) in try JSONValue.parse(bytes, duplicateKeys: .refused) }
    }

    static func viaCursor<R>(_ bytes: [UInt8], _ body: (inout JSONCursor) throws(JSONSyntaxError) -> R) -> Result<R, JSONSyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer, duplicateKeys: .refused, body) }
        }
    }

    /// Reads a document by keeping the bytes of every object and array it meets (as a body reader keeps a tool's
    /// schema), so only the skipping walk checks them.
    static func keepingBytes(_ c: inout JSONCursor) throws(JSONSyntaxError) -> Int {
        if let bytes = try c.readObjectBytes() { return bytes.count }
        if let bytes = try c.readArrayBytes() { return bytes.count }
        try c.skipValue()
        return 0
    }

    /// The error of each reader on `text`: the tree, the cursor rebuilding it, the cursor skipping it, and the cursor
    /// keeping its containers' bytes.
    static func errors(_ text: String) -> [JSONSyntaxError?] {
        let bytes = Array(text.utf8)
        return [parse(bytes).syntaxError, viaCursor(bytes, JSONTestReaders.rebuild).syntaxError,
                viaCursor(bytes) { _ throws(JSONSyntaxError) in }.syntaxError, viaCursor(bytes, keepingBytes).syntaxError]
    }

    /// Documents with a repeated key: the key as the error shows it, where it comes again and where it came first.
    static let refused: [(text: String, shown: String, offset: Int, first: Int)] = [
        (#"{"model":"a","model":"b"}"#, #""model""#, 13, 1),
        (#"{"a":{"x":1,"y":2,"x":3}}"#, #""x""#, 18, 6),
        (#"[{"k":1},{"j":[{"k":1}],"k":2,"k":3}]"#, #""k""#, 30, 24),
        (#"{"model":1,"\u006dodel":2}"#, #""model""#, 11, 1),
        (#"{"\u0061":1, "\u0061" :2}"#, #""a""#, 13, 1),
        (#"{"é":1,"\u00e9":2}"#, #""é""#, 8, 1),
        (#"{"\ud83d\ude00":1,"😀":2}"#, #""😀""#, 18, 1),
        (#"{"":1,"":2}"#, #""""#, 6, 1),
        (#"{"a":{"b":1},"a":2}"#, #""a""#, 13, 1),
        (#"{"a\"b\n":1,"a\"b\n":2}"#, #""a\"b\n""#, 12, 1),
        (#"{"x":[{"tools":[{"function":{"parameters":{"type":"object","type":"string"}}}]}]}"#, #""type""#, 59, 43),
    ]

    @Test(arguments: refused)
    func aRepeatedKeyIsRefusedByEveryReaderAtItsSecondOccurrence(_ text: String, _ shown: String, _ offset: Int, _ first: Int) {
        let errors = Self.errors(text)
        let expected = JSONSyntaxError(reason: "the key \(shown) appears twice in one object (first at byte \(first)); send each key once",
                                       offset: offset)
        #expect(errors == [expected, expected, expected, expected], "\(text)")
        #expect(expected.description.hasPrefix("invalid JSON at byte \(offset): the key \(shown) appears twice"))
        // Read as before, the same document is accepted, and a lookup finds the first occurrence.
        #expect((try? JSONValue.parse(Array(text.utf8))) != nil)
    }

    /// Documents without a repeated key in any one object: accepted, and read as with `.allowed`.
    static let accepted: [String] = [
        #"[{"a":1},{"a":2},{"a":{"a":{"a":3}}}]"#,
        #"{"a":{"b":1},"b":{"a":2},"c":[{"b":3},{"b":4}]}"#,
        #"{"ab":1,"a":2,"abc":3,"b":4,"ba":5,"A":6}"#,
        #"{"a\n":1,"a":2,"a\\n":3,"\u0041":4}"#,
        #"{"é":1,"e\u0301":2}"#,   // canonically equivalent, but other code points: other keys (no normalisation)
        #"{"x":{}, "y":{}, "z":[], "":{"":{}}}"#,
        #"{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"type":{"type":"string"}}}}}]}"#,
    ]

    @Test(arguments: accepted)
    func keysRepeatedOnlyAcrossObjectsAreAccepted(_ text: String) throws {
        let bytes = Array(text.utf8)
        let value = try JSONValue.parse(bytes)
        #expect(Self.parse(bytes) == .success(value))
        #expect(Self.viaCursor(bytes, JSONTestReaders.rebuild) == .success(value))
        #expect(Self.errors(text) == [nil, nil, nil, nil])
    }

    /// An object of `count` distinct keys (`k0`, `k1`, ...; every tenth written with an escape), with `tail` after its
    /// last member.
    static func wideObject(_ count: Int, tail: String = "") -> String {
        var text = "{"
        for i in 0..<count {
            if i > 0 { text += "," }
            text += i % 10 == 7 ? #""\u006b\#(i)":\#(i)"# : #""k\#(i)":\#(i)"#
        }
        return text + tail + "}"
    }

    /// Objects past the one-by-one comparisons go to a hash table: still every repeated key is found (a plain key or
    /// one with an escape, early or late, the table's own or a nested object's), and distinct keys pass. 20,000 keys
    /// compared one by one would be 200 million comparisons; looked up, it is 20,000. The documents are read on a
    /// thread of their own (`offThePool`): at 20,000 keys that is seconds of CPU in a debug build, which a thread of the
    /// shared task pool would hold.
    @Test(arguments: [16, 17, 40, 20_000])
    func wideObjectsFindEveryRepeatedKey(count: Int) async throws {
        let repeatedKeys = [0, 7, count / 2, count - 1]
        let read = try await offThePool { () -> (distinct: [JSONSyntaxError?], repeated: [(offset: Int, errors: [JSONSyntaxError?])],
                                                 nested: [JSONSyntaxError?], outerAgain: [JSONSyntaxError?]) in
            let repeated = repeatedKeys.map { repeated in
                let text = Self.wideObject(count, tail: #","k\#(repeated)":0"#)
                return (text.utf8.count - #""k\#(repeated)":0}"#.utf8.count, Self.errors(text))
            }
            // A table stays with its object: a nested object's keys are checked in their own, and the outer one's table
            // is there again once the nested object closes.
            let nested = Self.wideObject(count, tail: #","inner":\#(Self.wideObject(count)),"inner2":{"k1":1,"k1":2}"#)
            let outerAgain = Self.wideObject(count, tail: #","inner":\#(Self.wideObject(count)),"k3":0"#)
            return (Self.errors(Self.wideObject(count)), repeated, Self.errors(nested), Self.errors(outerAgain))
        }
        #expect(read.distinct == [nil, nil, nil, nil])
        for (repeated, (offset, errors)) in zip(repeatedKeys, read.repeated) {
            for error in errors {
                #expect(error?.offset == offset, "key k\(repeated) of \(count)")
                #expect(error?.reason.hasPrefix("the key \"k\(repeated)\" appears twice") == true)
            }
        }
        #expect(read.nested.allSatisfy { $0?.reason.hasPrefix("the key \"k1\" appears twice") == true })
        #expect(read.outerAgain.allSatisfy { $0?.reason.hasPrefix("the key \"k3\" appears twice") == true })
    }

    @Test func aLongKeyIsShownCut() {
        let key = String(repeating: "k", count: 100)
        let error = Self.parse(Array(#"{"\#(key)":1,"\#(key)":2}"#.utf8)).syntaxError
        #expect(error?.reason == "the key \"\(String(repeating: "k", count: 64))\"… appears twice in one object (first at byte 1); send each key once")
    }

    @Test func withDuplicateKeysAllowedTheFirstOccurrenceCounts() throws {
        let bytes = Array(#"{"model":"a","model":"b","\u006dodel":"c"}"#.utf8)
        #expect(try JSONValue.parse(bytes)["model"] == "a")
        #expect(try JSONValue.parse(bytes, duplicateKeys: .allowed)["model"] == "a")
        let read = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) in try JSONCursor.read(buffer) { (c) throws(JSONSyntaxError) in c.duplicateKeys } }
        }
        #expect(read == .success(.allowed))
    }

    /// A reader that goes back to a mark after a failed try (its own error, mid-object) finds the keys as they were
    /// there: the inner object's keys are not counted against the outer one's.
    @Test func goingBackToAMarkForgetsTheKeysReadSince() {
        let bytes = Array(#"{"a":{"x":1,"y":{"z":2}},"x":3,"y":4}"#.utf8)
        let result = Self.viaCursor(bytes) { (c) throws(JSONSyntaxError) -> [String] in
            var keys: [String] = []
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                keys.append(key.string)
                guard key == "a" else { return }
                let mark = c.mark
                do {
                    _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                        _ = try c.readObject { (_, _) throws(JSONSyntaxError) in throw JSONSyntaxError(reason: "a reader's own", offset: 0) }
                    }
                } catch {}
                c.restore(mark)
                let value = try c.readValue()
                #expect(value["y"]?["z"] == 2)
            }
            return keys
        }
        #expect(result == .success(["a", "x", "y"]))
    }
}

extension Result where Failure == JSONSyntaxError {
    /// The error, or `nil` for a success.
    var syntaxError: JSONSyntaxError? { if case .failure(let e) = self { return e } else { return nil } }
}
