import Synchronization

/// A loopback TCP port nothing listens on for the rest of the test process: an `UnlistenedPort` that is never released,
/// for a test (or a harness's config) that needs only the number. No test running in parallel can bind the port
/// meanwhile, so connections to it are refused.
public enum ClosedPort {
    private static let held = Mutex<[UnlistenedPort]>([])

    /// Binds a fresh loopback port (never listening, never closed) and returns its number.
    public static func make() throws -> Int {
        let port = try UnlistenedPort()
        held.locked { $0.append(port) }
        return port.port
    }
}
