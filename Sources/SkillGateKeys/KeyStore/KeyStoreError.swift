/// Why the key store refused an operation. No case ever carries a secret value.
public enum KeyStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file can be read or written by group or others.
    case insecureFile(path: String, mode: UInt32)
    /// The directory holding the key file can be used by group or others.
    case insecureDirectory(path: String, mode: UInt32)
    /// The file or directory belongs to another user than the one running SkillGate.
    case wrongOwner(path: String, ownerUID: UInt32, currentUID: UInt32)
    /// The path is not a regular file (or, for the directory, not a directory).
    case notRegularFile(path: String)
    /// The key file is not the expected JSON document.
    case malformedFile(path: String, detail: String)
    /// A key name breaks the naming rule (the name itself is not repeated: it may be a pasted secret).
    case invalidName(problem: String)
    /// An empty secret was given.
    case emptySecret(name: String)
    /// The secret holds a character no provider's key has (a control character or a space: a paste that took a line
    /// break or an escape along). The character's code is named, never the secret.
    case invalidSecret(name: String, problem: String)
    /// `remove` named a key that is not in the file.
    case unknownKey(name: String, path: String)
    /// A system call failed.
    case system(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .insecureFile(let path, let mode):
            return "refusing to use the key file \(path): its mode is \(octal(mode)), so group or others can access "
                + "the provider keys in it. Fix it with: chmod 600 \(path)"
        case .insecureDirectory(let path, let mode):
            return "refusing to use the key directory \(path): its mode is \(octal(mode)), so group or others can "
                + "reach or replace the key file. Fix it with: chmod 700 \(path)"
        case .wrongOwner(let path, let owner, let current):
            return "refusing to use \(path): it belongs to uid \(owner), but SkillGate runs as uid \(current). "
                + "Run SkillGate as the owner, or fix it with: chown \(current) \(path)"
        case .notRegularFile(let path):
            return "\(path) is not a regular file (or directory, for the key directory); point SkillGate at a plain key file"
        case .malformedFile(let path, let detail):
            return "the key file \(path) is malformed: \(detail). Expected {\"version\":1,\"keys\":{\"NAME\":\"secret\"}}; "
                + "fix the file by hand or move it away and add the keys again with `skillgate keys set NAME`"
        case .invalidName(let problem):
            return "invalid key name: \(problem). Key names use 1 to 64 characters from A-Z, 0-9 and _ "
                + "(like OPENAI_API_KEY); pass the secret on stdin, never as the name"
        case .invalidSecret(let name, let problem):
            return "the secret for \(name) \(problem); no provider's key holds one, so it would be refused by the provider "
                + "or break the request's header. Copy the key again and pipe exactly it: printf '%s' \"$SECRET\" | skillgate keys set \(name)"
        case .emptySecret(let name):
            return "the secret for \(name) is empty; type or pipe the secret on stdin "
                + "(for example: printf '%s' \"$SECRET\" | skillgate keys set \(name))"
        case .unknownKey(let name, let path):
            return "there is no key named \(name) in \(path); `skillgate keys list` shows the names"
        case .system(let operation, let path, let code):
            return "could not \(operation) \(path): \(systemErrorText(code)). Check that the path exists, "
                + "that SkillGate's user owns it, and that the disk is not full or read-only"
        }
    }

    private func octal(_ mode: UInt32) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
