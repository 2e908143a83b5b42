import FoundationEssentials
import Glibc
import Dispatch

/// The calculator's fixed table of functions and constants.
enum ExpressionFunctions {
    static let constants: [String: Double] = ["pi": Double.pi, "e": M_E]

    /// Argument counts: a single number, or a range for variadic functions.
    static let arity: [String: ClosedRange<Int>] = [
        "sqrt": 1...1, "abs": 1...1, "round": 1...2, "floor": 1...1, "ceil": 1...1,
        "min": 1...32, "max": 1...32, "sin": 1...1, "cos": 1...1, "tan": 1...1,
        "log": 1...1, "ln": 1...1, "log10": 1...1, "exp": 1...1,
    ]

    static func call(_ name: String, _ args: [Double]) throws(ExpressionError) -> Double {
        guard let range = arity[name] else {
            throw ExpressionError("unknown function \(name); available: \(arity.keys.sorted().joined(separator: ", "))")
        }
        guard range.contains(args.count) else {
            let expected = range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw ExpressionError("\(name) takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(args.count)")
        }
        let x = args[0]
        switch name {
        case "sqrt":
            guard x >= 0 else { throw ExpressionError("square root of a negative number (\(ExpressionEvaluator.format(x)))") }
            return x.squareRoot()
        case "abs": return Swift.abs(x)
        case "round":
            guard args.count == 2 else { return x.rounded(.toNearestOrAwayFromZero) }
            let places = args[1]
            guard places == places.rounded(), (0...12).contains(places) else { throw ExpressionError("round's second argument is the number of decimal places, 0 to 12") }
            let scale = Glibc.pow(10, places)
            return (x * scale).rounded(.toNearestOrAwayFromZero) / scale
        case "floor": return x.rounded(.down)
        case "ceil": return x.rounded(.up)
        case "min": return args.min() ?? x
        case "max": return args.max() ?? x
        case "sin": return Glibc.sin(x)
        case "cos": return Glibc.cos(x)
        case "tan": return Glibc.tan(x)
        case "log", "ln":
            guard x > 0 else { throw ExpressionError("logarithm of a number that is not positive (\(ExpressionEvaluator.format(x)))") }
            return Glibc.log(x)
        case "log10":
            guard x > 0 else { throw ExpressionError("logarithm of a number that is not positive (\(ExpressionEvaluator.format(x)))") }
            return Glibc.log10(x)
        default: return Glibc.exp(x)
        }
    }
}
