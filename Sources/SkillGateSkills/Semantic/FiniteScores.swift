/// Similarities with no NaN or infinity left in them, before they order skills (decision 0102).
///
/// A NaN compares false with everything, so one among the scores reorders the skills arbitrarily
/// (and a list of them makes every skill equal, which keeps the first declared ones while the
/// ranking still says `hybrid`). A non-finite score counts as the lowest of the others; when none
/// is finite the scorer fails with `.malformed`, so the ranking falls back to BM25 and says so.
enum FiniteScores {
    /// `scores` with each non-finite one replaced by the lowest finite one; `nil` when there are
    /// scores and none is finite.
    static func cleaned(_ scores: [Double]) -> [Double]? {
        guard scores.contains(where: { !$0.isFinite }) else { return scores }
        var lowest = Double.infinity
        for s in scores where s.isFinite { lowest = min(lowest, s) }
        guard lowest.isFinite else { return nil }
        return scores.map { $0.isFinite ? $0 : lowest }
    }

    /// `scores` cleaned, or the `.malformed` error saying that no similarity with `what` was a finite number.
    static func checked(_ scores: [Double], of what: String, model: String) -> Result<[Double], EmbeddingError> {
        guard let clean = cleaned(scores) else {
            return .failure(EmbeddingError.malformed("no similarity of the request with \(what) is a finite number", model: model))
        }
        return .success(clean)
    }
}
