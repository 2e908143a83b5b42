extension String {
    /// The string without leading and trailing spaces and tabs. Returns `self` untouched (no copy) in
    /// the common case; Foundation's `trimmingCharacters(in:)` costs microseconds on every request.
    public func trimmingSpacesAndTabs() -> String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first != 0x20, first != 0x09, last != 0x20, last != 0x09 { return self }
        var rest = utf8[...]
        while let b = rest.first, b == 0x20 || b == 0x09 { rest = rest.dropFirst() }
        while let b = rest.last, b == 0x20 || b == 0x09 { rest = rest.dropLast() }
        return String(decoding: rest, as: UTF8.self)
    }
}

extension String {
    /// The string without leading and trailing whitespace and newlines (Unicode `White_Space`, as
    /// `Character.isWhitespace` defines it), without Foundation's `CharacterSet`.
    public func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let end = lastIndex(where: { !$0.isWhitespace })!
        if start == startIndex && end == index(before: endIndex) { return self }
        return String(self[start...end])
    }
}
