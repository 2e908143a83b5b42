import Synchronization

extension HTTPServer {
    /// What the server refused or cut off since it started (for metrics and tests).
    public struct Statistics: Sendable, Hashable {
        /// Connections open now (admitted and not yet closed).
        public var openConnections: Int
        /// Connections closed at once because `maxConnections` was reached.
        public var refusedOverTotal: Int
        /// Connections closed at once because their address had `maxConnectionsPerIP` open.
        public var refusedOverPerIP: Int
        /// Requests answered at header time without reading their body: refused by `headGate`, for
        /// malformed framing (Content-Length, Transfer-Encoding) or for a missing, repeated or invalid Host.
        public var refusedAtHead: Int
        /// Connections closed because a request head took longer than `headerTimeout` in total.
        public var headerTimeouts: Int
        /// Requests whose `headGate` decision was made off the event loop (`HTTPHeadDecision.decideLater`).
        public var deferredHeadDecisions: Int = 0
        /// Of those, the ones answered 503 because the decision did not come within `headerTimeout`.
        public var headDecisionTimeouts: Int = 0
        /// Connections closed because a request body took longer than `bodyReadTimeout` in total.
        public var bodyTimeouts: Int
        /// `malloc_trim` runs after large request bodies were released.
        public var memoryTrims: Int
        /// Refused connections closed after a lingering close: the client's end came, or its error, within the budget
        /// (`Configuration.lingeringCloseTime`, `lingeringCloseMaxBytes`), or the connection was gone already.
        public var lingeringCloses: Int = 0
        /// Refused connections closed while their client might still have been sending: the linger's time or byte budget
        /// ran out, the loop already lingered on `maxLingeringConnectionsPerLoop`, or the server stopped (its client may
        /// see a reset).
        public var lingeringClosesCutShort: Int = 0
        /// Refused connections being read to their end now (they hold a descriptor, not a connection slot).
        public var lingeringConnections: Int = 0
        /// Connections accepted since the server started (admitted or not).
        public var acceptedConnections: Int
        /// Connections closed while a request was with its handler (the client left, a read or write failed, or the
        /// server stopped).
        public var closedDuringRequest: Int
        /// Of those, the ones closed because a look at the socket found it at its end or failing.
        public var closedOnPeerCheck: Int
        /// The error the last such look saw (0 for an orderly end of the stream).
        public var lastPeerCheckErrno: Int
        /// Connections the server closed before a request reached the handler while the client had not ended its side
        /// (a deadline, a malformed request, a read error, the server stopping).
        public var closedBeforeHandler: Int
        /// The socket of the last of those as it was then: 1 bytes waiting, 2 open and idle, or -errno (-9, EBADF: the
        /// descriptor had already been closed by someone else).
        public var lastClosedBeforeHandlerState: Int
        /// Waits for an upstream answer the loops spun through instead of sleeping (the answer came within the spin
        /// window, `HTTPClient.Configuration.spinWindow`).
        public var spunAnswerWaits: Int = 0
        /// Spins for an answer that ended without it (each turns spinning off until waits are short again).
        public var spinTimeouts: Int = 0
        /// Iterations of the event loops that waited for events (the spin's non-blocking ones not counted).
        public var loopTurns: Int = 0
        /// Replies and stream chunks written in the loop iteration that queued them (`writesRepliesAtOnce`).
        public var repliesWrittenAtOnce: Int = 0
        /// Sends of a stream's queued bytes its handler asked for before going on (`HTTPResponder.sendQueuedNow`,
        /// decision 0063).
        public var streamWritesSentAtOnce: Int = 0
        /// Times a loop prefetched a phase of the hot code after sleeping (`codeWarmer`, decisions 0054, 0055).
        public var codeWarmings: Int = 0
        /// Times a loop prefetched the answer's code while waiting for an upstream (`codeWarmer`, decision 0055).
        public var codeWarmingsAhead: Int = 0
        /// Stream heads a loop wrote between its turns, ahead of the stream (`HTTPResponder.prepareStreamHead`,
        /// decision 0087).
        public var streamHeadsWrittenAhead: Int = 0
        /// Streams started with a head written ahead (`HTTPResponder.startPreparedStream`).
        public var streamsStartedWithHeadsWrittenAhead: Int = 0
    }
}

/// The counters behind `HTTPServer.Statistics`, shared by the event loops.
final class ServerCounters: Sendable {
    let refusedOverTotal = Atomic<Int>(0)
    let refusedOverPerIP = Atomic<Int>(0)
    let refusedAtHead = Atomic<Int>(0)
    let headerTimeouts = Atomic<Int>(0)
    let deferredHeadDecisions = Atomic<Int>(0)
    let headDecisionTimeouts = Atomic<Int>(0)
    let bodyTimeouts = Atomic<Int>(0)
    let memoryTrims = Atomic<Int>(0)
    let acceptedConnections = Atomic<Int>(0)
    let lingeringCloses = Atomic<Int>(0)
    let lingeringClosesCutShort = Atomic<Int>(0)
    let lingeringConnections = Atomic<Int>(0)
    let closedDuringRequest = Atomic<Int>(0)
    let closedOnPeerCheck = Atomic<Int>(0)
    let lastPeerCheckErrno = Atomic<Int>(0)
    let closedBeforeHandler = Atomic<Int>(0)
    let lastClosedBeforeHandlerState = Atomic<Int>(0)
    let spunAnswerWaits = Atomic<Int>(0)
    let spinTimeouts = Atomic<Int>(0)
    let repliesWrittenAtOnce = Atomic<Int>(0)
    let streamWritesSentAtOnce = Atomic<Int>(0)
    let codeWarmings = Atomic<Int>(0)
    let codeWarmingsAhead = Atomic<Int>(0)
    let streamHeadsWrittenAhead = Atomic<Int>(0)
    let streamsStartedWithHeadsWrittenAhead = Atomic<Int>(0)
}
