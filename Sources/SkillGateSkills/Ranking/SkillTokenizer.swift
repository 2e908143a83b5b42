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
        var scanner = TermScanner(keepStrings: true)
        scanner.scan(text)
        return scanner.strings
    }

    /// The keys (`SkillDocument.key`) of the terms of `text`, without building strings: what
    /// ranking uses on the request path.
    public static func termKeys(_ text: String) -> [Int] {
        var scanner = TermScanner(keepStrings: false)
        scanner.scan(text)
        return scanner.keys
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
    static let stopWordKeys: Set<Int> = Set(stopWords.map(SkillDocument.key))
}

/// The tokenizer's state machine (a struct with no captured variables, so the hot loop stays in
/// registers instead of heap boxes).
struct TermScanner {
    let keepStrings: Bool
    var keys: [Int] = []
    var strings: [String] = []
    private var word: [UInt8] = []
    private var wordIsASCII = true
    private var lastWasLower = false
    private var cjkRun: [Unicode.Scalar] = []
    private var gram: [UInt8] = []

    init(keepStrings: Bool) {
        self.keepStrings = keepStrings
        word.reserveCapacity(32)
        gram.reserveCapacity(8)
    }

    mutating func scan(_ text: String) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(truncatingIfNeeded: v)
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
                    if !word.isEmpty { flushWord() }
                    if !cjkRun.isEmpty { flushCJK() }
                }
            } else if SkillTokenizer.isCJK(scalar) {
                if !word.isEmpty { flushWord() }
                cjkRun.append(scalar)
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if !cjkRun.isEmpty { flushCJK() }
                UTF8.encode(scalar) { word.append($0) }
                wordIsASCII = false
                lastWasLower = scalar.properties.isLowercase
            } else {
                if !word.isEmpty { flushWord() }
                if !cjkRun.isEmpty { flushCJK() }
            }
        }
        if !word.isEmpty { flushWord() }
        if !cjkRun.isEmpty { flushCJK() }
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        keys.append(SkillDocument.key(bytes))
        if keepStrings { strings.append(String(decoding: bytes, as: UTF8.self)) }
    }

    private mutating func flushWord() {
        if wordIsASCII {
            let end = word.count
            var stop = false
            if end <= 6 { stop = word.withUnsafeBufferPointer { SkillTokenizer.stopWordKeys.contains(SkillDocument.key($0)) } }
            if !stop {
                // Plural s: longer than three letters, ends in s but not ss.
                let stem = end > 3 && word[end - 1] == 0x73 && word[end - 2] != 0x73 ? end - 1 : end
                let w = word
                w.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<stem])) }
            }
        } else {
            var lower = String(decoding: word, as: UTF8.self).lowercased()
            lower.withUTF8 { emit($0) }
        }
        word.removeAll(keepingCapacity: true)
        wordIsASCII = true
        lastWasLower = false
    }

    private mutating func flushCJK() {
        for i in cjkRun.indices {
            gram.removeAll(keepingCapacity: true)
            UTF8.encode(cjkRun[i]) { gram.append($0) }
            let one = gram
            one.withUnsafeBufferPointer { emit($0) }
            if i + 1 < cjkRun.count {
                UTF8.encode(cjkRun[i + 1]) { gram.append($0) }
                let two = gram
                two.withUnsafeBufferPointer { emit($0) }
            }
        }
        cjkRun.removeAll(keepingCapacity: true)
    }
}
