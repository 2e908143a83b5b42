import Glibc
import SkillGateCore
import Testing
@testable import SkillGateSkills

/// The stdio client: against the SDK's example-style server (Tests/Fixtures/mcp/example_server.py),
/// and against shell doubles that hang, write garbage or leave children behind.
@Suite struct MCPStdioClientTests {
    @Test(.enabled(if: MCPExampleServer.python != nil, MCPExampleServer.missing))
    func talksToTheSDKServerAndStopsItsProcess() async throws {
        let transport = try MCPStdioTransport(command: MCPExampleServer.python!, arguments: [MCPExampleServer.script, "stdio"], environment: [], inbound: { _ in })
        let session = MCPClientSession(transport: transport)
        let name = try await session.initialize(timeout: .seconds(120))  // a loaded machine takes its time importing the SDK
        #expect(name == "skillgate-example")
        let tools = try await session.listTools(maxTools: 50, maxPages: 5, timeout: .seconds(60)).tools
        #expect(Set(tools.map(\.name)).isSuperset(of: ["add", "echo", "fail", "slow", "grow"]))
        #expect(tools.first { $0.name == "add" }?.inputSchema["required"] == ["a", "b"])
        let sum = try await session.callTool("add", arguments: ["a": 2, "b": 40], timeout: .seconds(60))
        #expect(sum.text == "42" && !sum.isError)
        let failed = try await session.callTool("fail", arguments: ["reason": "for the test"], timeout: .seconds(60))
        #expect(failed.isError)
        let pid = transport.pid
        #expect(processExists(pid))
        await transport.close()
        #expect(!processExists(pid))
        #expect(!transport.isOpen)
    }

    @Test func aServerThatNeverAnswersTimesOutAndIsStopped() async throws {
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", "cat > /dev/null"], environment: [], inbound: { _ in })
        let start = ContinuousClock.now
        do {
            try await MCPClientSession(transport: transport).initialize(timeout: .milliseconds(300))
            Issue.record("a silent server must time out")
        } catch {
            #expect(error.kind == .timeout)
        }
        // Bounded (the server would never answer). The timeout's timer is a task on the cooperative pool, which the whole
        // suite running in parallel keeps busy for 20–30 s on two cores; the error's kind is what shows the timeout fired.
        #expect(ContinuousClock.now - start < .seconds(60))
        await transport.close()
        #expect(!processExists(transport.pid))
    }

    @Test func aLineThatIsNotJSONRPCClosesTheConnectionWithAClearError() async throws {
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", "read line; echo 'this is not json'; sleep 30"], environment: [], inbound: { _ in })
        let start = ContinuousClock.now
        do {
            try await MCPClientSession(transport: transport).initialize(timeout: .seconds(10))
            Issue.record("garbage must be refused")
        } catch {
            #expect(error.kind == .protocolViolation)
            #expect(error.message.contains("not JSON-RPC") && error.message.contains("this is not json"))
        }
        // Bounded (the server then sleeps 30 s); the error's kind and text show it was the line, not the 10 s timeout.
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(!transport.isOpen)
        await transport.close()
    }

    @Test func anExitedServerSaysSoWithItsStderr() async throws {
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", "echo 'missing API key' >&2; exit 3"], environment: [], inbound: { _ in })
        do {
            try await MCPClientSession(transport: transport).initialize(timeout: .seconds(5))
            Issue.record("an exited server must fail")
        } catch {
            #expect(error.kind == .unavailable)
        }
        for _ in 0..<100 where transport.isOpen { try await Task.sleep(for: .milliseconds(20)) }
        #expect(transport.closedDescription.contains("exited with status 3"))
        #expect(transport.closedDescription.contains("missing API key"))
        await transport.close()
    }

    @Test func anUnknownCommandIsAStartErrorNamingIt() {
        #expect {
            _ = try MCPStdioTransport(command: "skillgate-no-such-mcp-server", arguments: [], environment: [], inbound: { _ in })
        } throws: { error in
            (error as? MCPError)?.message.contains("skillgate-no-such-mcp-server") == true
        }
    }

    @Test func closingLeavesNoOrphans() async throws {
        // A wrapper whose own child would outlive it if only the wrapper were signalled.
        let marker = "skillgate-orphan-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", "sleep 300 & echo $! >&2; trap '' TERM; wait", marker], environment: [], inbound: { _ in })
        let pid = transport.pid
        try await Task.sleep(for: .milliseconds(200))
        #expect(processExists(-pid))
        await transport.close()
        #expect(!processExists(pid))
        // The whole process group is gone: the background sleep too.
        #expect(!processExists(-pid))
    }

    @Test func environmentReachesTheServer() async throws {
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", #"read line; printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"%s"}}}\n' "$SERVER_NAME"; cat > /dev/null"#],
                                              environment: [("SERVER_NAME", "from-env")], inbound: { _ in })
        let name = try await MCPClientSession(transport: transport).initialize(timeout: .seconds(5))
        #expect(name == "from-env")
        await transport.close()
    }
}

extension MCPStdioClientTests {
    @Test func theServerInheritsNoDescriptorOfTheGateway() async throws {
        // A descriptor without close-on-exec, like a socket another part of the gateway (or a parallel test) holds.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let script = #"read line; printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"%s"}}}\n' "$(ls /proc/$$/fd | tr '\n' ' ')"; cat > /dev/null"#
        let transport = try MCPStdioTransport(command: "/bin/sh", arguments: ["-c", script], environment: [], inbound: { _ in })
        let open = try await MCPClientSession(transport: transport).initialize(timeout: .seconds(10)).split(separator: " ").compactMap { Int32($0) }
        #expect(open.contains(0) && open.contains(1) && open.contains(2))
        #expect(!open.contains(fds[0]) && !open.contains(fds[1]), "the server inherited \(open)")
        // Nothing but stdio and the shell's own descriptors (its command-substitution pipe, and on a loaded machine
        // sometimes one more of its own): a parallel suite holds hundreds, so an inheritance would show as many more.
        #expect(open.count <= 6, "\(open)")
        await transport.close()
    }
}
