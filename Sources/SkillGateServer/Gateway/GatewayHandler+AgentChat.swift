import Foundation
import SkillGateCore
import SkillGateHTTP
import Synchronization

extension GatewayHandler {
    /// `/v1/chat/completions` and `/v1/messages` when the visible tools include server-side
    /// skills: the agent loop runs them, and the client sees only what its SDK expects.
    /// Non-streaming: the final answer (text or client tool calls) as one response. Streaming:
    /// progress as SSE comments (`: skill current_time ok 3ms`), which every SSE parser skips,
    /// then the final answer's ordinary chunks, sent once the last model call is complete (the
    /// last iteration is not known to be last until it ends). The stream starts at the first
    /// comment, so a failure before any skill ran is still an ordinary HTTP error.
    func agentChat(_ prepared: ChatRequest, _ inbound: InboundChat, _ setup: AgentSetup, surface: ChatSurface,
                   _ ctx: inout RequestContext, _ responder: HTTPResponder) async throws {
        let record = AgentRunRecord()
        var headers = commonHeaders(ctx, contentType: "text/event-stream")
        headers.add("cache-control", "no-cache")
        headers.add("x-accel-buffering", "no")
        let stream = StreamStart(responder: responder, headers: headers)
        let comments = inbound.stream
        let emit: AgentEventSink = { event in
            guard comments, case .skillFinished(_, let skill, let ok, let ms, _, _) = event else { return }
            let line = ": skill " + skill + (ok ? " ok " : " error ") + String(ms) + "ms\n\n"
            try await stream.write(Array(line.utf8))
        }
        let outcome: AgentOutcome
        do {
            outcome = try await runAgent(prepared, setup, streamText: false, record: record, emit: emit)
        } catch {
            record.apply(to: &ctx.log, outcome: nil)
            guard stream.isStarted else { throw error }
            let e = Self.gatewayError(error)
            ctx.log.status = 200
            ctx.log.error = e.clientMessage
            if !responder.isClientGone, e.kind != .cancelled, !Task.isCancelled {
                let encoder = surface.streamEncoder(id: "x", model: "x", created: 0, includeUsage: false)
                try? await responder.write(encoder.errorEvent(e))
            } else {
                ctx.log.status = 499
            }
            responder.end()
            return complete(&ctx)
        }
        record.apply(to: &ctx.log, outcome: outcome)
        let model = ctx.log.model ?? prepared.model
        let created = Int(Date().timeIntervalSince1970)
        guard inbound.stream else {
            let id = outcome.response.id.isEmpty ? (surface == .anthropic ? "msg_" : "chatcmpl-") + ctx.requestId.dropFirst(4) : outcome.response.id
            responder.respond(status: 200, headers: commonHeaders(ctx), body: surface.responseBody(outcome.response, id: id, model: model, created: created))
            ctx.log.status = 200
            return complete(&ctx)
        }
        var encoder = surface.streamEncoder(id: "chatcmpl-\(ctx.requestId.dropFirst(4))", model: model, created: created, includeUsage: inbound.includeUsage)
        do {
            try await stream.start()
            ctx.log.status = 200
            for event in Self.streamEvents(of: outcome.response, id: "msg_" + ctx.requestId.dropFirst(4), model: model) {
                let bytes = encoder.encode(event)
                if !bytes.isEmpty { try await responder.write(bytes) }
            }
            try await responder.write(encoder.finish())
        } catch {
            ctx.log.status = 499
            ctx.log.error = Self.gatewayError(error).clientMessage
        }
        responder.end()
        complete(&ctx)
    }

    /// A complete answer as the stream events a provider would have sent.
    static func streamEvents(of response: ChatResponse, id: String, model: String) -> [ChatStreamEvent] {
        var events: [ChatStreamEvent] = [.start(id: response.id.isEmpty ? id : response.id, model: model)]
        var ordinal = 0
        for block in response.content {
            switch block {
            case .text(let t) where !t.isEmpty:
                events.append(.textDelta(t))
            case .toolCall(let call):
                events.append(.toolCallStart(ordinal: ordinal, id: call.id, name: call.name))
                events.append(.toolCallArgumentsDelta(ordinal: ordinal, fragment: call.arguments))
                events.append(.toolCallEnd(ordinal: ordinal))
                ordinal += 1
            default:
                break
            }
        }
        events.append(.finish(response.finishReason))
        events.append(.usage(response.usage))
        return events
    }
}

/// Starts an SSE response once, at the first write (progress comments) or at the answer.
final class StreamStart: Sendable {
    private let responder: HTTPResponder
    private let headers: HTTPHeaders
    private let started = Mutex(false)

    init(responder: HTTPResponder, headers: HTTPHeaders) {
        self.responder = responder
        self.headers = headers
    }

    var isStarted: Bool { started.withLock { $0 } }

    func start() async throws {
        guard !started.withLock({ s in defer { s = true }; return s }) else { return }
        try await responder.startStream(status: 200, headers: headers)
    }

    func write(_ bytes: [UInt8]) async throws {
        try await start()
        try await responder.write(bytes)
    }
}
