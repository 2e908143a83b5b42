extension FixedWidthInteger where Self: SignedInteger {
    /// `self + other`, held at `max` or `min` instead of trapping on overflow. Token counts and costs come from upstream
    /// bytes (a provider or a proxy may send any integer), so sums of them must not be able to stop the process (found
    /// by fuzzing, docs/decisions/0025; costs and limit counters, decision 0096).
    @inlinable
    public func clampedAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at `max` or `min` instead of trapping on overflow.
    @inlinable
    public func clampedSubtracting(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `value` rounded to the nearest integer and held at `max` or `min` (NaN is 0), where `Self(value)` traps: for a
    /// number an upstream or an operator wrote (`1e300`, `inf`), which must not stop the process (decision 0096).
    @inlinable
    public init(saturating value: Double) {
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= Double(Self.max) {
            self = .max   // Double(Int64.max) is 2^63, one past the largest Int64: `>=` keeps the conversion in range
        } else if rounded <= Double(Self.min) {
            self = .min
        } else {
            self = Self(rounded)
        }
    }
}
