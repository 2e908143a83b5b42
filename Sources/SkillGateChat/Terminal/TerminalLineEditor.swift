import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Reads a line from a terminal with its own small line editing (Backspace, Ctrl-U, Ctrl-W;
/// arrow and other escape sequences are ignored), so the chat knows what was typed so far: Ctrl-C
/// on a half-typed line just discards it, Ctrl-C on an empty prompt leaves.
///
/// From the first `readLine` on, the terminal is in non-canonical mode without echo (signals stay
/// on, so Ctrl-C still raises SIGINT; output is untouched), also while answers stream: keys typed
/// meanwhile wait in the terminal and are read, and echoed once, by the next prompt. Switching back
/// to the canonical mode between lines lost keys typed during an answer: a Ctrl-D became the
/// canonical mode's end-of-file mark, which reads as a NUL byte once the mode is non-canonical again,
/// so the chat never left. `restoreTerminal()` puts the previous settings back: call it before the
/// program ends. Use only when standard input is a terminal (`isatty(0)`).
public final class TerminalLineEditor: ChatLineReader, Sendable {
    private struct State {
        var line: [UInt8] = []
        var prompt = ""
        var reading = false
        var saved: termios?
    }

    private let output: any ChatOutput
    private let state = Mutex(State())

    public init(output: any ChatOutput = StandardOutputWriter()) {
        self.output = output
    }

    public func readLine(prompt: String) async -> String? {
        enterLineMode(prompt: prompt)  // before the prompt shows, so nothing typed is echoed twice
        output.write(prompt)
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            DispatchQueue.global().async { [self] in
                continuation.resume(returning: readBlocking(prompt: prompt))
            }
        }
    }

    /// Called for Ctrl-C at the prompt: a half-typed line is discarded and a fresh prompt shown
    /// (returns true); on an empty line it returns false — the caller leaves.
    public func discardTypedLine() -> Bool {
        let prompt = state.locked { s -> String? in
            guard s.reading, !s.line.isEmpty else { return nil }
            s.line.removeAll()
            return s.prompt
        }
        guard let prompt else { return false }
        output.write("^C\n" + prompt)
        return true
    }

    /// Puts the terminal settings from before the first `readLine` back (call before the program ends).
    public func restoreTerminal() {
        if var saved = state.locked({ s -> termios? in defer { s.saved = nil }; return s.saved }) {
            tcsetattr(0, TCSANOW, &saved)
        }
    }

    /// Starts reading a line; the first call also puts the terminal in line mode, where it stays until
    /// `restoreTerminal()`.
    private func enterLineMode(prompt: String) {
        let inLineMode = state.locked { $0.saved != nil }
        var original = termios()
        if !inLineMode, tcgetattr(0, &original) == 0 {
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            tcsetattr(0, TCSANOW, &raw)
            state.locked { $0.saved = original }
        }
        state.locked { s in
            s.line.removeAll()
            s.prompt = prompt
            s.reading = true
        }
    }

    private func readBlocking(prompt: String) -> String? {
        defer { state.locked { $0.reading = false } }
        var escape = EscapeSkipper()
        var byte: UInt8 = 0
        while true {
            let n = read(0, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {  // end of input
                let line = state.locked { $0.line }
                if line.isEmpty { return nil }
                output.write("\n")
                return String(decoding: line, as: UTF8.self)
            }
            if escape.consume(byte) { continue }
            switch byte {
            case 0x0D, 0x0A:
                output.write("\n")
                return String(decoding: state.locked { $0.line }, as: UTF8.self)
            case 0x04:  // Ctrl-D: leaves on an empty line
                if state.locked({ $0.line.isEmpty }) { return nil }
            case 0x7F, 0x08:
                if state.locked({ Self.dropLastCharacter(&$0.line) }) { output.write("\u{8} \u{8}") }
            case 0x15:  // Ctrl-U
                state.locked { $0.line.removeAll() }
                output.write("\r\u{1B}[K" + prompt)
            case 0x17:  // Ctrl-W
                var erased = 0
                state.locked { s in
                    while s.line.last == 0x20, Self.dropLastCharacter(&s.line) { erased += 1 }
                    while let last = s.line.last, last != 0x20, Self.dropLastCharacter(&s.line) { erased += 1 }
                }
                output.write(String(repeating: "\u{8} \u{8}", count: erased))
            case 0x09:
                state.locked { $0.line.append(0x20) }
                output.write(" ")
            case ..<0x20:
                break  // other control characters are ignored
            default:
                state.locked { $0.line.append(byte) }
                if byte < 0x80 { output.write(String(UnicodeScalar(byte))) } else { echoCompletedCharacter() }
            }
        }
    }

    /// Multi-byte UTF-8 characters are echoed once their last byte arrived.
    private func echoCompletedCharacter() {
        let tail = state.locked { s -> [UInt8]? in
            guard let last = s.line.last, last >= 0x80 else { return nil }
            var start = s.line.count - 1
            while start > 0, s.line[start] & 0xC0 == 0x80 { start -= 1 }
            let lead = s.line[start]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            return s.line.count - start == length ? Array(s.line[start...]) : nil
        }
        if let tail { output.write(String(decoding: tail, as: UTF8.self)) }
    }

    /// Removes the last UTF-8 character; false when the line was empty.
    static func dropLastCharacter(_ line: inout [UInt8]) -> Bool {
        guard !line.isEmpty else { return false }
        while let last = line.popLast(), last & 0xC0 == 0x80, !line.isEmpty {}
        return true
    }
}

/// Swallows terminal escape sequences (arrow keys, function keys): ESC, then `[` or `O` and
/// parameters up to a final byte in 0x40...0x7E.
struct EscapeSkipper {
    private enum Phase { case idle, escape, sequence }
    private var phase = Phase.idle

    /// Whether `byte` belongs to an escape sequence (and must be ignored).
    mutating func consume(_ byte: UInt8) -> Bool {
        switch phase {
        case .idle:
            if byte == 0x1B { phase = .escape; return true }
            return false
        case .escape:
            phase = (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O")) ? .sequence : .idle
            return true
        case .sequence:
            if (0x40...0x7E).contains(byte) { phase = .idle }
            return true
        }
    }
}
