import Foundation

/// The libFuzzer entry points. The target is chosen once, from `SKILLGATE_FUZZ_TARGET`.
nonisolated(unsafe) private var selected: FuzzTarget.Type?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let env = ProcessInfo.processInfo.environment
    guard let name = env["SKILLGATE_FUZZ_TARGET"], let target = FuzzTargets.all[name] else {
        let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
        printError("set SKILLGATE_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    // `SKILLGATE_FUZZ_SEEDS=<repo root>:<out dir>` writes the target's seed corpus and exits.
    if let spec = env["SKILLGATE_FUZZ_SEEDS"] {
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        let count = SeedWriter(repo: parts[0], out: parts[1]).write(target.seeds(Fixtures(repo: parts[0])))
        print("\(name): \(count) seeds")
        exit(0)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    selected?.run(bytes)
    return 0
}

/// One fuzzing target: a parser fed untrusted bytes, with the invariants it must keep.
protocol FuzzTarget {
    /// Runs one input; a broken invariant calls `invariant` (which aborts, so libFuzzer keeps it).
    static func run(_ data: [UInt8])
    /// The seed corpus, made from the recordings under Tests/.
    static func seeds(_ fixtures: Fixtures) -> [[UInt8]]
}

enum FuzzTargets {
    static let all: [String: FuzzTarget.Type] = [
        "json": JSONTarget.self,
        "sse": SSETarget.self,
        "http1-response": HTTP1ResponseTarget.self,
        "http1-request": HTTP1RequestTarget.self,
        "inbound": InboundTarget.self,
        "openai-upstream": UpstreamTarget<OpenAIUpstream>.self,
        "anthropic-upstream": UpstreamTarget<AnthropicUpstream>.self,
        "gemini-upstream": UpstreamTarget<GeminiUpstream>.self,
        "prompt-tools": PromptToolsTarget.self,
        "validator": ValidatorTarget.self,
        "selector": SelectorTarget.self,
    ]
}

/// Stops the run with `message` when `condition` is false (libFuzzer saves the input as a crash).
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        printError("invariant broken: \(message())")
        abort()
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// libFuzzer's driver (in the toolchain's libclang_rt.fuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The program's entry: SwiftPM links an executable target's `main` to `<module>_main`, which
/// here hands over to libFuzzer's driver.
@_cdecl("skillgate_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) }
}
