// The data of each agent event. Property order is wire order (`CompactJSONEncoder` keeps it).

extension AgentEvent {
    /// `run.started`: `{"run_id","scenario","model"}`.
    public struct RunStarted: Codable, Sendable, Hashable {
        /// `run_…`, unique per run; the request id without its `req_` prefix.
        public var runId: String
        /// The scenario the run uses.
        public var scenario: String
        /// The model as requested (`auto`, a tier, an alias or `provider/model`).
        public var model: String

        public init(runId: String, scenario: String, model: String) {
            self.runId = runId
            self.scenario = scenario
            self.model = model
        }

        enum CodingKeys: String, CodingKey {
            case runId = "run_id"
            case scenario, model
        }
    }

    /// `route.selected`: `{"provider","model","route","iteration"}`.
    public struct RouteSelected: Codable, Sendable, Hashable {
        /// The provider id (`demo`, `openai`).
        public var provider: String
        /// The resolved `provider/model`.
        public var model: String
        /// Why this model: `tier=light; by=score; …` (the `x-skillgate-route` header's value).
        public var route: String
        /// The model call this is, from 1.
        public var iteration: Int

        public init(provider: String, model: String, route: String, iteration: Int) {
            self.provider = provider
            self.model = model
            self.route = route
            self.iteration = iteration
        }
    }

    /// `skill.started`: `{"call_id","skill","arguments","iteration"}`.
    public struct SkillStarted: Codable, Sendable, Hashable {
        /// The model's id of this call; `skill.finished` carries the same.
        public var callId: String
        /// The skill's tool name (`current_time`).
        public var skill: String
        /// The arguments the model passed.
        public var arguments: JSONValue
        /// The model call that asked for it, from 1.
        public var iteration: Int

        public init(callId: String, skill: String, arguments: JSONValue, iteration: Int) {
            self.callId = callId
            self.skill = skill
            self.arguments = arguments
            self.iteration = iteration
        }

        enum CodingKeys: String, CodingKey {
            case callId = "call_id"
            case skill, arguments, iteration
        }
    }

    /// `skill.finished`: `{"call_id","skill","ok","duration_ms","summary","payload"?}`.
    public struct SkillFinished: Codable, Sendable, Hashable {
        public var callId: String
        public var skill: String
        /// Whether the skill succeeded. A rejected call (invalid arguments, a tool the model was not
        /// shown, an identical repeated call) is not ok and has `durationMs` 0.
        public var ok: Bool
        public var durationMs: Int
        /// A one-line result or error, for a skill card.
        public var summary: String
        /// The skill's structured result, when it has one.
        public var payload: JSONValue?

        public init(callId: String, skill: String, ok: Bool, durationMs: Int, summary: String, payload: JSONValue? = nil) {
            self.callId = callId
            self.skill = skill
            self.ok = ok
            self.durationMs = durationMs
            self.summary = summary
            self.payload = payload
        }

        enum CodingKeys: String, CodingKey {
            case callId = "call_id"
            case skill, ok
            case durationMs = "duration_ms"
            case summary, payload
        }
    }

    /// `text.delta`: `{"text"}`.
    public struct TextDelta: Codable, Sendable, Hashable {
        public var text: String

        public init(text: String) {
            self.text = text
        }
    }

    /// `tool.call`: `{"call_id","name","arguments","requires_confirmation"}`. The client runs the
    /// tool (after asking the user, when `requiresConfirmation`) and sends the result back in a
    /// follow-up request as a `tool` message, after an assistant message carrying the call.
    public struct ToolCall: Codable, Sendable, Hashable {
        public var callId: String
        /// The tool's name.
        public var name: String
        public var arguments: JSONValue
        /// Whether this is a server skill that needs a person's confirmation before it runs.
        public var requiresConfirmation: Bool

        public init(callId: String, name: String, arguments: JSONValue, requiresConfirmation: Bool) {
            self.callId = callId
            self.name = name
            self.arguments = arguments
            self.requiresConfirmation = requiresConfirmation
        }

        enum CodingKeys: String, CodingKey {
            case callId = "call_id"
            case name, arguments
            case requiresConfirmation = "requires_confirmation"
        }
    }

    /// `run.completed`: `{"finish_reason","iterations","usage","cost_usd","message"?}`.
    public struct RunCompleted: Codable, Sendable, Hashable {
        /// `stop`, `tool_calls` (a `tool.call` came before), `length`, `max_iterations`, `max_run_seconds` (the run's time
        /// limit) or `budget` (a budget was used up mid-run).
        public var finishReason: String
        /// Model calls made.
        public var iterations: Int
        /// Tokens, summed over the run's model calls.
        public var usage: Usage
        /// The run's cost in US dollars, summed over its model calls.
        public var costUSD: Double
        /// Why the run stopped, when it was not the model's own choice (`max_iterations`, `max_run_seconds`, `budget`).
        public var message: String?

        public init(finishReason: String, iterations: Int, usage: Usage, costUSD: Double, message: String? = nil) {
            self.finishReason = finishReason
            self.iterations = iterations
            self.usage = usage
            self.costUSD = costUSD
            self.message = message
        }

        enum CodingKeys: String, CodingKey {
            case finishReason = "finish_reason"
            case iterations, usage
            case costUSD = "cost_usd"
            case message
        }
    }

    /// Token counts of a run: `{"input_tokens","output_tokens"}`, plus `cached_input_tokens` (the part of the
    /// input read from the provider's prompt cache) when there was any.
    public struct Usage: Codable, Sendable, Hashable {
        public var inputTokens: Int
        public var outputTokens: Int
        /// Input tokens read from the provider's prompt cache (included in `inputTokens`); nil when none.
        public var cachedInputTokens: Int?

        public init(inputTokens: Int, outputTokens: Int, cachedInputTokens: Int? = nil) {
            self.inputTokens = inputTokens
            self.outputTokens = outputTokens
            self.cachedInputTokens = cachedInputTokens
        }

        enum CodingKeys: String, CodingKey {
            case inputTokens = "input_tokens"
            case outputTokens = "output_tokens"
            case cachedInputTokens = "cached_input_tokens"
        }
    }

    /// `run.failed`: `{"error":{"type","message"}}`, the error in the shape of `APIErrorBody`.
    public struct RunFailed: Codable, Sendable, Hashable {
        public var error: APIErrorBody.Detail

        public init(error: APIErrorBody.Detail) {
            self.error = error
        }
    }
}
