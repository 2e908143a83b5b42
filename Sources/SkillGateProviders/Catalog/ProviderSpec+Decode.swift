import SkillGateCore
import SkillGateHTTP

extension ProviderSpec {
    static let knownKeys: Set<String> = ["id", "display_name", "wire_format", "base_url", "auth", "key_name", "headers", "docs_url", "models"]
    static let knownModelKeys: Set<String> = ["id", "tier", "context_window", "max_output_tokens", "tools", "price"]
    static let knownPriceKeys: Set<String> = ["input_per_mtok", "output_per_mtok", "cached_input_per_mtok"]

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
        self.init(id: id, displayName: try r.optionalString("display_name") ?? id,
                  wireFormat: WireFormatName(rawValue: wire)!, baseURL: baseURL, auth: AuthStyle(rawValue: auth)!,
                  keyName: keyName, headers: HTTPHeaders(try r.optionalStringMap("headers") ?? []),
                  docsURL: try r.optionalString("docs_url"), models: models)
    }
}

extension ModelSpec {
    init(reader r: JSONReader) throws(JSONShapeError) {
        try r.rejectUnknownKeys(ProviderSpec.knownModelKeys)
        let tier = try r.optionalEnum("tier", ModelTier.allCases.map(\.rawValue)) ?? ModelTier.strong.rawValue
        let tools = try r.optionalEnum("tools", ToolSupport.allCases.map(\.rawValue)) ?? ToolSupport.native.rawValue
        var price: ModelPrice?
        if let p = try r.optionalObject("price") {
            try p.rejectUnknownKeys(ProviderSpec.knownPriceKeys)
            guard let input = try p.optionalDouble("input_per_mtok") else { throw p.error("input_per_mtok", "required field is missing (USD per million input tokens)") }
            guard let output = try p.optionalDouble("output_per_mtok") else { throw p.error("output_per_mtok", "required field is missing (USD per million output tokens)") }
            guard input >= 0, output >= 0 else { throw p.error(nil, "prices cannot be negative") }
            price = ModelPrice(inputPerMTok: input, outputPerMTok: output, cachedInputPerMTok: try p.optionalDouble("cached_input_per_mtok"))
        }
        let context = try r.optionalInt("context_window") ?? 8192
        guard context > 0 else { throw r.error("context_window", "must be a positive number of tokens") }
        self.init(id: try r.string("id"), tier: ModelTier(rawValue: tier)!, contextWindow: context,
                  maxOutputTokens: try r.optionalInt("max_output_tokens"), tools: ToolSupport(rawValue: tools)!, price: price)
    }
}
