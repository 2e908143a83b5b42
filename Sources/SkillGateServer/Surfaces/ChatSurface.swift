import SkillGateCore
import SkillGateProviders

/// A chat request as decoded from one inbound surface.
struct InboundChat: Sendable {
    var request: ChatRequest
    var stream: Bool
    var includeUsage: Bool
}

/// The API shapes clients may speak to the gateway. Any surface can reach any provider: the
/// request is decoded into the wire-neutral model and the answer encoded back in the same shape.
enum ChatSurface: String, Sendable {
    /// `POST /v1/chat/completions` (OpenAI Chat Completions).
    case openAI = "openai"
    /// `POST /v1/messages` (Anthropic Messages).
    case anthropic = "anthropic"

    func decode(_ body: [UInt8]) throws -> InboundChat {
        switch self {
        case .openAI:
            let inbound = try OpenAIChatFormat.decodeInboundRequest(body)
            return InboundChat(request: inbound.request, stream: inbound.stream, includeUsage: inbound.includeUsage)
        case .anthropic:
            let inbound = try AnthropicMessagesFormat.decodeInbound(body)
            return InboundChat(request: inbound.request, stream: inbound.stream, includeUsage: true)
        }
    }

    func responseBody(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8] {
        switch self {
        case .openAI:
            return OpenAIChatFormat.encodeInboundResponse(response, id: id, model: model, created: created).serializedBytes()
        case .anthropic:
            var r = response
            r.model = model
            return AnthropicMessagesFormat.inboundResponseBody(r, fallbackId: id).serializedBytes()
        }
    }

    func streamEncoder(id: String, model: String, created: Int, includeUsage: Bool) -> SurfaceStreamEncoder {
        switch self {
        case .openAI: return .openAI(OpenAIChatStreamEncoder(id: id, model: model, created: created, includeUsage: includeUsage))
        case .anthropic: return .anthropic(AnthropicMessagesSSEEncoder(fallbackId: id, fallbackModel: model), model: model)
        }
    }

    /// The error body in this surface's shape.
    func errorBody(_ error: GatewayError) -> [UInt8] {
        switch self {
        case .openAI: return error.openAIBody().serializedBytes()
        case .anthropic: return error.anthropicBody().serializedBytes()
        }
    }
}

/// Encodes canonical stream events as one surface's SSE.
enum SurfaceStreamEncoder: Sendable {
    case openAI(OpenAIChatStreamEncoder)
    case anthropic(AnthropicMessagesSSEEncoder, model: String)

    /// The SSE bytes for one event. The model name clients see is the gateway's, not the upstream's.
    mutating func encode(_ event: ChatStreamEvent) -> [UInt8] {
        var event = event
        switch self {
        case .openAI(var e):
            let out = e.encode(event)
            self = .openAI(e)
            return out
        case .anthropic(var e, let model):
            if case .start(let id, _) = event { event = .start(id: id, model: model) }
            let out = e.encode(event)
            self = .anthropic(e, model: model)
            return out
        }
    }

    /// The closing bytes (`[DONE]`, `message_stop`).
    mutating func finish() -> [UInt8] {
        switch self {
        case .openAI(var e):
            let out = e.finish()
            self = .openAI(e)
            return out
        case .anthropic(var e, let model):
            let out = e.finish()
            self = .anthropic(e, model: model)
            return out
        }
    }

    /// An error after the stream started, as an SSE event in the surface's shape.
    func errorEvent(_ error: GatewayError) -> [UInt8] {
        switch self {
        case .openAI(let e): return e.encodeError(error)
        case .anthropic: return AnthropicMessagesSSEEncoder.errorEvent(error)
        }
    }
}
