import SkillGateCore
import SkillGateProviders

extension GatewayError {
    /// A body valid in both the OpenAI and the Anthropic error shape
    /// (`{"type":"error","error":{"type","message","param","code"}}`), for errors the HTTP layer
    /// raises before it knows which surface the client speaks (413, malformed HTTP).
    func surfaceNeutralBody() -> JSONValue {
        var error: JSONObject = ["type": .string(anthropicType), "message": .string(clientMessage)]
        error.append("param", param.map(JSONValue.string) ?? .null)
        error.append("code", .string(kind.rawValue))
        return .object(["type": "error", "error": .object(error)])
    }
}
