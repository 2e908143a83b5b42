import Foundation
import Synchronization
import Testing

/// Runs a program on a fresh pseudo-terminal, as a session leader whose controlling terminal is
/// that pty — so typing Ctrl-C (byte 0x03) raises SIGINT in it, exactly as in a real terminal.
/// Everything the program prints is collected by a reader thread.
final class PseudoTerminal: Sendable {
    let pid: pid_t
    private let master: Int32
    /// The terminal's number: `/dev/pts/<number>`.
    private let number: UInt32
    private let collected = Mutex<[UInt8]>([])
    private let exitStatus = Mutex<Int32?>(nil)
    /// Whether `master` is still open; writes and the close take it, so neither touches a closed descriptor whose
    /// number another test may have been given meanwhile.
    private let masterOpen = Mutex(true)
    /// Signalled when the reader thread stopped reading `master`.
    private let readerDone = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` and exactly `environment`. Linux only: /dev/ptmx and its ioctls.
    init(executable: String, arguments: [String], environment: [String: String]) throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw PTYError("open /dev/ptmx failed: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (their _IOW/_IOR macros are not imported into Swift).
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            close(master)
            throw PTYError("unlocking the pty failed: errno \(errno)")
        }
        var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid (glibc runs file actions after the attributes), so it becomes the
        // child's controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/pts/\(number)", O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID */ | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var defaults = sigset_t()  // the test process ignores some (SIGPIPE for its HTTP server)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGPIPE, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            close(master)
            throw PTYError("posix_spawn \(executable) failed: \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        self.master = master
        self.number = number
        let thread = Thread { [self] in
            readUntilClosed()
            readerDone.signal()
        }
        thread.start()
    }

    /// Types `text` (use "\r" for Enter, "\u{03}" for Ctrl-C, "\u{04}" for Ctrl-D).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        masterOpen.locked { open in
            guard open else { return }
            bytes.withUnsafeBytes { _ = Glibc.write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Everything printed so far.
    /// Whether the terminal is in canonical mode with echo, as a shell leaves it, read from the terminal itself (its
    /// settings outlive the program while this side stays open); nil when it cannot be read.
    var isCanonicalWithEcho: Bool? {
        let fd = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return nil }
        let wanted = tcflag_t(ICANON | ECHO)
        return settings.c_lflag & wanted == wanted
    }

    var screen: String { String(decoding: collected.locked { $0 }, as: UTF8.self) }

    /// Waits until the output after `offset` contains `text`; returns the offset just past it.
    @discardableResult
    func waitFor(_ text: String, after offset: String.Index? = nil, timeout: Duration = .seconds(15)) async throws -> String.Index {
        let end = ContinuousClock.now + timeout
        while true {
            let s = screen
            let start = offset.map { min($0, s.endIndex) } ?? s.startIndex
            if let range = s[start...].range(of: text) { return range.upperBound }
            guard ContinuousClock.now < end else {
                throw PTYError("timed out waiting for \(text.debugDescription); the screen was:\n\(s)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the program to exit and expects `status`; a mismatch records what the program last printed (a crash
    /// report, a sanitizer's report, an error message), which the status alone does not say.
    func expectExit(_ status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async {
        let exited = await waitForExit()
        #expect(exited == status,
                "exit status \(exited.map(String.init) ?? "none (killed or still running)"), expected \(status); the terminal's last output:\n\(screen.suffix(3000))",
                sourceLocation: sourceLocation)
    }

    /// Waits for the program to exit and returns its exit status (nil: killed by a signal or timed out).
    func waitForExit(timeout: Duration = .seconds(10)) async -> Int32? {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let code: Int32? = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
                exitStatus.locked { $0 = code ?? -1 }
                return code
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Kills the program if it still runs, reaps it and closes the pty — once, and only after the reader thread has
    /// stopped reading it (it sees EIO once the program is gone). Closing it under a running reader let the reader's
    /// next `read` take whatever descriptor of another test got the same number.
    func terminate() {
        if exitStatus.locked({ $0 }) == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus.locked { $0 = -1 }
        }
        guard readerDone.wait(timeout: .now() + 10) == .success else { return }   // leaked rather than reused
        readerDone.signal()   // a second terminate() passes too
        masterOpen.locked { open in
            if open { close(master) }
            open = false
        }
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                return  // EIO once the child side is closed, or the master was closed
            }
            collected.locked { $0.append(contentsOf: buffer[0..<n]) }
        }
    }
}

struct PTYError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
