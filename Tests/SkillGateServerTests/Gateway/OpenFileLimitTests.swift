import Glibc
import SkillGateServer
import Testing

@Suite struct OpenFileLimitTests {
    /// Lowering the soft limit here would starve the tests running beside this one of descriptors, so this
    /// checks the outcome: afterwards the soft limit equals the hard limit.
    @Test func theSoftLimitEndsAtTheHardLimit() throws {
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(OpenFileLimit.raiseToHardLimit() == UInt64(limit.rlim_max))
        #expect(OpenFileLimit.current == UInt64(limit.rlim_max))
    }
}
