import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateRouting

extension GatewayHandler {
    /// How long the provider's count may take before the gateway answers its own estimate instead.
    static let providerCountWithin = Duration.seconds(5)

    /// `POST /v1/messages/count_tokens` (the Anthropic SDKs' `messages.count_tokens`, which Claude Code calls every turn
    /// to manage its context window; decision 0132): `{"input_tokens": N}` for a Messages request without `max_tokens`,
    /// counted by `inputTokens(of:for:_:_:)`. Errors in the Anthropic shape.
    func countTokens(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        let surface = AnthropicMessagesSurface()
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            let counted = try AnthropicMessagesFormat.decodeCountTokensRequest(request.body)
            let (tokens, source) = try await inputTokens(of: counted, for: client, request.headers, &ctx)
            respondCount(["input_tokens": .int(tokens)], source: source, &ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }

    /// The input tokens of `counted`, a request of `client` (decisions 0132, 0136). Its model must be one the token and the
    /// request's scenario may use, with the same 403/404 as the surfaces. When a deployment of the request's plan counts
    /// itself (Anthropic's count, Gemini's `:countTokens`, OpenAI's Responses count; the provider's `count_tokens`), the
    /// count of the first that does and answers (`provider`; tried in the plan's order, so a fallback counts when the
    /// first deployment cannot); otherwise, or when none answers within `providerCountWithin` in all, the gateway's
    /// estimate (`ContextTokenEstimate`, which errs high; `estimated`), also, without asking the provider, while the client
    /// is over one of its limits (decision 0146). Never charged: like `GET /v1/models` it is logged
    /// with the token's name but is no request of a surface, so no ledger row and no surface metrics (Claude Code counts
    /// every turn, and would double a token's request count).
    func inputTokens(of counted: ChatRequest, for client: AuthenticatedClient, _ headers: HTTPHeaders,
                     _ ctx: inout RequestContext) async throws -> (tokens: Int, source: String) {
        let scenario = try services.resolver.scenario(named: GatewayFields.once(headers, "x-skillgate-scenario"), scope: client.scope)
        let plan = try services.resolver.plan(requested: counted.model, scenario: scenario.config, scope: client.scope)
        // A client over its limits gets the estimate without a provider call (decision 0146): counts are not charged and
        // take no slot, but they must not let a cut-off token keep calling the provider.
        if let over = await limits.currentlyOver(client, scenario: scenario.name) {
            ctx.log.attempts.append(.note("over \(over.limit.rawValue) of \(over.subject.described): estimated without asking the provider"))
            return (ContextTokenEstimate.inputTokens(of: counted), "estimated")
        }
        // The plan's deployments in order, as a request would be tried: the first that counts answers (a count the
        // first could not give comes from its fallback rather than the estimate), all within `providerCountWithin`.
        let deadline = ContinuousClock.now.advanced(by: Self.providerCountWithin)
        var asked = Set<String>()
        for target in plan.targets where asked.insert(target.qualifiedName).inserted {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            if let exact = await providerCount(counted, at: target, within: left, &ctx) {
                ctx.log.provider = target.provider.id
                ctx.log.model = target.qualifiedName
                return (exact, "provider")
            }
        }
        return (ContextTokenEstimate.inputTokens(of: counted), "estimated")
    }

    /// Answers a count: `body` with `x-skillgate-token-count: source`, and the log line.
    func respondCount(_ body: JSONValue, source: String, _ ctx: inout RequestContext) {
        var headers = ResponseHeaders.common(ctx)
        headers.set("x-skillgate-token-count", source)
        ctx.responder.respond(status: 200, headers: headers, body: body.serializedBytes())
        ctx.log.status = 200
        answering.account(&ctx)
    }

    /// `target`'s own count of `request`, or nil when its client cannot count or the count failed (noted in the log's
    /// `attempts`, the provider's message without its key).
    private func providerCount(_ request: ChatRequest, at target: RouteTarget, within limit: Duration, _ ctx: inout RequestContext) async -> Int? {
        do {
            let upstream = try services.clients.client(for: target, within: limit)
            defer { upstream.key?.release() }
            return try await upstream.llm.countInputTokens(request)
        } catch {
            let e = GatewayError.from(error)
            ctx.log.attempts.append(.note("\(target.qualifiedName): token count failed (\(e.status) \(e.kind.rawValue): \(e.clientMessage.prefix(200))); estimated"))
            return nil
        }
    }
}
