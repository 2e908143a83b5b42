import Foundation
import Synchronization
import Testing
@testable import SkillGateKeys

/// `SecretInput` on a real pseudo-terminal: what the user types is not echoed, editing keys work,
/// Ctrl-C cancels, and the terminal settings are restored afterwards.
#if os(Linux)
@Suite struct SecretInputTerminalTests {
    private final class Terminal {
        let primary: Int32
        let secondary: Int32
        /// Set when a reader may still use the terminal: `close` then keeps it open.
        private var leaked = false

        init() throws {
            // posix_openpt/unlockpt/ptsname are hidden from Swift's Glibc module; use the ioctls behind them.
            primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0, number: UInt32 = 0
            let TIOCSPTLCK: UInt = 0x4004_5431, TIOCGPTN: UInt = 0x8004_5430
            guard primary >= 0, ioctl(primary, TIOCSPTLCK, &unlock) == 0, ioctl(primary, TIOCGPTN, &number) == 0 else {
                throw CocoaError(.fileReadUnknown)
            }
            secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard secondary >= 0 else { throw CocoaError(.fileReadUnknown) }
        }

        func close() {
            guard !leaked else { return }
            Foundation.close(secondary)
            Foundation.close(primary)
        }

        func leak() { leaked = true }

        func echoIsOn() -> Bool {
            var t = termios()
            _ = tcgetattr(secondary, &t)
            return t.c_lflag & tcflag_t(ECHO) != 0
        }

        /// Everything the terminal echoed back so far (non-blocking).
        func drainOutput() -> String {
            var out: [UInt8] = []
            var pfd = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 256)
            while poll(&pfd, 1, 50) > 0, pfd.revents & Int16(POLLIN) != 0 {
                let n = read(primary, &buffer, buffer.count)
                if n <= 0 { break }
                out += buffer[..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Reads a secret on the terminal while `keys` are typed once echo is off.
    private func type(_ keys: String, on terminal: Terminal) throws -> Result<String, SecretInput.Failure> {
        var promptFDs: [Int32] = [0, 0]
        guard pipe(&promptFDs) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for fd in promptFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let result = Mutex<Result<String, SecretInput.Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let secondary = terminal.secondary, promptFD = promptFDs[1]
        Thread {
            let r = Result { () throws(SecretInput.Failure) in try SecretInput.read(prompt: "Key: ", from: secondary, promptTo: promptFD) }
            result.locked { $0 = r }
            done.signal()
        }.start()
        // Type only once the reader has switched echo off, as a person would after the prompt.
        for _ in 0..<400 where terminal.echoIsOn() { usleep(5_000) }
        #expect(!terminal.echoIsOn())
        _ = keys.utf8CString.withUnsafeBufferPointer { write(terminal.primary, $0.baseAddress, $0.count - 1) }
        guard done.wait(timeout: .now() + 10) == .success else {
            // The reader still uses the terminal and the prompt pipe: they stay open (leaked) rather than let it read
            // or write descriptor numbers another test may be given once they are closed.
            terminal.leak()
            Issue.record("SecretInput.read did not return within 10 s")
            throw CocoaError(.fileReadUnknown)
        }
        close(promptFDs[0]); close(promptFDs[1])
        return try #require(result.locked { $0 })
    }

    @Test func readsWithoutEchoAndRestoresTheTerminal() throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        #expect(terminal.echoIsOn())
        let result = try type("sk-tty-secret-1234\r", on: terminal)
        #expect(try result.get() == "sk-tty-secret-1234")
        #expect(!terminal.drainOutput().contains("sk-tty"), "nothing typed was echoed")
        #expect(terminal.echoIsOn(), "echo is restored")
    }

    @Test func backspaceAndCtrlUEdit() throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        #expect(try type("wrong\u{15}sk-abcé\u{7F}x\u{7F}\u{7F}d\n", on: terminal).get() == "sk-abd")
    }

    @Test func ctrlCCancelsAndRestoresTheTerminal() throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        #expect(throws: SecretInput.Failure.cancelled) { try type("sk-part\u{03}", on: terminal).get() }
        #expect(terminal.echoIsOn())
    }
}
#endif
