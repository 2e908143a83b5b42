/// Why an expression could not be evaluated; `message` says what to change.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One lexical unit of an arithmetic expression.
enum ExpressionToken: Sendable, Hashable {
    case number(Double)
    case name(String)
    case op(Character)
    case open, close, comma

    /// Splits `text` into tokens. `**` is read as `^`; `×` and `÷` as `*` and `/`.
    static func tokenize(_ text: String, maxTokens: Int) throws(ExpressionError) -> [ExpressionToken] {
        var out: [ExpressionToken] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            if out.count >= maxTokens { throw ExpressionError("the expression is too long (more than \(maxTokens) tokens); split it into smaller steps") }
            if c.isASCII, c.isNumber || c == "." {
                var j = i, digits = "", seenDot = false, seenExp = false
                while j < chars.count {
                    let d = chars[j]
                    if d.isASCII, d.isNumber { digits.append(d) }
                    else if d == ".", !seenDot, !seenExp { seenDot = true; digits.append(d) }
                    else if (d == "e" || d == "E"), !seenExp, j + 1 < chars.count,
                            chars[j + 1].isNumber || ((chars[j + 1] == "-" || chars[j + 1] == "+") && j + 2 < chars.count && chars[j + 2].isNumber) {
                        seenExp = true; digits.append("e"); digits.append(chars[j + 1]); j += 1
                    } else { break }
                    j += 1
                }
                guard let value = Double(digits), digits != ".", j >= chars.count || chars[j] != "." else { throw ExpressionError("\"\(digits)\" is not a number") }
                out.append(.number(value))
                i = j
            } else if c.isLetter || c == "_" {
                var j = i, name = ""
                while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { name.append(chars[j]); j += 1 }
                out.append(.name(name.lowercased()))
                i = j
            } else {
                switch c {
                case "*" where i + 1 < chars.count && chars[i + 1] == "*": out.append(.op("^")); i += 1
                case "+", "-", "*", "/", "^", "%": out.append(.op(c))
                case "×": out.append(.op("*"))
                case "÷": out.append(.op("/"))
                case "−": out.append(.op("-"))
                case "(": out.append(.open)
                case ")": out.append(.close)
                case ",": out.append(.comma)
                default: throw ExpressionError("unexpected character \"\(c)\"; use numbers, + - * / ^ %, parentheses and functions like sqrt(x)")
                }
                i += 1
            }
        }
        return out
    }
}
