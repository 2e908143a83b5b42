/// A streamed answer whose upstream is open (its first event arrived) and whose relay to the client is still to run.
///
/// `Surface.respond` returns it instead of relaying, so the request's setup — prepare, routing, the upstream call up
/// to its head, whose async frames are the deepest a request has — can run in a child task that ends before the
/// stream's long life: a task keeps the allocator slabs of its largest frames until it ends, and a held stream would
/// otherwise keep them all (decision 0033). The handler's own task runs the relay.
///
/// Not `Sendable`: it owns the upstream stream's iterator, and is handed once, from the child task that made it to the
/// task that awaits that child.
final class StreamRelay {
    private let body: (inout RequestContext) async -> Void

    init(_ body: @escaping (inout RequestContext) async -> Void) { self.body = body }

    /// Relays the stream to the client and accounts for the request.
    func run(_ ctx: inout RequestContext) async { await body(&ctx) }
}
