/// What the archive's writes dropped for `responses.max_mib_per_token` and has not reported yet: reported at once the
/// first time, then at most once a minute, so a token saving past its bound all day is one warning a minute, not
/// twenty a second.
struct DroppedForBound {
    static let reportEvery: Duration = .seconds(60)
    var responses = 0
    var tokens = Set<String>()
    var lastReport: ContinuousClock.Instant?

    /// Adds a write's drops (by token id); returns the warning to log now, if one is due.
    mutating func add(_ dropped: [String: Int], bound: Int, at now: ContinuousClock.Instant) -> String? {
        for (token, n) in dropped {
            responses += n
            tokens.insert(token)
        }
        guard responses > 0, lastReport.map({ now - $0 >= Self.reportEvery }) ?? true else { return nil }
        defer {
            responses = 0
            tokens = []
            lastReport = now
        }
        let ids = tokens.sorted().prefix(5).joined(separator: ", ") + (tokens.count > 5 ? ", …" : "")
        return "\(responses) stored responses of \(tokens.count) token(s) (\(ids)) were dropped, oldest first, to keep each token's within responses.max_mib_per_token (\(bound >> 20) MiB); "
            + "their ids can no longer be continued with previous_response_id. Raise the setting if one token serves many users"
    }
}

