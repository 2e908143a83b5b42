import SkillGateCore
import SkillGateHTTP

extension ProviderSpec {
    static let knownKeys: Set<String> = ["id", "display_name", "wire_format", "base_url", "auth", "key_name", "headers", "docs_url", "models", "reuse_connections",
                                         "http_version", "count_tokens"]
    static let knownModelKeys: Set<String> = ["id", "kind", "tier", "context_window", "max_output_tokens", "tools", "price",
                                              "dimensions", "query_prefix", "document_prefix", "input_type"]
    /// Keys only chat models have, and keys only embedding models have.
    static let chatOnlyModelKeys: [String] = ["tier", "max_output_tokens", "tools"]
    static let embeddingOnlyModelKeys: [String] = ["dimensions", "query_prefix", "document_prefix", "input_type"]
    static let knownPriceKeys: Set<String> = ["input_per_mtok", "output_per_mtok", "cached_input_per_mtok", "cache_write_per_mtok"]

    /// Decodes a catalog file strictly: wrong types, unknown keys and bad values are errors naming
    /// the file and JSON path.
    public init(json: JSONValue, file: String) throws(JSONShapeError) {
        let r = try JSONReader(root: json, file: file)
        try r.rejectUnknownKeys(Self.knownKeys)
        let id = try r.string("id")
        guard id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" }), !id.isEmpty else {
            throw r.error("id", "provider ids use lowercase letters, digits, '-' and '_' (got \"\(id)\")")
        }
        let wire = try r.optionalEnum("wire_format", WireFormatName.allCases.map(\.rawValue)) ?? WireFormatName.openAIChat.rawValue
        let auth = try r.optionalEnum("auth", AuthStyle.allCases.map(\.rawValue)) ?? AuthStyle.bearer.rawValue
        let baseURL = try r.string("base_url")
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") || baseURL.hasPrefix("builtin:") else {
            throw r.error("base_url", "expected an http:// or https:// URL, got \"\(baseURL)\"")
        }
        let keyName = try r.optionalString("key_name")
        if auth != AuthStyle.none.rawValue, keyName == nil {
            throw r.error("key_name", "required when auth is \"\(auth)\": the key-store name of the provider secret (e.g. \"\(id.uppercased())_API_KEY\")")
        }
        var models: [ModelSpec] = []
        for m in try r.optionalObjectArray("models") ?? [] {
            models.append(try ModelSpec(reader: m))
        }
        if models.isEmpty { throw r.error("models", "a provider needs at least one model") }
        var seen = Set<String>()
        for (i, m) in models.enumerated() where !seen.insert(m.id).inserted {
            throw r.error("models[\(i)].id", "duplicate model id \"\(m.id)\"")
        }
        let wireFormat = WireFormatName(rawValue: wire)!
        for (i, m) in models.enumerated() where m.kind == .embedding && !wireFormat.hasEmbeddings {
            throw r.error("models[\(i)].kind", "wire format \"\(wire)\" has no embeddings endpoint; embedding models belong to an \"openai-chat\" or \"gemini\" provider")
        }
        self.init(id: id, displayName: try r.optionalString("display_name") ?? id,
                  wireFormat: wireFormat, baseURL: baseURL, auth: AuthStyle(rawValue: auth)!,
                  keyName: keyName, headers: HTTPHeaders(try r.optionalStringMap("headers") ?? []),
                  docsURL: try r.optionalString("docs_url"), models: models)
        reuseConnections = try r.optionalBool("reuse_connections") ?? true
        httpVersion = HTTPVersion(rawValue: try r.optionalEnum("http_version", HTTPVersion.allCases.map(\.rawValue)) ?? "auto")!
        if let counts = try r.optionalBool("count_tokens") {
            if counts && wireFormat.countEndpoint == nil {
                throw r.error("count_tokens", "wire format \"\(wire)\" has no token count endpoint; remove the key")
            }
            countsTokens = counts
        }
    }
}

extension ModelSpec {
    init(reader r: JSONReader) throws(JSONShapeError) {
        try r.rejectUnknownKeys(ProviderSpec.knownModelKeys)
        let kind = ModelKind(rawValue: try r.optionalEnum("kind", ModelKind.allCases.map(\.rawValue)) ?? ModelKind.chat.rawValue)!
        let (misplaced, otherKind) = kind == .chat ? (ProviderSpec.embeddingOnlyModelKeys, "\"kind\": \"embedding\"") : (ProviderSpec.chatOnlyModelKeys, "chat models")
        for key in misplaced where r.object[key] != nil {
            throw r.error(key, "is only for \(otherKind); remove it" + (kind == .chat ? " or add \"kind\": \"embedding\"" : " (an embedding model has no tier and is never routed to)"))
        }
        let tier = try r.optionalEnum("tier", ModelTier.allCases.map(\.rawValue)) ?? ModelTier.strong.rawValue
        let tools = try r.optionalEnum("tools", ToolSupport.allCases.map(\.rawValue)) ?? (kind == .chat ? ToolSupport.native : ToolSupport.none).rawValue
        var price: ModelPrice?
        if let p = try r.optionalObject("price") {
            try p.rejectUnknownKeys(ProviderSpec.knownPriceKeys)
            guard let input = try p.optionalDouble("input_per_mtok") else { throw p.error("input_per_mtok", "required field is missing (USD per million input tokens)") }
            // An embedding model produces no output tokens.
            guard let output = try p.optionalDouble("output_per_mtok") ?? (kind == .embedding ? 0 : nil) else {
                throw p.error("output_per_mtok", "required field is missing (USD per million output tokens)")
            }
            guard input >= 0, output >= 0 else { throw p.error(nil, "prices cannot be negative") }
            price = ModelPrice(inputPerMTok: input, outputPerMTok: output, cachedInputPerMTok: try p.optionalDouble("cached_input_per_mtok"),
                              cacheWritePerMTok: try p.optionalDouble("cache_write_per_mtok"))
        }
        let context = try r.optionalInt("context_window") ?? (kind == .chat ? 8192 : 512)
        guard context > 0 else { throw r.error("context_window", "must be a positive number of tokens") }
        var dimensions: Int?
        var inputs = EmbeddingInputs()
        if kind == .embedding {
            guard let d = try r.optionalInt("dimensions") else {
                throw r.error("dimensions", "required for an embedding model: the length of its vectors (e.g. 384, 1536)")
            }
            guard d > 0 else { throw r.error("dimensions", "must be a positive number") }
            dimensions = d
            inputs.queryPrefix = try r.optionalString("query_prefix")
            inputs.documentPrefix = try r.optionalString("document_prefix")
            if let t = try r.optionalObject("input_type") {
                try t.rejectUnknownKeys(["query", "document"])
                inputs.inputType = EmbeddingInputs.PurposeField(query: try t.string("query"), document: try t.string("document"))
            }
        }
        self.init(id: try r.string("id"), tier: ModelTier(rawValue: tier)!, contextWindow: context,
                  maxOutputTokens: try r.optionalInt("max_output_tokens"), tools: ToolSupport(rawValue: tools)!, price: price,
                  kind: kind, dimensions: dimensions, embeddingInputs: inputs)
    }
}
