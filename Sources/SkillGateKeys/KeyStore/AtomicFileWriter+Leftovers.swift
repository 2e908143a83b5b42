#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removing the temp files of writers that died between writing and renaming: they hold the
/// secrets of an unfinished write. Only names of exactly the form `writeTemporary` makes are
/// touched, and only regular files.
extension AtomicFileWriter {
    /// How old a leftover must be to be removed while another writer holds the lock: a live
    /// writer's temp file exists for the milliseconds between its write and its rename.
    static let staleAge = 60

    /// Whether `name` is a temp file name of this writer: the prefix, a decimal pid, `-`, and 1–12
    /// lowercase hex digits.
    func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix) else { return false }
        let rest = name.utf8.dropFirst(temporaryPrefix.utf8.count)
        let parts = rest.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, (1...10).contains(parts[0].count), (1...12).contains(parts[1].count) else { return false }
        return parts[0].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            && parts[1].allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f")) }
    }

    /// Deletes every leftover temp file. Call only while holding the lock: then no live writer owns one.
    func removeLeftoverTemporaries() {
        for leftover in leftovers() { unlink(leftover.path) }
    }

    /// Deletes leftovers without waiting for the lock (for opening a store): all of them when no
    /// writer holds the lock, else only those older than `staleAge` seconds. Failures are ignored:
    /// the next write, which holds the lock, tries again.
    func removeStaleTemporaries() {
        let found = leftovers()
        guard !found.isEmpty else { return }
        let fd = open(lockPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        defer { if fd >= 0 { close(fd) } }
        let unlocked = fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0
        defer { if fd >= 0, unlocked { _ = flock(fd, LOCK_UN) } }
        let now = time(nil)
        for leftover in found where unlocked || Int(now - leftover.modified) > Self.staleAge {
            unlink(leftover.path)
        }
    }

    /// The temp files of this writer in the directory: regular files with a matching name.
    private func leftovers() -> [(path: String, modified: time_t)] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [(path: String, modified: time_t)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard isTemporaryName(name) else { continue }
            let path = directory + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            #if canImport(Darwin)
            out.append((path, st.st_mtimespec.tv_sec))
            #else
            out.append((path, st.st_mtim.tv_sec))
            #endif
        }
        return out
    }
}
