import Foundation
import SkillGateHTTP
import Synchronization
import Testing

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

    /// Collects a pipe's output on a thread of its own.
    final class Output: Sendable {
        private let text = Mutex("")
        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    self.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }.start()
        }
        var value: String { text.withLock { $0 } }
        func wait(for needle: String, upTo seconds: Double = 20) async -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if value.contains(needle) { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return value.contains(needle)
        }
    }

    static func start(_ arguments: [String]) throws -> (Process, Output) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let output = Output(errors)
        try process.run()
        return (process, output)
    }

    static func waitForExit(_ process: Process, upTo seconds: Double = 20) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { try? await Task.sleep(for: .milliseconds(50)) }
        return !process.isRunning
    }

    @Test func sigtermAfterACleanDrainExitsZero() async throws {
        let (config, dir) = try Self.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (process, output) = try Self.start(["serve", "--config", config])
        #expect(await output.wait(for: "\"listening\""), "no listening line: \(output.value)")
        kill(process.processIdentifier, SIGTERM)
        #expect(await Self.waitForExit(process))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "exit status \(process.terminationStatus); log: \(output.value)")
    }

    @Test func aTakenAddressIsRefusedWithWhatToDo() async throws {
        let (config, dir) = try Self.configFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let holder = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loops: 1),
                                    handler: ServeProcessHandler())
        try holder.start()
        let (process, output) = try Self.start(["serve", "--config", config, "--listen", "127.0.0.1:\(holder.boundPort)"])
        let exited = await Self.waitForExit(process)
        if !exited { process.terminate() }
        await holder.shutdown(deadline: .seconds(1))
        #expect(exited, "a second gateway started on a taken address")
        #expect(process.terminationStatus == 1)
        #expect(output.value.contains("already in use"), "\(output.value)")
        #expect(output.value.contains("--listen"))
    }
}

private struct ServeProcessHandler: HTTPHandler {
    func handle(_ request: HTTPServerRequest, responder: HTTPResponder) async {
        responder.respond(status: 200, headers: [:], body: [])
    }
}
