import SkillGateCore
import SkillGateSkills

/// What one model call of a run produced.
struct AgentTurn: Sendable {
    var response: ChatResponse
    /// What the call cost (`nil` when the model has no price).
    var costUSD: Double?
}

/// Calls the model for one iteration (through the `RouteExecutor`, so retries, fallbacks and
/// escalation apply per call). It emits `route.selected` and, when it streams, `text.delta`.
typealias AgentModelCall = @Sendable (_ request: ChatRequest, _ iteration: Int, _ emit: AgentEventSink) async throws -> AgentTurn

/// How a run ended.
struct AgentOutcome: Sendable {
    /// The answer for the client: the final text, or the tool calls it must run; usage summed over the run.
    var response: ChatResponse
    /// `stop`, `tool_calls`, `length`, ..., `max_iterations`, `max_run_seconds`, or `budget` (a budget was used up during the
    /// run).
    var finishReason: String
    /// Model calls made.
    var iterations: Int
    /// Names of the skills that ran (in order of completion).
    var skillsRun: [String]
    /// Summed over the run's model calls.
    var costUSD: Double
    /// Why the run stopped when it was not the model's choice (`max_iterations`, `max_run_seconds`, `budget`).
    var message: String?
}

/// The agent loop as a value: calls the model, runs the server-side skill calls of the turn in
/// parallel, appends the results and calls again — until the model answers in text, calls a
/// client tool (or a skill that needs confirmation), or `maxIterations` is reached. Every step
/// is an event. Cancelling the calling task cancels the model call and the running skills;
/// `checkpoint` throwing before a step (a revoked token) ends the run with that error.
struct AgentLoop: Sendable {
    var settings: GatewayConfig.Agent
    /// The visible server-side skills by name (already in `request.tools`).
    var skills: [String: any Skill]
    var context: SkillContext
    var model: AgentModelCall
    var emit: AgentEventSink
    /// Runs before every step (each model call, each turn's skill calls) and throws to stop the
    /// run: the gateway re-checks the caller's token here.
    var checkpoint: @Sendable () async throws -> Void = {}
    /// Asked after each model call that wants skills, with what the run's answers have cost so far (US dollars): the
    /// message of a budget of the token or scenario that the run's spend, on top of what was spent before and beside,
    /// has used up; nil while every budget has some left. Without it one run could spend `max_iterations` model calls
    /// past a budget (decision 0113); the gateway counts the spend against the budgets here too (`RunSpending`).
    var budgetUsedUp: @Sendable (_ spentUSD: Double) async -> String? = { _ in nil }
    /// Told the name of each skill as it finishes running (not of calls refused before they ran), so a run that fails
    /// later still records what ran (its side effects: a webhook called, a note saved).
    var skillRan: @Sendable (String) -> Void = { _ in }
    /// The clock `agent.max_run_seconds` is measured with (tests pass their own).
    var now: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }

    func run(_ initial: ChatRequest) async throws -> AgentOutcome {
        var request = initial
        let shown = Set(initial.tools.map(\.name))
        var usage = Usage(), cost = 0.0
        var earlier: [String: Int] = [:]  // name + canonical arguments → iteration
        var skillsRun: [String] = []
        var pending: [String] = []
        let started = now()
        let runTime = Duration.seconds(settings.maxRunSeconds)
        for iteration in 1...settings.maxIterations {
            try Task.checkCancellation()
            if iteration > 1, now() - started >= runTime {
                return outOfTime(after: iteration - 1, calls: pending, ran: true, usage: usage, cost: cost, skillsRun: skillsRun)
            }
            try await checkpoint()
            let turn = try await model(request, iteration, emit)
            usage = usage + turn.response.usage
            cost += turn.costUSD ?? 0
            var response = turn.response
            response.usage = usage
            let calls = response.toolCalls
            if calls.isEmpty {
                return AgentOutcome(response: response, finishReason: response.finishReason.description, iterations: iteration,
                                    skillsRun: skillsRun, costUSD: cost)
            }
            // Client tools and skills needing confirmation go back to the client; the turn's other calls are not run.
            let handBack = calls.filter { c in skills[c.name].map(\.requiresConfirmation) ?? shown.contains(c.name) }
            if !handBack.isEmpty {
                for c in handBack {
                    try await emit(.toolCall(callId: c.id, name: c.name, arguments: c.parsedArguments ?? .string(c.arguments),
                                             requiresConfirmation: skills[c.name] != nil))
                }
                let ids = Set(handBack.map(\.id))
                response.content = response.content.filter { $0.toolCall.map { ids.contains($0.id) } ?? true }
                response.finishReason = .toolCalls
                return AgentOutcome(response: response, finishReason: "tool_calls", iterations: iteration, skillsRun: skillsRun, costUSD: cost)
            }
            pending = calls.map(\.name)
            guard iteration < settings.maxIterations else { break }
            if now() - started >= runTime {
                return outOfTime(after: iteration, calls: pending, ran: false, usage: usage, cost: cost, skillsRun: skillsRun)
            }
            if let budget = await budgetUsedUp(cost) {
                // Not run: the skills of this answer would feed a model call the budget no longer pays for.
                let message = "The agent stopped after \(iteration) model call\(iteration == 1 ? "" : "s") without a final answer: \(budget). "
                    + "The model still wanted to call \(Self.counted(calls.map(\.name)))."
                let stopped = ChatResponse(id: "", model: "", content: [.text(message)], finishReason: .length, usage: usage)
                return AgentOutcome(response: stopped, finishReason: "budget", iterations: iteration, skillsRun: skillsRun, costUSD: cost, message: message)
            }
            try await checkpoint()
            let results = try await runCalls(calls, iteration: iteration, shown: shown, earlier: &earlier, ran: &skillsRun)
            request.messages.append(Message(role: .assistant, content: turn.response.content))
            for r in results { request.messages.append(Message(role: .tool, content: [.toolResult(r)])) }
            if case .named = request.toolChoice { request.toolChoice = nil }
            if request.toolChoice == .required { request.toolChoice = nil }
        }
        let n = settings.maxIterations
        let message = "The agent stopped after \(n) model calls (agent.max_iterations = \(n)) without a final answer; the model still wanted to call "
            + Self.counted(pending) + ". Ask a narrower question, or ask the operator to raise agent.max_iterations."
        let response = ChatResponse(id: "", model: "", content: [.text(message)], finishReason: .length, usage: usage)
        return AgentOutcome(response: response, finishReason: "max_iterations", iterations: n, skillsRun: skillsRun, costUSD: cost, message: message)
    }

    /// The outcome of a run that reached `agent.max_run_seconds` after `iterations` model calls; `calls`: the skills the
    /// last answer asked for, which `ran` or not.
    private func outOfTime(after iterations: Int, calls: [String], ran: Bool, usage: Usage, cost: Double, skillsRun: [String]) -> AgentOutcome {
        let limit = settings.maxRunSeconds
        let left = ran ? "the results of \(Self.counted(calls)) were not sent back to the model" : "the model still wanted to call \(Self.counted(calls))"
        let message = "The agent stopped after \(iterations) model call\(iterations == 1 ? "" : "s") without a final answer: the run reached its "
            + "time limit (agent.max_run_seconds = \(limit)); \(left). Ask a narrower question, or ask the operator to raise agent.max_run_seconds."
        let response = ChatResponse(id: "", model: "", content: [.text(message)], finishReason: .length, usage: usage)
        return AgentOutcome(response: response, finishReason: "max_run_seconds", iterations: iterations, skillsRun: skillsRun, costUSD: cost,
                            message: message)
    }

    /// One server-side call, decided before anything runs.
    private enum Plan {
        case answer(SkillResult)
        case run(any Skill, JSONValue)
    }

    /// Answers every call of one turn (in call order): rejected ones at once, the rest run in parallel.
    private func runCalls(_ calls: [ToolCall], iteration: Int, shown: Set<String>, earlier: inout [String: Int],
                          ran: inout [String]) async throws -> [ToolResult] {
        var plans: [Plan] = []
        var keys: [String] = []
        for call in calls {
            guard let skill = skills[call.name], shown.contains(call.name) else {
                let available = shown.sorted().joined(separator: ", ")
                plans.append(.answer(SkillResult(text: "The tool \"\(call.name)\" is not available here (available: \(available.isEmpty ? "none" : available)). Do not call it again; use one of the available tools or answer directly.", isError: true)))
                continue
            }
            do {
                let args = try ArgumentValidator.validate(arguments: call.arguments, schema: skill.parameters, tool: skill.name).value
                let key = skill.name + "\u{0}" + SkillExecution.canonical(args)
                if let step = earlier[key] {
                    plans.append(.answer(SkillResult(text: "You already called \(skill.name) with these arguments (step \(step)); its result is above in this conversation. Use that result instead of calling again, or call it with different arguments.")))
                } else if keys.count >= settings.maxSkillCallsPerTurn {
                    let limit = settings.maxSkillCallsPerTurn
                    plans.append(.answer(SkillResult(text: "Not run: one answer may run at most \(limit) skill calls (agent.max_skill_calls_per_turn = \(limit)), and this answer asked for more. Use the results of the calls that ran, then call \(skill.name) again if it is still needed.", isError: true)))
                } else {
                    keys.append(key)
                    plans.append(.run(skill, args))
                }
            } catch {
                plans.append(.answer(SkillResult(text: error.description, isError: true)))
            }
        }
        for key in keys { earlier[key] = earlier[key] ?? iteration }

        var results = [SkillResult?](repeating: nil, count: calls.count)
        var durations = [Int](repeating: 0, count: calls.count)
        for (i, plan) in plans.enumerated() {
            let args: JSONValue
            if case .run(_, let a) = plan { args = a } else { args = calls[i].parsedArguments ?? .string(calls[i].arguments) }
            try await emit(.skillStarted(callId: calls[i].id, skill: calls[i].name, arguments: args, iteration: iteration))
            if case .answer(let r) = plan { results[i] = r }
        }
        try await withThrowingTaskGroup(of: (Int, SkillResult, Int).self) { group in
            for (i, plan) in plans.enumerated() {
                guard case .run(let skill, let args) = plan else { continue }
                let timeout = min(skill.timeout, .milliseconds(Int64(settings.maxSkillTimeoutSeconds * 1000)))
                let context = self.context
                let maxBytes = settings.maxResultBytes
                group.addTask {
                    let start = ContinuousClock.now
                    let result = try await SkillExecution.run(skill, arguments: args, context: context, timeout: timeout)
                    // Capped before anyone reads it: the model, and the client's `skill.finished` payload.
                    return (i, SkillExecution.capped(result, maxBytes: maxBytes), Self.ms(ContinuousClock.now - start))
                }
            }
            // Rejected calls finish at once; the others as they complete.
            for (i, plan) in plans.enumerated() {
                guard case .answer(let r) = plan else { continue }
                try await emit(.skillFinished(callId: calls[i].id, skill: calls[i].name, ok: !r.isError, durationMs: 0,
                                              summary: SkillExecution.summary(r.text), payload: nil))
            }
            while let (i, result, ms) = try await group.next() {
                results[i] = result
                durations[i] = ms
                ran.append(calls[i].name)
                skillRan(calls[i].name)
                try await emit(.skillFinished(callId: calls[i].id, skill: calls[i].name, ok: !result.isError, durationMs: ms,
                                              summary: SkillExecution.summary(result.text), payload: result.payload))
            }
        }
        return calls.indices.map { i in
            let r = results[i] ?? SkillResult(text: "no result", isError: true)
            return ToolResult(callId: calls[i].id, name: calls[i].name, text: SkillExecution.truncate(r.text, maxBytes: settings.maxResultBytes),
                              isError: r.isError)
        }
    }

    /// The names in order of first appearance, each with how many times it appears when more than once
    /// (`calculator ×200, clock`): an answer may ask for the same skill hundreds of times.
    static func counted(_ names: [String]) -> String {
        var order: [String] = [], counts: [String: Int] = [:]
        for name in names {
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        return order.map { counts[$0]! > 1 ? "\($0) ×\(counts[$0]!)" : $0 }.joined(separator: ", ")
    }

    static func ms(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}
