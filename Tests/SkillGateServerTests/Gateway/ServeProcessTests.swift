import Foundation
import SkillGateHTTP
import Synchronization
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

    /// A config with the demo provider in a temporary directory.
    static func configFile() throws -> (path: String, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-serve-\(UUID().uuidString)")
        let providers = dir.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repo.appendingPathComponent("Providers/demo.json"), to: providers.appendingPathComponent("demo.json"))
        let config = #"""
        {"listen":"127.0.0.1:0","state_dir":"state","providers_dir":"providers",
         "tiers":{"light":["demo/demo-light"],"strong":["demo/demo-strong"]},"default_model":"light",
         "limits":{"shutdown_grace_seconds":2}}
        """#
        let path = dir.appendingPathComponent("skillgate.json").path
        try config.write(toFile: path, atomically: true, encoding: .utf8)
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
}

private struct ServeProcessHandler: HTTPHandler {
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        responder.respond(status: 200, headers: [:], body: [])
    }
}
