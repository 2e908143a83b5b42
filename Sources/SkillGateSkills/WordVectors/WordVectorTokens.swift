/// The words of a text as the word-vector table is keyed: runs of ASCII letters, lower-cased (no
/// stemming: the table holds inflected forms), and for Chinese each Han character and each
/// adjacent pair (`天气预报` → `天 气 预 报 天气 气预 预报`; the table has common characters and
/// two-character words, so pairs that are not words simply miss). A Chinese function character
/// (`SkillTokenizer.chineseStopCharacters`: 的, 了, 我, 吗, …) is looked up only inside pairs, never
/// alone. Digits, punctuation and other scripts separate words and are not looked up.
public enum WordVectorTokens {
    /// The longest English word looked up (longer runs are skipped, not truncated).
    static let maxWordBytes = 32

    /// Calls `body` with the UTF-8 bytes of each token of `text`, in order, with repetitions.
    public static func forEach(in text: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        var word: [UInt8] = []
        word.reserveCapacity(maxWordBytes)
        var wordTooLong = false
        var previousHan: (UInt8, UInt8, UInt8)?

        func endWord() {
            if !word.isEmpty, !wordTooLong { word.withUnsafeBytes(body) }
            word.removeAll(keepingCapacity: true)
            wordTooLong = false
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                previousHan = nil
                var byte = UInt8(v)
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                if byte >= 0x61 && byte <= 0x7A {
                    if word.count < maxWordBytes { word.append(byte) } else { wordTooLong = true }
                } else {
                    endWord()
                }
                continue
            }
            endWord()
            guard (0x4E00...0x9FFF).contains(v) else {
                previousHan = nil
                continue
            }
            // Han characters in this range are three UTF-8 bytes.
            let han = (UInt8(0xE0 | (v >> 12)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F)))
            if !SkillTokenizer.chineseStopCharacters.contains(scalar) {
                withUnsafeBytes(of: han) { body(UnsafeRawBufferPointer(rebasing: $0[0..<3])) }
            }
            if let p = previousHan {
                let pair = (p.0, p.1, p.2, han.0, han.1, han.2)
                withUnsafeBytes(of: pair) { body(UnsafeRawBufferPointer(rebasing: $0[0..<6])) }
            }
            previousHan = han
        }
        endWord()
    }

    /// The tokens of `text` as strings (for tests and explanations).
    public static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        forEach(in: text) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }
}
