import Testing
import SkillGateTestSupport
import SkillGateProviders

/// The `openai-upstream` fuzzing target's crashers (Fuzz/crashers/openai-upstream/), replayed by `UpstreamFuzzReplay`.
@Suite struct OpenAIChatUpstreamFuzzCrasherTests {
    @Test(arguments: FuzzCrashers.names("openai-upstream"))
    func decodesOrFailsTheSameInEverySplit(_ name: String) throws {
        UpstreamFuzzReplay.check(OpenAIChatFormat(), try FuzzCrashers.bytes("openai-upstream", name))
    }
}
