#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system call that failed while a file was written: what was attempted, on which path, and `errno`.
public struct FileWriteFailure: Error, Sendable {
    /// The attempted step, as a verb phrase that reads after "could not": "create", "write", "fsync", ...
    public let operation: String
    public let path: String
    public let errno: Int32
}

/// The two steps of replacing a file so that readers, and a crash at any moment, see either the old content or the
/// whole new one: write the new content to a file of its own next to the target (`create`), then rename that file over
/// the target (`rename`). The key store (`AtomicFileWriter`) and the usage ledger's spool (`LedgerSpool`) both write
/// their files this way.
public enum WholeFileWrite {
    /// Creates `path` with mode 0600 (it must not exist: `O_EXCL`; a symbolic link planted there is not followed:
    /// `O_NOFOLLOW`), writes all of `bytes`, and syncs it to disk when `sync`. Returns the file's `fstat`. On any failure
    /// the file is removed again, so nothing half-written stays behind.
    @discardableResult
    public static func create(_ path: String, bytes: [UInt8], sync: Bool) throws(FileWriteFailure) -> stat {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FileWriteFailure(operation: "create", path: path, errno: errno) }
        var closed = false
        defer { if !closed { close(fd); unlink(path) } }
        // The umask can only remove bits, but be exact anyway.
        guard fchmod(fd, 0o600) == 0 else { throw FileWriteFailure(operation: "set mode 0600 on", path: path, errno: errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileWriteFailure(operation: "write", path: path, errno: errno)
            }
            offset += n
        }
        if sync, fsync(fd) != 0 { throw FileWriteFailure(operation: "fsync", path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileWriteFailure(operation: "inspect", path: path, errno: errno) }
        closed = true
        guard close(fd) == 0 else {
            let code = errno
            unlink(path)
            throw FileWriteFailure(operation: "close", path: path, errno: code)
        }
        return st
    }

    /// Renames `temporary` over `target` (removing `temporary` when that fails). With `directory`, then syncs that
    /// directory, so the rename itself survives a crash of the machine.
    public static func rename(_ temporary: String, over target: String, syncing directory: String?) throws(FileWriteFailure) {
        #if canImport(Glibc)
        let renamed = Glibc.rename(temporary, target)
        #else
        let renamed = Darwin.rename(temporary, target)
        #endif
        guard renamed == 0 else {
            let code = errno
            unlink(temporary)
            throw FileWriteFailure(operation: "rename the new file over", path: target, errno: code)
        }
        guard let directory else { return }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileWriteFailure(operation: "open the directory", path: directory, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileWriteFailure(operation: "fsync the directory", path: directory, errno: errno) }
    }
}
