import SkillGateCore

/// A `POST /v1/responses` request as the gateway decoded it.
public struct ResponsesInboundRequest: Sendable, Hashable {
    /// The request in the wire-neutral model: `instructions` as the first system message, then the
    /// `input` items as messages (the stored conversation of `previous_response_id` is not in it yet).
    public var request: ChatRequest
    /// Whether `instructions` became `request.messages[0]`.
    public var hasInstructions: Bool
    /// Whether the client asked for a streamed answer.
    public var stream: Bool
    /// Whether the answer is kept for `previous_response_id` (`store`, true unless the client says false).
    public var store: Bool
    /// The response whose conversation this one continues.
    public var previousResponseId: String?
    /// What the `response` object repeats of the request.
    public var echo: ResponsesEcho
    /// The stored conversation of `previousResponseId`, once the gateway found it (its messages are then in
    /// `request.messages`, after `instructions`); nil when nothing is continued.
    public var history: ResponsesHistory?
    /// The request's own `input` items as the client sent them (a string `input` as one user message), kept to be stored
    /// with their ids (decision 0138); empty when the answer is not stored (`store: false`).
    public var inputItems: [JSONObject] = []

    public init(request: ChatRequest, hasInstructions: Bool, stream: Bool, store: Bool, previousResponseId: String?, echo: ResponsesEcho) {
        self.request = request
        self.hasInstructions = hasInstructions
        self.stream = stream
        self.store = store
        self.previousResponseId = previousResponseId
        self.echo = echo
    }

    /// The conversation items of this request: the messages after `instructions` (the continued history's too).
    public var inputMessages: ArraySlice<Message> { request.messages.dropFirst(hasInstructions ? 1 : 0) }

    /// The messages of this request's own `input`: `inputMessages` after the continued history.
    public var newInputMessages: ArraySlice<Message> { inputMessages.dropFirst(history?.messages.count ?? 0) }
}

/// A stored conversation a request continues (`previous_response_id`): its messages, and the JSON text it was
/// stored as (an items array), which the continuing response's stored conversation starts with unchanged.
public struct ResponsesHistory: Sendable, Hashable {
    public var messages: [Message]
    public var itemsJSON: [UInt8]

    public init(messages: [Message], itemsJSON: [UInt8]) {
        self.messages = messages
        self.itemsJSON = itemsJSON
    }
}

/// The request fields a `response` object repeats (`instructions`, `tools`, `text`, ...), as the
/// client sent them.
public struct ResponsesEcho: Sendable, Hashable {
    public var instructions: String?
    public var maxOutputTokens: Int?
    public var temperature: Double?
    public var topP: Double?
    /// The `tools` array as sent (`[]` when absent). Read from `toolsBytes` when the decoder took the tools from the
    /// tool-list cache and kept only their bytes (decision 0069).
    public var tools: JSONValue {
        get { echoedTools.value }
        set { echoedTools.tree = newValue }
    }
    /// `tool_choice` as sent (`"auto"` when absent).
    public var toolChoice: JSONValue
    public var parallelToolCalls: Bool
    /// `text.format` as sent (`{"type":"text"}` when absent).
    public var textFormat: JSONValue
    /// `reasoning.effort` as sent.
    public var reasoningEffort: String?
    public var store: Bool
    public var previousResponseId: String?
    /// `metadata` as sent (`{}` when absent).
    public var metadata: JSONValue
    public var user: String?
    /// `tools` as the client's bytes without line breaks, when the decoder could take them from the body (cheaper to
    /// repeat than `tools` written again).
    public var toolsBytes: [UInt8]? {
        get { echoedTools.bytes }
        set { echoedTools.bytes = newValue }
    }
    private var echoedTools = EchoedTools()

    /// The echo's tools as only their bytes (a list from the tool-list cache, whose tree was never built).
    mutating func echoToolsBytesOnly(_ bytes: [UInt8]) { echoedTools = EchoedTools(tree: nil, bytes: bytes) }

    public init(instructions: String? = nil, maxOutputTokens: Int? = nil, temperature: Double? = nil, topP: Double? = nil,
                tools: JSONValue = [], toolChoice: JSONValue = "auto", parallelToolCalls: Bool = true,
                textFormat: JSONValue = ["type": "text"], reasoningEffort: String? = nil, store: Bool = true,
                previousResponseId: String? = nil, metadata: JSONValue = .object(JSONObject()), user: String? = nil) {
        self.instructions = instructions
        self.maxOutputTokens = maxOutputTokens
        self.temperature = temperature
        self.topP = topP
        echoedTools = EchoedTools(tree: tools, bytes: nil)
        self.toolChoice = toolChoice
        self.parallelToolCalls = parallelToolCalls
        self.textFormat = textFormat
        self.reasoningEffort = reasoningEffort
        self.store = store
        self.previousResponseId = previousResponseId
        self.metadata = metadata
        self.user = user
    }
}

/// The tools a `response` repeats: their tree, their bytes, or both. Two are equal when they are the same JSON, whichever
/// form each is kept in.
private struct EchoedTools: Sendable, Hashable {
    var tree: JSONValue? = []
    var bytes: [UInt8]?

    var value: JSONValue { tree ?? bytes.flatMap { try? JSONValue.parse($0) } ?? [] }

    static func == (a: EchoedTools, b: EchoedTools) -> Bool { a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
