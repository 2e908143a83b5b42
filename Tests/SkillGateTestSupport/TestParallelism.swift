import CTestParallelism

/// How many tests this test process runs at once (decision 0166).
///
/// Swift Testing starts every test of the suite at once unless `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH` bounds
/// it. A constructor in `Tests/CTestParallelism` sets that variable before `main` when the environment does not, so a
/// plain `swift test` runs at most `TestParallelism.defaultWidth` tests at a time; a width given in the environment is
/// kept (1 runs the tests one at a time).
public enum TestParallelism {
    /// The width the constructor sets when the environment gives none (`SG_TEST_DEFAULT_PARALLELISM_WIDTH`).
    public static let defaultWidth = Int(SG_TEST_DEFAULT_PARALLELISM_WIDTH)

    /// The width in force: the environment's, or the constructor's default; nil when the variable is not a number.
    public static var width: Int? {
        let width = Int(sg_test_parallelism_width())
        return width > 0 ? width : nil
    }

    /// Whether the width is the constructor's default rather than one the environment gave.
    public static var isDefault: Bool { sg_test_parallelism_width_is_default() != 0 }
}
