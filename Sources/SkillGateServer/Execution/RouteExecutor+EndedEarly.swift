import SkillGateCore
import SkillGateRouting

/// A stream that ends before its first event without an answer is a cut (decision 0129).
extension RouteExecutor {
    /// Reads a stream's first event inside its attempt. A stream whose body ended cleanly before it, with nothing garbled
    /// (`GatewayError.streamEndedEarly`: comments, metadata chunks, pings, then the end), or that ended with no event at
    /// all, throws `endedBeforeFirstEvent`: nothing reached the client, so it is tried again and fallen back from, and
    /// counts against the deployment's health, as a connection cut at the same point would.
    static func firstEvent(of iterator: inout ChatEventIterator, target: RouteTarget) async throws -> ChatStreamEvent {
        let first: ChatStreamEvent?
        do {
            first = try await iterator.next()
        } catch let e as GatewayError where e.streamEndedEarly {
            throw endedBeforeFirstEvent(e, target: target)
        }
        guard let first else {
            // A cancelled task's iterator ends without an event: the client left, the provider did not end the stream.
            try Task.checkCancellation()
            throw endedBeforeFirstEvent(nil, target: target)
        }
        return first
    }

    /// The error of a stream that ended before its first event (`cause`: the adapter's truncation error, nil when the
    /// stream just ended): 502 `upstream_unavailable`, as a cut connection is, saying what happened and what to do.
    static func endedBeforeFirstEvent(_ cause: GatewayError?, target: RouteTarget) -> GatewayError {
        let provider = cause?.provider ?? target.provider.id
        var e = GatewayError(domain: .provider, kind: .upstreamUnavailable, status: 502,
                             message: "\(provider) ended its stream before its first event, so nothing of an answer reached you; the "
                                + "gateway treats that as a cut connection, tried again and fell back as far as the route allows. Retry the "
                                + "request; if it keeps happening, the operator should check the provider's status and its base URL (a "
                                + "proxy in front of it may be ending responses early) or give the tier another deployment. "
                                + (cause.map { "The provider's stream: " + $0.message } ?? "The provider's stream had no event at all."),
                             provider: provider)
        e.streamEndedEarly = true
        return e
    }
}
