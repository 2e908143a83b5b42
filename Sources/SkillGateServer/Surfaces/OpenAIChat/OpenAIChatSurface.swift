import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// `POST /v1/chat/completions`: the OpenAI Chat Completions shape.
struct OpenAIChatSurface: ChatSurface {
    var name: String { "openai" }
    var idPrefix: String { "chatcmpl-" }

    func errorBody(_ error: GatewayError) -> [UInt8] { error.openAIBody().serializedBytes() }

    func decode(_ body: [UInt8]) throws -> SurfaceRequest {
        let inbound = try OpenAIChatFormat.decodeInboundRequest(body)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: inbound.includeUsage)
    }

    /// Takes a `tools` array the caller sent before, byte for byte, from `toolLists` (scoped by the caller's token).
    func decode(_ body: [UInt8], for caller: AuthenticatedClient, toolLists: ToolListCache) throws -> SurfaceRequest {
        let inbound = try OpenAIChatFormat.decodeInboundRequest(body, toolCache: toolLists, scope: caller.tokenId)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: inbound.includeUsage)
    }

    func responseBody(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8] {
        OpenAIChatFormat.encodeInboundResponseBytes(response, id: id, model: model, created: created)
    }

    func streamEncoder(id: String, model: String, created: Int, includeUsage: Bool) -> any SurfaceStreamEncoder {
        OpenAIChatStreamEncoder(id: id, model: model, created: created, includeUsage: includeUsage)
    }

    func streamErrorEvent(_ error: GatewayError) -> [UInt8] {
        SSEEncoder.encodeJSON(error.openAIBody())
    }
}

extension OpenAIChatStreamEncoder: SurfaceStreamEncoder {}
