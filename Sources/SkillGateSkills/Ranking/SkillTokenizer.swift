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
///
/// ASCII is handled byte-wise (no Unicode property lookups); other scripts through scalar properties.
public enum SkillTokenizer {
    /// The terms of `text`, in order, with repetitions (term frequency counts).
    public static func terms(_ text: String) -> [String] {
        var out: [String] = []
        var word: [UInt8] = []
        word.reserveCapacity(32)
        var wordIsASCII = true
        var lastWasLower = false
        var cjkRun: [Unicode.Scalar] = []

        func flushWord() {
            guard !word.isEmpty else { return }
            emitWord(word, ascii: wordIsASCII, into: &out)
            word.removeAll(keepingCapacity: true)
            wordIsASCII = true
            lastWasLower = false
        }
        func flushCJK() {
            guard !cjkRun.isEmpty else { return }
            for i in cjkRun.indices {
                var single = String.UnicodeScalarView()
                single.append(cjkRun[i])
                out.append(String(single))
                if i + 1 < cjkRun.count {
                    single.append(cjkRun[i + 1])
                    out.append(String(single))
                }
            }
            cjkRun.removeAll(keepingCapacity: true)
        }

        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(v)
                if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    if !cjkRun.isEmpty { flushCJK() }
                    word.append(b)
                    lastWasLower = b >= 0x61
                } else if b >= 0x41 && b <= 0x5A {
                    if !cjkRun.isEmpty { flushCJK() }
                    if lastWasLower { flushWord() }  // camelCase boundary
                    word.append(b | 0x20)
                    lastWasLower = false
                } else {
                    flushWord()
                    flushCJK()
                }
            } else if isCJK(scalar) {
                flushWord()
                cjkRun.append(scalar)
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                flushCJK()
                word.append(contentsOf: String(scalar).utf8)
                wordIsASCII = false
                lastWasLower = scalar.properties.isLowercase
            } else {
                flushWord()
                flushCJK()
            }
        }
        flushWord()
        flushCJK()
        return out
    }

    private static func emitWord(_ bytes: [UInt8], ascii: Bool, into out: inout [String]) {
        guard ascii else {
            out.append(String(decoding: bytes, as: UTF8.self).lowercased())
            return
        }
        let end = bytes.count
        if end <= 6, stopWords.contains(String(decoding: bytes, as: UTF8.self)) { return }
        // Plural s: longer than three letters, ends in s but not ss.
        let stem = end > 3 && bytes[end - 1] == 0x73 && bytes[end - 2] != 0x73 ? end - 1 : end
        out.append(String(decoding: bytes[0..<stem], as: UTF8.self))
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
