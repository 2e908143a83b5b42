#if canImport(Glibc)
import Glibc
#endif

/// The operating system's name of the current thread, as `top -H`, `perf` and `/proc` show it.
/// (Foundation's `Thread.name` does not set it on Linux; threads otherwise inherit their creator's
/// name.) Linux keeps at most 15 bytes.
public enum ThreadName {
    /// Names the calling thread; longer names are cut to 15 bytes.
    public static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The calling thread's name ("" when unknown).
    public static var current: String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        var count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        while count > 0, buffer[count - 1] == 0x0A { count -= 1 }
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }
}
