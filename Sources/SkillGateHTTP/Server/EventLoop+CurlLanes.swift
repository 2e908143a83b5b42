import Glibc

/// The event loop whose thread is running, if any: set by `EventLoop.run` for its thread's life.
enum CurrentEventLoop {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// The event loop of the calling thread, nil off the server's loop threads.
    static var loop: EventLoop? {
        pthread_getspecific(key).map { Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue() }
    }

    static func set(_ loop: EventLoop?) {
        _ = pthread_setspecific(key, loop.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) })
    }
}

/// Lanes: an `HTTPClient`'s transfers started by a task on this loop run on a libcurl multi handle driven by this
/// loop's own `event_base` (decision 0035), so an upstream request needs no thread hand-off either way. Loop thread
/// only.
extension EventLoop {
    /// The lane of `client` on this loop, set up on first use; nil when it could not be (the client's own thread
    /// serves the request then).
    func curlLane(for client: HTTPClient) -> CurlMultiLoop? {
        if let lane = curlLanes[client.id] { return lane }
        guard !stopped else { return nil }
        let lane = CurlMultiLoop(configuration: client.laneConfiguration(loops: shared.loopCount), counters: client.counters,
                                 attachedTo: self, laneKey: client.id)
        guard lane.isRunning else { return nil }
        curlLanes[client.id] = lane
        client.adopt(lane)
        return lane
    }

    /// A lane stopped (its client shut down or was released and its transfers finished).
    func curlLaneStopped(_ lane: CurlMultiLoop) {
        if curlLanes[lane.laneKey] === lane { curlLanes[lane.laneKey] = nil }
    }

    /// As the loop exits: fails the transfers its lanes still run and frees their events, before the base goes.
    func stopCurlLanes() {
        for lane in Array(curlLanes.values) { lane.detachFromEventLoop(failingWith: .serverStopped) }
        curlLanes.removeAll()
    }
}

/// The server's event loops as seen from code running on them.
public enum ServerEventLoops {
    /// The event loop the calling thread runs, as a task executor; nil off the server's loop threads. A task started
    /// with it as its preference (`Task(executorPreference:)`) stays on the loop, so the upstream requests it makes run
    /// on the loop's own libcurl lane (decision 0035) instead of being handed to another thread and back.
    public static var currentExecutor: (any TaskExecutor)? { CurrentEventLoop.loop }
}
