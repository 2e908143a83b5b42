import SkillGateCore
import SkillGateProviders

/// `POST /v1/messages`: the Anthropic Messages shape.
struct AnthropicMessagesSurface: ChatSurface {
    var name: String { "anthropic" }
    var idPrefix: String { "msg_" }

    func errorBody(_ error: GatewayError) -> [UInt8] { error.anthropicBody().serializedBytes() }

    func decode(_ body: [UInt8]) throws -> SurfaceRequest {
        let inbound = try AnthropicMessagesFormat.decodeInbound(body)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: true)
    }

    /// Takes a `tools` array the caller sent before, byte for byte, from `toolLists`. Scoped by the caller's token and
    /// by this surface: the same bytes can be a valid list in both shapes and mean other tools in each.
    func decode(_ body: [UInt8], for caller: AuthenticatedClient, toolLists: ToolListCache) throws -> SurfaceRequest {
        let inbound = try AnthropicMessagesFormat.decodeInbound(body, toolCache: toolLists, scope: Self.toolListScopePrefix + caller.tokenId)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: true)
    }

    /// Put before the caller's token id in the tool-list cache's scope (the OpenAI surface uses the token id alone; a
    /// token id never starts with a space).
    static let toolListScopePrefix = " anthropic "

    func responseBody(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8] {
        var r = response
        r.model = model
        return AnthropicMessagesFormat.inboundResponseBytes(r, fallbackId: id)
    }

    func streamEncoder(id: String, model: String, created: Int, includeUsage: Bool) -> any SurfaceStreamEncoder {
        AnthropicStreamEncoder(inner: AnthropicMessagesSSEEncoder(fallbackId: id, fallbackModel: model), model: model)
    }

    func streamErrorEvent(_ error: GatewayError) -> [UInt8] {
        AnthropicMessagesSSEEncoder.errorEvent(error)
    }
}

/// The Anthropic SSE encoder with the gateway's model name in `message_start` (clients see the
/// name they routed to, not the upstream's).
struct AnthropicStreamEncoder: SurfaceStreamEncoder {
    var inner: AnthropicMessagesSSEEncoder
    let model: String

    mutating func encode(_ event: ChatStreamEvent) -> [UInt8] {
        if case .start(let id, _) = event { return inner.encode(.start(id: id, model: model)) }
        return inner.encode(event)
    }

    mutating func finish() -> [UInt8] { inner.finish() }
}
