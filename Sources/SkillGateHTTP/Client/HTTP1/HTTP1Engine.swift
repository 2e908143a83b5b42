import CEvent
import CSockets
import Glibc

/// SkillGate's own HTTP/1.1 client for plain `http://` upstreams (decision 0051), run by a `CurlMultiLoop` on its
/// event base next to libcurl: the loop hands it every request `HTTP1Target` accepts, libcurl keeps the rest (TLS,
/// HTTP/2, names that need DNS, proxies). It exists for speed: libcurl spends about a quarter of a proxied request's
/// instructions parsing the URL again, printing the request head byte by byte and setting up its state machine
/// (decision 0050), where a local upstream's whole exchange is a few hundred bytes.
///
/// It keeps what the fault suite asks of libcurl: connect, first-byte, idle and total timeouts; cancellation closing
/// the connection at once; a kept-alive connection found dead before any answer byte replaced once by a fresh one;
/// `Connection: close`, chunked and close-delimited bodies; the response size limit; pinned addresses (tried in order);
/// the connection cap per endpoint, with requests beyond it waiting for a free connection. Loop thread only.
final class HTTP1Engine {
    unowned let loop: CurlMultiLoop
    let base: OpaquePointer
    let configuration: HTTPClient.Configuration
    /// Running transfers, by their control.
    var transfers: [ObjectIdentifier: HTTP1Transfer] = [:]
    /// Open sockets (connecting, busy or idle), by descriptor.
    var connections: [Int32: HTTP1Connection] = [:]
    /// Each endpoint's connections and queue, found once per request (`HTTP1Pool`).
    var pools: [HTTP1Target.Endpoint: HTTP1Pool] = [:]
    /// Kept-alive connections waiting for a request, over all pools (at most `configuration.maxConnections`).
    var idleCount = 0
    /// Where every socket read lands before it is decoded (one per loop: reads never overlap).
    let readBuffer: UnsafeMutableRawBufferPointer

    static let readBufferBytes = 64 * 1024
    /// `configuration.maxIdleConnectionAge` in nanoseconds.
    let maxIdleNanoseconds: UInt64

    init(loop: CurlMultiLoop, base: OpaquePointer, configuration: HTTPClient.Configuration) {
        self.loop = loop
        self.base = base
        self.configuration = configuration
        maxIdleNanoseconds = configuration.maxIdleConnectionAge.clampedNanoseconds
        readBuffer = .allocate(byteCount: Self.readBufferBytes, alignment: 16)
    }

    deinit {
        closeAll()
        readBuffer.deallocate()
    }

    var transferCount: Int { transfers.count }

    // MARK: commands

    /// Starts `spec` towards `target`.
    func start(_ spec: TransferSpec, target: HTTP1Target) {
        if spec.control.isCancelled { return spec.delivery.fail(.cancelledByTask) }
        if let problem = spec.request.methodProblem ?? spec.request.headerProblem { return spec.delivery.fail(problem) }
        let pool = pools[target.endpoint] ?? newPool(for: target.endpoint)
        let transfer = HTTP1Transfer(spec: spec, target: target, pool: pool, userAgent: configuration.userAgent,
                                     now: MonotonicClock.nanoseconds())
        transfers[ObjectIdentifier(spec.control)] = transfer
        loop.counters.countOwnHTTP1Transfer()
        loop.notices.deadlinesChanged = true
        dispatch(transfer)
    }

    /// Ends a running transfer with `reason` (cancelled, or past a deadline); closes its connection so the upstream
    /// sees the close. Returns whether the transfer was this engine's.
    @discardableResult
    func remove(_ control: TransferControl, reason: HTTPClientError) -> Bool {
        guard let transfer = transfers[ObjectIdentifier(control)] else { return false }
        fail(transfer, reason)
        return true
    }

    /// Resumes a stream whose consumer caught up. Returns whether the transfer was this engine's.
    func resume(_ control: TransferControl) -> Bool {
        guard let transfer = transfers[ObjectIdentifier(control)] else { return false }
        guard transfer.pausedForConsumer, let connection = transfer.connection else { return true }
        transfer.pausedForConsumer = false
        transfer.lastActivity = MonotonicClock.nanoseconds()
        loop.notices.deadlinesChanged = true
        let pending = connection.unread
        connection.unread = []
        if pending.isEmpty {
            connection.watch(Int16(EV_READ))
        } else {
            pending.withUnsafeBytes { decode(connection, transfer, $0) }
        }
        return true
    }

