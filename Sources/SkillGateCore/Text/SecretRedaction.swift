/// Takes secrets out of text that a third party wrote: a provider's error, an MCP server's tool list or result, a
/// webhook's answer. Works on UTF-8 bytes, not on Swift `Character`s: a secret followed by a combining mark (`key` +
/// U+0301) is one different `Character` at its end, but its bytes are all there, and must go (decision 0153).
///
/// The rule (decision 0092, shared since 0153): every whole occurrence of a secret of at least `shortestSecret` bytes,
/// and every run of at least `shortestPiece` bytes that is also a run of the secret, become `[redacted]`. An echo of
/// part of a secret (its first 20 characters, the key without its `sk-` prefix) gives that part away; shorter pieces
/// are left, so a provider's own masked echo (`sk-proj-****abcd`) still tells the operator which key was meant.
public enum SecretRedaction {
    /// Secrets shorter than this are not searched for: a text that short is no key, and replacing it would mangle
    /// ordinary words of a message.
    public static let shortestSecret = 4
    /// The shortest piece of a secret that is redacted where it stands alone.
    public static let shortestPiece = 12
    /// What stands where a secret or a piece of one was.
    public static let placeholder = "[redacted]"

    /// `text` with each of `secrets` (and each long enough piece of one) replaced by `[redacted]`; `text` itself when
    /// none of them occurs.
    public static func redact(_ text: String, _ secrets: [String]) -> String {
        let secrets = secrets.filter { $0.utf8.count >= shortestSecret }
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        let textBytes = Array(text.utf8)
        var covered = [Bool](repeating: false, count: textBytes.count)
        var found = false
        for secret in secrets {
            let secretBytes = Array(secret.utf8)
            found = markWhole(secretBytes, in: textBytes, &covered) || found
            found = markPieces(of: secretBytes, in: textBytes, &covered) || found
        }
        guard found else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(textBytes.count)
        var i = 0
        while i < textBytes.count {
            if covered[i] {
                out += Array(placeholder.utf8)
                while i < textBytes.count, covered[i] { i += 1 }
            } else {
                out.append(textBytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Marks every occurrence of `secret`'s bytes in `text`; whether there was one.
    private static func markWhole(_ secret: [UInt8], in text: [UInt8], _ covered: inout [Bool]) -> Bool {
        guard let first = secret.first, text.count >= secret.count else { return false }
        var found = false
        for start in 0...(text.count - secret.count) where text[start] == first && text[start..<(start + secret.count)].elementsEqual(secret) {
            for i in start..<(start + secret.count) { covered[i] = true }
            found = true
        }
        return found
    }

    /// Marks every run of `shortestPiece` bytes of `text` that is also a run of `secret`; whether there was one.
    /// The last 8 bytes before each position roll through a `UInt64`, so most positions cost a set look-up of an
    /// integer; only a window whose 8 bytes begin a piece of the secret is compared in full.
    private static func markPieces(of secret: [UInt8], in text: [UInt8], _ covered: inout [Bool]) -> Bool {
        let k = shortestPiece
        guard secret.count >= k, text.count >= k else { return false }
        var pieces = Set<ArraySlice<UInt8>>(), heads = Set<UInt64>()
        for start in 0...(secret.count - k) {
            pieces.insert(secret[start..<(start + k)])
            heads.insert(word(secret, at: start))
        }
        var found = false
        var rolling: UInt64 = 0
        for end in 0..<text.count {
            rolling = (rolling << 8) | UInt64(text[end])
            let start = end - 7
            guard start >= 0, start + k <= text.count, heads.contains(rolling), pieces.contains(text[start..<(start + k)]) else { continue }
            for i in start..<(start + k) { covered[i] = true }
            found = true
        }
        return found
    }

    /// The 8 bytes from `start`, big-endian (as the rolling word holds them).
    private static func word(_ bytes: [UInt8], at start: Int) -> UInt64 {
        bytes[start..<(start + 8)].reduce(0) { ($0 << 8) | UInt64($1) }
    }
}
