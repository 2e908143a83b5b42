import SkillGateCore

/// Finish reasons and usage in both directions.
///
/// Decisions:
/// - `function_call` (the legacy functions API) maps to `.toolCalls`; an unknown reason is kept
///   verbatim as `.other(raw)`, never guessed to be `stop`.
/// - A `stop` answer that carried tool calls is `.toolCalls`; one that carried a refusal (the
///   `refusal` field) is `.refusal`. A `length` answer keeps `.length` even with tool calls, so a
///   truncated call is never executed as if it were complete.
/// - Outbound to OpenAI clients, `.refusal` and `.pauseTurn` are written as `stop` (the format has
///   no such reasons); the refusal text goes in `message.refusal` (`delta.refusal` in streams), as
///   OpenAI sends it. `.contentFilter` (Anthropic's `refusal` among them) is `content_filter` (decision 0114).
extension OpenAIChatFormat {
    /// The canonical reason for a wire `finish_reason`, given what the answer contained.
    static func finishReason(wire raw: String?, hasToolCalls: Bool, refused: Bool) -> FinishReason {
        let base: FinishReason
        switch raw {
        case nil: base = .other("missing")
        case "stop": base = .stop
        case "length": base = .length
        case "tool_calls", "function_call": base = .toolCalls
        case "content_filter": base = .contentFilter
        case let other?: base = .other(other)
        }
        switch base {
        case .stop where hasToolCalls, .other("missing") where hasToolCalls: return .toolCalls
        case .stop where refused: return .refusal
        default: return base
        }
    }

    /// The wire `finish_reason` for a canonical reason.
    static func wireFinishReason(_ reason: FinishReason) -> String {
        switch reason {
        case .stop, .refusal, .pauseTurn: return "stop"
        case .length: return "length"
        case .toolCalls: return "tool_calls"
        case .contentFilter: return "content_filter"
        case .other(let raw): return raw
        }
    }

    /// Usage from a wire `usage` object (OpenAI details, DeepSeek's `prompt_cache_hit_tokens` as a fallback).
    static func usage(wire u: JSONValue) -> Usage {
        var usage = Usage(inputTokens: u["prompt_tokens"]?.intValue ?? 0,
                          outputTokens: u["completion_tokens"]?.intValue ?? 0)
        usage.cachedInputTokens = u["prompt_tokens_details"]?["cached_tokens"]?.intValue
            ?? u["prompt_cache_hit_tokens"]?.intValue ?? 0
        usage.reasoningTokens = u["completion_tokens_details"]?["reasoning_tokens"]?.intValue ?? 0
        return usage
    }

    /// The wire `usage` object for a canonical usage.
    static func wireUsage(_ u: Usage) -> JSONValue {
        ["prompt_tokens": .int(u.inputTokens), "completion_tokens": .int(u.outputTokens),
         "total_tokens": .int(u.totalTokens),
         "prompt_tokens_details": ["cached_tokens": .int(u.cachedInputTokens)],
         "completion_tokens_details": ["reasoning_tokens": .int(u.reasoningTokens)]]
    }
}
