import Testing
import SkillGateTestSupport
@testable import SkillGateServer

/// The `selector` fuzzing target's crashers (Fuzz/crashers/selector/): the answer reader returns only
/// offered names, never twice.
@Suite struct SkillSelectorFuzzCrasherTests {
    static let offered = ["get_weather", "set_reminder", "send_email", "Play_Music", "f"]

    @Test(arguments: FuzzCrashers.names("selector"))
    func chosenNamesAreOfferedOnce(_ name: String) throws {
        let answer = String(decoding: try FuzzCrashers.bytes("selector", name), as: UTF8.self)
        guard let names = SkillSelectorPrompt.chosenNames(in: answer, offered: Self.offered) else { return }
        #expect(names.allSatisfy(Self.offered.contains) && Set(names).count == names.count)
    }
}