    /// Fails every transfer with `reason` and closes every connection (the loop stops).
    func stopAll(failingWith reason: HTTPClientError) {
        let running = Array(transfers.values)
        transfers.removeAll()
        closeAll()
        for transfer in running {
            transfer.connection = nil
            transfer.settle(reason)
        }
    }

    /// Closes every connection and breaks the references between connections, transfers and pools (they point at
    /// each other while in use), so all of them are freed.
    private func closeAll() {
        for connection in connections.values {
            connection.close()
            connection.transfer = nil
        }
        connections.removeAll()
        for pool in pools.values {
            pool.idle.removeAll()
            pool.waiting.removeAll()
        }
        pools.removeAll()
        idleCount = 0
    }

    private func newPool(for endpoint: HTTP1Target.Endpoint) -> HTTP1Pool {
        // Pools of endpoints with nothing open and nothing waiting go, so a gateway calling many upstreams over its
        // life does not keep one per address.
        if pools.count >= 64 { pools = pools.filter { !$0.value.isUnused } }
        let pool = HTTP1Pool(endpoint: endpoint)
        pools[endpoint] = pool
        return pool
    }

    // MARK: connections

    /// Gives `transfer` a connection: a kept-alive one, a new one, or a place in its pool's queue.
    func dispatch(_ transfer: HTTP1Transfer) {
        let pool = transfer.pool
        if let connection = takeIdle(from: pool) {
            attach(transfer, to: connection)
            send(connection)
        } else if pool.open < configuration.maxConnections {
            connect(transfer, from: 0)
        } else {
            pool.waiting.append(transfer)
        }
    }

    /// Opens a connection for `transfer` to the first of its endpoint's addresses from `index` that takes one.
    func connect(_ transfer: HTTP1Transfer, from index: Int) {
        let pool = transfer.pool
        let addresses = pool.endpoint.addresses
        var index = index
        var failure: Int32 = 0
        while index < addresses.count {
            var inProgress: Int32 = 0
            let fd = sg_tcp_connect_start(addresses[index], Int32(pool.endpoint.port), &inProgress)
            if fd < 0 {
                failure = errno
                index += 1
                continue
            }
            guard let connection = HTTP1Connection(fd: fd, pool: pool, addressIndex: index, engine: self, base: base,
                                                   connecting: inProgress != 0, now: MonotonicClock.nanoseconds()) else {
                return fail(transfer, HTTPClientError(kind: .transport,
                    detail: "libevent could not watch a new upstream socket (out of memory?); retry later"))
            }
            connections[fd] = connection
            pool.open += 1
            attach(transfer, to: connection)
            if connection.connecting {
                connection.watch(Int16(EV_WRITE))
            } else {
                connection.watch(Int16(EV_READ))
                send(connection)
            }
            return
        }
        fail(transfer, .couldNotConnect(pool.endpoint, errno: failure))
    }

    /// The most recently used idle connection of `pool` that has not been idle too long; older ones are closed
    /// (`maxIdleConnectionAge`: a middlebox may have forgotten their flow). The pool is ordered by last use, so those
    /// are at its front, and the newest says whether any is fresh.
    private func takeIdle(from pool: HTTP1Pool) -> HTTP1Connection? {
        guard let newest = pool.idle.last else { return nil }
        let now = MonotonicClock.nanoseconds()
        if now &- newest.idleSince > maxIdleNanoseconds {
            for connection in pool.idle { discard(connection) }
            return nil
        }
        while let oldest = pool.idle.first, now &- oldest.idleSince > maxIdleNanoseconds { discard(oldest) }
        idleCount -= 1
        return pool.idle.popLast()
    }

    func attach(_ transfer: HTTP1Transfer, to connection: HTTP1Connection) {
        connection.transfer = transfer
        connection.sentBytes = 0
        transfer.connection = connection
    }

