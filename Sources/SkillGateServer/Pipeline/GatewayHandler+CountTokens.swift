import SkillGateCore
import SkillGateHTTP
import SkillGateProviders
import SkillGateRouting

extension GatewayHandler {
    /// How long the provider's count may take before the gateway answers its own estimate instead.
    static let providerCountWithin = Duration.seconds(5)

    /// `POST /v1/messages/count_tokens` (the Anthropic SDKs' `messages.count_tokens`, which Claude Code calls every turn
    /// to manage its context window; decision 0132): `{"input_tokens": N}` for a Messages request without `max_tokens`.
    /// The model must be one the token and scenario may use, as for `/v1/messages`. When the deployment the request would
    /// go to first counts itself (Anthropic's count endpoint), its count is answered (`x-skillgate-token-count:
    /// provider`); otherwise, or when that count fails or takes over `providerCountWithin`, the gateway's estimate
    /// (`ContextTokenEstimate`, which errs high; `x-skillgate-token-count: estimated`). Never charged. Errors in the
    /// Anthropic shape. Like `GET /v1/models` it is logged with the token's name but is no request of a surface: no
    /// ledger row, no surface metrics (Claude Code would double a token's request count).
    func countTokens(_ request: HTTPServerRequest, _ ctx: inout RequestContext) async {
        let surface = AnthropicMessagesSurface()
        do {
            let client = try authentication.authenticate(request)
            ctx.log.tokenName = client.name
            try client.requireChat()
            let counted = try AnthropicMessagesFormat.decodeCountTokensRequest(request.body)
            let scenario = try services.resolver.scenario(named: GatewayFields.once(request.headers, "x-skillgate-scenario"), scope: client.scope)
            let plan = try services.resolver.plan(requested: counted.model, scenario: scenario.config, scope: client.scope)
            var (tokens, source) = (ContextTokenEstimate.inputTokens(of: counted), "estimated")
            if let target = plan.targets.first, let exact = await providerCount(counted, at: target, &ctx) {
                (tokens, source) = (exact, "provider")
                ctx.log.provider = target.provider.id
                ctx.log.model = target.qualifiedName
            }
            var headers = ResponseHeaders.common(ctx)
            headers.set("x-skillgate-token-count", source)
            let body: JSONValue = ["input_tokens": .int(tokens)]
            ctx.responder.respond(status: 200, headers: headers, body: body.serializedBytes())
            ctx.log.status = 200
            answering.account(&ctx)
        } catch {
            fail(GatewayError.from(error), surface, &ctx)
        }
    }

    /// `target`'s own count of `request`, or nil when its client cannot count or the count failed (noted in the log's
    /// `attempts`, the provider's message without its key).
    private func providerCount(_ request: ChatRequest, at target: RouteTarget, _ ctx: inout RequestContext) async -> Int? {
        do {
            let upstream = try services.clients.client(for: target, within: Self.providerCountWithin)
            defer { upstream.key?.release() }
            return try await upstream.llm.countInputTokens(request)
        } catch {
            let e = GatewayError.from(error)
            ctx.log.attempts.append(.note("\(target.qualifiedName): token count failed (\(e.status) \(e.kind.rawValue): \(e.clientMessage.prefix(200))); estimated"))
            return nil
        }
    }
}
