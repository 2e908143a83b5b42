/// A request's query string (`by=day&days=30`) as its name and value pairs, in order, `+` and `%XX` decoded; a pair
/// without `=` has an empty value. Repeated names are all kept: each reader says whether it takes them.
enum QueryString {
    static func pairs(_ query: String?) -> [(name: String, value: String)] {
        (query ?? "").split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map({ decode($0) }), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `text` with each `%XX` as its byte (a `%` without two hex digits after it stays) and, in a query (`plusIsSpace`),
    /// `+` as a space; in a path segment `+` is itself.
    static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if b == 0x2B, plusIsSpace { out.append(0x20); continue }
            if b == 0x25, bytes.count >= 2, let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v)
                bytes = bytes.dropFirst(2)
                continue
            }
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
