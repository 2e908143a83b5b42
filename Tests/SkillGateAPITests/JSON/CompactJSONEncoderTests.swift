import SkillGateAPI
import Testing

@Suite("CompactJSONEncoder")
struct CompactJSONEncoderTests {
    struct Sample: Encodable {
        var zulu = "first"
        var alpha: Int? = nil
        var numbers: [Double] = [1, 0.25, 1e20, -0.0]
        var nested = Nested()
        struct Nested: Encodable { var b = true; var a: String? = "set" }
    }

    func text(_ value: some Encodable) throws -> String {
        String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self)
    }

    @Test func keepsDeclarationOrderAndLeavesOutNil() throws {
        #expect(try text(Sample()) == #"{"zulu":"first","numbers":[1,0.25,1e+20,0],"nested":{"b":true,"a":"set"}}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" and \\ backslash", #""quote \" and \\ backslash""#),
        ("lines\n\r\ttab", #""lines\n\r\ttab""#),
        ("\u{01}\u{1F}", #""\u0001\u001f""#),
        ("a/b ünï 日本 😀", #""a/b ünï 日本 😀""#),
    ])
    func escapesStringsAsTheServerWriterDoes(_ string: String, _ expected: String) throws {
        #expect(try text(string) == expected)
    }

    @Test(arguments: [
        (0.0, "0"), (3.0, "3"), (-7.0, "-7"), (0.1, "0.1"), (0.00001234, "1.234e-05"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
        (123456.789, "123456.789"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func writesNumbersAsTheServerWriterDoes(_ number: Double, _ expected: String) throws {
        #expect(try text(number) == expected)
    }

    @Test func integersBooleansAndNullTopLevel() throws {
        #expect(try text(42) == "42")
        #expect(try text(UInt8(7)) == "7")
        #expect(try text(false) == "false")
        #expect(try text(Optional<String>.none) == "null")
        #expect(try text([[1], []] as [[Int]]) == "[[1],[]]")
    }
}
