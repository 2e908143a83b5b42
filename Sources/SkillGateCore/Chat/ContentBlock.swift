/// One piece of a message's content, independent of any provider's wire format.
public enum ContentBlock: Sendable, Hashable {
    /// Plain text.
    case text(String)
    /// An image, by URL or inline data.
    case image(ImageSource)
    /// A call the model made to a tool (assistant messages).
    case toolCall(ToolCall)
    /// The result of a tool call (tool messages).
    case toolResult(ToolResult)
    /// Model reasoning, replayed to the provider untouched on the next turn.
    case thinking(Thinking)

    /// The text, if this is a text block.
    public var text: String? { if case .text(let t) = self { return t } else { return nil } }
    /// The call, if this is a tool call block.
    public var toolCall: ToolCall? { if case .toolCall(let c) = self { return c } else { return nil } }
    /// The result, if this is a tool result block.
    public var toolResult: ToolResult? { if case .toolResult(let r) = self { return r } else { return nil } }
}

/// Where an image comes from.
public enum ImageSource: Sendable, Hashable {
    /// A URL the provider fetches (https or a `data:` URL).
    case url(String)
    /// Inline base64 data with its media type (`image/png`).
    case base64(mediaType: String, data: String)

    /// The image as a `data:` URL or the plain URL, for wire formats that take a URL.
    public var urlString: String {
        switch self {
        case .url(let u): return u
        case .base64(let mediaType, let data): return "data:\(mediaType);base64,\(data)"
        }
    }

    /// Parses a `data:<media type>;base64,<data>` URL into inline data; other URLs stay URLs.
    public static func fromURL(_ url: String) -> ImageSource {
        guard url.hasPrefix("data:"), let comma = url.firstIndex(of: ","),
              url[..<comma].hasSuffix(";base64") else { return .url(url) }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma].dropLast(";base64".count)
        return .base64(mediaType: String(header), data: String(url[url.index(after: comma)...]))
    }
}

/// A call the model asked for.
public struct ToolCall: Sendable, Hashable {
    /// The call id; results refer to it. Synthesised by the adapter when the provider has none.
    public var id: String
    /// The tool's name.
    public var name: String
    /// The arguments as JSON text, exactly as the model produced them (may be invalid JSON).
    public var arguments: String
    /// An opaque provider signature that must be replayed with the call (Gemini thought signatures).
    public var signature: String?

    public init(id: String, name: String, arguments: String, signature: String? = nil) {
        self.id = id
        self.name = name
        self.arguments = arguments
        self.signature = signature
    }

    /// The arguments parsed as JSON, or `nil` when they are not valid JSON.
    public var parsedArguments: JSONValue? {
        let trimmed = arguments.utf8.contains(where: { $0 > 0x20 }) ? arguments : "{}"
        return try? JSONValue.parse(trimmed)
    }
}

/// The result of running a tool call, sent back to the model.
public struct ToolResult: Sendable, Hashable {
    /// The id of the call this answers.
    public var callId: String
    /// The tool's name, when known (Gemini needs it; the others use the id).
    public var name: String?
    /// The result content (text or images).
    public var content: [ContentBlock]
    /// Whether the tool failed; the content then describes the failure.
    public var isError: Bool

    public init(callId: String, name: String? = nil, content: [ContentBlock], isError: Bool = false) {
        self.callId = callId
        self.name = name
        self.content = content
        self.isError = isError
    }

    /// A result with text content.
    public init(callId: String, name: String? = nil, text: String, isError: Bool = false) {
        self.init(callId: callId, name: name, content: [.text(text)], isError: isError)
    }

    /// The text blocks joined, for wire formats whose results are a single string.
    public var text: String { content.compactMap(\.text).joined(separator: "\n") }
}

/// Model reasoning with its opaque signature.
public struct Thinking: Sendable, Hashable {
    /// The visible reasoning text (empty for redacted thinking).
    public var text: String
    /// The provider's signature over the reasoning; required to replay it.
    public var signature: String?
    /// Encrypted reasoning content (Anthropic `redacted_thinking`), replayed untouched.
    public var redactedData: String?

    public init(text: String, signature: String? = nil, redactedData: String? = nil) {
        self.text = text
        self.signature = signature
        self.redactedData = redactedData
    }
}
