import SkillGateCore

/// Checks a request head's body framing before any body byte is read. Several `Content-Length` fields, a signed,
/// listed or overflowing value, `Transfer-Encoding` together with `Content-Length`, and a transfer coding other than
/// exactly `chunked` are each a way for two parsers in a chain to disagree about where a request ends (request
/// smuggling; evhttp 2.1, which the server used before decision 0058, let several of them through). RFC 9112 §6.3
/// makes them all errors.
///
/// It also refuses a body in a content coding (`Content-Encoding: gzip`) with 415 before the body is read: the server
/// hands handlers the bytes as sent, and compressed JSON would otherwise be answered as malformed JSON (decision 0170).
enum RequestFraming {
    /// Why the head's framing is refused: a status (400, 415 for a content coding, or 501 for a transfer coding other
    /// than chunked), a message saying what to fix, and fields the answer carries (`Accept-Encoding` with a 415,
    /// RFC 9110 §12.5.3).
    struct Refusal: Error, Equatable {
        var status: Int
        var message: String
        var headers: HTTPHeaders = [:]
    }

    /// The framing of a valid head: the Content-Length, or chunked, or neither.
    enum Body: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// Largest Content-Length parsed (well above any body limit; longer values are refused as malformed).
    static let maxDigits = 18

    /// The body framing `fields` declare, or why it is refused.
    static func check(_ fields: HTTPHeaders) -> Result<Body, Refusal> {
        var lengths: [String] = []
        var codings: [String] = []
        var contentCoding: String?
        for field in fields {
            switch field.name.utf8.count {
            case 14 where HTTPHeaders.sameName(field.name, "content-length"): lengths.append(field.value)
            case 17 where HTTPHeaders.sameName(field.name, "transfer-encoding"): codings.append(field.value)
            case 16 where HTTPHeaders.sameName(field.name, "content-encoding"):
                if contentCoding == nil, !isIdentity(field.value) { contentCoding = field.value }
            default: continue
            }
        }
        let body: Body
        switch framing(lengths: lengths, codings: codings) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let framed): body = framed
        }
        if let contentCoding, body != .none {
            return .failure(Refusal(
                status: 415,
                message: "The request body is sent with `Content-Encoding: \(shown(contentCoding))`, which this server does not decode; send the body uncompressed, without a Content-Encoding field.",
                headers: ["Accept-Encoding": "identity"]))
        }
        return .success(body)
    }

    /// The framing the Content-Length and Transfer-Encoding fields declare, or why it is refused.
    private static func framing(lengths: [String], codings: [String]) -> Result<Body, Refusal> {
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(Refusal(status: 400, message: "The request has both Transfer-Encoding and Content-Length; send one of them (Content-Length for a known size)."))
            }
            guard codings.count == 1, codings[0].trimmingSpacesAndTabs().lowercased() == "chunked" else {
                return .failure(Refusal(status: 501, message: "Only `Transfer-Encoding: chunked` is supported, in one field; send the body with Content-Length or plain chunked encoding."))
            }
            return .success(.chunked)
        }
        guard let value = lengths.first else { return .success(.none) }
        guard lengths.count == 1 else {
            return .failure(Refusal(status: 400, message: "The request has more than one Content-Length field; send exactly one."))
        }
        guard let length = parseLength(value.trimmingSpacesAndTabs()) else {
            return .failure(Refusal(status: 400, message: "Content-Length must be a plain decimal number of bytes (digits only, no sign, list or spaces); fix the header."))
        }
        return .success(length == 0 ? .none : .length(length))
    }

    /// Whether a Content-Encoding value names no coding: empty, or `identity` (in a list, each element).
    private static func isIdentity(_ value: String) -> Bool {
        value.split(separator: ",").allSatisfy { element in
            let coding = String(element).trimmingSpacesAndTabs()
            return coding.isEmpty || HTTPHeaders.sameName(coding, "identity")
        }
    }

    /// A field value as an error message shows it: at most 40 bytes of it.
    private static func shown(_ value: String) -> String {
        let trimmed = value.trimmingSpacesAndTabs()
        return trimmed.utf8.count > 40 ? String(decoding: trimmed.utf8.prefix(40), as: UTF8.self) + "…" : trimmed
    }

    private static func parseLength(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxDigits else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}
