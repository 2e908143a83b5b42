/// Decodes a chunked request body (RFC 9112 §7.1) as its bytes arrive, appending the data to a body.
///
/// Strict about framing, since a lenient chunk parser is a classic way for two parsers in a chain to disagree about
/// where a request ends: every chunk-size line and every chunk's data end with CRLF, sizes are hex digits only (leading
/// zeros allowed), followed by nothing but optional spaces or tabs and a `;` extension (skipped, without control bytes
/// other than tab), every trailer line is a `name: value` field, and the size lines and trailer section are bounded.
struct ChunkedBodyDecoder {
    /// What one `decode` call came to.
    enum Outcome: Equatable {
        /// All of the bytes were taken; the body goes on.
        case needsMore
        /// The body (and its trailer section) ended after this many of the bytes; the rest belongs to the next request.
        case finished(consumed: Int)
        /// The chunked encoding is broken.
        case malformed
        /// The data went over the limit.
        case tooLarge
        /// The trailer section went over `maxTrailerBytes`.
        case trailersTooLarge
    }

    private enum State {
        case size
        /// Spaces or tabs after the size digits (RFC 9112 §7.1.1 BWS): only `;` or CR may follow.
        case sizeWhitespace
        case sizeExtension
        case sizeLineFeed
        case data
        case dataCarriageReturn
        case dataLineFeed
        /// In the trailer section; `lineLength` bytes of the current line so far, `colon` whether its name ended.
        case trailer(lineLength: Int, colon: Bool)
        case trailerLineFeed(lineLength: Int)
    }

    /// Longest chunk-size line (with its extension) and longest trailer section taken.
    static let maxSizeLine = 4096
    static let maxTrailerBytes = 16 * 1024

    private var state = State.size
    private var size = 0
    private var sizeDigits = 0
    private var significantDigits = 0
    private var lineBytes = 0
    private var remaining = 0
    private var trailerBytes = 0

    /// Feeds `bytes`; data goes to `body`, which may not grow beyond `limit` bytes.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into body: inout [UInt8], limit: Int) -> Outcome {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch state {
            case .size:
                if let digit = Self.hexValue(byte) {
                    // Leading zeros count for nothing; 15 significant hex digits overflow no Int, and a size that large
                    // is over every limit anyway.
                    if size > 0 || digit > 0 {
                        guard significantDigits < 15 else { return .tooLarge }
                        significantDigits += 1
                    }
                    size = size * 16 + digit
                    sizeDigits += 1
                } else if sizeDigits > 0 && byte == 0x3B {
                    state = .sizeExtension
                } else if sizeDigits > 0 && (byte == 0x20 || byte == 0x09) {
                    state = .sizeWhitespace
                } else if sizeDigits > 0 && byte == 0x0D {
                    state = .sizeLineFeed
                } else {
                    return .malformed
                }
                lineBytes += 1
                guard lineBytes <= Self.maxSizeLine else { return .malformed }
                index += 1
            case .sizeWhitespace:
                switch byte {
                case 0x20, 0x09: break
                case 0x3B: state = .sizeExtension
                case 0x0D: state = .sizeLineFeed
                default: return .malformed
                }
                lineBytes += 1
                guard lineBytes <= Self.maxSizeLine else { return .malformed }
                index += 1
            case .sizeExtension:
                if byte == 0x0D {
                    state = .sizeLineFeed
                } else if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                    return .malformed
                }
                lineBytes += 1
                guard lineBytes <= Self.maxSizeLine else { return .malformed }
                index += 1
            case .sizeLineFeed:
                guard byte == 0x0A else { return .malformed }
                index += 1
                if size == 0 {
                    state = .trailer(lineLength: 0, colon: false)
                } else {
                    guard size <= limit - body.count else { return .tooLarge }
                    remaining = size
                    state = .data
                }
                size = 0
                sizeDigits = 0
                significantDigits = 0
                lineBytes = 0
            case .data:
                let take = min(remaining, count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                remaining -= take
                index += take
                if remaining == 0 { state = .dataCarriageReturn }
            case .dataCarriageReturn:
                guard byte == 0x0D else { return .malformed }
                state = .dataLineFeed
                index += 1
            case .dataLineFeed:
                guard byte == 0x0A else { return .malformed }
                state = .size
                index += 1
            case .trailer(let length, let colon):
                index += 1
                trailerBytes += 1
                guard trailerBytes <= Self.maxTrailerBytes else { return .trailersTooLarge }
                if byte == 0x0D {
                    // A trailer line is a field: a name, then a colon (the empty line ends the section).
                    guard length == 0 || colon else { return .malformed }
                    state = .trailerLineFeed(lineLength: length)
                } else if byte == 0x0A {
                    return .malformed
                } else {
                    state = .trailer(lineLength: length + 1, colon: colon || (byte == 0x3A && length > 0))
                }
            case .trailerLineFeed(let length):
                guard byte == 0x0A else { return .malformed }
                index += 1
                trailerBytes += 1
                if length == 0 { return .finished(consumed: index) }
                state = .trailer(lineLength: 0, colon: false)
            }
        }
        return .needsMore
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }
}
