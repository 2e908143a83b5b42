/// Why a server-sent event could not be read as an `AgentEvent`.
public enum AgentEventDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An event name this version of SkillGateAPI does not define.
    case unknownEvent(name: String)
    /// A known event whose data does not fit its schema (`reason` says which field).
    case malformed(name: String, reason: String)

    public var description: String {
        switch self {
        case .unknownEvent(let name):
            return "unknown agent event \"\(name)\": a newer SkillGate may send events this SkillGateAPI does not define; skip it, or update the client library"
        case .malformed(let name, let reason):
            return "the data of the agent event \(name) does not fit SkillGateAPI's schema (\(reason)); check that the client library and the gateway are of the same release"
        }
    }
}

extension DecodingError {
    /// One line naming the field and the problem (`the field "call_id" is missing`), for messages
    /// about an answer that does not fit the API's types.
    public var shortDescription: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "the field \"\(Self.path(context.codingPath + [key]))\" is missing"
        case .typeMismatch(let type, let context):
            return "the field \"\(Self.path(context.codingPath))\" is not \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "the field \"\(Self.path(context.codingPath))\" is null, expected \(Self.describe(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the data is not valid JSON"
                : "the field \"\(Self.path(context.codingPath))\" is invalid: \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Double.Type: return "a number"
        default: return "of the expected type (\(type))"
        }
    }
}
