import SkillGateCore
import Synchronization

/// The gateway's connection to one MCP server, kept up by a supervisor task: connects (initialize,
/// tools/list), reconnects or restarts the server with exponential backoff when it fails, refreshes
/// the tool list on `notifications/tools/list_changed` and every `refreshInterval`, and stops the
/// server on `stop()`. A server that is down keeps its last tools listed; calling them answers at
/// once with an error that says the server is unavailable and why.
public final class MCPServerLink: Sendable {
    public typealias TransportMaker = @Sendable (_ inbound: @escaping MCPInbound) throws(MCPError) -> any MCPTransport
    public typealias Logger = @Sendable (_ message: String, _ fields: JSONObject, _ level: String) -> Void

    struct State {
        var session: MCPClientSession?
        var tools: [MCPTool] = []
        /// Why the server is unavailable (nil when connected).
        var down: String? = "not connected yet"
        var failures = 0
        var refreshWanted = false
        var stopped = false
        var supervisor: Task<Void, Never>?
    }

    public let config: MCPServerConfig
    let makeTransport: TransportMaker
    let log: Logger
    /// How often the supervisor wakes to check the connection and pending refreshes.
    let tick: Duration
    /// The longest wait between reconnection attempts.
    let maxBackoff: Duration
    private let state = Mutex(State())
    private let changed: @Sendable () -> Void

    /// `changed` runs whenever the tool list (or availability) changed.
    public init(config: MCPServerConfig, tick: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(30),
                log: @escaping Logger, changed: @escaping @Sendable () -> Void = {}, makeTransport: @escaping TransportMaker) {
        self.config = config
        self.makeTransport = makeTransport
        self.log = log
        self.tick = tick
        self.maxBackoff = maxBackoff
        self.changed = changed
    }

    /// The tools last listed (kept while the server is down).
    public var tools: [MCPTool] { state.locked { $0.tools } }
    /// The stdio server's process id while connected (tests).
    var processId: Int32? { (state.locked { $0.session?.transport } as? MCPStdioTransport)?.pid }
    /// Why the server is unavailable, or nil when it is connected.
    public var unavailableReason: String? { state.locked { $0.down } }

    /// Starts the supervisor; returns after the first connection attempt (so a healthy server's
    /// tools are there when the gateway starts serving).
    public func start() async {
        await connect()
        let task = Task.detached { [self] in await supervise() }
        let keep = state.locked { s -> Bool in
            guard !s.stopped else { return false }
            s.supervisor = task
            return true
        }
        if !keep { task.cancel() }
    }

    /// Stops the supervisor and the server (a stdio server's process is terminated and reaped).
    public func stop() async {
        let (task, session) = state.locked { s in
            s.stopped = true
            defer { s.session = nil; s.supervisor = nil; s.down = "the gateway is shutting down" }
            return (s.supervisor, s.session)
        }
        task?.cancel()
        await task?.value
        await session?.transport.close()
    }

    /// Asks for a tool-list refresh soon (what `notifications/tools/list_changed` does).
    public func requestRefresh() {
        state.locked { $0.refreshWanted = true }
    }

    /// Calls `tool`. Transport failures and protocol violations become error results naming the
    /// server; a server that is down answers at once. The secrets the transport gives the server are taken out of
    /// whatever the server said (its result's text and structured content, its error messages): the model, the
    /// client and the log see the outcome.
    public func call(_ tool: String, arguments: JSONValue) async -> MCPCallOutcome {
        let (session, down) = state.locked { ($0.session, $0.down) }
        guard let session else {
            return .failure("the MCP server \"\(config.name)\" is unavailable (\(down ?? "not connected")); the gateway keeps retrying. Try again later or answer without this tool.")
        }
        let outcome = await call(tool, arguments: arguments, on: session)
        let secrets = session.transport.secretsSent
        guard !secrets.isEmpty else { return outcome }
        switch outcome {
        case .result(var result):
            result.text = SecretTemplate.redact(result.text, secrets)
            result.structured = result.structured.map { SecretTemplate.redact($0, secrets) }
            return .result(result)
        case .failure(let why):
            return .failure(SecretTemplate.redact(why, secrets))
        }
    }

    private func call(_ tool: String, arguments: JSONValue, on session: MCPClientSession) async -> MCPCallOutcome {
        do {
            return .result(try await session.callTool(tool, arguments: arguments, timeout: config.callTimeout))
        } catch {
            switch error.kind {
            case .remote:
                return .failure("the MCP server \"\(config.name)\" refused the call: \(error.message)")
            case .timeout:
                return .failure("the MCP server \"\(config.name)\" did not answer within \(config.callTimeout.mcpSeconds) s; try again later or answer without this tool.")
            case .unavailable, .protocolViolation:
                disconnect(session, because: error.message)
                return .failure("the MCP server \"\(config.name)\" failed: \(error.message). The gateway reconnects; try again later or answer without this tool.")
            }
        }
    }

    // MARK: - Supervision

