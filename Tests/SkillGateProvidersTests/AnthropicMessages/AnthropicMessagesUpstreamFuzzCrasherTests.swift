import Testing
import SkillGateTestSupport
import SkillGateProviders

/// The `anthropic-upstream` fuzzing target's crashers (Fuzz/crashers/anthropic-upstream/), replayed by `UpstreamFuzzReplay`.
@Suite struct AnthropicMessagesUpstreamFuzzCrasherTests {
    @Test(arguments: FuzzCrashers.names("anthropic-upstream"))
    func decodesOrFailsTheSameInEverySplit(_ name: String) throws {
        UpstreamFuzzReplay.check(AnthropicMessagesFormat(), try FuzzCrashers.bytes("anthropic-upstream", name))
    }
}
