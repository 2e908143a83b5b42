import Foundation
import Glibc
import Testing

/// The Python MCP server of `Tests/Fixtures/mcp/example_server.py` (written with the official `mcp`
/// SDK), run by the repository's `.venv` Python (`scripts/test.sh` installs the SDK there from
/// `Tests/Conformance/requirements.txt`), or by `SKILLGATE_MCP_PYTHON`.
enum MCPExampleServer {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static let script = repository + "/Tests/Fixtures/mcp/example_server.py"

    /// A Python that can import `mcp`, or nil (the tests that need it are then skipped, saying so).
    static let python: String? = {
        // Set (scripts/test.sh sets it), it is required: the tests fail rather than skip when it cannot run the SDK.
        if let required = ProcessInfo.processInfo.environment["SKILLGATE_MCP_PYTHON"] { return required }
        let candidate = repository + "/.venv/bin/python"
        guard access(candidate, X_OK) == 0 else { return nil }
        return system("'\(candidate)' -c 'import mcp' >/dev/null 2>&1") == 0 ? candidate : nil
    }()

    static let missing: Comment = "needs a Python with the mcp SDK: run ./scripts/install-deps.sh --python and pip install -r Tests/Conformance/requirements.txt (or set SKILLGATE_MCP_PYTHON)"

    /// A free TCP port on 127.0.0.1.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

/// Whether process `pid` (or its process group, with a negative id) still exists.
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
}
