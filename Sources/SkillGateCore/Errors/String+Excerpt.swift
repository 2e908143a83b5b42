extension String {
    /// The text in quotes, as a message or log line quotes someone else's text (a caller's method name, a server's
    /// cursor): `"text"` when it has at most `limit` characters, else `"start…" (N bytes)` with its first `limit`
    /// characters. Counts characters only as far as `limit`, so a 4 MB text costs no more than a short one.
    public func quotedExcerpt(_ limit: Int) -> String {
        guard prefix(limit + 1).count > limit else { return "\"\(self)\"" }
        return "\"\(prefix(limit))…\" (\(utf8.count) bytes)"
    }
}
