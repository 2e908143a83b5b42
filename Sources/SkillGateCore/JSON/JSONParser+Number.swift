/// The number grammar of RFC 8259, the only one SkillGate reads:
///
///     number = [ "-" ] ( "0" / [1-9] *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "+" / "-" ] 1*DIGIT ]
///
/// so `01`, `1.`, `.5`, `-`, `1e`, `+1` and `1-+e` are rejected. The literal is kept as text
/// (`JSONValue.number`), so its magnitude and precision are not limited here.
extension JSONParser {
    /// Moves past the number at `index` (its first byte is `-` or a digit), checking its syntax.
    mutating func scanNumber() throws(JSONSyntaxError) {
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        guard let first = next, isDigit(first) else { throw fail("invalid number") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if next == UInt8(ascii: ".") {
            index += 1
            guard let b = next, isDigit(b) else { throw fail("invalid number: digit expected after '.'") }
            skipDigits()
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard let b = next, isDigit(b) else { throw fail("invalid number: digit expected in exponent") }
            skipDigits()
        }
    }

    @inline(__always) func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    @inline(__always) private mutating func skipDigits() {
        while let b = next, isDigit(b) { index += 1 }
    }
}
