extension Int {
    /// `self + other`, held at `Int.max` or `Int.min` instead of trapping on overflow. Token counts
    /// come from upstream bytes (a provider or a proxy may send any integer), so sums of them must
    /// not be able to stop the process (found by fuzzing, docs/decisions/0025).
    @inlinable
    public func clampedAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at `Int.max` or `Int.min` instead of trapping on overflow.
    @inlinable
    public func clampedSubtracting(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
