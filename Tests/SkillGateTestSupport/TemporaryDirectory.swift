import Foundation

/// A fresh 0700 directory under the system temp dir, removed after `body`.
public func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// The async variant of `withTemporaryDirectory`.
public func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

private func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/skillgate-test-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed: errno \(errno)"])
    }
    return String(cString: made)
}

/// The permission bits of the file at `path`.
public func mode(of path: String) -> UInt32 {
    var st = stat()
    guard stat(path, &st) == 0 else { return 0 }
    return UInt32(st.st_mode) & 0o7777
}

/// Writes `text` to `path` with exactly `mode` permissions.
public func writeFile(_ path: String, _ text: String, mode: mode_t) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    guard chmod(path, mode) == 0 else { throw CocoaError(.fileWriteNoPermission) }
}

/// The whole content of `path` as bytes.
public func readBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
