import SkillGateCore
import SkillGateHTTP
import SkillGateProviders

/// An API shape clients speak to the gateway (OpenAI Chat Completions, Anthropic Messages, the
/// agent event stream, ...): it decodes its requests into the wire-neutral model and encodes
/// answers and errors back. The pipeline's stages know nothing of any one surface; a new surface is
/// a folder under `Surfaces/` with a type conforming to this protocol, plus one line in
/// `Endpoint.table`.
protocol Surface: ErrorShape {

    /// Decodes the HTTP body into a chat request and how to answer it.
    func decode(_ body: [UInt8]) throws -> SurfaceRequest

    /// Decodes the body of `caller`'s request. A surface that can take a `tools` array the caller sent before from
    /// `toolLists` does (the OpenAI and Anthropic surfaces); the default is `decode(_:)`.
    func decode(_ body: [UInt8], for caller: AuthenticatedClient, toolLists: ToolListCache) throws -> SurfaceRequest

    /// Completes a decoded request with what the gateway keeps for the caller, before the prepare
    /// stage (the Responses API's `previous_response_id`). Most surfaces keep nothing: the default
    /// returns the request as it is.
    func resolve(_ request: SurfaceRequest, for client: AuthenticatedClient, with answer: Answering) async throws -> SurfaceRequest

    /// Answers a prepared call: runs it through `answer`'s stages and encodes what they return — except a relayed
    /// stream, which it opens (up to the upstream's first event) and returns for the caller to run (`StreamRelay`).
    func respond(to call: PreparedCall, _ request: SurfaceRequest, with answer: Answering, _ ctx: inout RequestContext) async throws -> StreamRelay?
}

extension Surface {
    func decode(_ body: [UInt8], for caller: AuthenticatedClient, toolLists: ToolListCache) throws -> SurfaceRequest { try decode(body) }

    func resolve(_ request: SurfaceRequest, for client: AuthenticatedClient, with answer: Answering) async throws -> SurfaceRequest { request }
}

/// How an endpoint writes its errors (every surface; `/mcp`).
protocol ErrorShape: Sendable {
    /// The request log's `surface` field.
    var name: String { get }

    /// An error in this shape (also for errors before decoding: authentication, 404).
    func errorBody(_ error: GatewayError) -> [UInt8]
}

/// A request as one surface decoded it.
struct SurfaceRequest: Sendable {
    var chat: ChatRequest
    /// Whether the client asked for a streamed answer.
    var stream: Bool
    /// Whether a stream should end with a usage chunk (OpenAI `stream_options.include_usage`).
    var includeUsage: Bool
    /// The scenario the body names (the agent surface's `scenario`); else the header's is used.
    var scenario: String?
    /// What only the decoding surface reads back when it answers (the Responses request's echo and `store`).
    var details: (any Sendable)?
    /// Whether its answer may come from, and go to, the response cache: false for the agent surface, whose answers are
    /// runs of server-side skills (decision 0140).
    var cacheable = true

    init(chat: ChatRequest, stream: Bool, includeUsage: Bool, scenario: String? = nil, details: (any Sendable)? = nil) {
        self.chat = chat
        self.stream = stream
        self.includeUsage = includeUsage
        self.scenario = scenario
        self.details = details
    }
}

/// Encodes the wire-neutral answer of a chat surface: a whole response, or stream events as SSE.
protocol ChatSurface: Surface {
    /// The prefix of ids the gateway makes up for answers without an upstream id (`chatcmpl-`, `msg_`).
    var idPrefix: String { get }

    /// The whole answer's body.
    func responseBody(_ response: ChatResponse, id: String, model: String, created: Int) -> [UInt8]

    /// A stream encoder for one answer.
    func streamEncoder(id: String, model: String, created: Int, includeUsage: Bool) -> any SurfaceStreamEncoder

    /// An error after the stream started, as an SSE event in this surface's shape.
    func streamErrorEvent(_ error: GatewayError) -> [UInt8]
}

extension ChatSurface {
    /// Chat surfaces answer through the chat encoder (whole, streamed, or via the agent loop when
    /// server-side skills are visible).
    func respond(to call: PreparedCall, _ request: SurfaceRequest, with answer: Answering, _ ctx: inout RequestContext) async throws -> StreamRelay? {
        try await ChatEncoding(surface: self, answer: answer).respond(to: call, request, &ctx)
    }
}

/// Encodes stream events as one surface's SSE.
protocol SurfaceStreamEncoder: Sendable {
    /// The SSE bytes for one event (possibly none).
    mutating func encode(_ event: ChatStreamEvent) -> [UInt8]
    /// The closing bytes (`[DONE]`, `message_stop`).
    mutating func finish() -> [UInt8]
    /// The events that end a stream failing after it started, when they depend on what was sent
    /// (the Responses API numbers its events); nil: the surface's `streamErrorEvent`.
    func failure(_ error: GatewayError) -> [UInt8]?
}

extension SurfaceStreamEncoder {
    func failure(_ error: GatewayError) -> [UInt8]? { nil }
}
