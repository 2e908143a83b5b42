import Testing
@testable import SkillGateCore

/// The cursor must accept and reject exactly what `JSONValue.parse` does, with the same error
/// (reason and offset), whatever the reader reads or leaves to be skipped.
@Suite struct JSONCursorTests {
    static let documents: [String] = [
        #"{"a":1,"b":[true,false,null],"c":"x"}"#, #"[1.5,-0,2e10,-1.25E-3,12345678901234567890]"#,
        #"{"nested":{"deep":[{"k":"v"}]},"empty":{},"list":[]}"#, #""plain""#, " { \"a\" : [ 1 , 2 ] } ",
        #"{"s":"a\"b\\c\/d\n\t\u00e9\ud83d\ude00","é":"ü","k\u0065y":1}"#,
        "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "1e", "-", "\"unterminated", "{\"a\":1} x", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\u12\"", "\"\\x\"", "[\"\u{01}\"]", "{,}", "{\"a\":1,}", "[1 2]",
        "{\"a\":{\"b\":[1,}}", "{\"a\":\"ok\",\"b\":nul}", "{\"k\\q\":1}", "{1:2}", "[{}, {\"x\": [true, fals]}]",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
        "{\"a\":" + String(repeating: "[", count: 255) + String(repeating: "]", count: 255) + "}",
    ]

    @Test(arguments: documents)
    func skippingEverythingAcceptsAndRejectsAsTheParser(_ text: String) {
        let bytes = Array(text.utf8)
        let skipped = JSONTestReaders.viaCursor(bytes) { _ in }
        switch (JSONTestReaders.viaParse(bytes), skipped) {
        case (.success, .success): break
        case (.failure(let a), .failure(let b)): #expect(a == b)
        case (let a, let b): Issue.record("parser \(a) but cursor \(b)")
        }
    }

    @Test(arguments: documents)
    func readingEverythingGivesTheParsersValueOrError(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(JSONTestReaders.viaCursor(bytes, JSONTestReaders.rebuild) == JSONTestReaders.viaParse(bytes))
    }

