import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// `calculator`: evaluates an arithmetic expression with a hand-written parser (never code evaluation).
public struct CalculatorSkill: Skill {
    public let id = "builtin.calculator"
    public let name = "calculator"
    public let description = "Evaluates an arithmetic expression exactly as written: + - * / ^ (power) % (remainder), parentheses, decimals, the functions sqrt, abs, round, floor, ceil, min, max, sin, cos, tan, log (natural), log10, exp, and the constants pi and e. Example: \"(2 + 3) * sqrt(16) / 4\"."
    public let parameters: JSONValue = [
        "type": "object",
        "properties": ["expression": ["type": "string", "description": "the expression, e.g. \"2 * (3 + 4) ^ 2\""]],
        "required": ["expression"],
        "additionalProperties": false,
    ]
    public let version = "1.0"
    public let timeout: Duration = .seconds(1)
    public let requiresConfirmation = false
    public let annotations = SkillAnnotations.readOnly("Calculator", openWorld: false)
    /// Pure arithmetic on at most 1,000 characters nested at most 64 deep: microseconds, nothing to wait for.
    public let mayBlock = false

    public init() {}

    public func execute(_ arguments: JSONValue, context: SkillContext) async throws -> SkillResult {
        guard let expression = arguments["expression"]?.stringValue else {
            return SkillResult(text: "Missing \"expression\": pass the arithmetic expression as a string.", isError: true)
        }
        do {
            let value = try ExpressionEvaluator.evaluate(expression)
            let text = ExpressionEvaluator.format(value)
            return SkillResult(text: "\(expression.trimmingWhitespace()) = \(text)",
                               payload: ["expression": .string(expression), "result": .double(value), "text": .string(text)])
        } catch {
            return SkillResult(text: "Cannot evaluate \"\(expression.prefix(200))\": \(error.message)", isError: true)
        }
    }
}
