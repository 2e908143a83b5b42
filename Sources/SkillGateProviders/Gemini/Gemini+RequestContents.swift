import SkillGateCore

extension GeminiFormat {
    /// One part of a turn, decided and ready to write.
    private enum WirePart {
        /// Text; `thought` for a thinking block's text; the signature Gemini gave with it (or one folded onto it).
        case text(String, thought: Bool, signature: String?)
        case image(ImageSource)
        /// A function call, its arguments (checked to be an object) and its signature (its own, or the sentinel).
        case call(ToolCall, args: JSONValue, signature: String?)
        /// A function response and the name of the function it answers.
        case response(ToolResult, name: String)
    }

    /// Writes the `contents` array: system messages left out (they go to `systemInstruction`), assistant turns as
    /// `model`, consecutive tool-result turns merged into one `user` turn, thinking signatures folded as Gemini sends
    /// them, and (for Gemini 3) the sentinel on the first call of a model turn whose calls carry no signature.
    ///
    /// Every part is decided first, in order, so a request that cannot be expressed is refused with the same error as
    /// the tree it replaced; then the turns are written straight as bytes (decision 0067).
    static func writeContents(_ messages: [Message], fillMissingSignatures: Bool, to out: inout [UInt8]) throws {
        var turns: [(model: Bool, parts: [WirePart])] = []
        turns.reserveCapacity(messages.count)
        var lastWasResults = false
        var callNames: [String: String] = [:]
        for (i, message) in messages.enumerated() where message.role != .system {
            var parts: [WirePart] = []
            parts.reserveCapacity(message.content.count)
            for (j, block) in message.content.enumerated() {
                try appendPart(block, to: &parts, callNames: &callNames, message: i, block: j)
            }
            guard !parts.isEmpty else { continue }
            if fillMissingSignatures, message.role == .assistant { fillMissingSignature(&parts) }
            let isResults = message.role == .tool || message.content.allSatisfy { $0.toolResult != nil }
            if isResults, lastWasResults {
                turns[turns.count - 1].parts += parts
                continue
            }
            lastWasResults = isResults
            turns.append((message.role == .assistant, parts))
        }
        out.append(UInt8(ascii: "["))
        for (t, turn) in turns.enumerated() {
            if t > 0 { out.append(UInt8(ascii: ",")) }
            out += turn.model ? #"{"role":"model","parts":["# : #"{"role":"user","parts":["#
            for (p, part) in turn.parts.enumerated() {
                if p > 0 { out.append(UInt8(ascii: ",")) }
                writePart(part, to: &out)
            }
            out += "]}"
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func appendPart(_ block: ContentBlock, to parts: inout [WirePart], callNames: inout [String: String],
                                   message: Int, block index: Int) throws {
        switch block {
        case .text(let text):
            parts.append(.text(text, thought: false, signature: nil))
        case .image(let source):
            parts.append(.image(source))
        case .toolCall(let call):
            callNames[call.id] = call.name
            guard let args = call.parsedArguments, args.objectValue != nil else {
                throw GatewayError.invalidRequest(
                    "The arguments of tool call '\(call.id)' (\(call.name)) are not a JSON object; Gemini needs an object. "
                        + "Fix or drop that tool call in the conversation history.", param: "messages[\(message)].content[\(index)]")
            }
            parts.append(.call(call, args: args, signature: call.signature))
        case .toolResult(let result):
            guard let name = result.name ?? callNames[result.callId] else {
                throw GatewayError.invalidRequest(
                    "The tool result for call '\(result.callId)' has no tool name and no earlier tool call has that id; "
                        + "Gemini needs the function name. Send the tool name with the result or keep the assistant turn that made the call.",
                    param: "messages[\(message)].content[\(index)]")
            }
            parts.append(.response(result, name: name))
        case .thinking(let thinking):
            appendThinking(thinking, to: &parts)
        }
    }

    /// Puts the sentinel on the first call of a model turn in which no call has a signature.
    private static func fillMissingSignature(_ parts: inout [WirePart]) {
        var first: Int?
        for (i, part) in parts.enumerated() {
            guard case .call(_, _, let signature) = part else { continue }
            if signature != nil { return }
            if first == nil { first = i }
        }
        guard let first, case .call(let call, let args, nil) = parts[first] else { return }
        parts[first] = .call(call, args: args, signature: signatureSentinel)
    }

    private static func appendThinking(_ thinking: Thinking, to parts: inout [WirePart]) {
        guard thinking.redactedData == nil else { return }
        if !thinking.text.isEmpty {
            parts.append(.text(thinking.text, thought: true, signature: thinking.signature))
            return
        }
        guard let signature = thinking.signature else { return }
        // Folded onto an ordinary text part just before it that has no signature yet.
        if case .text(let text, thought: false, signature: nil)? = parts.last {
            parts[parts.count - 1] = .text(text, thought: false, signature: signature)
        } else {
            parts.append(.text("", thought: false, signature: signature))
        }
    }

    private static func writePart(_ part: WirePart, to out: inout [UInt8]) {
        switch part {
        case .text(let text, let thought, let signature):
            out += #"{"text":"#
            JSONValue.writeString(text, to: &out)
            if thought { out += #","thought":true"# }
            writeSignature(signature, to: &out)
            out.append(UInt8(ascii: "}"))
        case .image(let source):
            writeImagePart(source, to: &out)
        case .call(let call, let args, let signature):
            out += #"{"functionCall":{"name":"#
            JSONValue.writeString(call.name, to: &out)
            out += #","args":"#
            args.write(to: &out)
            if !call.id.isEmpty {
                out += #","id":"#
                JSONValue.writeString(call.id, to: &out)
            }
            out.append(UInt8(ascii: "}"))
            writeSignature(signature, to: &out)
            out.append(UInt8(ascii: "}"))
        case .response(let result, let name):
            writeFunctionResponse(result, name: name, to: &out)
        }
    }

    private static func writeSignature(_ signature: String?, to out: inout [UInt8]) {
        guard let signature else { return }
        out += #","thoughtSignature":"#
        JSONValue.writeString(signature, to: &out)
    }

    /// `{"inlineData":{"mimeType","data"}}` for a data URL, `{"fileData":{"mimeType"?,"fileUri"}}` for another URL (its
    /// type guessed from the path's extension when it has a known one).
    private static func writeImagePart(_ source: ImageSource, to out: inout [UInt8]) {
        switch ImageSource.fromURL(source.urlString) {
        case .base64(let mediaType, let data):
            out += #"{"inlineData":{"mimeType":"#
            JSONValue.writeString(mediaType, to: &out)
            out += #","data":"#
            JSONValue.writeString(data, to: &out)
        case .url(let url):
            out += #"{"fileData":{"#
            if let mime = guessedMimeType(url) {
                out += #""mimeType":"#
                JSONValue.writeString(mime, to: &out)
                out.append(UInt8(ascii: ","))
            }
            out += #""fileUri":"#
            JSONValue.writeString(url, to: &out)
        }
        out += "}}"
    }

    private static let mimeTypesBySuffix: [(suffix: String, type: String)] = [
        (".png", "image/png"), (".jpg", "image/jpeg"), (".jpeg", "image/jpeg"), (".gif", "image/gif"),
        (".webp", "image/webp"), (".heic", "image/heic"), (".pdf", "application/pdf"),
    ]

    private static func guessedMimeType(_ url: String) -> String? {
        let path = url.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
        return mimeTypesBySuffix.first { path.hasSuffix($0.suffix) }?.type
    }

    /// `{"functionResponse":{"id","name","response"}}`: a result whose text is a JSON object is sent
    /// as that object; other text as `{"result": text}`; failures as `{"error": text}`.
    private static func writeFunctionResponse(_ result: ToolResult, name: String, to out: inout [UInt8]) {
        out += #"{"functionResponse":{"#
        if !result.callId.isEmpty {
            out += #""id":"#
            JSONValue.writeString(result.callId, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out += #""name":"#
        JSONValue.writeString(name, to: &out)
        out += #","response":"#
        let text = result.text
        if result.isError {
            out += #"{"error":"#
            JSONValue.writeString(text, to: &out)
            out.append(UInt8(ascii: "}"))
        } else if text.utf8.first == UInt8(ascii: "{"), let object = try? JSONValue.parse(text), object.objectValue != nil {
            object.write(to: &out)
        } else {
            out += #"{"result":"#
            JSONValue.writeString(text, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out += "}}"
    }
}
