#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's text for an errno value.
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// The effective user id of this process.
package var currentUID: UInt32 { UInt32(geteuid()) }

/// What identifies one version of a file cheaply: a rename-over gives a new inode, an edit in place a
/// new mtime/ctime or size.
package struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var changedSeconds: Int
    var changedNanoseconds: Int

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(st.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(st.st_mtimespec.tv_nsec)
        changedSeconds = Int(st.st_ctimespec.tv_sec)
        changedNanoseconds = Int(st.st_ctimespec.tv_nsec)
        #else
        modifiedSeconds = Int(st.st_mtim.tv_sec)
        modifiedNanoseconds = Int(st.st_mtim.tv_nsec)
        changedSeconds = Int(st.st_ctim.tv_sec)
        changedNanoseconds = Int(st.st_ctim.tv_nsec)
        #endif
    }

    /// The identity of the file at `path` (following symlinks), or nil when there is none.
    package static func of(path: String) throws(KeyStoreError) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .system(operation: "inspect", path: path, errno: errno)
        }
        return FileIdentity(st)
    }
}

/// Path helpers on plain strings (no Foundation on this path).
package enum PathText {
    /// The directory part of `path` (`.` for a bare file name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// `read(2)`, callable from types that have their own `read` members.
func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
