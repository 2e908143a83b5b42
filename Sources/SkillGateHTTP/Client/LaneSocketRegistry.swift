/// Which of libcurl's sockets a lane's epoll set holds, and for what (decision 0042).
///
/// libcurl stops watching a connection's socket when its transfer ends and watches it again when the next transfer
/// reuses the connection: on a busy lane that was an add and a remove in the epoll set per request (~1.5 µs of system
/// calls on this VM). A socket libcurl stops watching while it waited only to read is therefore *parked*: left in the
/// set, so the next transfer on it takes the registration back without a system call. Two things can happen to a
/// parked socket:
/// - it becomes readable while nobody watches it (the upstream closed the pooled connection, or sent something
///   unasked): the lane then removes it from the set instead of handing the event to libcurl, which finds the
///   connection's state itself when it next uses it;
/// - libcurl closes it (pooled connections are closed without a word to the socket callback): the kernel drops a
///   closed descriptor from every epoll set, and the number may come back for a new socket. A parked entry therefore
///   remembers the open file it was made for (`identity`), and taking it back first checks that the number still
///   refers to that file. Only sockets have such an identity (`sg_descriptor_identity`): another descriptor libcurl
///   watches (an eventfd of its resolver, in newer releases) is removed when it is no longer watched, never parked.
///
/// Pure bookkeeping: it says which epoll operation to make; the lane makes it (`CurlMultiLoop.watchOnLane`).
struct LaneSocketRegistry {
    /// What to watch a socket for: `readable`, `writable`, or both (0: nothing).
    typealias Interest = UInt8
    static let readable: Interest = 1
    static let writable: Interest = 2

    /// The epoll operation a change of interest needs.
    enum Action: Equatable {
        case none
        case add(Interest)
        case modify(Interest)
        case remove
    }

    private struct Entry {
        var interest: Interest
        /// The open file the descriptor referred to when it was registered (`sg_descriptor_identity`).
        var identity: UInt64
        var parked: Bool
    }

    private var entries: [Int32: Entry] = [:]
    /// Parked registrations taken back without a system call.
    private(set) var reused = 0

    /// libcurl wants `fd` watched for `interest` (0: no longer watched). `identity` reads which open file `fd` refers
    /// to now; it is asked only when the answer decides something (a registration is made or taken back).
    mutating func watch(_ fd: Int32, for interest: Interest, identity: () -> UInt64) -> Action {
        guard interest != 0 else { return stopWatching(fd) }
        guard var entry = entries[fd] else {
            entries[fd] = Entry(interest: interest, identity: identity(), parked: false)
            return .add(interest)
        }
        if entry.parked || entry.interest == interest {
            // A parked socket, or the same interest twice (libcurl reports only changes, so that means the number was
            // closed and reused unannounced): the registration holds only if the number still means the same file.
            let now = identity()
            guard now != 0, now == entry.identity else {
                entries[fd] = Entry(interest: interest, identity: now, parked: false)
                return .add(interest)
            }
            if entry.parked { reused += 1 }
            entry.parked = false
        }
        guard entry.interest != interest else {
            entries[fd] = entry
            return .none
        }
        entry.interest = interest
        entries[fd] = entry
        return .modify(interest)
    }

    private mutating func stopWatching(_ fd: Int32) -> Action {
        guard var entry = entries[fd], !entry.parked else { return .none }
        if entry.interest == Self.readable, entry.identity != 0 {
            entry.parked = true
            entries[fd] = entry
            return .none
        }
        entries[fd] = nil
        return .remove
    }

    /// An event came for `fd`: true when it is parked, so nobody watches it. The entry is dropped, and the caller
    /// removes `fd` from the set (a level-triggered registration would otherwise report it on every turn) instead of
    /// handing the event to libcurl.
    mutating func eventOnParkedSocket(_ fd: Int32) -> Bool {
        guard let entry = entries[fd], entry.parked else { return false }
        entries[fd] = nil
        return true
    }

    /// Sockets registered, parked or watched.
    var count: Int { entries.count }
}
