import SkillGateCore

/// The top-level members of a Chat Completions body that decoding reads, each the first of its key (as a lookup in the
/// body's tree finds it); `nil` for a member the body does not have. Filled from a parsed tree (`init(_:)`), or straight
/// from the body's bytes by `OpenAIChatInboundBody`, which then builds no tree of the top level at all.
struct OpenAIChatInboundFields {
    /// The members decoding reads, one case per key.
    enum Member: Int, CaseIterable {
        case model, n, functions, messages, tools, toolChoice, parallelToolCalls, maxCompletionTokens, maxTokens,
             temperature, topP, stop, responseFormat, user, safetyIdentifier, promptCacheKey, reasoningEffort, stream,
             streamOptions, seed, frequencyPenalty, presencePenalty, logitBias, logprobs, topLogprobs

        /// The member's key in the body.
        var key: String {
            switch self {
            case .model: return "model"
            case .n: return "n"
            case .functions: return "functions"
            case .messages: return "messages"
            case .tools: return "tools"
            case .toolChoice: return "tool_choice"
            case .parallelToolCalls: return "parallel_tool_calls"
            case .maxCompletionTokens: return "max_completion_tokens"
            case .maxTokens: return "max_tokens"
            case .temperature: return "temperature"
            case .topP: return "top_p"
            case .stop: return "stop"
            case .responseFormat: return "response_format"
            case .user: return "user"
            case .safetyIdentifier: return "safety_identifier"
            case .promptCacheKey: return "prompt_cache_key"
            case .reasoningEffort: return "reasoning_effort"
            case .stream: return "stream"
            case .streamOptions: return "stream_options"
            case .seed: return "seed"
            case .frequencyPenalty: return "frequency_penalty"
            case .presencePenalty: return "presence_penalty"
            case .logitBias: return "logit_bias"
            case .logprobs: return "logprobs"
            case .topLogprobs: return "top_logprobs"
            }
        }

        /// The member a key read by a `JSONCursor` names, compared without making a string; `nil` for a key decoding
        /// ignores (SDKs send many optional fields).
        static func named(_ key: JSONCursor.Key) -> Member? {
            switch key {
            case "model": return .model
            case "messages": return .messages
            case "tools": return .tools
            case "temperature": return .temperature
            case "max_tokens": return .maxTokens
            case "stream": return .stream
            case "tool_choice": return .toolChoice
            case "stream_options": return .streamOptions
            case "max_completion_tokens": return .maxCompletionTokens
            case "parallel_tool_calls": return .parallelToolCalls
            case "top_p": return .topP
            case "stop": return .stop
            case "response_format": return .responseFormat
            case "user": return .user
            case "safety_identifier": return .safetyIdentifier
            case "prompt_cache_key": return .promptCacheKey
            case "reasoning_effort": return .reasoningEffort
            case "n": return .n
            case "functions": return .functions
            case "seed": return .seed
            case "frequency_penalty": return .frequencyPenalty
            case "presence_penalty": return .presencePenalty
            case "logit_bias": return .logitBias
            case "logprobs": return .logprobs
            case "top_logprobs": return .topLogprobs
            default: return nil
            }
        }
    }

    // One stored property per member (not an array: no allocation per request, and no `InlineArray`, which Apple
    // platforms have only from their 2025 releases).
    private var model, n, functions, messages, tools, toolChoice, parallelToolCalls, maxCompletionTokens, maxTokens,
                temperature, topP, stop, responseFormat, user, safetyIdentifier, promptCacheKey, reasoningEffort, stream,
                streamOptions, seed, frequencyPenalty, presencePenalty, logitBias, logprobs, topLogprobs: JSONValue?

    /// No members yet.
    init() {}

    /// The members of a parsed body object.
    init(_ object: JSONObject) {
        for member in Member.allCases { self[member] = object[member.key] }
    }

    /// The member's value, `nil` when the body does not have it.
    subscript(member: Member) -> JSONValue? {
        get {
            switch member {
            case .model: return model
            case .n: return n
            case .functions: return functions
            case .messages: return messages
            case .tools: return tools
            case .toolChoice: return toolChoice
            case .parallelToolCalls: return parallelToolCalls
            case .maxCompletionTokens: return maxCompletionTokens
            case .maxTokens: return maxTokens
            case .temperature: return temperature
            case .topP: return topP
            case .stop: return stop
            case .responseFormat: return responseFormat
            case .user: return user
            case .safetyIdentifier: return safetyIdentifier
            case .promptCacheKey: return promptCacheKey
            case .reasoningEffort: return reasoningEffort
            case .stream: return stream
            case .streamOptions: return streamOptions
            case .seed: return seed
            case .frequencyPenalty: return frequencyPenalty
            case .presencePenalty: return presencePenalty
            case .logitBias: return logitBias
            case .logprobs: return logprobs
            case .topLogprobs: return topLogprobs
            }
        }
        set {
            switch member {
            case .model: model = newValue
            case .n: n = newValue
            case .functions: functions = newValue
            case .messages: messages = newValue
            case .tools: tools = newValue
            case .toolChoice: toolChoice = newValue
            case .parallelToolCalls: parallelToolCalls = newValue
            case .maxCompletionTokens: maxCompletionTokens = newValue
            case .maxTokens: maxTokens = newValue
            case .temperature: temperature = newValue
            case .topP: topP = newValue
            case .stop: stop = newValue
            case .responseFormat: responseFormat = newValue
            case .user: user = newValue
            case .safetyIdentifier: safetyIdentifier = newValue
            case .promptCacheKey: promptCacheKey = newValue
            case .reasoningEffort: reasoningEffort = newValue
            case .stream: stream = newValue
            case .streamOptions: streamOptions = newValue
            case .seed: seed = newValue
            case .frequencyPenalty: frequencyPenalty = newValue
            case .presencePenalty: presencePenalty = newValue
            case .logitBias: logitBias = newValue
            case .logprobs: logprobs = newValue
            case .topLogprobs: topLogprobs = newValue
            }
        }
    }
}
