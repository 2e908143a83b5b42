/// The intake check of every embedding vector before it is ranked with, centred, summed or cached
/// (decision 0102): its values finite, its length (computed in `Double`) a finite, non-zero `Float`,
/// and then scaled to length 1.
///
/// An embedding model's vectors are unit length or near it. One of 3e38 values is finite value by
/// value, but its length is not a finite `Float`, and every `Float` sum it enters overflows to
/// infinity (then `inf / inf` gives NaN cosines); one of zeros has no direction to compare. Both
/// are refused like a NaN: the embedding answer is malformed.
public enum UnitVector {
    /// Why a vector cannot be used.
    public enum Problem: Error, Sendable, Hashable {
        /// A value is NaN or infinite.
        case nonFiniteValue
        /// Its length overflows a `Float` (values near 3.4e38).
        case nonFiniteLength
        /// Every value is 0.
        case zeroLength

        /// The end of a sentence about one vector, for `EmbeddingError` messages ("vector 3 …").
        public var description: String {
            switch self {
            case .nonFiniteValue: return "holds a value that is not a finite number"
            case .nonFiniteLength: return "has a length that is not finite (its values are near the largest a 32-bit float holds)"
            case .zeroLength: return "has length zero (every value is 0), so it has no direction to compare"
            }
        }
    }

    /// How far from 1 a squared length may be for the vector to count as unit length already (and be
    /// kept as it is, without a copy).
    static let unitTolerance = 1e-6

    /// `vector` scaled to length 1, or why it cannot be: a vector already of length 1 (e5's and
    /// OpenAI's are) is returned as it is.
    public static func normalised(_ vector: [Float]) -> Result<[Float], Problem> {
        let squared: Double
        switch squaredLength(vector) {
        case .success(let s): squared = s
        case .failure(let p): return .failure(p)
        }
        if abs(squared - 1) <= unitTolerance { return .success(vector) }
        let scale = 1 / squared.squareRoot()
        return .success(vector.map { Float(Double($0) * scale) })
    }

    /// `vector` scaled to length 1; `nil` when it cannot be.
    public static func unit(_ vector: [Float]) -> [Float]? {
        if case .success(let v) = normalised(vector) { return v }
        return nil
    }

    /// Every vector of one embedding answer scaled to length 1, or `.malformed` naming the first
    /// that cannot be (`vector i …`), as the answer checks name a NaN.
    static func normalised(_ vectors: [[Float]], model: String) -> Result<[[Float]], EmbeddingError> {
        var out: [[Float]] = []
        out.reserveCapacity(vectors.count)
        for (i, v) in vectors.enumerated() {
            switch normalised(v) {
            case .success(let u): out.append(u)
            case .failure(let p): return .failure(EmbeddingError.malformed("vector \(i) \(p.description)", model: model))
            }
        }
        return .success(out)
    }

    /// The squared length of `vector`, summed in `Double` (so 3e38 values do not overflow the sum).
    static func squaredLength(_ vector: [Float]) -> Result<Double, Problem> {
        var sum = 0.0
        var finite = true
        vector.withUnsafeBufferPointer { v in
            for x in v {
                finite = finite && x.isFinite
                let d = Double(x)
                sum += d * d
            }
        }
        guard finite else { return .failure(.nonFiniteValue) }
        guard sum.squareRoot() <= Double(Float.greatestFiniteMagnitude) else { return .failure(.nonFiniteLength) }
        guard sum > 0 else { return .failure(.zeroLength) }
        return .success(sum)
    }
}
