import Foundation

/// The inputs `scripts/fuzz.sh` saved for one fuzzing target (`Fuzz/crashers/<target>/`): each is a
/// regression case, replayed by the `*FuzzCrasherTests` suites (docs/decisions/0025-fuzzing-and-sanitizers.md).
public enum FuzzCrashers {
    /// The files' names, sorted (none when the target never crashed).
    public static func names(_ target: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory(target))) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// One file's bytes.
    public static func bytes(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory(target) + "/" + name)))
    }

    /// Two cut points taken from the input, as the fuzzing targets choose them.
    public static func cuts(_ data: [UInt8]) -> (Int, Int) {
        guard !data.isEmpty else { return (0, 0) }
        var h = 0
        for byte in data.prefix(64) { h = h &* 31 &+ Int(byte) }
        let x = Int(UInt(bitPattern: h) % UInt(data.count + 1))
        let y = Int(UInt(bitPattern: h / 7) % UInt(data.count + 1))
        return (min(x, y), max(x, y))
    }

    private static func directory(_ target: String) -> String {
        var url = URL(fileURLWithPath: #filePath)
        while url.path.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.path + "/Fuzz/crashers") { return url.path + "/Fuzz/crashers/" + target }
        }
        return "Fuzz/crashers/" + target
    }
}
