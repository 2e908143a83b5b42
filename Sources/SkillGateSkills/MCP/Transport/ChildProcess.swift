import Glibc
import SkillGateCore
import Synchronization

/// A child process started with `posix_spawn` (never `Process`), in a process group of its own, with
/// pipes for stdin, stdout and stderr. `terminate` signals the whole group (so a wrapper's own
/// children go too: no orphans), waits, and reaps it.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The write end of the child's stdin (non-blocking).
    let stdin: Int32
    /// The read end of the child's stdout.
    let stdout: Int32
    /// The read end of the child's stderr.
    let stderr: Int32
    private let state = Mutex<(reaped: Bool, status: Int32?)>((false, nil))
    private let stdinOpen = Mutex(true)

    /// Starts `command` (looked up in `PATH` when it has no slash) with `arguments`, the gateway's
    /// environment plus `environment`, and the working directory of the gateway.
    ///
    /// Sets SIGPIPE to ignored for the process: a server that closed its stdin or exited must make `write` fail with
    /// EPIPE, which says so, instead of killing the gateway (which connects its MCP servers before its HTTP server,
    /// the other place that ignores SIGPIPE, starts).
    init(command: String, arguments: [String], environment: [(String, String)]) throws(MCPError) {
        signal(SIGPIPE, SIG_IGN)
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec, so no other child (of this gateway or a parallel test) inherits these ends;
        // posix_spawn's dup2 clears the flag on the child's 0, 1 and 2.
        for i in 0..<3 {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else {
                for p in [inPipe, outPipe, errPipe][..<i] { close(p[0]); close(p[1]) }
                throw MCPError(.unavailable, "could not create pipes for \(command): \(String(cString: strerror(errno)))")
            }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            if i == 0 { inPipe = fds } else if i == 1 { outPipe = fds } else { errPipe = fds }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        Self.closeEverythingElse(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own: terminate() signals the group; default signal dispositions and an empty mask.
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var env: [String: String] = [:]
        var i = 0
        while let entry = environ[i] {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { env[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            i += 1
        }
        for (k, v) in environment { env[k] = v }
        let argv = ([command] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, command, &actions, &attributes, argv, envp)
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            throw MCPError(.unavailable, "could not start \"\(command)\": \(String(cString: strerror(rc))); check mcp_servers' \"command\" (an executable in PATH or a path)")
        }
        pid = child
        stdin = inPipe[1]
        stdout = outPipe[0]
        stderr = errPipe[0]
        _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
    }

    /// Adds actions that close every descriptor above 2 in the child: without them a server would inherit the
    /// gateway's client and upstream sockets that are not close-on-exec, and hold those connections open after the
    /// gateway closed them. glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+, not exported to Swift without
    /// `_GNU_SOURCE`, so looked up at run time) does it atomically; without it, the descriptors open now are listed
    /// from /proc/self/fd (a descriptor closed meanwhile is ignored by the child's close).
    private static func closeEverythingElse(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
            if addCloseFrom(&actions, 3) == 0 { return }
        }
        guard let dir = opendir("/proc/self/fd") else { return }
        defer { closedir(dir) }
        let own = dirfd(dir)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd > 2, fd != own { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }

    /// Writes all of `bytes` to the child's stdin, waiting at most `timeout` for room in the pipe.
    func write(_ bytes: [UInt8], timeout: Duration) throws(MCPError) {
        let deadline = ContinuousClock.now + timeout
        var offset = 0
        while offset < bytes.count {
            let n = stdinOpen.locked { open in
                open ? bytes[offset...].withUnsafeBytes { Glibc.write(stdin, $0.baseAddress, $0.count) } : -2
            }
            if n == -2 { throw MCPError(.unavailable, "the server's stdin was closed because the server is being stopped") }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && errno == EAGAIN else {
                throw MCPError(.unavailable, "the server's stdin is closed (\(String(cString: strerror(errno)))); it has probably exited")
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw MCPError(.timeout, "the server did not read its stdin within \(timeout)") }
            var p = pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32(max(1, min(left.components.seconds * 1000 + 1, 1000))))
        }
    }

    /// Whether the process has not exited (reaps it when it has).
    var isRunning: Bool {
        state.locked { s in
            if s.reaped { return false }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || r < 0 { s = (true, status); return false }
            return true
        }
    }

    /// The exit status text for messages ("exited with status 1", "killed by signal 9").
    var exitDescription: String {
        guard let status = state.locked({ $0.status }) else { return "is running" }
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
    }

    /// Closes stdin (a polite stop for stdio servers), then SIGTERM to the group after `grace`, then
    /// SIGKILL; waits for and reaps the child. Idempotent.
    func terminate(grace: Duration = .milliseconds(500)) async {
        closeStdin()
        let polls = max(1, Int(grace.components.seconds * 50 + grace.components.attoseconds / 20_000_000_000_000_000))
        for _ in 0..<polls where isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        if isRunning { kill(-pid, SIGTERM) }
        for _ in 0..<polls where isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        // The group's other members too (a wrapper's children), even when the leader has gone.
        kill(-pid, SIGKILL)
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Closes the child's stdin once.
    func closeStdin() {
        stdinOpen.locked { open in
            if open { close(stdin) }
            open = false
        }
    }

    deinit {
        closeStdin()
        if !state.locked({ $0.reaped }) {
            kill(-pid, SIGKILL)
            var s: Int32 = 0
            waitpid(pid, &s, 0)
        }
        close(stdout)
        close(stderr)
    }
}