    @Test(arguments: documents)
    func readingOneMemberStillChecksTheRest(_ text: String) {
        let bytes = Array(text.utf8)
        let result = JSONTestReaders.viaCursor(bytes) { (c) throws(JSONSyntaxError) -> String? in
            var found: String?
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in if key == "c" { found = try c.readString() } }
            return found
        }
        switch (JSONTestReaders.viaParse(bytes), result) {
        case (.success(let v), .success(let found)): #expect(found == v["c"]?.stringValue)
        case (.failure(let a), .failure(let b)): #expect(a == b)
        case (let a, let b): Issue.record("parser \(a) but cursor \(b)")
        }
    }

    @Test func invalidUTF8IsRejectedInSkippedStringsAndKeys() {
        for bytes in [[0x22, 0xC3, 0x22] as [UInt8], [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0x5B, 0x22, 0x61, 0xE2, 0x82, 0x22, 0x5D]] {
            guard case .failure(let expected) = JSONTestReaders.viaParse(bytes) else { Issue.record("parser accepted \(bytes)"); continue }
            #expect(JSONTestReaders.viaCursor(bytes) { _ in 0 } == .failure(expected))
            #expect(JSONTestReaders.viaCursor(bytes, JSONTestReaders.rebuild) == .failure(expected))
        }
    }

    @Test func typedReadersSkipOtherKindsAndGiveNil() throws {
        let text = #"{"s":"x","b":true,"i":42,"f":1.5,"big":1e3,"n":null,"o":{"k":[1]},"s2":7,"b2":"true","i2":"1"}"#
        let read = try JSONTestReaders.viaCursor(Array(text.utf8)) { (c) throws(JSONSyntaxError) -> [String] in
            var out: [String] = []
            _ = try c.readObject { (c, key) throws(JSONSyntaxError) in
                switch key {
                case "s", "s2", "o": out.append("\(key.string)=\(try c.readString() ?? "nil")")
                case "b", "b2", "n": out.append("\(key.string)=\(try c.readBool().map(String.init) ?? "nil")")
                default: out.append("\(key.string)=\(try c.readInt().map(String.init) ?? "nil")")
                }
            }
            return out
        }.get()
        #expect(read == ["s=x", "b=true", "i=42", "f=nil", "big=1000", "n=nil", "o=nil", "s2=nil", "b2=nil", "i2=nil"])
    }

    @Test func escapedAndNonASCIIKeysMatchTheirDecodedText() throws {
        let text = #"{"na\u006De":1,"é":2,"plain":3}"#
        let keys = try JSONTestReaders.viaCursor(Array(text.utf8)) { (c) throws(JSONSyntaxError) -> [Bool] in
            var matches: [Bool] = []
            _ = try c.readObject { (_, key) throws(JSONSyntaxError) in
                matches.append(key == "name" || key == "é" || key == "plain")
                #expect(!(key == "nam"))
            }
            return matches
        }.get()
        #expect(keys == [true, true, true])
    }

    @Test func readersReportWhetherTheValueHadTheirKind() throws {
        let kinds = try JSONTestReaders.viaCursor(Array(#"[{}, [], "x", 1]"#.utf8)) { (c) throws(JSONSyntaxError) -> [String] in
            var out: [String] = []
            _ = try c.readArray { (c) throws(JSONSyntaxError) in
                if try c.readObject({ _, _ in }) { out.append("object") }
                else if try c.readArray({ _ in }) { out.append("array") }
                else { out.append("other") }
            }
            return out
        }.get()
        #expect(kinds == ["object", "array", "other", "other"])
    }

    @Test(arguments: [
        ("{}", JSONCursor.Kind.object), ("[]", .array), (#""s""#, .string), ("-1", .number), ("7", .number),
        ("true", .bool), ("false", .bool), ("null", .null),
    ])
    func kindTellsTheValueFromItsFirstByteWithoutReadingIt(_ text: String, _ kind: JSONCursor.Kind) throws {
        let (seen, value) = try JSONTestReaders.viaCursor(Array(text.utf8)) { (c) throws(JSONSyntaxError) in (c.kind, try c.readValue()) }.get()
        #expect(seen == kind)
        #expect(value == (try JSONValue.parse(text)))
    }

    @Test(arguments: ["x", "]", "+1", "'a'"])
    func kindIsNilWhereNoValueStarts(_ text: String) {
        var kind: JSONCursor.Kind? = .null
        _ = JSONTestReaders.viaCursor(Array(text.utf8)) { c in kind = c.kind }
        #expect(kind == nil)
    }

    /// `readArrayBytes` checks an array in full (the parser's error for a bad one), returns its bytes as they are (a
    /// parse of them gives the same value), and for any other value returns nil and consumes nothing.
    @Test(arguments: documents)
    func arrayBytesAreTheArrayAsWrittenAndCheckedAsTheParserChecks(_ text: String) {
        let bytes = Array(text.utf8)
        var captured: [UInt8]?
        let result = JSONTestReaders.viaCursor(bytes) { (c) throws(JSONSyntaxError) -> JSONValue? in
            if let array = try c.readArrayBytes() {
                captured = Array(array)
                return nil
            }
            return try c.readValue()
        }
        switch (JSONTestReaders.viaParse(bytes), result) {
        case (.success(let value), .success(nil)):
            #expect(value.arrayValue != nil)
            #expect(captured.map { try? JSONValue.parse($0) } == value)
            #expect(captured?.first == UInt8(ascii: "["))
        case (.success(let value), .success(let read?)):
            #expect(value.arrayValue == nil)
            #expect(read == value)
        case (.failure(let a), .failure(let b)): #expect(a == b)
        case (let a, let b): Issue.record("parser \(a) but cursor \(String(describing: b))")
        }
    }
}
