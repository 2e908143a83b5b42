import Dispatch
import FoundationEssentials
import Glibc

/// Reads lines from standard input. The blocking read runs on a Dispatch thread, so the Swift
/// concurrency pool stays free for the streaming answer.
public struct StandardInputReader: ChatLineReader {
    private let output: any ChatOutput

    /// Prompts are written to `output`.
    public init(output: any ChatOutput = StandardOutputWriter()) {
        self.output = output
    }

    public func readLine(prompt: String) async -> String? {
        output.write(prompt)
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Swift.readLine(strippingNewline: true))
            }
        }
    }
}

/// Writes straight to file descriptor 1 (no stdio buffering, so streamed text shows at once).
public struct StandardOutputWriter: ChatOutput {
    public init() {}

    public func write(_ text: String) {
        guard !text.isEmpty else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}

/// Routes SIGINT (Ctrl-C) to a chat: it stops the streaming answer, or — at the prompt — calls
/// `atPrompt` (the CLI leaves the chat there). Keep the value alive as long as the chat runs.
public final class InterruptSignalHandler {
    private let source: any DispatchSourceSignal

    /// Replaces SIGINT's default action (terminate) with `SIG_IGN` and listens with a Dispatch source.
    public init(interrupts: ChatInterrupts, atPrompt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if !interrupts.interrupt() { atPrompt() }
        }
        source.resume()
        self.source = source
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
