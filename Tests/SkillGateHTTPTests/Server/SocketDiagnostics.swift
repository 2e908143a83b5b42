import Foundation

/// What the kernel says about the server side of a loopback connection, for a test's failure message: the socket's
/// TCP state and receive queue (`/proc/net/tcp`), the descriptor that holds it in this process, and which epoll sets
/// watch that descriptor (`/proc/self/fdinfo`). Used where a test waits for the server to notice a client's close.
enum SocketDiagnostics {
    static func serverSide(serverPort: Int, clientPort: Int) -> String {
        let states = ["01": "ESTABLISHED", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN"]
        guard let table = procText("/proc/net/tcp") else { return "no /proc/net/tcp" }
        let local = String(format: "0100007F:%04X", serverPort), remote = String(format: "0100007F:%04X", clientPort)
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard f.count > 9, f[1] == local, f[2] == remote else { continue }
            let queues = f[4].split(separator: ":")
            let inode = f[9]
            let fd = descriptor(ofSocketInode: inode)
            let watchers = fd.map(epollSetsWatching) ?? []
            return "server side \(states[f[3]] ?? f[3]), receive queue 0x\(queues.last ?? "?"), fd \(fd.map(String.init) ?? "none in this process"), in epoll sets \(watchers)"
        }
        return "no server-side socket for client port \(clientPort); " + around(serverPort: serverPort, clientPort: clientPort, table: table)
    }

    /// The inode of the socket listening on loopback `port`, nil when none listens. A test that checks a stopped
    /// server's listener is gone compares inodes: another test's server may have been given the port meanwhile.
    static func listenerInode(port: Int) -> String? {
        guard let table = procText("/proc/net/tcp") else { return nil }
        let local = String(format: "0100007F:%04X", port)
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if f.count > 9, f[1] == local, f[3] == "0A" { return f[9] }
        }
        return nil
    }

    /// The inodes of every socket listening on loopback `port` (a server's loops may each hold one: `SO_REUSEPORT`).
    static func listenerInodes(port: Int) -> Set<String> {
        guard let table = procText("/proc/net/tcp") else { return [] }
        let local = String(format: "0100007F:%04X", port)
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if f.count > 9, f[1] == local, f[3] == "0A" { inodes.insert(f[9]) }
        }
        return inodes
    }

    /// Whether a descriptor of this process still holds the socket with `inode`.
    static func isHeldByThisProcess(socketInode inode: String) -> Bool {
        descriptor(ofSocketInode: inode) != nil
    }

    /// When the server side is missing: the client's own socket, how many connections wait in the listening socket's
    /// accept queue, and the kernel's counters of connections a full accept queue dropped.
    private static func around(serverPort: Int, clientPort: Int, table: String) -> String {
        let states = ["01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
                      "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN", "0B": "CLOSING"]
        let server = String(format: ":%04X", serverPort), client = String(format: ":%04X", clientPort)
        var parts: [String] = []
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard f.count > 9 else { continue }
            let state = states[f[3]] ?? f[3]
            if f[1].hasSuffix(client) {
                parts.append("client socket \(f[1]) → \(f[2]) \(state)")
            } else if f[1].hasSuffix(server), f[3] == "0A" {
                let queues = f[4].split(separator: ":")
                parts.append("listener \(f[1]) with 0x\(queues.last ?? "?") connections waiting to be accepted")
            } else if f[1].hasSuffix(server) || f[2].hasSuffix(server) {
                parts.append("\(f[1]) → \(f[2]) \(state)")
            }
        }
        if let netstat = procText("/proc/net/netstat") {
            let lines = netstat.split(separator: "\n").filter { $0.hasPrefix("TcpExt:") }
            if lines.count == 2 {
                let names = lines[0].split(separator: " "), values = lines[1].split(separator: " ")
                for (name, value) in zip(names, values) where ["ListenOverflows", "ListenDrops", "TCPReqQFullDrop", "TCPReqQFullDoCookies"].contains(String(name)) {
                    parts.append("\(name) \(value)")
                }
            }
        }
        return parts.isEmpty ? "no socket on either port" : parts.joined(separator: "; ")
    }

    /// What descriptor `fd` of this process is now, and where the kernel lists its socket (a descriptor closed by
    /// someone else and reused shows up as another socket, or as none).
    static func describe(descriptor fd: Int32) -> String {
        guard fd >= 0 else { return "closed" }
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)") else {
            return "fd \(fd) is not open"
        }
        guard target.hasPrefix("socket:["), target.hasSuffix("]") else { return "fd \(fd) is \(target)" }
        let inode = String(target.dropFirst(8).dropLast())
        for table in ["tcp", "tcp6", "udp", "udp6", "unix"] {
            guard let text = procText("/proc/net/" + table) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                let inodeColumn = table == "unix" ? 6 : 9
                if f.count > inodeColumn, f[inodeColumn] == inode {
                    return "fd \(fd) is \(table) socket \(table == "unix" ? f.suffix(1).joined() : f[1] + " → " + f[2] + " state " + f[3])"
                }
            }
        }
        return "fd \(fd) is \(target), in no /proc/net table"
    }

    /// A /proc file read to its end (they report a size of zero, so size-based reads come back empty).
    private static func procText(_ path: String) -> String? {
        // The file may vanish between opening and reading (a descriptor another test closed meanwhile):
        // `readDataToEndOfFile` traps on that, `readToEnd` throws.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func descriptor(ofSocketInode inode: String) -> Int? {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        for name in fds {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
               target == "socket:[\(inode)]" { return Int(name) }
        }
        return nil
    }

    /// The epoll descriptors of this process that have `fd` in their interest list, with its event mask.
    private static func epollSetsWatching(_ fd: Int) -> [String] {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var sets: [String] = []
        for name in fds {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == "anon_inode:[eventpoll]",
                  let info = procText("/proc/self/fdinfo/" + name) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("tfd:") {
                let f = line.split(separator: " ", omittingEmptySubsequences: true)
                if f.count > 3, Int(f[1]) == fd { sets.append("\(name) events \(f[3])") }
            }
        }
        return sets
    }
}
