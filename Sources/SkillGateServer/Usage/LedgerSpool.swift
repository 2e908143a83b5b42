import FoundationEssentials
import Glibc
import SkillGateCore
import SkillGateState
import Synchronization

/// Usage records the ledger could not write before the gateway stopped (the state store unreachable: a PostgreSQL
/// outage, a full or read-only disk), kept in files of their own in `<state_dir>/ledger-spool/` and written at the next
/// start (decision 0149). Before, they were dropped at the stop, and with them what limits, budgets and reports
/// count.
///
/// A file is written whole to a temporary name, synced and renamed, so one that has its name is complete: a first line
/// saying how many records follow (and, after a commit lost unheard on PostgreSQL, the transaction whose fate is not
/// known and how many of the first records it held: decision 0139), then one record a line (`UsageRecord.spoolJSON`).
/// The directory is 0700 and the files 0600: the records name tokens and requests.
///
/// Several gateways may share a state directory: a gateway takes a file for itself by renaming it (`claim`), so only
/// one writes it, and gives back what it could not write when it stops (`giveBack`). A file taken by a process that is
/// gone is taken again.
struct LedgerSpool: Sendable {
    let directory: String

    /// What one file holds.
    struct Batch {
        var records: [UsageRecord]
        /// The PostgreSQL transaction of the first `count` records whose commit was lost unheard.
        var unsettled: (transactionId: String, count: Int)?
    }

    /// A file this process has taken to write.
    struct Claimed {
        let path: String
        /// Its name before it was taken.
        let spooledName: String
    }

    enum SpoolError: Error, CustomStringConvertible {
        case system(String, path: String, errno: Int32)
        case unreadable(path: String, why: String)

        var description: String {
            switch self {
            case .system(let what, let path, let code): "could not \(what) \(path): \(String(cString: strerror(code)))"
            case .unreadable(let path, let why): "\(path) is not a ledger spool file SkillGate can read (\(why))"
            }
        }
    }

    static let prefix = "ledger-spool-"
    static let suffix = ".jsonl"
    private static let claimMark = ".writing-"
    private static let header = "skillgate_ledger_spool"

