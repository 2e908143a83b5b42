import SkillGateCore

/// The part of a cache key that is the request as the model sees it (decision 0140).
extension CacheKeyBytes {
    /// The model name as the request carries it, the messages, the tools shown (name, description, schema as its
    /// compact text, `strict`), and every parameter that changes the answer. Left out on purpose: prompt-cache
    /// breakpoints and their placement and `prompt_cache_key` (they change what an answer costs, not what it says).
    /// `user` is in: an app that names its end users keeps their answers apart.
    mutating func request(_ r: ChatRequest) {
        string(r.model)
        int(r.messages.count)
        for m in r.messages { message(m) }
        int(r.tools.count)
        for t in r.tools {
            string(t.name)
            optional(t.description) { $0.string($1) }
            counted { t.schema.write(to: &$0) }
            optional(t.strict) { $0.bool($1) }
        }
        optional(r.toolChoice) { b, choice in
            switch choice {
            case .auto: b.byte(0)
            case .none: b.byte(1)
            case .required: b.byte(2)
            case .named(let name): b.byte(3); b.string(name)
            }
        }
        optional(r.parallelToolCalls) { $0.bool($1) }
        optional(r.maxTokens) { $0.int($1) }
        optional(r.temperature) { $0.double($1) }
        optional(r.topP) { $0.double($1) }
        optional(r.seed) { $0.int($1) }
        optional(r.frequencyPenalty) { $0.double($1) }
        optional(r.presencePenalty) { $0.double($1) }
        optional(r.topK) { $0.int($1) }
        json(r.logitBias)
        strings(r.stopSequences)
        json(r.responseFormat)
        optional(r.thinking) { b, t in
            b.bool(t.enabled)
            b.optional(t.budgetTokens) { $0.int($1) }
        }
        optional(r.user) { $0.string($1) }
    }

    private mutating func message(_ m: Message) {
        string(m.role.rawValue)
        blocks(m.content)
    }

    private mutating func blocks(_ content: [ContentBlock]) {
        int(content.count)
        for block in content {
            switch block {
            case .text(let t):
                byte(0); string(t)
            case .image(.url(let url)):
                byte(1); string(url)
            case .image(.base64(let mediaType, let data)):
                byte(2); string(mediaType); string(data)
            case .toolCall(let c):
                byte(3); string(c.id); string(c.name); string(c.arguments)
                optional(c.signature) { $0.string($1) }
            case .toolResult(let r):
                byte(4); string(r.callId)
                optional(r.name) { $0.string($1) }
                bool(r.isError)
                blocks(r.content)
            case .thinking(let t):
                byte(5); string(t.text)
                optional(t.signature) { $0.string($1) }
                optional(t.redactedData) { $0.string($1) }
            }
        }
    }
}
