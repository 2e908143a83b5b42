import Dispatch
import Foundation
import Synchronization

/// A child process for tests, started with `posix_spawn` rather than Foundation's `Process`: `Process.run()` crashed
/// parallel test runs (SIGSEGV in a `memcpy` inside it) while hundreds of other tests' sockets were open, and its
/// run-loop machinery selects on descriptors past `FD_SETSIZE`. The child gets a fixed environment and no descriptor
/// but its standard error (and output), which go to a pipe read on a thread of its own; so it holds no other test's
/// socket open either.
public final class SpawnedProcess: Sendable {
    public let pid: pid_t
    /// The wait status once the child was reaped.
    private let status = Mutex<Int32?>(nil)
    private let collected = Mutex("")
    /// Signalled once the output was read to its end.
    private let outputEnded = DispatchSemaphore(value: 0)
    /// Set as the output was read to its end (for `waitForExit`, which must not block a thread of the pool on the
    /// semaphore).
    private let outputFinished = Atomic<Bool>(false)

    /// Starts `executable` with `arguments`; its stdout, and its stderr unless `collectStandardError` is false (then
    /// it writes to the test process's), are collected (see `output`).
    public init(_ executable: String, _ arguments: [String],
                environment: [String] = ["PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=/tmp"], collectStandardError: Bool = true) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let devNull = "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 0, devNull, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        if collectStandardError { posix_spawn_file_actions_adddup2(&actions, fds[1], 2) }
        // Every other descriptor is closed in the child (closing one another thread closed meanwhile is ignored by
        // glibc's posix_spawn).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        // Default signal dispositions and an empty mask, as a shell or systemd starts a process: an ignored signal of
        // the test process (SIGPIPE, once any of its HTTP servers started) would otherwise be inherited and hide what
        // the signal does to the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), empty = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
        }
        self.pid = pid
        let reader = fds[0]
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(reader, &buffer, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                let text = String(decoding: buffer[0..<n], as: UTF8.self)
                self.collected.locked { $0 += text }
            }
            close(reader)
            self.outputFinished.store(true, ordering: .releasing)
            self.outputEnded.signal()
        }.start()
    }

    /// What the child wrote to stdout and stderr so far.
    public var output: String { collected.locked { $0 } }

    /// True until the child exited (reaps it once it has).
    public var isRunning: Bool {
        status.locked { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { status = raw }
            return reaped == 0
        }
    }

    /// The exit code when the child exited normally; nil while it runs or when a signal ended it.
    public var exitCode: Int32? {
        guard !isRunning, let raw = status.locked({ $0 }) else { return nil }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : nil
    }

    /// Sends `signal` to the child (SIGTERM by default).
    public func signal(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits (polling) until the child exited; false when it still runs after `seconds`. Once it exited, also waits
    /// until its output was read to the end (at most 5 s more, within `seconds`), so `output` then holds all of it: the
    /// reader thread may not have run yet when the child is reaped (a stress run read an empty `output` from a child
    /// that had exited with its usage error). A grandchild that kept the pipe open only makes this wait its 5 s.
    public func waitForExit(upTo seconds: Double = 20) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while isRunning && Date() < end { try? await Task.sleep(for: .milliseconds(50)) }
        guard !isRunning else { return false }
        let outputEnd = min(end, Date().addingTimeInterval(5))
        while !outputFinished.load(ordering: .acquiring) && Date() < outputEnd { try? await Task.sleep(for: .milliseconds(5)) }
        return true
    }

    /// Waits until `needle` appears in the output; false after `seconds` without it.
    public func wait(for needle: String, upTo seconds: Double = 20) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if output.contains(needle) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return output.contains(needle)
    }

    /// Blocks until the child exited and its output was read to the end; returns the output.
    public func waitUntilExit() -> String {
        outputEnded.wait()
        outputEnded.signal()
        status.locked { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            status = raw
        }
        return output
    }

    /// Stops the child if it still runs (SIGKILL) and reaps it.
    public func stop() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        status.locked { status in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
            status = raw
        }
    }
}
