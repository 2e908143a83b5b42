#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why SkillGate refused to open its state database (`state.sqlite`, its `-wal`/`-shm`/`-journal`
/// files, or the state directory). Each description says what to run to fix it.
public enum StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path is a symbolic link; the database is only opened as a plain file.
    case symbolicLink(path: String)
    /// The path is not a regular file (or, for the state directory, not a directory).
    case notRegularFile(path: String)
    /// The file or directory belongs to another user than the one running SkillGate.
    case wrongOwner(path: String, ownerUID: UInt32, currentUID: UInt32)
    /// Group or others may write the database file (and so could have changed tokens or usage).
    case writableByOthers(path: String, mode: UInt32)
    /// Group or others have permissions on the state directory (they could replace the database).
    case insecureDirectory(path: String, mode: UInt32)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .symbolicLink(let path):
            return "refusing to open the state database \(path): it is a symbolic link. Replace the link with the file it points to "
                + "(mv TARGET \(path)), or set state_dir to the directory that holds the file"
        case .notRegularFile(let path):
            return "refusing to use \(path) for the state database: it is not a regular file (or, for the state directory, not a directory); "
                + "move it away so SkillGate can create the database, or point state_dir elsewhere"
        case .wrongOwner(let path, let owner, let current):
            return "refusing to use \(path): it belongs to uid \(owner), but SkillGate runs as uid \(current), so that user could change "
                + "client tokens and usage. Run SkillGate as the owner, or fix it with: chown \(current) \(path)"
        case .writableByOthers(let path, let mode):
            return "refusing to use the state database \(path): its mode is \(Self.octal(mode)), so group or others can change client "
                + "tokens and usage. Check that nobody changed it, then fix it with: chmod 600 \(path)"
        case .insecureDirectory(let path, let mode):
            return "refusing to use the state directory \(path): its mode is \(Self.octal(mode)), so group or others can replace "
                + "the state database. Fix it with: chmod 700 \(path)"
        case .system(let operation, let path, let code):
            return "could not \(operation) \(path): \(String(cString: strerror(code))). Check that the state directory exists, that "
                + "SkillGate's user owns it, and that the disk is not full or read-only"
        }
    }

    private static func octal(_ mode: UInt32) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
