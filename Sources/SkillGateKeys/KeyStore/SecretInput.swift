#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a secret from standard input, never from the command line (where `ps` and shell history see it).
public enum SecretInput {
    /// Why no secret was read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line was empty (or stdin was at its end).
        case empty
        /// Reading failed.
        case readFailed(errno: Int32)
        /// The user pressed Ctrl-C at the prompt.
        case cancelled
        /// Piped input held text after its first line: only the first line would have been kept.
        case severalLines

        public var description: String {
            switch self {
            case .empty:
                return "no secret was entered: type it at the prompt and press Enter, or pipe it in "
                    + "(for example: printf '%s' \"$SECRET\" | skillgate keys set NAME)"
            case .cancelled:
                return "cancelled at the secret prompt; nothing was changed"
            case .severalLines:
                return "the piped input has more than one line, and a key is one; nothing was changed. Pipe exactly the key "
                    + "(for example: printf '%s' \"$SECRET\" | skillgate keys set NAME)"
            case .readFailed(let code):
                return "could not read the secret from stdin: \(systemErrorText(code)); pipe the secret in "
                    + "or run the command in a terminal"
            }
        }
    }

    /// Prints `prompt` to stderr, reads one line from stdin with echo turned off when stdin is a
    /// terminal (a plain read for pipes), and returns it without surrounding whitespace. Throws
    /// when the line is empty.
    public static func read(prompt: String) throws(Failure) -> String {
        try read(prompt: prompt, from: STDIN_FILENO, promptTo: STDERR_FILENO)
    }

    /// `read(prompt:)` over explicit descriptors (tests use a pipe).
    static func read(prompt: String, from input: Int32, promptTo output: Int32) throws(Failure) -> String {
        if !prompt.isEmpty { writeText(prompt, to: output) }
        let line: [UInt8]
        if isatty(input) == 1 {
            // The Enter key was not echoed: end the prompt's line either way.
            defer { writeText("\n", to: output) }
            line = try readTerminalLine(from: input)
        } else {
            line = try readLine(from: input)
            if try restHasText(input) { throw .severalLines }
        }
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = text.trimmingSurroundingWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        return trimmed
    }

    /// Bytes up to (not including) the first newline or the end of input. Reads one byte at a
    /// time so nothing after the line is consumed from a shared stdin.
    private static func readLine(from fd: Int32) throws(Failure) -> [UInt8] {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = posixRead(fd, &byte, 1)
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(errno: errno)
            }
            if n == 0 || byte == 0x0A { return line }
            line.append(byte)
        }
    }

    /// Whether piped input holds anything but whitespace after its first line (read to its end, at most 64 KiB).
    private static func restHasText(_ fd: Int32) throws(Failure) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < 65_536 {
            let n = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(errno: errno)
            }
            if n == 0 { return false }
            if buffer[..<n].contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) { return true }
            total += n
        }
        return true
    }

    /// A line typed at a terminal with echo off. Canonical mode and signals are off too, so the
    /// terminal is never left silent by a Ctrl-C: it arrives as a byte and cancels here, after the
    /// settings are restored. Backspace and Ctrl-U edit; Enter or Ctrl-D ends the line.
    private static func readTerminalLine(from fd: Int32) throws(Failure) -> [UInt8] {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return try readLine(from: fd) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return try readLine(from: fd) }
        defer { _ = tcsetattr(fd, TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = posixRead(fd, &byte, 1)
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(errno: errno)
            }
            switch n == 0 ? 0x04 : byte {
            case 0x0A, 0x0D, 0x04: return line              // Enter, Ctrl-D, end of input
            case 0x03: throw .cancelled                     // Ctrl-C
            case 0x15: line.removeAll()                     // Ctrl-U
            case 0x7F, 0x08:                                // Backspace: drop one UTF-8 character
                while let last = line.popLast(), last & 0xC0 == 0x80 {}
            default: line.append(byte)
            }
        }
    }

    private static func writeText(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        _ = write(fd, &bytes, bytes.count)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, CR and LF.
    func trimmingSurroundingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
