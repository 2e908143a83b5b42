import SkillGateCore

extension AnthropicMessagesFormat {
    /// One block of a turn, checked and ready to write: what it is, and its cache breakpoint (never on thinking).
    private struct WireBlock {
        enum Kind {
            case text(String)
            case image(ImageSource)
            /// A tool call and its arguments as the `input` object (checked to be one).
            case toolUse(ToolCall, input: JSONValue)
            /// A tool result and its parts (empty texts left out; only text and images, checked).
            case toolResult(ToolResult, parts: [ContentBlock])
            case thinking(Thinking)
        }

        let kind: Kind
        let cache: CacheControl?

        var isToolResult: Bool { if case .toolResult = kind { true } else { false } }
    }

    /// Writes the `messages` array: system messages left out (they go to `system`), tool messages turned into user
    /// turns of `tool_result` blocks, adjacent turns of one role merged into one turn, and in a user turn the
    /// `tool_result` blocks first (Anthropic wants them before the turn's other content; the order within each group
    /// is kept).
    ///
    /// Every block is checked first, in order, so a request that cannot be expressed is refused with the same error
    /// as before; then the turns are written straight as bytes (decision 0066).
    static func writeWireMessages(_ messages: [Message], to out: inout [UInt8]) throws {
        var turns: [(assistant: Bool, blocks: [WireBlock])] = []
        turns.reserveCapacity(messages.count)
        for (i, message) in messages.enumerated() where message.role != .system {
            let assistant = message.role == .assistant
            var blocks: [WireBlock] = []
            blocks.reserveCapacity(message.content.count)
            for (j, block) in message.content.enumerated() {
                guard let kind = try wireKind(block, role: message.role, message: i, block: j) else { continue }
                var cache = message.cacheBreakpoints[j]
                if case .thinking = kind { cache = nil }
                blocks.append(WireBlock(kind: kind, cache: cache))
            }
            if blocks.isEmpty { continue }
            if let last = turns.last, last.assistant == assistant {
                turns[turns.count - 1].blocks += blocks
            } else {
                turns.append((assistant, blocks))
            }
        }
        out.append(UInt8(ascii: "["))
        for (t, turn) in turns.enumerated() {
            if t > 0 { out.append(UInt8(ascii: ",")) }
            out += turn.assistant ? #"{"role":"assistant","content":["# : #"{"role":"user","content":["#
            var first = true
            func write(_ block: WireBlock) {
                if first { first = false } else { out.append(UInt8(ascii: ",")) }
                writeBlock(block, to: &out)
            }
            if turn.assistant {
                turn.blocks.forEach(write)
            } else {
                for block in turn.blocks where block.isToolResult { write(block) }
                for block in turn.blocks where !block.isToolResult { write(block) }
            }
            out += "]}"
        }
        out.append(UInt8(ascii: "]"))
    }

    /// What one content block becomes on the wire; `nil` for blocks Anthropic rejects and that carry nothing (empty
    /// text, thinking outside an assistant turn). Throws for a block the request cannot hold where it is.
    private static func wireKind(_ block: ContentBlock, role: Role, message i: Int, block j: Int) throws -> WireBlock.Kind? {
        func path() -> String { "messages[\(i)].content[\(j)]" }
        switch block {
        case .text(let text):
            return text.isEmpty ? nil : .text(text)
        case .image(let source):
            return .image(source)
        case .toolCall(let call):
            guard role == .assistant else {
                throw GatewayError.invalidRequest(
                    "\(path()): a tool call can only appear in an assistant message, not in a \(role.rawValue) message; move it to the assistant turn that made it.",
                    param: path())
            }
            return .toolUse(call, input: try toolInput(call, path: path()))
        case .toolResult(let result):
            guard role != .assistant else {
                throw GatewayError.invalidRequest(
                    "\(path()): a tool result cannot appear in an assistant message; send it in a tool (or user) message after the assistant turn.",
                    param: path())
            }
            let parts = result.content.filter { $0.text.map { !$0.isEmpty } ?? true }
            for (k, part) in parts.enumerated() {
                switch part {
                case .text, .image: continue
                default:
                    throw GatewayError.invalidRequest(
                        "\(path()).content[\(k)]: a tool result may hold only text and images; send other content as text.",
                        param: "\(path()).content[\(k)]")
                }
            }
            return .toolResult(result, parts: parts)
        case .thinking(let thinking):
            return role == .assistant ? .thinking(thinking) : nil
        }
    }

    private static func writeBlock(_ block: WireBlock, to out: inout [UInt8]) {
        switch block.kind {
        case .text(let text):
            out += #"{"type":"text","text":"#
            JSONValue.writeString(text, to: &out)
        case .image(let source):
            writeImageBlockHead(source, to: &out)
        case .toolUse(let call, let input):
            writeToolUseBlockHead(id: call.id, name: call.name, to: &out)
            input.write(to: &out)
        case .toolResult(let result, let parts):
            out += #"{"type":"tool_result","tool_use_id":"#
            JSONValue.writeString(result.callId, to: &out)
            if parts.count == 1, let text = parts[0].text {
                out += #","content":"#
                JSONValue.writeString(text, to: &out)
            } else if !parts.isEmpty {
                out += #","content":["#
                for (k, part) in parts.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    switch part {
                    case .text(let text):
                        out += #"{"type":"text","text":"#
                        JSONValue.writeString(text, to: &out)
                        out.append(UInt8(ascii: "}"))
                    case .image(let source):
                        writeImageBlockHead(source, to: &out)
                        out.append(UInt8(ascii: "}"))
                    default:
                        break   // refused when the block was checked
                    }
                }
                out.append(UInt8(ascii: "]"))
            }
            if result.isError { out += #","is_error":true"# }
        case .thinking(let thinking):
            writeThinkingBlockFields(thinking, to: &out)
        }
        if let cache = block.cache {
            out += #","cache_control":"#
            wireCacheControl(cache).write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// An `image` block up to its closing brace (left to the caller, which may add a cache breakpoint): base64 data
    /// as a `base64` source, anything else as a `url` source.
    private static func writeImageBlockHead(_ source: ImageSource, to out: inout [UInt8]) {
        switch ImageSource.fromURL(source.urlString) {
        case .base64(let mediaType, let data):
            out += #"{"type":"image","source":{"type":"base64","media_type":"#
            JSONValue.writeString(mediaType, to: &out)
            out += #","data":"#
            JSONValue.writeString(data, to: &out)
        case .url(let url):
            out += #"{"type":"image","source":{"type":"url","url":"#
            JSONValue.writeString(url, to: &out)
        }
        out.append(UInt8(ascii: "}"))   // the source
    }

    /// The call's arguments as the `input` object: empty arguments are `{}`; anything that is not
    /// a JSON object is a caller error naming the call.
    static func toolInput(_ call: ToolCall, path: String) throws -> JSONValue {
        guard call.arguments.utf8.contains(where: { $0 > 0x20 }) else { return .object(JSONObject()) }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(call.arguments)
        } catch {
            throw GatewayError.invalidRequest(
                "\(path): the arguments of tool call '\(call.name)' (\(call.id)) are not valid JSON (\(error)); Anthropic needs them as a JSON object, so send the arguments as JSON object text.",
                param: path + ".arguments")
        }
        guard case .object = parsed else {
            throw GatewayError.invalidRequest(
                "\(path): the arguments of tool call '\(call.name)' (\(call.id)) are \(parsed.typeDescription); Anthropic needs a JSON object, so wrap them in an object.",
                param: path + ".arguments")
        }
        return parsed
    }
}
