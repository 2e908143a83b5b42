/// Unicode simple case folding (the `C` and `S` rows of Unicode's `CaseFolding.txt`): every scalar is mapped to one
/// scalar, the same for all the cases of a letter, so two texts that differ only in case fold to the same text —
/// "Über"/"über", "ΟΔΟΣ"/"οδος" (final sigma too), "ДОМ"/"дом", "ＡＢＣ"/"ａｂｃ", "ẞ"/"ß", Cherokee — while
/// scripts without case (Chinese, Japanese kana, digits) are left as they are. One scalar to one scalar, so a folded
/// text is as long (in scalars) as the original and a search pattern folded alike matches it piece by piece. Not
/// the Turkic rules (İ and ı stay themselves) and not the full folding (ß does not become "ss": that changes lengths;
/// decision 0124).
///
/// The notes stores fold a note when it is saved and a search word when it is searched, so SQLite and PostgreSQL match
/// alike whatever the database's locale (decision 0124).
public enum CaseFolding {
    /// `text` with every scalar replaced by its simple case folding. ASCII-only text is folded byte by byte, without
    /// Unicode's property tables.
    public static func folded(_ text: String) -> String {
        var ascii = true
        var upper = false
        for b in text.utf8 {
            if b >= 0x80 { ascii = false; break }
            if b >= 0x41 && b <= 0x5A { upper = true }
        }
        if ascii {
            guard upper else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars { out.append(folded(s)) }
        return String(out)
    }

    /// The simple case folding of one scalar.
    ///
    /// Derived from the scalar's properties rather than a table of its own: a scalar that does not change when case
    /// folded stays; otherwise its lowercase when that is one other scalar (capitals and title-case letters: "Ä" → "ä",
    /// "ǅ" → "ǆ", "ẞ" → "ß", the Kelvin sign → "k"); otherwise, for a small letter with an uppercase of one scalar, that
    /// uppercase's lowercase ("ς" → "σ", "ſ" → "s", "µ" → "μ", "ϐ" → "β"), or the uppercase itself when its lowercase
    /// is the letter again (Cherokee, which folds to its capitals). Letters whose folding is several scalars in
    /// Unicode's full folding alone ("ß", "ŉ", "ﬀ", "ᾳ", "İ") stay, as the simple folding leaves them.
    public static func folded(_ s: Unicode.Scalar) -> Unicode.Scalar {
        if s.value < 0x80 { return s.value >= 0x41 && s.value <= 0x5A ? Unicode.Scalar(UInt8(s.value + 0x20)) : s }
        if let exception = exceptions[s.value] { return Unicode.Scalar(exception)! }
        let p = s.properties
        guard p.changesWhenCaseFolded else { return s }
        if let lower = single(p.lowercaseMapping), lower != s { return lower }
        if let upper = single(p.uppercaseMapping), upper != s {
            if let lower = single(upper.properties.lowercaseMapping), lower != s { return lower }
            return upper
        }
        return s
    }

    /// Simple foldings the rule above does not give: the Greek prosgegrammeni (U+1FBE → ι), which the standard
    /// library's tables do not mark as changing when folded, and three letters that recent versions of CaseFolding.txt
    /// fold to a canonically equivalent letter (ΐ, ΰ, ﬅ). The rule was checked against Python's `str.casefold`
    /// (Unicode 14) for every scalar Python knows: U+1FBE was the only difference (decision 0124).
    private static let exceptions: [UInt32: UInt32] = [0x1FD3: 0x0390, 0x1FE3: 0x03B0, 0xFB05: 0xFB06, 0x1FBE: 0x03B9]

    /// The one scalar of `mapping`, or nil when it has none or several.
    private static func single(_ mapping: String) -> Unicode.Scalar? {
        var scalars = mapping.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
