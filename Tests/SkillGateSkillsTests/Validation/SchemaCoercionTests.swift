import Testing
@testable import SkillGateSkills

/// `SchemaCoercion.trim`'s shortcut for values that start and end with printable ASCII gives what walking characters
/// gives, for ASCII and for the Unicode cases that could trip it (decision 0071).
@Suite struct SchemaCoercionTests {
    /// The trim as it was: characters removed from both ends while they are whitespace.
    static func characterTrim(_ s: String) -> String {
        var scalars = Substring(s)
        while let f = scalars.first, f.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    static let cases = [
        "", " ", "2", " 2 ", "2.5", "\t3\n", "\r\n4\r\n", "true", " false", "x y", "~", "\u{7F}", "\u{7F} ", " \u{7F}",
        "\u{A0}5\u{A0}", "\u{3000}6", "7\u{2028}", "\u{85}8", "9\u{200B}", "e\u{301}", "\u{301}e", "a\u{301}b", "\u{600}1",
        "1\u{600}", " \u{301}2", "2 \u{301}", "\u{FEFF}3", "é", " é ", "😀", "a😀b", "[1,2]", " {\"p\":1} ",
    ]

    @Test(arguments: cases)
    func trimmingMatchesTheCharacterWalk(_ s: String) {
        #expect(SchemaCoercion.trim(s) == Self.characterTrim(s))
    }

    @Test func everyTwoScalarEndsMatchTheCharacterWalk() {
        // Printable ASCII ends beside whitespace, marks and prepended characters of every kind the shortcut could misjudge.
        let scalars: [Unicode.Scalar] = ["a", "1", " ", "\t", "\n", "\u{A0}", "\u{85}", "\u{301}", "\u{200D}", "\u{600}", "\u{3000}",
                                         "\u{FE0F}", "\u{1F600}", "~", "\u{7F}"]
        for a in scalars {
            for b in scalars {
                for s in [String(a) + String(b), "x" + String(a) + String(b), String(a) + String(b) + "x"] {
                    #expect(SchemaCoercion.trim(s) == Self.characterTrim(s), "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
        }
    }
}
