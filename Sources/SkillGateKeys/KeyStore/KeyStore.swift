import Synchronization

/// The provider secrets (`OPENAI_API_KEY`, ...) in a JSON file only the server's user can read.
///
/// The file is `{"version":1,"keys":{"NAME":"secret"}}`, mode 0600 in a 0700 directory. A missing
/// file is an empty store; it is created with those modes on the first write. Every write re-reads
/// the file under an exclusive lock and replaces it atomically (see `AtomicFileWriter`), so
/// concurrent writers, in this process or others (`skillgate keys set` while the server runs),
/// never lose each other's keys or leave a half-written file.
///
/// Secrets never appear in `description`, `debugDescription`, mirrors or errors.
public final class KeyStore: Sendable {
    /// The key file's path.
    public let path: String
    private let state: Mutex<KeyFileSnapshot>
    /// The file that could not be read last, and why: not read again while it stays the same (`reloadIfChanged`).
    private let lastFailure = Mutex<(identity: FileIdentity?, error: KeyStoreError)?>(nil)
    private var writer: AtomicFileWriter { AtomicFileWriter(target: path) }

    /// Loads the key file at `path`. Throws when the file or its directory can be reached by group
    /// or others (the error holds the `chmod` that fixes it), or when the file is malformed.
    /// Removes temp files an interrupted write left behind (they hold secrets), unless a live
    /// writer may still own them.
    public init(path: String) throws(KeyStoreError) {
        self.path = path
        let snapshot = try KeyFileReader.read(path: path)
        state = Mutex(snapshot)
        // The read checked that the directory is private (or that there is none).
        AtomicFileWriter(target: path).removeStaleTemporaries()
    }

    /// The secret stored under `name`, or nil.
    public func secret(named name: String) -> String? {
        state.locked { $0.keys[name] }
    }

    /// The key pool named `base`: `base` itself and every `base_N` (N a positive number, written
    /// without leading zeros) that is set, with their secrets, `base` first and then by N. Empty when
    /// none is set. `OPENAI_API_KEY`, `OPENAI_API_KEY_2`, `OPENAI_API_KEY_3` are one pool of three.
    public func pool(named base: String) -> [(name: String, secret: String)] {
        state.locked { snapshot in
            var members: [(number: Int, name: String, secret: String)] = []
            if let secret = snapshot.keys[base] { members.append((1, base, secret)) }
            let prefix = base + "_"
            for (name, secret) in snapshot.keys where name.hasPrefix(prefix) {
                let suffix = name.utf8.dropFirst(prefix.utf8.count)
                guard let first = suffix.first, first != UInt8(ascii: "0"), suffix.count <= 6,
                      suffix.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(Substring(suffix)) else { continue }
                members.append((number, name, secret))
            }
            return members.sorted { $0.number < $1.number }.map { (name: $0.name, secret: $0.secret) }
        }
    }

    /// The key names, sorted.
    public var names: [String] {
        state.locked { $0.keys.keys.sorted() }
    }

    /// Stores `secret` under `name` (replacing any earlier value) and writes the file atomically.
    public func set(_ name: String, secret: String) throws(KeyStoreError) {
        try KeyName.validate(name)
        guard !secret.isEmpty else { throw .emptySecret(name: name) }
        if let problem = Self.secretProblem(secret) { throw .invalidSecret(name: name, problem: problem) }
        try update { keys throws(KeyStoreError) in keys[name] = secret }
    }

    /// Why `secret` cannot be a provider's key, or nil: it holds a control character (a NUL, a CR that would end a header
    /// line, an escape) or a space. The character's code and position are named, never the secret's text.
    static func secretProblem(_ secret: String) -> String? {
        for (offset, byte) in secret.utf8.enumerated() where byte < 0x21 || byte == 0x7F {
            let code = String(byte, radix: 16, uppercase: true)
            let what = byte == 0x20 ? "a space" : "the control character 0x\(code.count == 1 ? "0" + code : code)"
            return "holds \(what) at byte \(offset + 1)"
        }
        return nil
    }

    /// Removes the key `name` and writes the file atomically. Throws when there is no such key.
    public func remove(_ name: String) throws(KeyStoreError) {
        try KeyName.validate(name)
        let path = self.path
        try update { keys throws(KeyStoreError) in
            guard keys.removeValue(forKey: name) != nil else { throw .unknownKey(name: name, path: path) }
        }
    }

    /// The names with masked secrets (`sk-…a1b2`), sorted by name, for listings.
    public func listMasked() -> [(name: String, masked: String)] {
        state.locked { snapshot in
            snapshot.keys.keys.sorted().map { (name: $0, masked: SecretMask.mask(snapshot.keys[$0] ?? "")) }
        }
    }

    /// Re-reads the file when it changed since the last read or write (a cheap `stat` of inode,
    /// size and times decides). Returns whether the keys were reloaded. On error the keys in memory
    /// stay as they were. The server calls this on SIGHUP and periodically.
    ///
    /// A file that could not be read is not read again until it changes (its failure is thrown again from memory): a
    /// broken file left in place was read whole at every 2-second look and every `/readyz` (decision 0152).
    public func reloadIfChanged() throws(KeyStoreError) -> Bool {
        let current = try FileIdentity.of(path: path)
        guard current != state.locked({ $0.identity }) else { return false }
        if let failed = lastFailure.locked({ $0 }), failed.identity == current { throw failed.error }
        let fresh: KeyFileSnapshot
        do {
            fresh = try KeyFileReader.read(path: path)
        } catch {
            lastFailure.locked { $0 = (current, error) }
            throw error
        }
        lastFailure.locked { $0 = nil }
        state.locked { $0 = fresh }
        return true
    }

    /// Re-reads the file under the writers' lock, applies `change`, and replaces the file.
    private func update(_ change: (inout [String: String]) throws(KeyStoreError) -> Void) throws(KeyStoreError) {
        let directory = PathText.directory(of: path)
        if try !FilePermissions.requirePrivateDirectory(directory) {
            try FilePermissions.createPrivateDirectory(directory)
        }
        let writer = self.writer
        try writer.withFileLock { () throws(KeyStoreError) in
            var snapshot = try KeyFileReader.read(path: path)
            try change(&snapshot.keys)
            writer.removeLeftoverTemporaries()
            let temporary = try writer.writeTemporary(KeyFileCodec.encode(snapshot.keys))
            try writer.commit(temporary: temporary.path)
            // Stat after the rename (which may touch ctime); no other writer can run while we hold the lock.
            snapshot.identity = try FileIdentity.of(path: path)
            // Still under the file lock, so memory always matches the last write.
            state.locked { $0 = snapshot }
        }
    }
}

extension KeyStore: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The path and key names; never a secret.
    public var description: String { "KeyStore(path: \(path), names: \(names))" }
    public var debugDescription: String { description }
    /// A mirror without children, so `dump` cannot print secrets.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
