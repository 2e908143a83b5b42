#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks that secrets live in places only the current user can reach.
package enum FilePermissions {
    /// Throws unless `st` (from `fstat` on the opened key file) is a regular file owned by the
    /// current user with no permission bits for group or others.
    static func requirePrivateFile(_ st: stat, path: String) throws(KeyStoreError) {
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(path: path) }
        guard UInt32(st.st_uid) == currentUID else {
            throw .wrongOwner(path: path, ownerUID: UInt32(st.st_uid), currentUID: currentUID)
        }
        guard UInt32(st.st_mode) & 0o077 == 0 else { throw .insecureFile(path: path, mode: UInt32(st.st_mode)) }
    }

    /// Throws unless the directory at `path` is owned by the current user with no permission bits
    /// for group or others. Returns false when the directory does not exist.
    @discardableResult
    static func requirePrivateDirectory(_ path: String) throws(KeyStoreError) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT { return false }
            throw .system(operation: "inspect the key directory", path: path, errno: errno)
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .notRegularFile(path: path) }
        guard UInt32(st.st_uid) == currentUID else {
            throw .wrongOwner(path: path, ownerUID: UInt32(st.st_uid), currentUID: currentUID)
        }
        guard UInt32(st.st_mode) & 0o077 == 0 else { throw .insecureDirectory(path: path, mode: UInt32(st.st_mode)) }
        return true
    }

    /// Creates `path` (and missing parents) so that the last component is a 0700 directory.
    /// Parents that must be created get 0755 minus the umask, like `mkdir -p`.
    package static func createPrivateDirectory(_ path: String) throws(KeyStoreError) {
        let parent = PathText.directory(of: path)
        if parent != path, parent != "/", parent != "." {
            var st = stat()
            if stat(parent, &st) != 0 {
                guard errno == ENOENT else { throw .system(operation: "inspect", path: parent, errno: errno) }
                try createDirectory(parent, mode: 0o755)
            }
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .system(operation: "create the directory", path: path, errno: errno)
        }
        // mkdir applies the umask, which can only remove bits; chmod makes the mode exact.
        if chmod(path, 0o700) != 0 { throw .system(operation: "set mode 0700 on", path: path, errno: errno) }
    }

    private static func createDirectory(_ path: String, mode: mode_t) throws(KeyStoreError) {
        let parent = PathText.directory(of: path)
        if parent != path, parent != "/", parent != "." {
            var st = stat()
            if stat(parent, &st) != 0 {
                guard errno == ENOENT else { throw .system(operation: "inspect", path: parent, errno: errno) }
                try createDirectory(parent, mode: mode)
            }
        }
        if mkdir(path, mode) != 0, errno != EEXIST { throw .system(operation: "create", path: path, errno: errno) }
    }
}
