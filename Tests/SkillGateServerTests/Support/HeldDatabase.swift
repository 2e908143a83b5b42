import Foundation
import Synchronization
import Testing
import SkillGateState
@testable import SkillGateServer

/// For tests of work kept off the event loops while the state database is busy (decisions 0077, 0085, 0086).
extension SQLiteStateStore {
    /// Holds the store's one connection for `seconds` on a thread of its own, as a long ledger batch holds it, and
    /// returns once it is held.
    func holdConnection(for seconds: Double) {
        let held = Mutex(false)
        let holder = Thread { [self] in
            _ = try? withConnection { _ in
                held.locked { $0 = true }
                Thread.sleep(forTimeInterval: seconds)
            }
        }
        holder.start()
        while !held.locked({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
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

/// What other connections saw while one request waited for a held database.
struct HeldDatabaseRun: Sendable {
    /// Each other connection's `/v1/models` answer, and how long it took.
    let answers: [(status: Int?, seconds: Double)]
    /// The status of the request that needed the database, answered once the database was let go.
    let waitingStatus: Int?

    /// The slowest of the other connections' answers, in seconds.
    var slowest: Double { answers.map(\.seconds).max() ?? 0 }

    /// Opens 8 connections to `server` and caches `token` on each (`/v1/models`, as `alsoCached`, which must be
    /// chat tokens too), then holds the SQLite state
    /// database's one connection for 3 s and sends `waiting` (a request that needs the database) on a connection of
    /// its own. 0.1 s later, each of the 8 connections asks for `/v1/models` again: on every event loop, with the
    /// token cached, they need nothing of the database. Runs on a thread of its own (in the parallel suite the
    /// cooperative pool can be busy for seconds).
    static func run(_ server: GatewayServer, token: String, alsoCached: [String] = [], waiting: String) async throws -> HeldDatabaseRun {
        let port = server.boundPort
        let store = try #require(server.services.tokens.store as? SQLiteStateStore)
        let tokens = server.services.tokens
        let sockets = try (0..<8).map { _ in try RawSocket(port: port, receiveTimeout: 10) }
        return try await RawSocket.run { () throws -> HeldDatabaseRun in
            // Every connection's token is cached (2 s), so only the waiting request needs the database below.
            tokens.invalidateCache()
            let warmed = sockets.map { socket -> Int? in
                socket.send(RawSocket.modelsRequest(token))
                return socket.readOneResponse()
            } + alsoCached.map { other -> Int? in
                sockets[0].send(RawSocket.modelsRequest(other))
                return sockets[0].readOneResponse()
            }
            guard warmed.allSatisfy({ $0 == 200 }) else { return HeldDatabaseRun(answers: [], waitingStatus: nil) }
            store.holdConnection(for: 3)
            let waitingSocket = try RawSocket(port: port, receiveTimeout: 10)
            waitingSocket.send(waiting)
            Thread.sleep(forTimeInterval: 0.1)
            let answers = RawSocket.timedModelsAnswers(sockets, token: token)
            return HeldDatabaseRun(answers: answers, waitingStatus: waitingSocket.readOneResponse())
        }
    }
}
