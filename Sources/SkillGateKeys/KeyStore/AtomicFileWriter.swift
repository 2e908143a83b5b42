#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file so that readers, and a crash at any moment, see either the old or the new
/// content: write a 0600 temp file in the same directory, fsync it, rename it over the target,
/// fsync the directory. Writers are serialised by an exclusive `flock` on a lock file next to it.
struct AtomicFileWriter {
    /// The file being replaced.
    let target: String
    var directory: String { PathText.directory(of: target) }
    /// `.keys.json.lock` next to `keys.json`: never renamed, so every writer locks the same inode.
    var lockPath: String { directory + "/." + PathText.fileName(of: target) + ".lock" }
    /// Temp files are `<prefix><pid>-<hex>`, so leftovers of a crashed writer can be recognised
    /// (`AtomicFileWriter+Leftovers.swift`).
    var temporaryPrefix: String { "." + PathText.fileName(of: target) + ".tmp-" }

    /// Runs `body` holding the exclusive lock (blocking until other writers, in this or any other
    /// process, are done).
    func withLock<T>(_ body: () throws(KeyStoreError) -> T) throws(KeyStoreError) -> T {
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(operation: "open the lock file", path: lockPath, errno: errno) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system(operation: "lock", path: lockPath, errno: errno) }
        }
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    /// Writes `bytes` to a new temp file next to the target and fsyncs it. Returns its path and
    /// identity. The file is created 0600 by `open` itself (`O_EXCL | O_NOFOLLOW`), so it never
    /// exists with wider permissions. (A crash after this step leaves the temp file behind; the
    /// target is untouched, and the next open or write of the store removes it.)
    func writeTemporary(_ bytes: [UInt8]) throws(KeyStoreError) -> (path: String, identity: FileIdentity) {
        let suffix = (try? SecureRandom.bytes(6)).map { Hex.encode($0) } ?? String(UInt32.random(in: .min ... .max), radix: 16)
        let path = directory + "/" + temporaryPrefix + "\(getpid())-" + suffix
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system(operation: "create the temporary file", path: path, errno: errno) }
        var closed = false
        defer { if !closed { close(fd); unlink(path) } }
        // The umask can only remove bits, but be exact anyway.
        guard fchmod(fd, 0o600) == 0 else { throw .system(operation: "set mode 0600 on", path: path, errno: errno) }
        try writeAll(fd, bytes, path: path)
        guard fsync(fd) == 0 else { throw .system(operation: "fsync", path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(operation: "inspect", path: path, errno: errno) }
        closed = true
        guard close(fd) == 0 else {
            unlink(path)
            throw .system(operation: "close", path: path, errno: errno)
        }
        return (path, FileIdentity(st))
    }

    /// Renames the temp file over the target and fsyncs the directory so the rename is durable.
    func commit(temporary: String) throws(KeyStoreError) {
        guard rename(temporary, target) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "rename the temporary file over", path: target, errno: code)
        }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { throw .system(operation: "open the directory", path: directory, errno: errno) }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { throw .system(operation: "fsync the directory", path: directory, errno: errno) }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(KeyStoreError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "write", path: path, errno: errno)
            }
            offset += n
        }
    }
}
