import Foundation
import SkillGateHTTP
import Testing
import SkillGateTestSupport

/// `skillgate serve` as a process: its exit status after SIGTERM, and its refusal of a taken address.
@Suite(.serialized) struct ServeProcessTests {
    /// The `skillgate` executable next to the test bundle (swift build --build-tests builds both).
    static func binary() throws -> String {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var dir = URL(fileURLWithPath: me).deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir.deleteLastPathComponent() }
        let path = dir.appendingPathComponent("skillgate").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(path) is missing; build it with `swift build --build-tests`"])
        }
        return path
    }

    /// A config with the demo provider in a temporary directory; `extra`: more top-level members (`"name":value,`).
    static func configFile(_ extra: String = "", listen: String = "127.0.0.1:0") throws -> (path: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-serve-\(UUID().uuidString)")
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repo.appendingPathComponent("Providers/demo.json"), to: providers.appendingPathComponent("demo.json"))
        let config = #"""
        {\#(extra)"listen":"\#(listen)","state_dir":"state","providers_dir":"providers",
         "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light",
         "limits":{"shutdown_grace_seconds":2}}
        """#
        let path = dir.appendingPathComponent("skillgate.json").path
        try config.writeAtomically(toFile: path)
        return (path, dir)
    }

    @Test func sigtermAfterACleanDrainExitsZero() async throws {
        let (config, dir) = try Self.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = try SpawnedProcess(try Self.binary(), ["serve", "--config", config])
        defer { process.stop() }
        #expect(await process.wait(for: "\"listening\""), "no listening line: \(process.output)")
        process.signal(SIGTERM)
        #expect(await process.waitForExit())
        #expect(process.exitCode == 0, "exit code \(String(describing: process.exitCode)) (nil: ended by a signal); log: \(process.output)")
    }

    @Test func aTakenAddressIsRefusedWithWhatToDo() async throws {
        let (config, dir) = try Self.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let holder = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1),
                                    handler: ServeProcessHandler())
        try holder.start()
        let process = try SpawnedProcess(try Self.binary(), ["serve", "--config", config, "--listen", "127.0.0.1:\(holder.boundPort)"])
        defer { process.stop() }
        let exited = await process.waitForExit()
        await holder.shutdown(deadline: .seconds(1))
        #expect(exited, "a second gateway started on a taken address")
        #expect(process.exitCode == 1)
        #expect(process.output.contains("already in use"), "\(process.output)")
        #expect(process.output.contains("--listen"))
    }

    /// A taken `metrics.listen` is named as such; before, the message blamed `listen` and advised another `--listen`
    /// port, which could not help.
    @Test func aTakenMetricsAddressIsNamedAsSuch() async throws {
        let holder = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1), handler: ServeProcessHandler())
        try holder.start()
        let (config, dir) = try Self.configFile(#""metrics":{"listen":"127.0.0.1:\#(holder.boundPort)"},"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = try SpawnedProcess(try Self.binary(), ["serve", "--config", config])
        defer { process.stop() }
        let exited = await process.waitForExit()
        await holder.shutdown(deadline: .seconds(1))
        #expect(exited, "a gateway started on a taken metrics address")
        #expect(process.exitCode == 1)
        #expect(process.output.contains("the metrics address 127.0.0.1:\(holder.boundPort)"), "\(process.output)")
        #expect(process.output.contains("its own metrics port"), "\(process.output)")
    }

    /// A restart over `reuse_port` (decision 0145): the next gateway starts on the same `listen` and `metrics.listen`
    /// while the old one still runs, the old one drains on SIGTERM and exits 0, and the new one serves both ports.
    /// Before, the metrics listener did not share its port, so the next gateway could not start.
    @Test func theNextGatewayStartsBeforeTheOldOneStops() async throws {
        // A free port can be taken by another test's connection before the gateway binds it: then two others are tried.
        var attempt = 0
        var (port, metricsPort, config, dir, started) = (0, 0, "", URL(fileURLWithPath: "/"), SpawnedProcess?.none)
        repeat {
            attempt += 1
            if let taken = started { taken.stop(); try? FileManager.default.removeItem(at: dir) }
            (port, metricsPort) = (try await Self.freePort(), try await Self.freePort())
            (config, dir) = try Self.configFile(#""reuse_port":true,"metrics":{"listen":"127.0.0.1:\#(metricsPort)"},"#,
                                                listen: "127.0.0.1:\(port)")
            started = try SpawnedProcess(try Self.binary(), ["serve", "--config", config])
            _ = await started!.wait(for: "\"listening\"")
        } while attempt < 3 && started!.output.contains("already in use")
        let old = started!
        defer { try? FileManager.default.removeItem(at: dir) }
        defer { old.stop() }
        #expect(old.output.contains("\"listening\""), "the first gateway did not start: \(old.output)")
        let next = try SpawnedProcess(try Self.binary(), ["serve", "--config", config])
        defer { next.stop() }
        #expect(await next.wait(for: "\"listening\""), "the next gateway did not start beside the first: \(next.output)")
        old.signal(SIGTERM)
        #expect(await old.waitForExit())
        #expect(old.exitCode == 0, "\(old.output)")
        let http = HTTPClient()
        defer { http.shutdown() }
        for path in ["http://127.0.0.1:\(port)/readyz", "http://127.0.0.1:\(metricsPort)/metrics"] {
            let answer = try await http.send(HTTPRequest(method: "GET", url: path))
            #expect(answer.status == 200, "\(path): \(answer.status)")
        }
    }

    /// A port nothing listens on now (the kernel's choice for port 0, released). The probe's stop is awaited: a
    /// thread of the shared task pool that polled for it would wait for another task of that pool.
    static func freePort() async throws -> Int {
        let probe = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1), handler: ServeProcessHandler())
        try probe.start()
        let port = probe.boundPort
        await probe.shutdown(deadline: .zero)
        return port
    }
}

private struct ServeProcessHandler: HTTPHandler {
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        responder.respond(status: 200, headers: [:], body: [])
    }
}
