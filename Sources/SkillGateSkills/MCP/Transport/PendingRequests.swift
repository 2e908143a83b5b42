import SkillGateCore
import Synchronization

/// Requests sent and not yet answered, by id: the reader resumes them as answers arrive; a timeout,
/// a cancellation or the connection's end resumes them with an error. Each is resumed exactly once.
final class PendingRequests: Sendable {
    private let waiting = Mutex<(open: Bool, byId: [JSONRPCId: CheckedContinuation<JSONRPCMessage, any Error>])>((true, [:]))

    /// Registers `id`, runs `send` (which writes the request), and waits at most `timeout` for the answer.
    func await(_ id: JSONRPCId, timeout: Duration, what: String, send: @escaping @Sendable () throws(MCPError) -> Void) async throws(MCPError) -> JSONRPCMessage {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.fail(id, MCPError(.timeout, "\(what) got no answer within \(timeout.mcpSeconds) s")) }
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<JSONRPCMessage, any Error>) in
                    let accepted = waiting.locked { w -> Bool in
                        guard w.open else { return false }
                        w.byId[id] = c
                        return true
                    }
                    guard accepted else { return c.resume(throwing: MCPError(.unavailable, "the connection to the server is closed")) }
                    do { try send() } catch { fail(id, error) }
                }
            } onCancel: {
                fail(id, CancellationError())
            }
        } catch let error as MCPError {
            throw error
        } catch {
            throw MCPError(.unavailable, "\(what) was cancelled")
        }
    }

    /// Hands an answer to its waiter; false when nobody waits for `id` (late or unknown answers are dropped).
    @discardableResult
    func resolve(_ id: JSONRPCId, with message: JSONRPCMessage) -> Bool {
        guard let c = waiting.locked({ $0.byId.removeValue(forKey: id) }) else { return false }
        c.resume(returning: message)
        return true
    }

    /// Fails one waiter.
    func fail(_ id: JSONRPCId, _ error: any Error) {
        waiting.locked { $0.byId.removeValue(forKey: id) }?.resume(throwing: error)
    }

    /// Fails every waiter with `error` and refuses new ones (the connection ended).
    func closeAll(_ error: MCPError) {
        let all = waiting.locked { w in
            w.open = false
            defer { w.byId = [:] }
            return Array(w.byId.values)
        }
        for c in all { c.resume(throwing: error) }
    }
}

extension Duration {
    /// Seconds for messages (`1.5`).
    public var mcpSeconds: String {
        let s = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return s == s.rounded() ? String(Int(s)) : String((s * 10).rounded() / 10)
    }
}
