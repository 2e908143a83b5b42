import CEvent
import Glibc

/// Writing reply bytes (decision 0053, 0058).
///
/// Jobs only append to a connection's output; once the batch of jobs is done, each connection that got bytes is
/// written with one `send` before the loop polls again, so a reply and a stream's chunks queued together go out in one
/// system call and no reply waits for a poll. What the socket does not take is written when it reports writable; while
/// bytes wait, the connection's timer cuts off a client that stopped reading.
extension EventLoop {
    /// Notes that a job queued reply bytes on `connection`.
    func queueWrite(on connection: Connection) {
        guard !connection.writeDue else { return }
        if !configuration.writesRepliesAtOnce {
            // Compared against in tests and benchmarks: wait for the poll to report the socket writable.
            watchWritable(connection)
            return
        }
        connection.writeDue = true
        writesDue.append(connection)
    }

    /// Whether a whole reply handed over now can be sent at once (`HTTPResponder.respond`): the caller is a task running
    /// in this loop's batch of jobs, and the loop has that request alone in flight. A busy loop writes its replies
    /// together at the batch's end instead, which measured ~5 % more requests a second at 32 connections than sending
    /// each between the handlers' work (decision 0059).
    var canSendRepliesAtOnce: Bool {
        runsJobsHere && inFlight.load(ordering: .relaxed) == 1
    }

    /// Whether the caller is a task running in this loop's batch of jobs, so that a stream's head, chunks and end can be
    /// put on the connection now instead of posted as jobs for the loop's next pass (`HTTPResponder.startStream`).
    var runsJobsHere: Bool {
        configuration.writesRepliesAtOnce && CurrentEventLoop.loop === self && runningJobs && !stopped
    }

    /// Sends what a stream queued on its connection so far (`HTTPResponder.sendQueuedNow`), when called from a task in
    /// this loop's batch of jobs with that request alone in flight, as a whole reply is (decision 0059); otherwise the
    /// batch's end writes it with everything else it queued (decision 0063).
    func sendStreamNow(_ responder: HTTPResponder) {
        guard canSendRepliesAtOnce, let connection = responder.link.owner, connection.writeDue else { return }
        sendNow(connection)
        shared.counters.streamWritesSentAtOnce.add(1, ordering: .relaxed)
    }

    /// Sends the replies still held when a task's job ends: a handler that suspends (or returns) without releasing its
    /// reply does not keep the client waiting.
    func releaseHeldReplies() {
        let held = heldReplies
        heldReplies.removeAll(keepingCapacity: true)
        for responder in held { responder.releaseReply() }
    }

    /// Puts a released reply on its connection and sends it now, when called in this loop's batch of jobs; from
    /// anywhere else (a handler that moved to another executor after `respond`) it is posted like every job. The
    /// request's completion (the idle timer, a pipelined next request) stays with the batch's end
    /// (`writeQueuedReplies`), outside the handler's task.
    func sendReplyNow(_ responder: HTTPResponder, status: Int, headers: HTTPHeaders, body: [UInt8]) {
        guard CurrentEventLoop.loop === self, runningJobs, !stopped else {
            return post(.reply(responder, status: status, headers: headers, body: body))
        }
        guard let connection = responder.link.owner else { return }
        sendReply(responder, status: status, headers: headers, body: body)
        sendNow(connection)
    }

    /// Sends what the socket takes of a connection's queued output now. The rest, a failed send and the bookkeeping
    /// of a finished reply are left to the batch's end, whose flush finds the connection still due.
    private func sendNow(_ connection: Connection) {
        guard connection.writeDue, connection.phase != .closed else { return }
        let sent = sendPending(connection)
        if sent > 0 { connection.outputSent += sent }
    }

    /// One `send` of the connection's unsent output: the bytes taken, or minus the error (0 when nothing waits).
    private func sendPending(_ connection: Connection) -> Int {
        let pending = connection.output.count - connection.outputSent
        guard pending > 0 else { return 0 }
        return connection.output.withUnsafeBytes { sg_ev_write(connection.fd, $0.baseAddress! + connection.outputSent, pending) }
    }

    /// After a batch of jobs: writes what it queued, on the connections still open.
    func writeQueuedReplies() {
        var written = 0
        // Taken out first, until none is left: a flush that completes a request may read a pipelined one, which may
        // queue more.
        var due: [Connection] = []
        while !writesDue.isEmpty {
            swap(&due, &writesDue)
            for connection in due {
                connection.writeDue = false
                guard connection.phase != .closed else { continue }
                written += 1
                flush(connection)
            }
            due.removeAll(keepingCapacity: true)
        }
        swap(&due, &writesDue)   // keeps the capacity
        if written > 0 { shared.counters.repliesWrittenAtOnce.add(written, ordering: .relaxed) }
    }

    /// The socket is writable again.
    func connectionWritable(_ connection: Connection) {
        flush(connection)
    }

    /// Writes as much of the connection's output as the socket takes. When all of it went out: the responder hears its
    /// chunks were written, and a finished reply completes the request.
    func flush(_ connection: Connection) {
        let pending = connection.output.count - connection.outputSent
        if pending > 0 {
            let sent = sendPending(connection)
            if sent < 0 {
                if sent == -Int(EAGAIN) || sent == -Int(EWOULDBLOCK) {
                    watchWritable(connection, progressed: false)
                    return
                }
                close(connection)   // the client is gone (reset, broken pipe)
                return
            }
            connection.outputSent += sent
            if sent < pending {
                watchWritable(connection, progressed: sent > 0)
                return
            }
        }
        // Everything is out.
        if connection.output.capacity > Self.keptOutputCapacity {
            connection.output = []
        } else {
            connection.output.removeAll(keepingCapacity: true)
        }
        connection.outputSent = 0
        if connection.writeWatched, let writeEvent = connection.writeEvent {
            event_del(writeEvent)
            connection.writeWatched = false
            if connection.phase == .handling { connection.stopTimer() }
        }
        outputDrained(connection)
        if connection.replyEnded && connection.phase == .handling { requestCompleted(connection) }
    }

    /// Output capacity a connection keeps between replies (larger buffers are freed once written).
    static let keptOutputCapacity = 4 * 1024

    /// Waits for the socket to take more. The stall deadline starts when the wait begins and restarts only when bytes
    /// went out: a client that reads nothing is cut off after `writeStallTimeout` however often new chunks are queued.
    private func watchWritable(_ connection: Connection, progressed: Bool = true) {
        if connection.writeEvent == nil {
            connection.writeEvent = event_new(base, connection.fd, Int16(EV_WRITE | EV_PERSIST), onConnectionWritable, connection.argument)
        }
        guard let writeEvent = connection.writeEvent else {
            close(connection)   // out of memory: the reply cannot be finished
            return
        }
        guard !connection.writeWatched || progressed else { return }
        if !connection.writeWatched {
            event_add(writeEvent, nil)
            connection.writeWatched = true
        }
        connection.startTimer(configuration.writeStallTimeout)
    }
}
