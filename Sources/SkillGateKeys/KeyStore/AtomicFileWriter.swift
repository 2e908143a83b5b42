#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillGateCore

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
    func withFileLock<T>(_ body: () throws(KeyStoreError) -> T) throws(KeyStoreError) -> T {
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
    /// exists with wider permissions (`WholeFileWrite.create`). (A crash after this step leaves the
    /// temp file behind; the target is untouched, and the next open or write of the store removes it.)
    func writeTemporary(_ bytes: [UInt8]) throws(KeyStoreError) -> (path: String, identity: FileIdentity) {
        let suffix = (try? SecureRandom.bytes(6)).map { Hex.encode($0) } ?? String(UInt32.random(in: .min ... .max), radix: 16)
        let path = directory + "/" + temporaryPrefix + "\(getpid())-" + suffix
        do {
            let st = try WholeFileWrite.create(path, bytes: bytes, sync: true)
            return (path, FileIdentity(st))
        } catch {
            throw Self.keyStoreError(error)
        }
    }

    /// Renames the temp file over the target and fsyncs the directory so the rename is durable.
    func commit(temporary: String) throws(KeyStoreError) {
        do {
            try WholeFileWrite.rename(temporary, over: target, syncing: directory)
        } catch {
            throw Self.keyStoreError(error)
        }
    }

    private static func keyStoreError(_ failure: FileWriteFailure) -> KeyStoreError {
        .system(operation: failure.operation, path: failure.path, errno: failure.errno)
    }
}
