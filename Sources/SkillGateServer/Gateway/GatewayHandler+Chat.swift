import Foundation
import SkillGateCore
import SkillGateHTTP

extension GatewayHandler {
    /// `POST /v1/chat/completions` and `POST /v1/messages`: authenticate, decode, route, call the
    /// provider (falling back to the next target only before anything reached the client), encode.
    func chat(_ request: HTTPServerRequest, surface: ChatSurface, _ ctx: inout RequestContext, _ responder: HTTPResponder) async {
        ctx.log.surface = surface.rawValue
        do {
            let client = try services.authenticate(request.headers)
            ctx.log.tokenName = client.name
            var inbound = try surface.decode(request.body)
            ctx.log.stream = inbound.stream
            let scenario = try services.resolver.scenario(named: request.headers["x-skillgate-scenario"], scope: client.scope)
            ctx.log.scenario = scenario.name
            // Skills: visible set (packs, relevance cut), removal or 403 (Skills/GatewayHandler+Skills.swift).
            let skills = try applySkillPolicy(&inbound.request, scenario: scenario.name, &ctx)
            let plan = try services.resolver.plan(for: inbound.request, tierHeader: request.headers["x-skillgate-tier"],
                                                  scenario: scenario.config, scope: client.scope)
            ctx.log.route = plan.route
            // Skills: answers checked (invisible calls), unusable light answers re-run on the escalation tier.
            try await withAnswerChecks(skills, scenario: scenario, scope: client.scope, plan: plan, &ctx) { plan, ctx in
                if inbound.stream {
                    try await stream(inbound, plan: plan, surface: surface, &ctx, responder)
                } else {
                    try await complete(inbound, plan: plan, surface: surface, &ctx, responder)
                }
            }
        } catch {
            finish(&ctx, responder, error: Self.gatewayError(error), surface: surface)
        }
    }

    /// Whether trying the next target of the plan may help.
    private func shouldFallBack(_ error: GatewayError) -> Bool {
        error.isRetryable || (error.kind == .upstreamUnavailable)
    }

    private func note(_ ctx: inout RequestContext, _ target: RouteTarget, _ error: GatewayError) {
        ctx.log.attempts.append("\(target.qualifiedName): \(error.status) \(error.kind.rawValue)")
    }

    private func complete(_ inbound: InboundChat, plan: RoutePlan, surface: ChatSurface, _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        var lastError: GatewayError?
        for (i, target) in plan.targets.enumerated() {
            ctx.log.provider = target.provider.id
            ctx.log.model = target.qualifiedName
            let upstreamStart = ContinuousClock.now
            do {
                let llm = try services.clients.client(for: target)
                var request = inbound.request
                request.model = target.model.id
                let response = try await llm.complete(request)
                ctx.log.upstreamMs = Self.ms(since: upstreamStart)
                ctx.log.usage = response.usage
                ctx.log.costUSD = target.model.price?.cost(of: response.usage)
                let body = surface.responseBody(response, id: responseId(response.id, ctx, surface), model: target.qualifiedName,
                                                created: Int(Date().timeIntervalSince1970))
                responder.respond(status: 200, headers: commonHeaders(ctx), body: body)
                ctx.log.status = 200
                complete(&ctx)
                return
            } catch {
                let e = Self.gatewayError(error)
                note(&ctx, target, e)
                lastError = e
                if i + 1 < plan.targets.count, shouldFallBack(e), !Task.isCancelled { continue }
                throw e
            }
        }
        throw lastError ?? .internalError("the route plan was empty")
    }

    private func stream(_ inbound: InboundChat, plan: RoutePlan, surface: ChatSurface, _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        for (i, target) in plan.targets.enumerated() {
            ctx.log.provider = target.provider.id
            ctx.log.model = target.qualifiedName
            let upstreamStart = ContinuousClock.now
            var iterator: AsyncThrowingStream<ChatStreamEvent, any Error>.AsyncIterator
            let first: ChatStreamEvent?
            do {
                let llm = try services.clients.client(for: target)
                var request = inbound.request
                request.model = target.model.id
                iterator = llm.stream(request).makeAsyncIterator()
                first = try await iterator.next()
            } catch {
                let e = Self.gatewayError(error)
                note(&ctx, target, e)
                if i + 1 < plan.targets.count, shouldFallBack(e), !Task.isCancelled { continue }
                throw e
            }
            ctx.log.upstreamMs = Self.ms(since: upstreamStart)
            try await relay(first: first, rest: &iterator, target: target, surface: surface, inbound: inbound, &ctx, responder)
            return
        }
    }

    /// Streams the answer to the client. Nothing is retried from here on: bytes reached the client.
    private func relay(first: ChatStreamEvent?, rest iterator: inout AsyncThrowingStream<ChatStreamEvent, any Error>.AsyncIterator,
                       target: RouteTarget, surface: ChatSurface, inbound: InboundChat, _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        var headers = commonHeaders(ctx, contentType: "text/event-stream")
        headers.add("cache-control", "no-cache")
        headers.add("x-accel-buffering", "no")
        try await responder.startStream(status: 200, headers: headers)
        ctx.log.status = 200
        var encoder = surface.streamEncoder(id: "chatcmpl-\(ctx.requestId.dropFirst(4))", model: target.qualifiedName,
                                            created: Int(Date().timeIntervalSince1970), includeUsage: inbound.includeUsage)
        var usage: Usage?
        var next = first
        do {
            while let event = next {
                if case .usage(let u) = event { usage = u }
                let bytes = encoder.encode(event)
                if !bytes.isEmpty { try await responder.write(bytes) }
                next = try await iterator.next()
            }
            try await responder.write(encoder.finish())
        } catch {
            let e = Self.gatewayError(error)
            ctx.log.error = e.clientMessage
            if !responder.isClientGone, e.kind != .cancelled {
                try? await responder.write(encoder.errorEvent(e))
            } else {
                ctx.log.status = 499
            }
        }
        responder.end()
        if let usage {
            ctx.log.usage = usage
            ctx.log.costUSD = target.model.price?.cost(of: usage)
        }
        complete(&ctx)
    }

    private func responseId(_ upstreamId: String, _ ctx: RequestContext, _ surface: ChatSurface) -> String {
        if !upstreamId.isEmpty { return upstreamId }
        return (surface == .anthropic ? "msg_" : "chatcmpl-") + ctx.requestId.dropFirst(4)
    }

    static func ms(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