    private func supervise() async {
        var lastRefresh = ContinuousClock.now
        var nextAttempt = ContinuousClock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: tick)
            if Task.isCancelled { return }
            let (session, refresh) = state.locked { s in (s.session, s.refreshWanted) }
            if let session {
                if !session.transport.isOpen {
                    let why = (session.transport as? MCPStdioTransport)?.closedDescription ?? "the connection closed"
                    disconnect(session, because: why)
                    nextAttempt = ContinuousClock.now
                    continue
                }
                if refresh || ContinuousClock.now - lastRefresh >= config.refreshInterval {
                    state.locked { $0.refreshWanted = false }
                    lastRefresh = ContinuousClock.now
                    await refreshTools(session)
                }
            } else if ContinuousClock.now >= nextAttempt {
                await connect()
                lastRefresh = ContinuousClock.now
                let after = state.locked { $0.failures }
                nextAttempt = ContinuousClock.now + (after > 0 ? backoff(after) : .zero)
            }
        }
    }

    /// The wait after `failures` failed attempts: 0.5 s doubling, capped at `maxBackoff`.
    func backoff(_ failures: Int) -> Duration {
        let ms = 500 * (1 << min(failures - 1, 16))
        return min(.milliseconds(ms), maxBackoff)
    }

    private func connect() async {
        if state.locked({ $0.stopped }) { return }
        let transport: any MCPTransport
        do {
            transport = try makeTransport { [weak self] message in self?.inbound(message) }
        } catch {
            return failed(error.message)
        }
        let session = MCPClientSession(transport: transport)
        do {
            try await session.initialize(timeout: config.connectTimeout)
            let listing = try await session.listTools(maxTools: config.maxTools, maxPages: config.maxPages, timeout: config.connectTimeout)
            let accepted = state.locked { s -> Bool in
                guard !s.stopped else { return false }
                s.session = session
                s.tools = listing.tools
                s.down = nil
                s.failures = 0
                return true
            }
            guard accepted else { return await transport.close() }
            log("mcp server connected", ["server": .string(config.name), "tools": .int(listing.tools.count)], "info")
            for note in listing.notes { log("mcp server tools limited", ["server": .string(config.name), "note": .string(note)], "warn") }
            changed()
        } catch {
            var why = error.message
            if let stdio = transport as? MCPStdioTransport {
                // A server that failed by exiting: wait for it, so the reason has its status and stderr.
                if error.kind == .unavailable { await stdio.waitUntilClosed(.seconds(1)) }
                if !stdio.isOpen { why += "; " + stdio.closedDescription }
            }
            await transport.close()
            failed(SecretTemplate.redact(why, transport.secretsSent))
        }
    }

    private func failed(_ why: String) {
        let failures = state.locked { s -> Int in
            s.down = why
            s.failures += 1
            return s.failures
        }
        log("mcp server unavailable", ["server": .string(config.name), "error": .string(why), "attempt": .int(failures),
                                       "retry_in_ms": .int(Int(backoff(failures).components.seconds * 1000 + backoff(failures).components.attoseconds / 1_000_000_000_000_000))], "warn")
        changed()
    }

    private func refreshTools(_ session: MCPClientSession) async {
        do {
            let listing = try await session.listTools(maxTools: config.maxTools, maxPages: config.maxPages, timeout: config.connectTimeout)
            let differs = state.locked { s -> Bool in
                guard s.session === session else { return false }
                defer { s.tools = listing.tools }
                return s.tools != listing.tools
            }
            if differs {
                log("mcp server tools changed", ["server": .string(config.name), "tools": .int(listing.tools.count)], "info")
                for note in listing.notes { log("mcp server tools limited", ["server": .string(config.name), "note": .string(note)], "warn") }
                changed()
            }
        } catch {
            if error.kind == .unavailable || error.kind == .protocolViolation { disconnect(session, because: error.message) }
            else {
                // The server's own words (a JSON-RPC error's message) can hold the secret it was sent.
                let why = SecretTemplate.redact(error.message, session.transport.secretsSent)
                log("mcp tools/list failed", ["server": .string(config.name), "error": .string(why)], "warn")
            }
        }
    }

    /// Drops `session` (if still current), marks the server down and closes the transport.
    private func disconnect(_ session: MCPClientSession, because reason: String) {
        let why = SecretTemplate.redact(reason, session.transport.secretsSent)
        let current = state.locked { s -> Bool in
            guard s.session === session else { return false }
            s.session = nil
            s.down = why
            s.failures = max(s.failures, 1)
            return true
        }
        guard current else { return }
        log("mcp server disconnected", ["server": .string(config.name), "error": .string(why)], "warn")
        changed()
        Task { await session.transport.close() }
    }

    private func inbound(_ message: JSONRPCMessage) {
        switch message {
        case .notification("notifications/tools/list_changed", _):
            requestRefresh()
        case .request(let id, let method, _):
            // The gateway declares no client capabilities: it answers ping and refuses the rest.
            let session = state.locked { $0.session }
            let answer: JSONRPCMessage = method == "ping"
                ? .result(id: id, result: .object([:]))
                : .error(id: id, error: JSONRPCError(code: JSONRPCError.methodNotFound, message: "SkillGate does not offer \(method) to MCP servers"))
            (session?.transport as? MCPStdioTransport)?.reply(answer)
        default:
            break
        }
    }
}

/// What a tool call through a link gave.
public enum MCPCallOutcome: Sendable {
    case result(MCPCallResult)
    /// The call did not happen or did not finish; the text says why and what to do.
    case failure(String)
}
