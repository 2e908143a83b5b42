import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// A recursive-descent evaluator for arithmetic expressions. Only numbers, operators, parentheses
/// and a fixed table of functions and constants exist: nothing is ever executed as code.
///
/// Grammar (usual precedence; `^` binds tighter than unary minus and is right-associative, so
/// `-2^2 = -4` and `2^3^2 = 512`):
/// `expr = term (("+"|"-") term)*`, `term = unary (("*"|"/"|"%") unary)*`,
/// `unary = ("-"|"+") unary | power`, `power = primary ("^" unary)?`,
/// `primary = number | constant | function "(" expr ("," expr)* ")" | "(" expr ")"`.
public struct ExpressionEvaluator {
    /// Longest accepted expression, in characters.
    public static let maxLength = 1_000
    /// Deepest accepted nesting (parentheses, unary signs, powers).
    public static let maxDepth = 64

    private let tokens: [ExpressionToken]
    private var position = 0
    private var depth = 0

    /// Evaluates `text`. Throws `ExpressionError` with a readable message.
    public static func evaluate(_ text: String) throws(ExpressionError) -> Double {
        guard text.count <= maxLength else { throw ExpressionError("the expression is longer than \(maxLength) characters; split it into smaller steps") }
        var parser = ExpressionEvaluator(tokens: try ExpressionToken.tokenize(text, maxTokens: maxLength))
        guard !parser.tokens.isEmpty else { throw ExpressionError("the expression is empty") }
        let value = try parser.expression()
        if parser.position < parser.tokens.count {
            throw ExpressionError("unexpected \(parser.tokens[parser.position].display) after a complete expression; check for a missing operator")
        }
        // NaN is a result with no real value (`(-8)^(1/3)`, `0/0`); infinity is one too large to hold.
        if value.isNaN { throw ExpressionError("the result is not a real number (for example a fractional power of a negative number); rewrite the expression") }
        guard value.isFinite else { throw ExpressionError("the result is not a finite number (overflow)") }
        return value
    }

    /// `42`, `0.1`, `1.23456789012e+20`: integers plainly, others to 12 significant digits.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return CFormat.string("%.12g", value)
    }

    private init(tokens: [ExpressionToken]) { self.tokens = tokens }

    private var peek: ExpressionToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func nested<T>(_ body: (inout Self) throws(ExpressionError) -> T) throws(ExpressionError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ExpressionError("the expression is nested more than \(Self.maxDepth) levels deep; simplify it") }
        return try body(&self)
    }

    private mutating func expression() throws(ExpressionError) -> Double {
        var value = try term()
        while case .op(let c)? = peek, c == "+" || c == "-" {
            position += 1
            let rhs = try term()
            value = c == "+" ? value + rhs : value - rhs
        }
        return value
    }

    private mutating func term() throws(ExpressionError) -> Double {
        var value = try unary()
        while case .op(let c)? = peek, c == "*" || c == "/" || c == "%" {
            position += 1
            let rhs = try unary()
            switch c {
            case "*": value *= rhs
            case "/":
                guard rhs != 0 else { throw ExpressionError("division by zero") }
                value /= rhs
            default:
                guard rhs != 0 else { throw ExpressionError("division by zero (remainder of a division by 0)") }
                value = value.truncatingRemainder(dividingBy: rhs)
            }
        }
        return value
    }

    private mutating func unary() throws(ExpressionError) -> Double {
        if case .op(let c)? = peek, c == "-" || c == "+" {
            position += 1
            let operand = try nested { (p: inout Self) throws(ExpressionError) in try p.unary() }
            return c == "-" ? -operand : operand
        }
        return try power()
    }

    private mutating func power() throws(ExpressionError) -> Double {
        let base = try primary()
        guard case .op("^")? = peek else { return base }
        position += 1
        let exponent = try nested { (p: inout Self) throws(ExpressionError) in try p.unary() }
        if base == 0, exponent < 0 { throw ExpressionError("division by zero (0 raised to a negative power)") }
        return Glibc.pow(base, exponent)
    }

    private mutating func primary() throws(ExpressionError) -> Double {
        guard let token = peek else { throw ExpressionError("the expression ends too early; a number or \"(\" is missing at the end") }
        position += 1
        switch token {
        case .number(let v): return v
        case .open:
            let v = try nested { (p: inout Self) throws(ExpressionError) in try p.expression() }
            guard case .close? = peek else { throw ExpressionError("a closing parenthesis \")\" is missing") }
            position += 1
            return v
        case .name(let name):
            if case .open? = peek {
                guard ExpressionFunctions.arity[name] != nil else {
                    throw ExpressionError("unknown function \(name); available: \(ExpressionFunctions.arity.keys.sorted().joined(separator: ", "))")
                }
                position += 1
                let args = try nested { (p: inout Self) throws(ExpressionError) in try p.arguments() }
                return try ExpressionFunctions.call(name, args)
            }
            if let constant = ExpressionFunctions.constants[name] { return constant }
            if ExpressionFunctions.arity[name] != nil { throw ExpressionError("function \(name) needs parentheses, e.g. \(name)(2)") }
            throw ExpressionError("unknown name \(name); the constants are pi and e")
        case .op, .close, .comma:
            throw ExpressionError("unexpected \(token.display); a number, a function or \"(\" was expected")
        }
    }

    private mutating func arguments() throws(ExpressionError) -> [Double] {
        var args: [Double] = []
        if case .close? = peek { position += 1; return args }
        while true {
            args.append(try expression())
            guard args.count <= 32 else { throw ExpressionError("too many function arguments (at most 32)") }
            switch peek {
            case .comma?: position += 1
            case .close?: position += 1; return args
            default: throw ExpressionError("a closing parenthesis \")\" or \",\" is missing in a function call")
            }
        }
    }
}

extension ExpressionToken {
    var display: String {
        switch self {
        case .number(let v): "number \(ExpressionEvaluator.format(v))"
        case .name(let n): "\"\(n)\""
        case .op(let c): "\"\(c)\""
        case .open: "\"(\""
        case .close: "\")\""
        case .comma: "\",\""
        }
    }
}
