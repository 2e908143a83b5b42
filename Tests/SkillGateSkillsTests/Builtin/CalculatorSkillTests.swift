import Testing
import SkillGateCore
@testable import SkillGateSkills

@Suite struct CalculatorSkillTests {
    @Test(arguments: [
        ("1 + 2 * 3", 7.0), ("(1 + 2) * 3", 9), ("2 ^ 3 ^ 2", 512), ("-2 ^ 2", -4), ("(-2) ^ 2", 4),
        ("2 ^ -1", 0.5), ("10 - 4 - 3", 3), ("100 / 10 / 5", 2), ("7 % 3", 1), ("-7 % 3", -1),
        ("1.5 * 4", 6), (".5 + .25", 0.75), ("--3", 3), ("-(2 + 3) * 2", -10), ("2 * -3", -6),
        ("sqrt(16) + abs(-3)", 7), ("round(2.5)", 3), ("round(3.14159, 2)", 3.14), ("min(4, 2, 8)", 2),
        ("max(1, 5 * 2, 3)", 10), ("floor(2.7) + ceil(2.1)", 5), ("sin(0) + cos(0)", 1), ("log(e)", 1),
        ("log10(1000)", 3), ("2 * pi", 6.283185307179586), ("1e3 + 2E-1", 1000.2), ("2 ** 10", 1024),
        ("6 × 7 ÷ 2", 21), ("  42  ", 42), ("SQRT(9)", 3),
    ])
    func evaluates(expression: String, expected: Double) throws {
        let value = try ExpressionEvaluator.evaluate(expression)
        #expect(abs(value - expected) < 1e-9, "\(expression) = \(value), expected \(expected)")
    }

    @Test(arguments: [
        ("1 / 0", "division by zero"), ("5 % 0", "division by zero"), ("0 ^ -1", "division by zero"),
        ("foo(2)", "unknown function foo"), ("x + 1", "unknown name x"), ("sqrt(-4)", "square root of a negative"),
        ("(1 + 2", "closing parenthesis"), ("1 +", "ends too early"), ("1 2", "unexpected number 2"),
        ("", "empty"), ("2 $ 3", "unexpected character"), ("sqrt", "needs parentheses"),
        ("sqrt(1, 2)", "sqrt takes 1 argument"), ("log(0)", "not positive"), ("10 ^ 400", "not a finite"), ("(-8) ^ (1/3)", "not a real number"),
        ("1..2", "not a number"), ("exec(\"rm\")", "unexpected character"), ("__import__(os)", "unknown function __import__"),
    ])
    func reportsErrors(expression: String, fragment: String) {
        do {
            let value = try ExpressionEvaluator.evaluate(expression)
            Issue.record("\(expression) evaluated to \(value)")
        } catch {
            #expect(error.message.contains(fragment), "\(expression): \(error.message)")
        }
    }

    @Test func limitsLengthAndDepth() throws {
        let deep = String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)
        #expect(throws: ExpressionError.self) { try ExpressionEvaluator.evaluate(deep) }
        let unary = String(repeating: "-", count: 500) + "1"
        #expect(throws: ExpressionError.self) { try ExpressionEvaluator.evaluate(unary) }
        let long = Array(repeating: "1", count: 600).joined(separator: "+")
        #expect(throws: ExpressionError.self) { try ExpressionEvaluator.evaluate(long) }
        #expect(try ExpressionEvaluator.evaluate(String(repeating: "(", count: 30) + "1" + String(repeating: ")", count: 30)) == 1)
    }

    @Test func formatsResults() {
        #expect(ExpressionEvaluator.format(42) == "42")
        #expect(ExpressionEvaluator.format(0.1 + 0.2) == "0.3")
        #expect(ExpressionEvaluator.format(-2.5) == "-2.5")
    }

    @Test func skillAnswersTextAndPayload() async throws {
        let skill = CalculatorSkill()
        let ok = try await skill.execute(["expression": "2 * (3 + 4)"], context: SkillContext(tokenName: "t", requestId: "r"))
        #expect(ok.text == "2 * (3 + 4) = 14" && !ok.isError)
        #expect(ok.payload?["result"]?.doubleValue == 14)
        let bad = try await skill.execute(["expression": "1/0"], context: SkillContext(tokenName: "t", requestId: "r"))
        #expect(bad.isError && bad.text.contains("division by zero"))
    }
}
