import Foundation
import Glibc
import Testing
import SkillGateTestSupport

/// `skillgate serve` with a stdio MCP server: the server runs as the gateway's child and is gone, with
/// its own children, once the gateway stopped on SIGTERM.
@Suite struct MCPServeProcessTests {
    /// A stdio MCP server in shell: writes its pid to `$PIDFILE`, answers initialize and tools/list, then
    /// waits on a child of its own (which must not outlive the gateway either).
    static let server = #"""
    echo $$ > "$PIDFILE"
    read line; printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"sh"}}}\n'
    read line
    read line; printf '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"noop","inputSchema":{"type":"object"}}]}}\n'
    sleep 300 & wait
    """#

    /// `pid state command` of every process in group `pgid` (from /proc).
    static func group(_ pgid: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == pgid else { return nil }
            return "\(entry) \(fields[0]) \(stat[..<close])"
        }
    }

    /// A server that reads `initialize`, closes its stdin and only then answers: the gateway's next write (the
    /// `initialized` notification) fails with EPIPE, before the gateway's HTTP server started. Before SIGPIPE was
    /// ignored for stdio servers, `skillgate serve` died of it (exit 141) without a line in the log.
    static let deafServer = #"""
    read line; exec 0<&-
    printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"sh"}}}\n'
    sleep 5
    """#

    @Test func aServerThatClosesItsStdinLeavesTheGatewayServing() async throws {
        let (path, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        config["mcp_servers"] = ["deaf": ["command": "/bin/sh", "args": ["-c", Self.deafServer]]]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))

        let process = try SpawnedProcess(try ServeProcessTests.binary(), ["serve", "--config", path])
        defer { process.stop() }
        #expect(await process.wait(for: "\"listening\""), "\(process.output)")
        #expect(process.output.contains("deaf"), "the log does not name the server that failed: \(process.output)")
        process.signal(SIGTERM)
        #expect(await process.waitForExit())
        #expect(process.exitCode == 0, "exit code \(String(describing: process.exitCode)) (nil: ended by a signal); log: \(process.output)")
    }

    @Test func theGatewayLeavesNoMCPServerBehind() async throws {
        let (path, dir) = try ServeProcessTests.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("mcp.pid").path
        var config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        config["mcp_servers"] = ["sh": ["command": "/bin/sh", "args": ["-c", Self.server], "env": ["PIDFILE": pidFile]]]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))

        let process = try SpawnedProcess(try ServeProcessTests.binary(), ["serve", "--config", path])
        defer { process.stop() }
        #expect(await process.wait(for: "mcp server connected"), "\(process.output)")
        #expect(await process.wait(for: "\"listening\""), "\(process.output)")
        let pid = try #require(Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        #expect(kill(pid, 0) == 0)
        process.signal(SIGTERM)
        #expect(await process.waitForExit())
        // Neither the server nor anything in its process group is left (killed processes whose parent died are
        // reaped by init a moment later: allow it that moment).
        for _ in 0..<100 where kill(-pid, 0) == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
        #expect(kill(-pid, 0) != 0 && errno == ESRCH, "left in the group: \(Self.group(pid))")
    }
}
