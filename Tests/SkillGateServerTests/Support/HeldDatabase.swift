import Foundation
import Synchronization
import SkillGateState

/// For tests of work kept off the event loops while the state database is busy (decisions 0077, 0085).
extension SQLiteStateStore {
    /// Holds the store's one connection for `seconds` on a thread of its own, as a long ledger batch holds it, and
    /// returns once it is held.
    func holdConnection(for seconds: Double) {
        let held = Mutex(false)
        let holder = Thread { [self] in
            _ = try? withConnection { _ in
                held.withLock { $0 = true }
                Thread.sleep(forTimeInterval: seconds)
            }
        }
        holder.start()
        while !held.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
    }
}

extension RawSocket {
    /// `GET /v1/models` with `token`: a request answered without the database once the token is cached.
    static func modelsRequest(_ token: String) -> String {
        "GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n"
    }

    /// Sends `/v1/models` with `token` on each of `sockets` in turn and times each answer.
    static func timedModelsAnswers(_ sockets: [RawSocket], token: String) -> [(status: Int?, seconds: Double)] {
        sockets.map { socket in
            let begin = Date()
            socket.send(modelsRequest(token))
            return (socket.readOneResponse(), Date().timeIntervalSince(begin))
        }
    }
}
