import SkillGateTestSupport
@testable import SkillGateServer

// The background writers' waits, for async tests: each runs on a thread of its own (`offThePool`). The writers run at
// a lowered priority (`ThreadScheduling.lowPriorityBackground`), and on a loaded machine they may not run for seconds;
// a flush or close that waits for them on one of the shared task pool's two threads holds back every other test's
// tasks meanwhile (decision 0159). `GatewayServer.flushLedger()` and `flushLog()` do the same for a whole gateway.

extension UsageLedger {
    /// `flush()`, waited for off the shared task pool.
    func flushOffThePool() async {
        _ = try? await offThePool { [self] in flush() }
    }

    /// `close()`, waited for off the shared task pool.
    func closeOffThePool() async {
        _ = try? await offThePool { [self] in close() }
    }
}

extension ResponseArchive {
    /// `flush()` (a store write, after any write of the low-priority writer under way), off the shared task pool.
    func flushOffThePool() async {
        _ = try? await offThePool { [self] in flush() }
    }

    /// `close()` (which waits for the writer's last write), off the shared task pool.
    func closeOffThePool() async {
        _ = try? await offThePool { [self] in close() }
    }
}

extension LogWriter {
    /// `flush(timeout:)`, waited for off the shared task pool.
    func flushOffThePool(timeout: Duration = .seconds(2)) async {
        _ = try? await offThePool { [self] in flush(timeout: timeout) }
    }

    /// `close()`, waited for off the shared task pool.
    func closeOffThePool() async {
        _ = try? await offThePool { [self] in close() }
    }
}
