import CEvent
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

    /// Spins through the wait for the answer of the loop's only upstream transfer, when such waits have lately been
    /// shorter than the lane's spin window (`SpinRule`, `HTTPClient.Configuration.spinWindow`): a local upstream
    /// answers within tens of microseconds, less than it costs to put the thread to sleep in `epoll_wait` and wake it
    /// again (on a virtual machine, more than the request's own work; decision 0041).
    /// Each look is one non-blocking turn of the loop, so a client's bytes are served meanwhile. Returns whether the
    /// answer came (false: the loop should block). A wait longer than the window turns spinning off until waits are
    /// short again, so remote providers, streams and busy loops (more than one transfer) never spin.
    func spinThroughShortAnswerWait() -> Bool {
        var only: CurlMultiLoop?
        for lane in curlLanes.values where lane.transferCount > 0 {
            guard only == nil, lane.transferCount == 1 else { return false }
            only = lane
        }
        guard let lane = only else { return false }
        let now = MonotonicClock.nanoseconds()
        guard lane.answerSpin.waitStarted(at: now, window: lane.configuration.spinWindow) else { return false }
        lane.sawActivity = false
        let deadline = now &+ lane.answerSpin.window
        var chore = configuration.choreWhileSpinning
        repeat {
            event_base_loop(base, EVLOOP_NONBLOCK | EVLOOP_NO_EXIT_ON_EMPTY)
            if stopped { return true }
            if lane.sawActivity { return spun() }
            if let work = chore {
                // Once per wait, in time the spin would yield anyway (decision 0109); then look again at once.
                chore = nil
                work()
                continue
            }
            // Another thread runnable on this core (the upstream, the client) goes first: on a machine with few cores
            // the spin must not delay what it waits for.
            sched_yield()
        } while MonotonicClock.nanoseconds() < deadline
        lane.answerSpin.timedOut()
        return spinTimedOut()
    }

    private func spun() -> Bool {
        shared.counters.spunAnswerWaits.add(1, ordering: .relaxed)
        return true
    }

    private func spinTimedOut() -> Bool {
        shared.counters.spinTimeouts.add(1, ordering: .relaxed)
        return false
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