    /// Closes `connection` and forgets it; its pool may then open another for a waiting transfer.
    func discard(_ connection: HTTP1Connection) {
        guard connection.isOpen else { return }
        let pool = connection.pool
        if connection.transfer == nil, let at = pool.idle.firstIndex(where: { $0 === connection }) {
            pool.idle.remove(at: at)
            idleCount -= 1
        }
        connection.transfer?.connection = nil
        connection.transfer = nil
        connection.close()
        connections.removeValue(forKey: connection.fd)
        pool.open -= 1
        // Starts waiting transfers while the pool has room for new connections.
        while !pool.waiting.isEmpty, pool.open < configuration.maxConnections {
            connect(pool.waiting.removeFirst(), from: 0)
        }
    }

    /// A connection finished its transfer and may carry another: the oldest waiting request for its endpoint takes
    /// it, else it joins the pool (unless the engine's idle connections are at the cap).
    func release(_ connection: HTTP1Connection) {
        connection.transfer = nil
        let pool = connection.pool
        if !pool.waiting.isEmpty {
            attach(pool.waiting.removeFirst(), to: connection)
            send(connection)
            return
        }
        guard idleCount < configuration.maxConnections else { return discard(connection) }
        connection.watch(Int16(EV_READ))   // a close (or stray bytes) while idle retires it
        connection.idleSince = MonotonicClock.nanoseconds()
        pool.idle.append(connection)
        idleCount += 1
    }

    // MARK: outcomes

    /// The whole response arrived: delivers it, then keeps or closes the connection.
    func complete(_ transfer: HTTP1Transfer, on connection: HTTP1Connection, strayBytes: Bool) {
        // An upstream may answer before it read the whole request (a 413 to a large body): the rest of the request
        // would then be read as the next one, so such a connection is closed, not kept.
        let requestSent = connection.sentBytes == transfer.outgoing.count
        transfers.removeValue(forKey: ObjectIdentifier(transfer.control))
        transfer.connection = nil
        connection.transfer = nil
        connection.served += 1
        transferEnded()
        transfer.settle(nil)
        if transfer.decoder.keepsConnection, transfer.reusesConnection, requestSent, !strayBytes, connection.unread.isEmpty {
            release(connection)
        } else {
            discard(connection)
        }
    }

    /// Ends `transfer` with `error`, closing its connection (or taking it out of its queue).
    func fail(_ transfer: HTTP1Transfer, _ error: HTTPClientError) {
        guard transfers.removeValue(forKey: ObjectIdentifier(transfer.control)) != nil else { return }
        if let connection = transfer.connection {
            discard(connection)
        } else if let at = transfer.pool.waiting.firstIndex(where: { $0 === transfer }) {
            transfer.pool.waiting.remove(at: at)
        }
        transferEnded()
        transfer.settle(error)
    }

    private func transferEnded() {
        if loop.transferCount == 0 { loop.answerSpin.waitEnded(at: MonotonicClock.nanoseconds()) }
    }
}

/// One endpoint's connections: those waiting idle for a request, how many are open, and the requests waiting for one.
/// Loop thread only.
final class HTTP1Pool {
    let endpoint: HTTP1Target.Endpoint
    /// Kept-alive connections, most recently used last (taken first: its socket and caches are warm).
    var idle: [HTTP1Connection] = []
    /// Open connections (connecting, busy or idle); at most `configuration.maxConnections`.
    var open = 0
    /// Transfers waiting for a connection, oldest first.
    var waiting: [HTTP1Transfer] = []

    init(endpoint: HTTP1Target.Endpoint) { self.endpoint = endpoint }

    var isUnused: Bool { open == 0 && waiting.isEmpty }
}

extension HTTPClientError {
    static func couldNotConnect(_ endpoint: HTTP1Target.Endpoint, errno code: Int32) -> HTTPClientError {
        let reason = code == 0 ? "no address to try" : String(cString: strerror(code))
        let addresses = endpoint.addresses.joined(separator: ", ")
        return HTTPClientError(kind: .connect,
            detail: "could not connect to \(addresses) port \(endpoint.port) (\(reason)); check the host name, port, proxy settings and that the upstream is up")
    }
}
