import SkillGateCore
import SkillGateProviders

/// The Responses shape of one answer, made per request by `ResponsesSurface`: the chat encoding
/// (whole answer, stream, agent loop) writes through it. It knows the response's id and what the
/// request asked for (repeated in the `response` object), and stores the answer and the Response object
/// the client is given (`save`) before the client sees it complete.
struct ResponsesAnswer: ChatSurface {
    let object: ResponsesObject
    let save: (@Sendable (ChatResponse, [UInt8]) -> Void)?

    var name: String { "responses" }
    var idPrefix: String { OpenAIResponsesFormat.responseIdPrefix }

    func errorBody(_ error: GatewayError) -> [UInt8] { error.responsesBody().serializedBytes() }

    /// Decodes as `ResponsesSurface` does (the pipeline decodes with that surface, not this one).
    func decode(_ body: [UInt8]) throws -> SurfaceRequest { try ResponsesSurface().decode(body) }

    func responseBody(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8] {
        var o = object
        o.model = model
        let body = OpenAIResponsesFormat.responseBody(response, object: o)
        save?(response, body)
        return body
    }

    func streamEncoder(id: String, model: String, created: Int, includeUsage: Bool) -> any SurfaceStreamEncoder {
        var o = object
        o.model = model
        return ResponsesSSE(inner: ResponsesStreamEncoder(object: o, onComplete: save))
    }

    func streamErrorEvent(_ error: GatewayError) -> [UInt8] {
        ResponsesStreamEncoder(object: object).failure(error)
    }
}

/// The Responses stream encoder as the chat encoding uses it; a failure's events continue its
/// sequence numbers.
struct ResponsesSSE: SurfaceStreamEncoder {
    var inner: ResponsesStreamEncoder

    mutating func encode(_ event: ChatStreamEvent) -> [UInt8] { inner.encode(event) }
    mutating func finish() -> [UInt8] { inner.finish() }
    func failure(_ error: GatewayError) -> [UInt8]? { inner.failure(error) }
}
