import SkillGateCore

extension GeminiFormat {
    /// The JSON body of a `generateContent` request for `request`, as compact JSON bytes.
    ///
    /// - System messages (wherever they are) are hoisted into `systemInstruction`.
    /// - Roles: user → `user`, assistant → `model`, tool → `user` with `functionResponse` parts;
    ///   consecutive tool-result turns are merged into one turn (Gemini wants all responses to one
    ///   step together). Other turns are kept as they are.
    /// - Thinking: text with `thought: true` (+ `thoughtSignature`); a thinking block with a
    ///   signature and no text (Gemini puts signatures on ordinary parts too) is folded back onto the
    ///   text part before it, or sent as `{"text":"","thoughtSignature":…}` as Gemini itself sends it.
    ///   Redacted thinking from other providers cannot be replayed to Gemini and is left out.
    /// - Gemini 3 models reject a replayed model turn whose function calls carry no thought
    ///   signature (history rebuilt by a client, or calls made by another provider). For those
    ///   models, such a turn's first call gets Google's documented sentinel
    ///   `skip_thought_signature_validator`; real signatures are never replaced.
    /// Throws a caller `GatewayError` naming the field when the request cannot be expressed.
    /// `model` is the deployment's model id (defaults to `request.model`).
    ///
    /// Written straight as bytes (decision 0067): built as a tree, every request parsed each tool's schema into one,
    /// sanitised it and wrote it out again; a schema's sanitised text is now made once per schema (`ToolSchema.derived`).
    public static func requestBodyBytes(_ request: ChatRequest, model: String? = nil) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + request.messages.count * 256 + request.tools.count * 512)
        out += #"{"contents":"#
        try writeContents(request.messages, fillMissingSignatures: checksThoughtSignatures(model ?? request.model), to: &out)
        if let system = request.systemText {
            out += #","systemInstruction":{"parts":[{"text":"#
            JSONValue.writeString(system, to: &out)
            out += "}]}"
        }
        if !request.tools.isEmpty {
            out += #","tools":[{"functionDeclarations":["#
            for (i, tool) in request.tools.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeFunctionDeclaration(tool, to: &out)
            }
            out += "]}]"
            if let choice = request.toolChoice {
                out += #","toolConfig":{"functionCallingConfig":"#
                try writeCallingConfig(choice, tools: request.tools, to: &out)
                out.append(UInt8(ascii: "}"))
            }
        }
        try writeGenerationConfig(request, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The same body as a tree (`requestBodyBytes` parsed, so the two never disagree).
    public static func requestBody(_ request: ChatRequest, model: String? = nil) throws -> JSONValue {
        try JSONValue.parse(try requestBodyBytes(request, model: model))
    }

    /// The sentinel Google documents for function calls whose real signature is unknown.
    static let signatureSentinel = "skip_thought_signature_validator"

    /// Whether `model` checks thought signatures on function calls: Gemini 3 and every later major version
    /// (`gemini-3-pro-preview`, `gemini-3.5-flash-lite`, `gemini-4-carbon`; `models/` prefix allowed). Only
    /// `gemini-3` was matched before, so the catalog's Gemini 4 models went out unsigned (decision 0112).
    static func checksThoughtSignatures(_ model: String) -> Bool {
        let name = model.hasPrefix("models/") ? model.dropFirst(7) : Substring(model)
        guard name.hasPrefix("gemini-") else { return false }
        let major = name.dropFirst("gemini-".count).prefix { $0.isASCII && $0.isNumber }
        guard let version = Int(major) else { return false }  // nil for no digits, or more than an Int holds
        return version >= 3
    }

    /// One function declaration: name, description (when present, even empty) and the sanitised parameters.
    private static func writeFunctionDeclaration(_ tool: ToolDefinition, to out: inout [UInt8]) {
        out += #"{"name":"#
        JSONValue.writeString(tool.name, to: &out)
        if let description = tool.description {
            out += #","description":"#
            JSONValue.writeString(description, to: &out)
        }
        let parameters = declaredParameters(tool.schema)
        if !parameters.isEmpty {
            out += #","parameters":"#
            out.append(contentsOf: parameters)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The compact text of a tool's sanitised schema as a declaration's `parameters`, or empty when it is left out:
    /// Gemini rejects an OBJECT schema with empty properties, so a tool without parameters omits them. A pure function
    /// of the schema, kept beside it (`ToolSchema.derived`), so a tool list from the tool-list cache is sanitised once.
    static func declaredParameters(_ schema: ToolSchema) -> [UInt8] {
        schema.derived(.geminiParameters) { schema in
            let parameters = GeminiSchemaSanitizer.sanitize(schema.value)
            guard parameters["properties"] != nil || parameters["type"]?.stringValue?.lowercased() != "object" else { return [] }
            return parameters.serializedBytes()
        }
    }

    /// `auto` → AUTO, `none` → NONE, `required` → ANY, `named(n)` → ANY with `allowedFunctionNames: [n]`.
    private static func writeCallingConfig(_ choice: ToolChoice, tools: [ToolDefinition], to out: inout [UInt8]) throws {
        switch choice {
        case .auto: out += #"{"mode":"AUTO"}"#
        case .none: out += #"{"mode":"NONE"}"#
        case .required: out += #"{"mode":"ANY"}"#
        case .named(let name):
            guard tools.contains(where: { $0.name == name }) else {
                throw GatewayError.invalidRequest(
                    "tool_choice names '\(name)', which is not among the tools of this request; name one of the offered tools.",
                    param: "tool_choice")
            }
            out += #"{"mode":"ANY","allowedFunctionNames":["#
            JSONValue.writeString(name, to: &out)
            out += "]}"
        }
    }
}
