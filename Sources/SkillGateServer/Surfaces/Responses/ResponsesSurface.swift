import FoundationEssentials
import Glibc
import Dispatch
import SkillGateCore
import SkillGateProviders

/// `POST /v1/responses`: the OpenAI Responses API (decision 0028).
///
/// Decodes `input` items, `instructions` and function tools into the wire-neutral request
/// (`OpenAIResponsesFormat`); continues a stored conversation named by `previous_response_id`
/// before the prepare stage, so routing and the skill policy see the whole conversation; answers
/// through the chat encoding (whole, streamed, or the agent loop's final answer) with a
/// `ResponsesAnswer` made for the request, which also stores the answer when `store` is on.
struct ResponsesSurface: Surface {
    var name: String { "responses" }

    func errorBody(_ error: GatewayError) -> [UInt8] { error.responsesBody().serializedBytes() }

    func decode(_ body: [UInt8]) throws -> SurfaceRequest {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(body)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: true, details: inbound)
    }

    /// Takes a `tools` array the caller sent before, byte for byte, from `toolLists` (decision 0069). Scoped by the
    /// caller's token and by this surface, as the Anthropic surface's: the same bytes can be valid tools in other shapes.
    func decode(_ body: [UInt8], for caller: AuthenticatedClient, toolLists: ToolListCache) throws -> SurfaceRequest {
        let inbound = try OpenAIResponsesFormat.decodeInboundRequest(body, toolCache: toolLists, scope: Self.toolListScopePrefix + caller.tokenId)
        return SurfaceRequest(chat: inbound.request, stream: inbound.stream, includeUsage: true, details: inbound)
    }

    /// Put before the caller's token id in the tool-list cache's scope (a token id never starts with a space).
    static let toolListScopePrefix = " responses "

    /// Puts the stored conversation of `previous_response_id` between `instructions` and the new
    /// input (the earlier response's instructions are not carried over, as OpenAI does).
    func resolve(_ request: SurfaceRequest, for client: AuthenticatedClient, with answer: Answering) async throws -> SurfaceRequest {
        guard var inbound = request.details as? ResponsesInboundRequest else { return request }
        if !answer.responses.isEnabled { inbound.echo.store = false }
        guard let previous = inbound.previousResponseId else { return request.with(details: inbound) }
        let history = try await answer.responses.conversation(id: previous, tokenId: client.tokenId)
        try Self.checkLength(continuing: history, previous, with: request.chat.messages)
        var resolved = request
        resolved.chat.messages.insert(contentsOf: history.messages, at: inbound.hasInstructions ? 1 : 0)
        inbound.request.messages = resolved.chat.messages
        inbound.history = history
        return resolved.with(details: inbound)
    }

    /// Refuses to continue a conversation that, with the new input, is over `ResponseArchive.maxConversationBytes`:
    /// its answer could not be kept, and the model would be sent megabytes it cannot read.
    static func checkLength(continuing history: ResponsesHistory, _ previous: String, with input: [Message]) throws {
        let inputBytes = input.reduce(0) { $0 + $1.text.utf8.count }
        let limit = ResponseArchive.maxConversationBytes
        guard history.itemsJSON.count + inputBytes > limit else { return }
        var error = GatewayError.invalidRequest(
            "the conversation of previous_response_id '\(previous.prefix(80))' is \(history.itemsJSON.count) bytes and this input about \(inputBytes) more, over the \(limit / (1 << 20)) MiB kept for one conversation; start a new one: send what matters of it in `input` without previous_response_id")
        error.param = "previous_response_id"
        throw error
    }

    func respond(to call: PreparedCall, _ request: SurfaceRequest, with answer: Answering, _ ctx: inout RequestContext) async throws -> StreamRelay? {
        guard let inbound = request.details as? ResponsesInboundRequest else {
            throw GatewayError.internalError("the Responses surface answered a request it did not decode")
        }
        let now = Date().timeIntervalSince1970
        let id = OpenAIResponsesFormat.responseId(milliseconds: Int64(now * 1000), unique: ctx.idSuffix)
        let object = ResponsesObject(id: id, createdAt: Int(now), model: call.request.model, echo: inbound.echo)
        var save: (@Sendable (ChatResponse, [UInt8]) -> Void)?
        if inbound.echo.store {
            // The stored conversation: the continued one's items as they were stored, then this input's items as sent and
            // the answer's as the client is given them, each with its id (decision 0138); beside it the Response object,
            // for `GET /v1/responses/{id}` (decision 0125), and where the input ends, for its `input_items` (decision 0127).
            let archive = answer.responses, tokenId = call.client.tokenId, history = inbound.history?.itemsJSON ?? []
            let input = inbound.inputItems
            save = { response, responseObject in
                let stored = ResponsesStoredConversation.write(history: history, input: input, answer: response.message,
                                                               object: responseObject, responseId: id)
                archive.save(id: id, tokenId: tokenId, conversation: stored.conversation, object: responseObject, inputEnd: stored.inputEnd)
            }
        }
        let surface = ResponsesAnswer(object: object, save: save)
        return try await ChatEncoding(surface: surface, answer: answer).respond(to: call, request, &ctx)
    }
}

extension SurfaceRequest {
    /// The request with `details` replaced.
    func with(details: any Sendable) -> SurfaceRequest {
        var copy = self
        copy.details = details
        return copy
    }
}
