import SkillGateCore

/// Arguments of a GET webhook as a query string: top-level strings, numbers and booleans
/// (arrays and objects as compact JSON), percent-encoded.
enum WebhookQuery {
    static func encode(_ arguments: JSONValue, after existing: String) -> String {
        guard let object = arguments.objectValue, !object.isEmpty else { return "" }
        let pairs = object.map { member -> String in
            let value: String
            switch member.value {
            case .string(let s): value = s
            case .number(let n): value = n
            case .bool(let b): value = b ? "true" : "false"
            case .null: value = ""
            default: value = member.value.serialized()
            }
            return escape(member.key) + "=" + escape(value)
        }
        return (existing.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters stay; every other byte becomes %XX.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
