import Testing
import SkillGateTestSupport
import SkillGateCore
import SkillGateSkills

/// The `validator` fuzzing target's crashers (Fuzz/crashers/validator/): a schema, a NUL byte, the
/// arguments. What the validator accepts, after its coercions, it accepts again unchanged.
@Suite struct ArgumentValidatorFuzzCrasherTests {
    @Test(arguments: FuzzCrashers.names("validator"))
    func acceptedArgumentsStayAccepted(_ name: String) throws {
        let data = try FuzzCrashers.bytes("validator", name)
        let nul = data.firstIndex(of: 0) ?? data.endIndex
        guard let schema = try? JSONValue.parse(data[..<nul]) else { return }
        let arguments = nul < data.endIndex ? String(decoding: data[(nul + 1)...], as: UTF8.self) : ""
        guard let accepted = try? ArgumentValidator.validate(arguments: arguments, schema: schema, tool: "t") else { return }
        let again = try ArgumentValidator.validate(accepted.value, schema: schema, tool: "t")
        #expect(again.value == accepted.value)
    }
}
