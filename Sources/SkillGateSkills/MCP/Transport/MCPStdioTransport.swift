import Glibc
import SkillGateCore
import Synchronization

/// MCP over stdio: the server is a child process (`ChildProcess`, posix_spawn); messages are
/// newline-delimited JSON on its stdin and stdout. A reader thread hands answers to their waiters
/// and everything else to `inbound`; another keeps the last few KB of stderr for error messages.
/// A line longer than `maxMessageBytes` or the process's exit closes the connection.
public final class MCPStdioTransport: MCPTransport {
    private let process: ChildProcess
    private let pending = PendingRequests()
    private let closer: Closer
    let maxMessageBytes: Int
    /// The server's process id (tests check that it is gone after `close`).
    public var pid: Int32 { process.pid }
    /// The key-store secrets among the environment's values.
    public let secretsSent: [String]

    /// Starts `command` and begins reading its stdout. `inbound` receives the server's notifications
    /// and requests (on the reader thread; it must not block). `secretsSent` are the key-store secrets in
    /// `environment`'s values.
    public init(command: String, arguments: [String], environment: [(String, String)], secretsSent: [String] = [],
                maxMessageBytes: Int = 4 * 1024 * 1024, inbound: @escaping MCPInbound) throws(MCPError) {
        process = try ChildProcess(command: command, arguments: arguments, environment: environment)
        self.secretsSent = secretsSent
        self.maxMessageBytes = maxMessageBytes
        let process = self.process, pending = self.pending
        let closer = Closer(process: process, pending: pending)
        self.closer = closer
        let limit = maxMessageBytes
        DetachedThread.start(name: "mcp-stdout") {
            let why = Self.readLines(process.stdout, limit: limit) { line in
                guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { return true }
                let message: JSONRPCMessage
                do { message = try JSONRPCMessage.decode(line) } catch {
                    let preview = String(decoding: line.prefix(200), as: UTF8.self)
                    closer.stop("it wrote a line that is not JSON-RPC (\(error)): \(preview)")
                    return false
                }
                switch message {
                case .result(let id, _), .error(let id?, _):
                    pending.resolve(id, with: message)
                default:
                    inbound(message)
                }
                return true
            }
            // Stdout closing usually means the process exited: give it a moment, so the reason names its status.
            for _ in 0..<50 where process.isRunning { usleep(10_000) }
            for _ in 0..<20 where !closer.stderrDone.locked({ $0 }) { usleep(10_000) }
            closer.stop(why)
        }
        DetachedThread.start(name: "mcp-stderr") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(process.stderr, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return closer.stderrDone.locked { $0 = true } }
                closer.stderrTail.locked { t in
                    t += buffer[..<n]
                    if t.count > 2048 { t.removeFirst(t.count - 2048) }
                }
            }
        }
    }

    /// Reads `fd` until EOF, calling `line` per newline-terminated line (without the newline) until it
    /// returns false. Returns why reading stopped.
    private static func readLines(_ fd: Int32, limit: Int, _ line: ([UInt8]) -> Bool) -> String {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var current: [UInt8] = []
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return "its stdout closed" }
            var start = 0
            for i in 0..<n where buffer[i] == 0x0A {
                current += buffer[start..<i]
                start = i + 1
                guard line(current) else { return "" }
                current.removeAll(keepingCapacity: true)
            }
            current += buffer[start..<n]
            if current.count > limit { return "it wrote a message longer than \(limit) bytes" }
        }
    }

    public func exchange(_ request: JSONRPCMessage, id: JSONRPCId, timeout: Duration) async throws(MCPError) -> JSONRPCMessage {
        if let why = closer.reason { throw MCPError(.unavailable, "the server is not running (\(why))\(stderrNote)") }
        let bytes = request.bytes + [0x0A]
        let process = self.process
        do {
            return try await pending.await(id, timeout: timeout, what: "the request") { () throws(MCPError) in
                try process.write(bytes, timeout: timeout)
            }
        } catch {
            guard error.kind == .unavailable || error.kind == .protocolViolation, !error.message.contains("cancelled") else { throw error }
            throw MCPError(error.kind, error.message + stderrNote)
        }
    }

    public func notify(_ message: JSONRPCMessage, timeout: Duration) async throws(MCPError) {
        try process.write(message.bytes + [0x0A], timeout: timeout)
    }

    public func initialized(protocolVersion: String) {}

    /// Answers a request the server sent us (`ping`), on the same pipe.
    public func reply(_ message: JSONRPCMessage) {
        try? process.write(message.bytes + [0x0A], timeout: .seconds(1))
    }

    /// Waits at most `timeout` for the connection to close by itself (a process that is exiting).
    public func waitUntilClosed(_ timeout: Duration) async {
        let end = ContinuousClock.now + timeout
        while isOpen && ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Until the reader saw the end of stdout (the process exited) or a fault, or `close()` ran.
    public var isOpen: Bool { closer.reason == nil }

    /// Why the connection closed, with the process's exit status and the end of its stderr.
    public var closedDescription: String {
        let why = closer.reason ?? "it exited"
        return "\(why); the process \(process.exitDescription)\(stderrNote)"
    }

    private var stderrNote: String {
        let text = String(decoding: closer.stderrTail.locked { $0 }, as: UTF8.self).trimmingWhitespace()
        guard !text.isEmpty else { return "" }
        let lastLines = text.split(separator: "\n").suffix(3).joined(separator: " | ")
        return " (its stderr ends: \(lastLines.suffix(400)))"
    }

    public func close() async {
        closer.stop("it was stopped by the gateway")
        pending.closeAll(MCPError(.unavailable, "the connection to the server was closed by the gateway"))
        await process.terminate()
    }
}

/// Closes a stdio connection once, for the first reason given: waiters fail with it and the process is told to stop.
private final class Closer: Sendable {
    let process: ChildProcess
    let pending: PendingRequests
    private let why = Mutex<String?>(nil)
    /// The last 2 KB the server wrote to stderr.
    let stderrTail = Mutex<[UInt8]>([])
    /// Whether the server's stderr reached its end.
    let stderrDone = Mutex(false)

    init(process: ChildProcess, pending: PendingRequests) {
        self.process = process
        self.pending = pending
    }

    var reason: String? { why.locked { $0 } }

    func stop(_ reason: String) {
        let first = why.locked { r -> Bool in
            guard r == nil else { return false }
            r = reason
            return true
        }
        guard first else { return }
        let protocolFault = reason.contains("not JSON-RPC") || reason.contains("longer than")
        pending.closeAll(MCPError(protocolFault ? .protocolViolation : .unavailable, "the server closed the connection: \(reason)"))
        process.closeStdin()
        if protocolFault { kill(-process.pid, SIGTERM) }
    }
}
