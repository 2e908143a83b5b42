#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts long-lived threads (event loops, the HTTP client's loop, the log writer) with plain pthreads, so the
/// gateway does not link full Foundation for `Thread` (Foundation and its ICU data add ~3.5 MB to an idle
/// process's resident memory).
public enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread named `name` (as `top -H`, `perf` and `/proc` show it; at most 15
    /// bytes are kept) with the system's default stack size, scheduled as `scheduling` says; returns false when the
    /// system refuses to create one (out of threads or memory).
    @discardableResult
    public static func start(name: String, scheduling: ThreadScheduling = .normal, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Body {
            // Scheduled first, then named: a thread that bears its name already runs as that name's thread should (a
            // CI run saw a ledger writer named but not yet at its lowered priority, among ten that were).
            scheduling.applyToCurrentThread()
            ThreadName.set(name)
            body()
        }).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let created = pthread_create(&thread, &attributes, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        if created != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
