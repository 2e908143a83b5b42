import Foundation

extension String {
    /// Writes the string as UTF-8 to `path` atomically: into a sibling file, renamed over `path`. For tests in place of
    /// Foundation's `write(toFile:atomically: true, encoding:)`, which on Linux leaves an empty `TemporaryDirectory.*`
    /// directory in the temporary directory for every write (a full test run left ~36).
    public func writeAtomically(toFile path: String) throws {
        let sibling = path + ".writing-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try write(toFile: sibling, atomically: false, encoding: .utf8)
            guard rename(sibling, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        } catch {
            unlink(sibling)
            throw error
        }
    }
}
