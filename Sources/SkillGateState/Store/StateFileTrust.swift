#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkillGateKeys

/// The checks the state database passes before SQLite opens it — the key file's rule
/// (`SkillGateKeys.FilePermissions`) applied to `state.sqlite` (decision 0023):
///
/// - the state directory is created 0700 when missing; an existing one must be a directory owned
///   by SkillGate's user with no permissions for group or others;
/// - the database is never reached through a symbolic link (`O_NOFOLLOW` here, `lstat` for the
///   companions, `SQLITE_OPEN_NOFOLLOW` for SQLite itself);
/// - the database and its `-wal`, `-shm` and `-journal` files must be regular files owned by
///   SkillGate's user that group and others cannot write; read permissions are removed (0600);
/// - a missing database is created 0600 by `open` itself.
enum StateFileTrust {
    /// The files SQLite keeps next to the database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Runs every check for the database at `path`, creating the directory and the file when missing.
    static func prepare(_ path: String) throws(StateFileError) {
        try prepareDirectory(PathText.directory(of: path))
        try prepareDatabase(path)
        for suffix in companionSuffixes { try checkCompanion(path + suffix) }
    }

    static func prepareDirectory(_ directory: String) throws(StateFileError) {
        var st = stat()
        guard stat(directory, &st) == 0 else {
            guard errno == ENOENT else { throw .system(operation: "inspect the state directory", path: directory, errno: errno) }
            do { try FilePermissions.createPrivateDirectory(directory) } catch {
                if case .system(let operation, let path, let code) = error { throw .system(operation: operation, path: path, errno: code) }
                throw .system(operation: "create the state directory", path: directory, errno: EACCES)
            }
            return
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .notRegularFile(path: directory) }
        guard UInt32(st.st_uid) == currentUID else { throw .wrongOwner(path: directory, ownerUID: UInt32(st.st_uid), currentUID: currentUID) }
        // Others who can write the directory could replace the database: refused. A directory of ours that others
        // can only read or enter (a plain `mkdir` under umask 022) is tightened to 0700, as the database file is.
        guard UInt32(st.st_mode) & 0o022 == 0 else { throw .insecureDirectory(path: directory, mode: UInt32(st.st_mode)) }
        if UInt32(st.st_mode) & 0o077 != 0, chmod(directory, 0o700) != 0 {
            throw .system(operation: "set mode 0700 on the state directory", path: directory, errno: errno)
        }
    }

    /// Opens (creating 0600) the database file without following a link and checks the opened file.
    static func prepareDatabase(_ path: String) throws(StateFileError) {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw .symbolicLink(path: path) }
            throw .system(operation: "open the state database", path: path, errno: errno)
        }
        defer { close(fd) }
        try requirePrivate(fd: fd, path: path)
    }

    /// Checks a `-wal`, `-shm` or `-journal` file when there is one.
    static func checkCompanion(_ path: String) throws(StateFileError) {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw .system(operation: "inspect", path: path, errno: errno)
        }
        if (st.st_mode & S_IFMT) == S_IFLNK { throw .symbolicLink(path: path) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }  // SQLite removed it meanwhile
            if errno == ELOOP { throw .symbolicLink(path: path) }
            throw .system(operation: "open", path: path, errno: errno)
        }
        defer { close(fd) }
        try requirePrivate(fd: fd, path: path)
    }

    /// The rule for an opened file: regular, ours, not writable by group or others; read bits for
    /// them are removed.
    private static func requirePrivate(fd: Int32, path: String) throws(StateFileError) {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(operation: "inspect", path: path, errno: errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(path: path) }
        guard UInt32(st.st_uid) == currentUID else { throw .wrongOwner(path: path, ownerUID: UInt32(st.st_uid), currentUID: currentUID) }
        let mode = UInt32(st.st_mode)
        guard mode & 0o022 == 0 else { throw .writableByOthers(path: path, mode: mode) }
        if mode & 0o077 != 0, fchmod(fd, 0o600) != 0 { throw .system(operation: "set mode 0600 on", path: path, errno: errno) }
    }
}
