import SkillGateCore

extension DemoModelClient {
    /// The events of the demo's answer to `request`, in the order a real model streams them:
    /// start, text word by word or tool calls with their arguments in a few fragments, finish, usage.
    /// Deterministic: the same request always gives the same events.
    static func script(for request: ChatRequest) throws -> [ChatStreamEvent] {
        let reply = try DemoReply.decide(request)
        let fingerprint = fingerprint(of: request)
        var events: [ChatStreamEvent] = [.start(id: "demo-" + fingerprint, model: request.model)]
        var outputCharacters = 0
        var finish = FinishReason.stop
        switch reply {
        case .text(var text):
            if let limit = request.maxTokens, limit > 0, estimatedTokens(text.unicodeScalars.count) > limit {
                text = String(text.unicodeScalars.prefix(limit * 4))
                finish = .length
            }
            outputCharacters = text.unicodeScalars.count
            events += words(of: text).map(ChatStreamEvent.textDelta)
        case .calls(let calls):
            for (ordinal, call) in calls.enumerated() {
                let arguments = call.arguments.serialized()
                outputCharacters += call.name.count + arguments.count
                events.append(.toolCallStart(ordinal: ordinal, id: "call_demo_\(request.messages.count)_\(ordinal)", name: call.name))
                events += fragments(of: arguments, count: 3).map { .toolCallArgumentsDelta(ordinal: ordinal, fragment: $0) }
                events.append(.toolCallEnd(ordinal: ordinal))
            }
            finish = .toolCalls
        }
        events.append(.finish(finish))
        events.append(.usage(Usage(inputTokens: estimatedTokens(inputCharacters(request)), outputTokens: estimatedTokens(outputCharacters))))
        return events
    }

    /// Tokens for a number of characters, at about four characters a token.
    static func estimatedTokens(_ characters: Int) -> Int { characters == 0 ? 0 : (characters + 3) / 4 }

    /// The characters a model would read: messages, tool calls and results, and tool definitions.
    static func inputCharacters(_ request: ChatRequest) -> Int {
        var count = 0
        for message in request.messages {
            for block in message.content {
                switch block {
                case .text(let t): count += t.unicodeScalars.count
                case .toolCall(let c): count += c.name.count + c.arguments.unicodeScalars.count
                case .toolResult(let r): count += r.text.unicodeScalars.count
                case .thinking(let t): count += t.text.unicodeScalars.count
                case .image: count += 340  // about 85 tokens, a low-detail image
                }
            }
        }
        for tool in request.tools {
            count += tool.name.count + (tool.description?.unicodeScalars.count ?? 0) + tool.parameters.serializedBytes().count
        }
        return count
    }

    /// Words with the whitespace after them (`"The "`, `"time "`, `"is "`...).
    static func words(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for ch in text {
            if !ch.isWhitespace, let last = current.last, last.isWhitespace {
                pieces.append(current)
                current = ""
            }
            current.append(ch)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// `text` cut into up to `count` pieces of about equal length.
    static func fragments(of text: String, count: Int) -> [String] {
        let characters = Array(text)
        let size = max(1, (characters.count + count - 1) / count)
        return stride(from: 0, to: characters.count, by: size).map { String(characters[$0..<min($0 + size, characters.count)]) }
    }

    /// A stable hex digest of the conversation (FNV-1a), for response ids.
    static func fingerprint(of request: ChatRequest) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ s: String) {
            for b in s.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            hash = (hash ^ 0xff) &* 0x0000_0100_0000_01b3
        }
        mix(request.model)
        for message in request.messages {
            mix(message.role.rawValue)
            mix(message.text)
            message.toolCalls.forEach { mix($0.id); mix($0.arguments) }
            message.toolResults.forEach { mix($0.callId); mix($0.text) }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
