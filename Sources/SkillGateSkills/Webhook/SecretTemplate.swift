import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore

/// Expands `${secret:NAME}` in header values with secrets from the key store, at call time.
public enum SecretTemplate {
    /// The secret names `value` refers to.
    public static func names(in value: String) -> [String] {
        var out: [String] = []
        var rest = Substring(value)
        while let start = rest.firstRange(of: "${secret:") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            out.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return out
    }

    /// `value` with every `${secret:NAME}` replaced; throws naming (never revealing) a missing secret.
    public static func expand(_ value: String, secrets: (String) -> String?) throws(OutboundError) -> (text: String, used: [String]) {
        var text = value, used: [String] = []
        for name in names(in: value) {
            guard let secret = secrets(name), !secret.isEmpty else {
                throw OutboundError("the secret \"\(name)\" is not in the key store; an administrator must add it (skillgate keys set \(name))")
            }
            text = text.replacing("${secret:\(name)}", with: secret)
            used.append(secret)
        }
        return (text, used)
    }

    /// `text` with every occurrence of the `secrets`, and every run of 12 bytes or more of one, replaced by `[redacted]`
    /// (in case a server echoes them, whole or in part): the byte-level rule of `SecretRedaction` (decision 0153).
    public static func redact(_ text: String, _ secrets: [String]) -> String {
        SecretRedaction.redact(text, secrets)
    }

    /// `value` with the `secrets` (and their pieces, as `redact(_:_:)` takes them) replaced by `[redacted]` in its strings
    /// and keys.
    public static func redact(_ value: JSONValue, _ secrets: [String]) -> JSONValue {
        let secrets = secrets.filter { $0.utf8.count >= SecretRedaction.shortestSecret }
        guard !secrets.isEmpty else { return value }
        func walk(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): return .string(redact(text, secrets))
            case .array(let items): return .array(items.map(walk))
            case .object(let object):
                return .object(JSONObject(object.members.map { .init(key: redact($0.key, secrets), value: walk($0.value)) }))
            default: return value
            }
        }
        return walk(value)
    }
}
