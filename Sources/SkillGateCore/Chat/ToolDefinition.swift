/// A tool (skill) the model may call.
public struct ToolDefinition: Sendable, Hashable {
    /// The name the model calls it by (`[a-zA-Z0-9_-]{1,64}` for most providers).
    public var name: String
    /// What the tool does, written for the model.
    public var description: String?
    /// JSON Schema of the arguments object; passed through to providers unchanged
    /// (except where a wire format needs it sanitised).
    public var schema: ToolSchema
    /// The schema as a tree (`schema.value`); setting it replaces the schema.
    public var parameters: JSONValue {
        get { schema.value }
        set { schema = ToolSchema(newValue) }
    }
    /// Whether the provider should enforce the schema strictly (OpenAI `strict`).
    public var strict: Bool?
    /// A prompt-cache breakpoint after this tool (Anthropic `cache_control`).
    public var cacheControl: CacheControl?

    public init(name: String, description: String? = nil, parameters: JSONValue = ["type": "object", "properties": [:]], strict: Bool? = nil,
                cacheControl: CacheControl? = nil) {
        self.name = name
        self.description = description
        self.schema = ToolSchema(parameters)
        self.strict = strict
        self.cacheControl = cacheControl
    }

    /// A tool whose schema is already a `ToolSchema` (one kept as text by an inbound decoder).
    public init(name: String, description: String? = nil, schema: ToolSchema, strict: Bool? = nil, cacheControl: CacheControl? = nil) {
        self.name = name
        self.description = description
        self.schema = schema
        self.strict = strict
        self.cacheControl = cacheControl
    }
}

/// Whether and which tool the model must call.
public enum ToolChoice: Sendable, Hashable {
    /// The model decides.
    case auto
    /// The model must not call tools.
    case none
    /// The model must call at least one tool.
    case required
    /// The model must call this tool.
    case named(String)
}
