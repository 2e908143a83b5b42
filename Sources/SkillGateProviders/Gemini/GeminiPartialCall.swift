import SkillGateCore

/// A tool call whose arguments Vertex streams as `partialArgs` fragments:
/// `{"jsonPath":"$.id","stringValue":"A","willContinue":true}` then `{"jsonPath":"$.id","stringValue":""}`.
/// String fragments at one path are concatenated; numbers, booleans and nulls replace.
/// Paths are `$`, then `.name`, `['name']` or `[index]` segments.
struct GeminiPartialCall: Sendable {
    let ordinal: Int
    var args: JSONObject

    enum Segment: Equatable { case key(String), index(Int) }

    mutating func apply(_ fragments: JSONValue?, provider: String) throws {
        for fragment in fragments?.arrayValue ?? [] {
            guard let path = fragment["jsonPath"]?.stringValue, let segments = Self.segments(path), !segments.isEmpty else {
                throw GatewayError.upstreamProtocol(
                    "Gemini (provider '\(provider)') streamed tool arguments with an unreadable jsonPath "
                        + "(\(fragment["jsonPath"]?.serialized() ?? "missing")); retry the request without streaming.",
                    provider: provider)
            }
            let value: JSONValue
            var appends = false
            if let s = fragment["stringValue"]?.stringValue { value = .string(s); appends = true }
            else if let n = fragment["numberValue"], case .number = n { value = n }
            else if let b = fragment["boolValue"]?.boolValue { value = .bool(b) }
            else { value = .null }
            // In place: the arguments are let go of while they are changed, so each level (and the string a fragment
            // extends) is held once and grows where it is. Rebuilt from copies, a 20 MB argument streamed in 1 KB
            // fragments took 70 s of CPU, every fragment copying the whole string (decision 0155).
            var root = JSONValue.object(args)
            args = JSONObject()
            Self.set(value, appending: appends, at: segments[...], in: &root)
            args = root.objectValue ?? JSONObject()
        }
    }

    private static func set(_ value: JSONValue, appending: Bool, at path: ArraySlice<Segment>, in node: inout JSONValue) {
        guard let head = path.first else {
            if appending, case .string(var existing) = node, case .string(let more) = value {
                node = .null
                existing += more
                node = .string(existing)
            } else {
                node = value
            }
            return
        }
        let rest = path.dropFirst()
        switch head {
        case .key(let key):
            var object = node.objectValue ?? JSONObject()
            node = .null
            var child = object[key] ?? .null
            object[key] = .null
            set(value, appending: appending, at: rest, in: &child)
            object[key] = child
            node = .object(object)
        case .index(let index):
            var array = node.arrayValue ?? []
            node = .null
            while array.count <= index { array.append(.null) }
            var child = array[index]
            array[index] = .null
            set(value, appending: appending, at: rest, in: &child)
            array[index] = child
            node = .array(array)
        }
    }

    /// `$.a[0]['b c']` → [.key("a"), .index(0), .key("b c")]; `nil` when the path is malformed.
    static func segments(_ path: String) -> [Segment]? {
        var path = path
        if let ascii = path.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? asciiSegments(bytes) : nil }) {
            return ascii
        }
        return characterSegments(path)
    }

    /// `segments` of an ASCII path, read as bytes (the same result as by characters, faster).
    /// The outer optional is `nil` when the path is not ASCII.
    private static func asciiSegments(_ bytes: UnsafeBufferPointer<UInt8>) -> [Segment]?? {
        guard bytes.first == UInt8(ascii: "$") else { return .some(nil) }
        var i = 1
        var out: [Segment] = []
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: ".") {
                let start = i + 1
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "[") { end += 1 }
                guard end > start else { return .some(nil) }
                out.append(.key(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                i = end
            } else if bytes[i] == UInt8(ascii: "[") {
                guard let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "]")) else { return .some(nil) }
                let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<close]), as: UTF8.self)
                let innerBytes = bytes[(i + 1)..<close]
                if let n = Int(inner), n >= 0, n < 100_000 {
                    out.append(.index(n))
                } else if innerBytes.count >= 2, let q = innerBytes.first, q == UInt8(ascii: "'") || q == UInt8(ascii: "\""),
                          innerBytes.last == q {
                    out.append(.key(String(inner.utf8.dropFirst().dropLast())!))
                } else {
                    return .some(nil)
                }
                i = close + 1
            } else {
                return .some(nil)
            }
        }
        return .some(out)
    }

    /// `segments` read character by character (any path; the reference for `asciiSegments`).
    static func characterSegments(_ path: String) -> [Segment]? {
        var chars = Substring(path)
        guard chars.first == "$" else { return nil }
        chars = chars.dropFirst()
        var out: [Segment] = []
        while let c = chars.first {
            if c == "." {
                chars = chars.dropFirst()
                let name = chars.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { return nil }
                out.append(.key(String(name)))
                chars = chars.dropFirst(name.count)
            } else if c == "[" {
                guard let close = chars.firstIndex(of: "]") else { return nil }
                let inner = chars[chars.index(after: chars.startIndex)..<close]
                if let i = Int(inner), i >= 0, i < 100_000 {
                    out.append(.index(i))
                } else if inner.count >= 2, let q = inner.first, q == "'" || q == "\"", inner.last == q {
                    out.append(.key(String(inner.dropFirst().dropLast())))
                } else {
                    return nil
                }
                chars = chars[chars.index(after: close)...]
            } else {
                return nil
            }
        }
        return out
    }
}
