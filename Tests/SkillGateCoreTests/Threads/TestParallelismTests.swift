import Testing
import SkillGateTestSupport

/// The test process runs a bounded number of tests at once (decision 0166): a plain `swift test` started every test
/// of the suite together, and a test's task waited ~20 s for a thread of the shared pool before its body ran.
@Suite struct TestParallelismTests {
    @Test func theTestProcessRunsABoundedNumberOfTestsAtOnce() throws {
        let width = try #require(TestParallelism.width, "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH is not a number")
        if TestParallelism.isDefault {
            // The constructor set its default, and the environment now says so.
            #expect(width == TestParallelism.defaultWidth)
        } else {
            // The environment's own width is kept, whatever it is.
            #expect(width >= 1)
        }
    }
}
