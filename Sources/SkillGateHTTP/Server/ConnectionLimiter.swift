import Synchronization

/// Admits connections up to a total and a per-address cap, shared by all event loops of a server.
final class ConnectionLimiter: Sendable {
    enum Verdict: Equatable {
        case admitted
        case overTotal
        case overPerAddress
    }

    private struct State {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    /// `nil` or 0: no cap.
    let maxTotal: Int?
    let maxPerAddress: Int?
    private let state = Mutex(State())

    init(maxTotal: Int?, maxPerAddress: Int?) {
        self.maxTotal = maxTotal.flatMap { $0 > 0 ? $0 : nil }
        self.maxPerAddress = maxPerAddress.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Counts a connection from `address` (an IP without port) unless a cap is reached.
    func admit(_ address: String) -> Verdict {
        state.locked { s in
            if let maxTotal, s.total >= maxTotal { return .overTotal }
            let current = s.perAddress[address, default: 0]
            if let maxPerAddress, current >= maxPerAddress { return .overPerAddress }
            s.total += 1
            s.perAddress[address] = current + 1
            return .admitted
        }
    }

    /// Forgets an admitted connection from `address`.
    func release(_ address: String) {
        state.locked { s in
            s.total -= 1
            let left = s.perAddress[address, default: 1] - 1
            s.perAddress[address] = left > 0 ? left : nil
        }
    }

    /// Connections admitted and not yet closed.
    var openCount: Int { state.locked { $0.total } }
}
