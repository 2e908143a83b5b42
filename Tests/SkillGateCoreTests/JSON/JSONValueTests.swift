import Foundation
import SkillGateTestSupport
import Testing
@testable import SkillGateCore

@Suite struct JSONValueTests {
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":"x"}"#,
        #"[1.5,-0,2e10,-1.25E-3,12345678901234567890]"#,
        #"{"nested":{"deep":[{"k":"v"}]},"empty":{},"list":[]}"#,
        #""plain""#,
    ])
    func roundTripsCompactText(_ text: String) throws {
        #expect(try JSONValue.parse(text).serialized() == text)
    }

    @Test func keepsMemberOrder() throws {
        let v = try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(v.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let v = try JSONValue.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#)
        #expect(v.stringValue == "a\"b\\c/d\n\té😀")
    }

    @Test func escapesControlCharactersWhenWriting() {
        let v = JSONValue.string("line1\nline2\u{01}\"q\"")
        #expect(v.serialized() == #""line1\nline2\u0001\"q\"""#)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"unterminated", "{\"a\":1} x",
        "\"\\ud800\"", "\"\\x\"", "[\"\u{01}\"]", "-", "{,}",
    ])
    func rejectsInvalidDocuments(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bytes) }
    }

    /// Strings with escapes take separate paths (bulk copies between escapes, word-at-a-time
    /// scans): random text written by Foundation must read back exactly, and text this writer
    /// escapes must read back exactly in Foundation.
    @Test(arguments: 0..<8)
    func escapedStringsRoundTripWithFoundation(_ seed: UInt64) throws {
        var random = SeededUnitRandom(seed: seed)
        let alphabet: [String] = ["a", "Z", " ", "\n", "\t", "\"", "\\", "/", "\u{01}", "\u{1F}", "é", "中", "😀", "\r\n", "xyz"]
        for _ in 0..<50 {
            let length = Int(random.next() * 300)
            let text = (0..<length).map { _ in alphabet[Int(random.next() * Double(alphabet.count))] }.joined()
            let data = try JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            let parsed = try JSONValue.parse([UInt8](data))
            #expect(parsed.arrayValue?.first?.stringValue == text)
            // And the other way: what the writer escapes, Foundation reads back exactly.
            let written = JSONValue.array([.string(text)]).serializedBytes()
            let readBack = try JSONSerialization.jsonObject(with: Data(written)) as? [String]
            #expect(readBack == [text])
        }
    }

    @Test(arguments: [
        [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22],                    // invalid UTF-8 after an escape
        [0x22, 0x5C, 0x6E, 0x01, 0x22],                          // raw control character after an escape
        [0x22, 0x61, 0x5C, 0x6E, 0x62],                          // unterminated after an escape
        [0x22, 0x5C],                                            // input ends inside an escape
        [0x22, 0x5C, 0x75, 0x31, 0x32, 0x22],                    // \u with two hex digits
        [0x22, 0x5C, 0x75, 0x64, 0x38, 0x33, 0x64, 0x5C, 0x6E, 0x22],  // high surrogate, then not \u
        [0x22, 0x5C, 0x6E, 0x5C, 0x01, 0x22],                    // escape of a control character
    ] as [[UInt8]])
    func rejectsBadStringsOnTheEscapePath(_ bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bytes) }
    }

    @Test func rejectsExcessiveNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep) }
        #expect((try? JSONValue.parse(deep, maxDepth: 400)) != nil)
    }

    @Test func reportsTheOffsetOfAnError() {
        do {
            _ = try JSONValue.parse(#"{"a":tru}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 5)
        }
    }

    /// A byte no value starts with is named as a character when it is printable ASCII and by its value otherwise; a
    /// leading UTF-8 byte order mark is named as one, with what to do.
    @Test(arguments: [
        ([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x40, 0x7D], "unexpected character '@'"),
        ([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "UTF-8 byte order mark (EF BB BF)"),
        ([0xEF, 0xBB, 0x7B, 0x7D], "unexpected byte 0xEF"),
        ([0xFF, 0xFE, 0x7B, 0x00], "unexpected byte 0xFF"),
        ([0x5B, 0x01, 0x5D], "unexpected byte 0x01"),
    ] as [([UInt8], String)])
    func namesTheByteNoValueStartsWith(bytes: [UInt8], says: String) {
        do {
            _ = try JSONValue.parse(bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error.reason.contains(says), "\(error.reason)")
        }
    }

    @Test func numberAccessors() throws {
        let v = try JSONValue.parse(#"{"i":42,"d":2.5,"big":1e3}"#)
        #expect(v["i"]?.intValue == 42)
        #expect(v["d"]?.doubleValue == 2.5)
        #expect(v["d"]?.intValue == nil)
        #expect(v["big"]?.intValue == 1000)
    }

    @Test func objectSubscriptSetAndRemove() {
        var o: JSONObject = ["a": 1]
        o["b"] = "x"
        o["a"] = nil
        #expect(JSONValue.object(o).serialized() == #"{"b":"x"}"#)
    }
}

