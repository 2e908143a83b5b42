import Foundation
import Testing

/// The repository's Swift code takes a `Synchronization.Mutex` with `locked`, never `withLock` (decision 0165): a
/// `withLock` is invisible to ThreadSanitizer, and two threads' accesses inside it come back as a false race that
/// `scripts/sanitize.sh thread` counts as a failure. Nor does it make a Mutex of `()`: its value has no size and sits at
/// the address of whatever is stored next, so the body's access to it was reported as a race with that neighbour's
/// readers.
@Suite struct MutexAnnotationRuleTests {
    /// The checkout's root: the nearest ancestor of this file holding `Package.swift`.
    private static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    /// The lines of `.swift` files under `folder` that call `.withLock` or make a Mutex of `()`, as `path:line`.
    private static func unannotatedMutexUses(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil, options: .skipsHiddenFiles) else { return [] }
        // In pieces, so this file does not match itself.
        let call = "." + "withLock"
        let emptyValues = ["Mutex" + "(())", "Mutex" + "<()>", "Mutex" + "<Void>"]
        var found: [String] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(call + " {") || line.contains(call + "(") || emptyValues.contains(where: { line.contains($0) }) {
                found.append("\(url.path.dropFirst(root.path.count + 1)):\(index + 1)")
            }
        }
        return found
    }

    @Test(arguments: ["Sources", "Tests", "Fuzz"])
    func everyMutexIsTakenWithLockedAndHoldsAValue(folder: String) {
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(folder).path))
        let calls = Self.unannotatedMutexUses(under: folder)
        #expect(calls.isEmpty, "call `locked` instead of `withLock`, and give a Mutex a value of some size (decision 0165): \(calls.joined(separator: ", "))")
    }
}
