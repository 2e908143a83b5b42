import CEvent
import CSockets
import Glibc

/// Socket events of the own HTTP/1.1 client: finishing connects, writing requests, reading and decoding answers.
extension HTTP1Engine {
    func socketReady(_ connection: HTTP1Connection, events: Int16) {
        loop.sawActivity = true
        defer { loop.scheduleTurnEnd() }
        if connection.connecting {
            if events & Int16(EV_WRITE) != 0 { finishConnect(connection) }
            return
        }
        if events & Int16(EV_WRITE) != 0 {
            send(connection)
            guard connection.isOpen else { return }
        }
        if events & Int16(EV_READ) != 0 { read(connection) }
    }

    private func finishConnect(_ connection: HTTP1Connection) {
        let error = sg_socket_error(connection.fd)
        guard error != 0 else {
            connection.connecting = false
            connection.watch(Int16(EV_READ))
            return send(connection)
        }
        guard let transfer = connection.transfer else { return discard(connection) }
        let next = connection.addressIndex + 1
        discard(connection)
        if next < transfer.pool.endpoint.addresses.count {
            connect(transfer, from: next)
        } else {
            fail(transfer, .couldNotConnect(transfer.pool.endpoint, errno: error))
        }
    }

    /// Writes what is left of the connection's request; waits for the socket to take more when it is full.
    func send(_ connection: HTTP1Connection) {
        guard let transfer = connection.transfer, connection.sentBytes < transfer.outgoing.count else {
            return connection.watch(Int16(EV_READ))
        }
        if transfer.requestSentAt == nil {
            transfer.requestSentAt = MonotonicClock.nanoseconds()
            loop.notices.deadlinesChanged = true
        }
        let count = transfer.outgoing.count
        var failure: Int32 = 0
        transfer.outgoing.withUnsafeBytes { bytes in
            while connection.sentBytes < count {
                let written = sg_send_nosignal(connection.fd, bytes.baseAddress! + connection.sentBytes, UInt(count - connection.sentBytes))
                if written > 0 {
                    connection.sentBytes += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    failure = written < 0 ? errno : EPIPE
                    return
                }
            }
        }
        if connection.sentBytes == count {
            connection.watch(Int16(EV_READ))
        } else if failure == EAGAIN || failure == EWOULDBLOCK {
            connection.watch(Int16(EV_READ | EV_WRITE))
        } else {
            broke(connection, transfer, errno: failure)
        }
    }

    private func read(_ connection: HTTP1Connection) {
        guard let transfer = connection.transfer else {
            // Idle in the pool: the upstream closed it (or sent bytes nobody asked for). It cannot carry a request.
            return discard(connection)
        }
        if !transfer.answerStarted { loop.attachedLoop?.warmCodeIfSlept(.answer) }
        let received = recv(connection.fd, readBuffer.baseAddress, readBuffer.count, 0)
        if received > 0 {
            transfer.answerStarted = true
            if connection.unread.isEmpty {
                decode(connection, transfer, UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
            } else {
                var pending = connection.unread
                connection.unread = []
                pending.append(contentsOf: readBuffer[0..<received])
                pending.withUnsafeBytes { decode(connection, transfer, $0) }
            }
        } else if received == 0 {
            broke(connection, transfer, errno: 0)
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            broke(connection, transfer, errno: errno)
        }
    }

    /// Decodes what arrived and hands it on, until the input runs out, the consumer pauses or the response ends.
    func decode(_ connection: HTTP1Connection, _ transfer: HTTP1Transfer, _ input: UnsafeRawBufferPointer) {
        var offset = 0
        let now = MonotonicClock.nanoseconds()
        do {
            while true {
                switch try transfer.decoder.next(input, at: &offset) {
                case .needMore:
                    if offset < input.count { connection.unread = Array(input[offset...]) }
                    connection.watch(Int16(EV_READ))
                    return
                case .head(let status, let headers):
                    // Nothing re-sends the request once its answer began: its bytes can go.
                    if connection.sentBytes == transfer.outgoing.count {
                        transfer.outgoing = []
                        connection.sentBytes = 0
                        if transfer.countsUploadRelease { loop.counters.countUploadRelease() }
                    }
                    transfer.headArrived(status: status, headers: headers, now: now)
                    loop.notices.deadlinesChanged = true
                case .body(let range):
                    switch transfer.deliver(UnsafeRawBufferPointer(rebasing: input[range]), now: now) {
                    case .accepted:
                        transfer.decoder.bodyDelivered(range.count, at: &offset)
                    case .pause:
                        connection.unread = Array(input[offset...])
                        connection.watch(0)
                        return
                    case .abort(let error):
                        return fail(transfer, error)
                    }
                case .end:
                    return complete(transfer, on: connection, strayBytes: offset < input.count)
                }
            }
        } catch {
            fail(transfer, HTTPClientError(kind: .transport,
                detail: "the upstream's answer is not valid HTTP/1.1 (\(error.detail)); check the upstream server or its base_url"))
        }
    }

    /// The connection ended (closed by the upstream, reset, or a write failed) while `transfer` used it.
    func broke(_ connection: HTTP1Connection, _ transfer: HTTP1Transfer, errno code: Int32) {
        if code == 0, transfer.decoder.finishAtClose() {
            return complete(transfer, on: connection, strayBytes: false)
        }
        // A kept-alive connection the upstream closed while idle, found out only now: the request never reached it
        // (no answer byte came), so it goes once more on a fresh connection, as libcurl does.
        if connection.served > 0, !transfer.answerStarted, !transfer.retried {
            transfer.retried = true
            transfer.requestSentAt = nil
            connection.transfer = nil
            transfer.connection = nil
            // First in its endpoint's queue: the connection's place goes to it as the connection is closed.
            transfer.pool.waiting.insert(transfer, at: 0)
            return discard(connection)
        }
        let reason = code == 0 ? "the upstream closed the connection" : String(cString: strerror(code))
        let detail = transfer.hasHead
            ? "the response body ended early (\(reason)); the connection broke, retry the request"
            : "no complete response head arrived (\(reason)); the connection broke, retry the request"
        fail(transfer, HTTPClientError(kind: .transport, detail: detail))
    }
}
