/// A light suffix stemmer for English search terms, so that forms of one word meet: remind,
/// reminder, reminders; book, booking, booked; calculate, calculator, calculation; schedule,
/// scheduled, scheduling.
///
/// Three steps, each keeping a stem of at least three letters: the plural (`-ies` → `-y`,
/// `-sses` → `-ss`, `-s`), then the inflection (`-ing`, `-ed`, undoubling `running` → `run`), then
/// one derivational suffix (`-ation`, `-ator`, `-ment`, `-er`, `-ly`, ...), then a final `-e`.
/// It over-stems (`weather` → `weath`) the same way for documents and queries, which is all
/// ranking needs; it never has to produce a dictionary word.
enum EnglishStemmer {
    /// Derivational suffixes, longest first, with the shortest stem each may leave.
    static let suffixes: [([UInt8], Int)] = [
        ("ational", 3), ("ation", 3), ("ator", 3), ("ment", 3), ("ness", 3), ("able", 3), ("ible", 3),
        ("ance", 3), ("ence", 3), ("ize", 3), ("ise", 4), ("ity", 3), ("ive", 3), ("ful", 3), ("ion", 4),
        ("ate", 4), ("al", 4), ("er", 3), ("ly", 3),
    ].map { (Array($0.0.utf8), $0.1) }

    /// The stem's length: `word[..<result]` (the word is lowercase ASCII letters; bytes may be
    /// rewritten in place, `-ies` → `-y`).
    static func stem(_ word: inout [UInt8]) -> Int {
        var n = word.count
        guard n > 3 else { return n }
        // 1. Plural.
        if ends(word, n, "ies"), n > 4 { word[n - 3] = 0x79; n -= 2 }
        else if ends(word, n, "sses") { n -= 2 }
        else if word[n - 1] == 0x73, !ends(word, n, "ss"), !ends(word, n, "us"), !ends(word, n, "is") { n -= 1 }
        // 2. Inflection.
        if ends(word, n, "ing"), n - 3 >= 3, hasVowel(word, n - 3) { n -= 3; n = restoreE(&word, undouble(word, n)) }
        else if ends(word, n, "ed"), n - 2 >= 3, hasVowel(word, n - 2) { n -= 2; n = restoreE(&word, undouble(word, n)) }
        // 3. One derivational suffix.
        for (suffix, minimum) in suffixes where n - suffix.count >= minimum && ends(word, n, suffix) {
            n -= suffix.count
            break
        }
        // 4. A final e.
        if n > 3 && word[n - 1] == 0x65 { n -= 1 }
        return n
    }

    @inline(__always)
    static func ends(_ w: [UInt8], _ n: Int, _ s: StaticString) -> Bool {
        let len = s.utf8CodeUnitCount
        guard n >= len else { return false }
        return s.withUTF8Buffer { b in (0..<len).allSatisfy { w[n - len + $0] == b[$0] } }
    }

    @inline(__always)
    static func ends(_ w: [UInt8], _ n: Int, _ s: [UInt8]) -> Bool {
        guard n >= s.count else { return false }
        for k in 0..<s.count where w[n - s.count + k] != s[k] { return false }
        return true
    }

    static func hasVowel(_ w: [UInt8], _ n: Int) -> Bool {
        for k in 0..<n {
            switch w[k] {
            case 0x61, 0x65, 0x69, 0x6F, 0x75, 0x79: return true
            default: continue
            }
        }
        return false
    }

    /// `calculat` → `calculate`, `enabl` → `enable`, `organiz` → `organize` (the `e` the
    /// inflection took), so step 3 sees the same word as for the bare form.
    static func restoreE(_ w: inout [UInt8], _ n: Int) -> Int {
        guard n < w.count, ends(w, n, "at") || ends(w, n, "bl") || ends(w, n, "iz") else { return n }
        w[n] = 0x65
        return n + 1
    }

    /// `runn` → `run`, `transferr` → `transfer` (not `ll`, `ss`, `zz`: `install`, `access`).
    static func undouble(_ w: [UInt8], _ n: Int) -> Int {
        guard n >= 4, w[n - 1] == w[n - 2] else { return n }
        let last = w[n - 1]
        return last == 0x6C || last == 0x73 || last == 0x7A ? n : n - 1
    }
}
