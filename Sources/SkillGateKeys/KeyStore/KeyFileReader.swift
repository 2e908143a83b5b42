#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One consistent read of the key file, after its permission checks.
struct KeyFileSnapshot: Sendable {
    var keys: [String: String]
    /// nil when there is no file (an empty store).
    var identity: FileIdentity?
}

enum KeyFileReader {
    /// The largest key file read: thousands of keys fit in far less.
    static let maxBytes = 1 << 20

    /// Reads the key file at `path`. A missing directory or file is an empty store; a file or
    /// directory that group or others can reach is refused with the `chmod` that fixes it.
    static func read(path: String) throws(KeyStoreError) -> KeyFileSnapshot {
        guard try FilePermissions.requirePrivateDirectory(PathText.directory(of: path)) else {
            return KeyFileSnapshot(keys: [:], identity: nil)
        }
        // Without blocking: a named pipe (or a device) put at the path would hold `open` until a writer came, and with
        // it the gateway's readiness check and key reloads, for good (decision 0152). The check below refuses it.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return KeyFileSnapshot(keys: [:], identity: nil) }
            throw .system(operation: "open the key file", path: path, errno: errno)
        }
        defer { close(fd) }
        // Check the opened file itself, so a swap between check and read cannot slip through.
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(operation: "inspect the key file", path: path, errno: errno) }
        try FilePermissions.requirePrivateFile(st, path: path)
        // A key file holds a few kilobytes; one of a gigabyte was read whole at every look, twice its size in memory
        // (decision 0152, attacked again).
        guard st.st_size <= maxBytes else {
            throw .malformedFile(path: path, detail: "it is \(st.st_size) bytes, more than the \(maxBytes >> 20) MiB a key file may hold; point key_file at the key file `skillgate keys set` writes")
        }
        // A regular file: reads never block on it anyway; back to ordinary reads.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let bytes = try readAll(fd, path: path, sizeHint: Int(st.st_size))
        guard bytes.count <= maxBytes else {
            throw .malformedFile(path: path, detail: "it grew past the \(maxBytes >> 20) MiB a key file may hold while it was read")
        }
        return KeyFileSnapshot(keys: try KeyFileCodec.decode(bytes, path: path), identity: FileIdentity(st))
    }

    private static func readAll(_ fd: Int32, path: String, sizeHint: Int) throws(KeyStoreError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(sizeHint, maxBytes) + 1)
        var chunk = [UInt8](repeating: 0, count: max(4096, min(sizeHint, maxBytes) + 1))
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read the key file", path: path, errno: errno)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
            if out.count > maxBytes { return out }  // refused by the caller; read no further
        }
    }
}