    /// Writes `records` (and the unsettled batch at their front, if any) to a new file; returns its path.
    func save(_ records: [UsageRecord], unsettled: (transactionId: String, count: Int)?) throws(SpoolError) -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let name = Self.prefix + String(now) + "-" + String(getpid()) + "-" + String(UInt32.random(in: .min ... .max), radix: 16) + Self.suffix
        return try write(records, unsettled: unsettled, as: name, sync: true)
    }

    /// Keeps the row an agent run under way would have if its gateway were killed now (`UsageRecord.abandonedRun`), in
    /// a file of its own that this process holds (taken, as `claim` takes a file): replaced at each paid call, removed
    /// when the run's own row is queued (`dropRunUnderWay`). A gateway killed mid-run leaves it behind, and the next
    /// start on this state directory takes it as any file a gone process held and writes the row (decision 0151). Not
    /// synced: a process killed leaves the file to the system; only a machine's crash loses it.
    func keepRunUnderWay(_ row: UsageRecord, key: String) throws(SpoolError) {
        let name = runUnderWayName(key)
        let path = try write([row], unsettled: nil, as: name, sync: false)
        Self.heldHere.locked { _ = $0.insert(path) }
    }

    /// Removes what `keepRunUnderWay` kept for `key`: the run's own row is queued.
    func dropRunUnderWay(key: String) {
        let path = directory + "/" + runUnderWayName(key)
        unlink(path)
        Self.heldHere.locked { _ = $0.remove(path) }
    }

    /// The held name of a run's file: as a spooled file taken by this process.
    private func runUnderWayName(_ key: String) -> String {
        let safe = String(key.unicodeScalars.prefix(80).map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": Character(scalar)
            default: "_"
            }
        })
        return Self.prefix + "run-" + safe + Self.suffix + Self.claimMark + String(getpid())
    }

    /// Writes a file whole under a temporary name and renames it to `name` (replacing a file of that name); returns its
    /// path.
    private func write(_ records: [UsageRecord], unsettled: (transactionId: String, count: Int)?, as name: String,
                       sync: Bool) throws(SpoolError) -> String {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw .system("create the directory", path: directory, errno: errno) }
        var first: JSONObject = [Self.header: 1, "records": .int(records.count)]
        if let unsettled {
            first.append("unsettled_transaction", .string(unsettled.transactionId))
            first.append("unsettled_records", .int(unsettled.count))
        }
        var bytes = JSONValue.object(first).serializedBytes()
        bytes.append(0x0A)
        for record in records {
            bytes += record.spoolJSON().serializedBytes()
            bytes.append(0x0A)
        }
        let temporary = directory + "/." + name + "-" + String(UInt32.random(in: .min ... .max), radix: 16) + ".tmp"
        let path = directory + "/" + name
        do {
            try WholeFileWrite.create(temporary, bytes: bytes, sync: sync)
            try WholeFileWrite.rename(temporary, over: path, syncing: nil)
        } catch {
            throw .system(error.operation, path: error.path, errno: error.errno)
        }
        if sync { syncDirectory() }
        return path
    }

    /// Takes every spooled file for this process, oldest first: those no process has taken, and those taken by a process
    /// that is gone, or by an earlier process with this process's id (a container's first process has the same id at
    /// every start), but not those a ledger of this process holds.
    func claim() -> [Claimed] {
        var claimed: [Claimed] = []
        let me = getpid()
        for name in fileNames() where name.hasPrefix(Self.prefix) {
            let spooledName: String
            if let mark = name.firstRange(of: Self.claimMark) {
                guard let pid = Int32(name[mark.upperBound...]) else { continue }
                if pid == me {
                    guard !Self.heldHere.locked({ $0.contains(directory + "/" + name) }) else { continue }
                } else if Self.isRunning(pid) {
                    continue
                }
                spooledName = String(name[..<mark.lowerBound])
            } else {
                guard name.hasSuffix(Self.suffix) else { continue }
                spooledName = name
            }
            let path = directory + "/" + spooledName + Self.claimMark + String(me)
            let taken = Self.heldHere.locked { held -> Bool in
                // Renamed under the lock, so another ledger of this process never takes it between the two steps.
                guard rename(directory + "/" + name, path) == 0 else { return false }  // another process took it first
                held.insert(path)
                return true
            }
            if taken { claimed.append(Claimed(path: path, spooledName: spooledName)) }
        }
        // Names start with the time they were written.
        return claimed.sorted { $0.spooledName < $1.spooledName }
    }

    /// The paths of files the ledgers of this process have taken and not yet removed or given back.
    private static let heldHere = Mutex<Set<String>>([])

    /// Reads a file taken by `claim`.
    func load(_ file: Claimed) throws(SpoolError) -> Batch {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .system("open", path: file.path, errno: errno) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system("read", path: file.path, errno: errno)
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let first = lines.first, let head = try? JSONValue.parse(first), head[Self.header]?.intValue == 1,
              let count = head["records"]?.intValue else {
            throw .unreadable(path: file.path, why: "its first line is not a spool header")
        }
        var batch = Batch(records: [])
        batch.records.reserveCapacity(count)
        for line in lines.dropFirst() {
            guard let value = try? JSONValue.parse(line), let record = UsageRecord(spoolJSON: value) else {
                throw .unreadable(path: file.path, why: "line \(batch.records.count + 2) is not a usage record")
            }
            batch.records.append(record)
        }
        guard batch.records.count == count else {
            throw .unreadable(path: file.path, why: "it holds \(batch.records.count) records where its header says \(count)")
        }
        if let id = head["unsettled_transaction"]?.stringValue, let held = head["unsettled_records"]?.intValue, held > 0, held <= count {
            batch.unsettled = (id, held)
        }
        return batch
    }

    /// Removes a file whose records are written.
    func remove(_ file: Claimed) {
        unlink(file.path)
        syncDirectory()
        Self.heldHere.locked { _ = $0.remove(file.path) }
    }

    /// Gives a file back under its spooled name, for the next start (this process stops before writing it).
    func giveBack(_ file: Claimed) {
        rename(file.path, directory + "/" + file.spooledName)
        Self.heldHere.locked { _ = $0.remove(file.path) }
    }

    /// Sets aside a file that cannot be read (named `.unreadable`, never taken again), for an operator to look at.
    func setAside(_ file: Claimed) -> String {
        let path = directory + "/" + file.spooledName + ".unreadable"
        rename(file.path, path)
        Self.heldHere.locked { _ = $0.remove(file.path) }
        return path
    }

    private func fileNames() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            names.append(name)
        }
        return names
    }

    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
