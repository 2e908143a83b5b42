/// Splits text into search terms for skill ranking, for English and Chinese (and other scripts).
///
/// - Letters and digits form words; words are lower-cased and split at `_`, `-`, `.` and
///   camelCase boundaries (`getWeather` → `get`, `weather`), so tool names match prose.
/// - A plural `s` is stripped from words longer than three letters (`emails` → `email`), the only
///   stemming: enough for tool descriptions, with no dictionary.
/// - Han, Hiragana, Katakana and Hangul runs yield each character and each adjacent pair
///   (`天气预报` → `天 气 预 报 天气 气预 预报`): Chinese has no spaces, and bigrams match words
///   while single characters keep recall for one-character words.
/// - A few English function words are dropped (they only add noise to short queries).
public enum SkillTokenizer {
    /// The terms of `text`, in order, with repetitions (term frequency counts).
    public static func terms(_ text: String) -> [String] {
        var out: [String] = []
        var word: [Unicode.Scalar] = []
        var cjkRun: [Unicode.Scalar] = []

        func flushWord() {
            guard !word.isEmpty else { return }
            emitWord(word, into: &out)
            word.removeAll(keepingCapacity: true)
        }
        func flushCJK() {
            guard !cjkRun.isEmpty else { return }
            for (i, s) in cjkRun.enumerated() {
                out.append(String(Character(s)))
                if i + 1 < cjkRun.count { out.append(String(Character(s)) + String(Character(cjkRun[i + 1]))) }
            }
            cjkRun.removeAll(keepingCapacity: true)
        }

        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                flushWord()
                cjkRun.append(scalar)
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                flushCJK()
                // camelCase boundary: a capital after a lower-case letter starts a new word.
                if scalar.properties.isUppercase, let last = word.last, last.properties.isLowercase { flushWord() }
                word.append(scalar)
            } else {
                flushWord()
                flushCJK()
            }
        }
        flushWord()
        flushCJK()
        return out
    }

    private static func emitWord(_ scalars: [Unicode.Scalar], into out: inout [String]) {
        var w = String(String.UnicodeScalarView(scalars)).lowercased()
        if stopWords.contains(w) { return }
        if w.count > 3, w.hasSuffix("s"), !w.hasSuffix("ss") { w.removeLast() }
        out.append(w)
    }

    /// Han (CJK unified ideographs and extension A, compatibility), kana, Hangul syllables.
    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xF900...0xFAFF, 0x20000...0x2A6DF: return true
        case 0x3040...0x30FF: return true
        case 0xAC00...0xD7AF: return true
        default: return false
        }
    }

    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "is", "are", "be", "it", "me", "my",
        "i", "you", "your", "please", "can", "could", "would", "with", "at", "by", "this", "that", "what", "do",
    ]
}
