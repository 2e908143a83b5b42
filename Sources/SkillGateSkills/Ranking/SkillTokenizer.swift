/// Splits text into search terms for skill ranking, for English and Chinese (and other scripts).
///
/// - Letters and digits form words; words are lower-cased and split at `_`, `-`, `.` and
///   camelCase boundaries (`getWeather` → `get`, `weather`), so tool names match prose.
/// - English words are stemmed (`EnglishStemmer`: reminder → remind, booking → book); letters and
///   digits are split apart (`6pm` → `pm`), and numbers are dropped (they match noise).
/// - `%`, currency signs and `°` become the words `percent`, `currency` and `degree`, so "15% of
///   238" meets a tool that computes percentages.
/// - Han, Hiragana, Katakana and Hangul runs yield each character and each adjacent pair
///   (`天气预报` → `天 气 预 报 天气 气预 预报`): Chinese has no spaces, and bigrams match words
///   while single characters keep recall for one-character words.
/// - A few English function words are dropped (they only add noise to short queries), and so are
///   Chinese function characters standing alone (`chineseStopCharacters`; they stay in pairs).
///
/// ASCII is handled byte-wise (no Unicode property lookups); other scripts through scalar properties.
public enum SkillTokenizer {
    /// The terms of `text`, in order, with repetitions (term frequency counts). With `concepts`,
    /// words of `ConceptLexicon` are followed by their concept terms (`\u{1}c<group>`).
    public static func terms(_ text: String, concepts: Bool = true) -> [String] {
        var scanner = TermScanner(keepStrings: true, expandConcepts: concepts)
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

    /// Chinese function characters (particles, pronouns, prepositions, auxiliaries): alone they say
    /// nothing about which tool is meant, yet every request and every Chinese description has them,
    /// so they matched any Chinese tool with any Chinese request. They still count inside pairs
    /// (`下单`, `点菜`); only the single character is dropped.
    static let chineseStopCharacters: Set<Unicode.Scalar> = Set("的了着过和与及或把被给跟到在上下里中个一也都就还又我你您他她它们是有吗呢吧啊呀嘛这那些哪能会要想请帮让对从向为用等可以之其而所将很太最再才不没多少好去来做看说点儿".unicodeScalars)

    /// The words symbols stand for (already stems: the stemmer leaves them unchanged).
    static let percent = Array("percent".utf8)
    static let currency = Array("currency".utf8)
    static let degree = Array("degree".utf8)
}

/// The tokenizer's state machine (a struct with no captured variables, so the hot loop stays in
/// registers instead of heap boxes).
struct TermScanner {
    let keepStrings: Bool
    /// Whether words of `ConceptLexicon` add their concept terms (off while building it).
    let expandConcepts: Bool
    var keys: [Int] = []
    var strings: [String] = []
    private var word: [UInt8] = []
    private var wordIsASCII = true
    private var lastWasLower = false
    private var cjkRun: [Unicode.Scalar] = []
    private var gram: [UInt8] = []

    init(keepStrings: Bool, expandConcepts: Bool = true) {
        self.keepStrings = keepStrings
        self.expandConcepts = expandConcepts
        word.reserveCapacity(32)
        gram.reserveCapacity(8)
    }

    mutating func scan(_ text: String) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(truncatingIfNeeded: v)
                let isDigit = b >= 0x30 && b <= 0x39
                if (b >= 0x61 && b <= 0x7A) || isDigit {
                    if !cjkRun.isEmpty { flushCJK() }
                    if !word.isEmpty && wordIsASCII && isDigit != (word[word.count - 1] <= 0x39) { flushWord() }  // 6pm → 6, pm
                    word.append(b)
                    lastWasLower = b >= 0x61
                } else if b >= 0x41 && b <= 0x5A {
                    if !cjkRun.isEmpty { flushCJK() }
                    if lastWasLower || (!word.isEmpty && wordIsASCII && word[word.count - 1] <= 0x39) { flushWord() }  // camelCase boundary
                    word.append(b | 0x20)
                    lastWasLower = false
                } else {
                    if !word.isEmpty { flushWord() }
                    if !cjkRun.isEmpty { flushCJK() }
                    if b == 0x25 { emitWord(SkillTokenizer.percent) }
                    else if b == 0x24 { emitWord(SkillTokenizer.currency) }
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
                switch v {
                case 0xFF05: emitWord(SkillTokenizer.percent)                                   // ％
                case 0x20AC, 0xA3, 0xA5, 0xFFE5, 0x20B9, 0x20A9: emitWord(SkillTokenizer.currency) // € £ ¥ ￥ ₹ ₩
                case 0xB0: emitWord(SkillTokenizer.degree)                                      // °
                default: break
                }
            }
        }
        if !word.isEmpty { flushWord() }
        if !cjkRun.isEmpty { flushCJK() }
    }

    /// Emits a word given whole (symbols spelled out).
    private mutating func emitWord(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { emit($0) }
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        let key = SkillDocument.key(bytes)
        keys.append(key)
        if keepStrings { strings.append(String(decoding: bytes, as: UTF8.self)) }
        if expandConcepts { addConcepts(of: key) }
    }

    /// Adds the concept terms of the word with `key` (`ConceptLexicon.conceptTerm` in `strings`).
    @inline(__always)
    private mutating func addConcepts(of key: Int) {
        guard let concepts = ConceptLexicon.table[key] else { return }
        for c in concepts {
            keys.append(ConceptLexicon.conceptKeys[Int(c)])
            if keepStrings { strings.append(ConceptLexicon.conceptTerm(Int(c))) }
        }
    }

    private mutating func flushWord() {
        if wordIsASCII {
            let end = word.count
            var stop = false
            if end <= 6 { stop = word.withUnsafeBufferPointer { SkillTokenizer.stopWordKeys.contains(SkillDocument.key($0)) } }
            let isNumber = word[0] >= 0x30 && word[0] <= 0x39
            if !stop && !isNumber {
                let stem = EnglishStemmer.stem(&word)
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
        if expandConcepts && cjkRun.count >= 3 {
            for length in 3...4 where cjkRun.count >= length {
                for i in 0...(cjkRun.count - length) {
                    gram.removeAll(keepingCapacity: true)
                    for k in i..<(i + length) { UTF8.encode(cjkRun[k]) { gram.append($0) } }
                    let key = gram.withUnsafeBufferPointer { SkillDocument.key($0) }
                    addConcepts(of: key)
                }
            }
        }
        for i in cjkRun.indices {
            gram.removeAll(keepingCapacity: true)
            UTF8.encode(cjkRun[i]) { gram.append($0) }
            if !SkillTokenizer.chineseStopCharacters.contains(cjkRun[i]) {
                let one = gram
                one.withUnsafeBufferPointer { emit($0) }
            }
            if i + 1 < cjkRun.count {
                UTF8.encode(cjkRun[i + 1]) { gram.append($0) }
                let two = gram
                two.withUnsafeBufferPointer { emit($0) }
            }
        }
        cjkRun.removeAll(keepingCapacity: true)
    }
}
