import Testing
import SkillGateTestSupport
import SkillGateProviders

/// The `gemini-upstream` fuzzing target's crashers (Fuzz/crashers/gemini-upstream/), replayed by `UpstreamFuzzReplay`.
@Suite struct GeminiUpstreamFuzzCrasherTests {
    @Test(arguments: FuzzCrashers.names("gemini-upstream"))
    func decodesOrFailsTheSameInEverySplit(_ name: String) throws {
        UpstreamFuzzReplay.check(GeminiFormat(), try FuzzCrashers.bytes("gemini-upstream", name))
    }
}
