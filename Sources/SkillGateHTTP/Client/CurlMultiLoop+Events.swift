import CCurl
import CEvent
#if canImport(Glibc)
import Glibc
#endif

// libcurl's event-driven mode on libevent. libcurl says which sockets to watch for what
// (CURLMOPT_SOCKETFUNCTION) and when it next needs to be called (CURLMOPT_TIMERFUNCTION); the loop
// keeps one persistent libevent event per socket and one timer, and hands readiness back to
// `curl_multi_socket_action`. All of it runs on the loop thread: libcurl calls these callbacks only
// from inside the `curl_multi_*` calls the loop makes.

extension CurlMultiLoop {
    /// libcurl wants `fd` watched for `what` (CURL_POLL_IN, _OUT, _INOUT, _NONE) or forgotten
    /// (CURL_POLL_REMOVE, before it closes the socket).
    func watch(_ fd: Int32, _ what: Int32) {
        guard let base else { return }
        if laneEpoll >= 0 {
            watchOnLane(fd, what)
            return
        }
        if what == CURL_POLL_REMOVE {
            if let event = socketEvents.removeValue(forKey: fd) { event_free(event) }
            return
        }
        var kind = Int16(EV_PERSIST)
        if what & CURL_POLL_IN != 0 { kind |= Int16(EV_READ) }
        if what & CURL_POLL_OUT != 0 { kind |= Int16(EV_WRITE) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let event = socketEvents[fd] {
            event_del(event)
            guard kind != Int16(EV_PERSIST) else { return }
            _ = event_assign(event, base, fd, kind, curlSocketReady, me)
            event_add(event, nil)
        } else if kind != Int16(EV_PERSIST), let event = event_new(base, fd, kind, curlSocketReady, me) {
            socketEvents[fd] = event
            event_add(event, nil)
        }
    }

    /// libcurl's timer: call it back after `milliseconds` (-1: cancel the timer).
    func setCurlTimer(milliseconds: Int) {
        guard let curlTimer else { return }
        if milliseconds < 0 {
            event_del(curlTimer)
        } else {
            var delay = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
            if attachedLoop != nil, let base { event_base_update_cache_time(base) }
            event_add(curlTimer, &delay)
        }
    }

    /// After libcurl's timer fired: if libcurl still has a timeout due but did not arm the timer again, arms it.
    ///
    /// libcurl calls the timer function only when its earliest timeout *changes*. A timer that fires a little before
    /// libcurl's own clock says the timeout is due (libevent rounds and caches time per loop turn) makes
    /// `curl_multi_socket_action` find nothing expired and leave the timeout as it was — and without this, nothing
    /// would call libcurl for that transfer again (measured on a busy server loop: transfers stalled for 0.1–1.5 s
    /// until another transfer's event happened to run the expired timeout).
    func rearmCurlTimerIfDropped() {
        guard let multi, let curlTimer, !stopped, event_pending(curlTimer, Int16(EV_TIMEOUT), nil) == 0 else { return }
        var milliseconds = -1
        guard curl_multi_timeout(multi, &milliseconds) == CURLM_OK, milliseconds >= 0 else { return }
        setCurlTimer(milliseconds: milliseconds)
    }

    /// Tells libcurl that `fd` is ready for `flags` (CURL_CSELECT_*), or that its timer is due
    /// (`fd` = CURL_SOCKET_TIMEOUT), then settles the transfers that finished.
    func socketAction(_ fd: Int32, _ flags: Int32) {
        guard let multi, !stopped else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, fd, flags, &running)
        collectFinished()
    }

    /// Arms the deadline timer for the earliest of the deadlines libcurl does not enforce, after
    /// failing the transfers whose deadline passed.
    ///
    /// Looks only when the timer fired or a transfer's deadlines may have moved earlier (`TransferNotices`): the look
    /// visits every transfer, and the loop turns once per batch of socket events.
    func armDeadlineTimer(now: UInt64) {
        guard let deadlineTimer, deadlineDue || notices.deadlinesChanged else { return }
        deadlineDue = false
        notices.deadlinesChanged = false
        guard transferCount > 0, let next = enforceDeadlines(now: now) else {
            if armedDeadline != nil {
                event_del(deadlineTimer)
                armedDeadline = nil
            }
            return
        }
        // A timer due earlier than needed fires once for nothing; re-arming costs a heap update,
        // so it is moved only when the new deadline is sooner.
        if let armed = armedDeadline, armed <= next { return }
        let wait = next > now ? next - now : 0
        var delay = timeval(tv_sec: Int(wait / 1_000_000_000), tv_usec: Int(wait % 1_000_000_000 / 1000))
        event_add(deadlineTimer, &delay)
        armedDeadline = next
    }

    /// Waits without sleeping where a wait is usually shorter than a wake-up (see `SpinRule` and
    /// decision 0014). Returns whether something ran (false: the loop should block).
    ///
    /// For the next request the loop yields the CPU between looks at `commandsPending`, outside
    /// libevent: a submitter's `event_active` then only queues the wake event (libevent writes its
    /// notification eventfd only while the loop is inside `event_base_loop`), and one non-blocking
    /// turn runs it. For the answer of the only transfer it asks libevent for ready events without
    /// blocking (one `epoll_wait(0)` per look). Nothing depends on the spin seeing a submission: the
    /// activated wake event stays queued for the blocking turn.
    func spinThroughShortWait() -> Bool {
        guard let base else { return false }
        let now = MonotonicClock.nanoseconds()
        if transferCount == 0, nextRequestSpin.waitStarted(at: now, window: configuration.spinWindow) {
            let deadline = now &+ nextRequestSpin.window
            repeat {
                if commandsPending.load(ordering: .acquiring) {
                    event_base_loop(base, EVLOOP_NONBLOCK | EVLOOP_NO_EXIT_ON_EMPTY)
                    return true
                }
                sched_yield()
            } while MonotonicClock.nanoseconds() < deadline
            nextRequestSpin.timedOut()
            return false
        }
        if transferCount == 1, answerSpin.waitStarted(at: now, window: configuration.spinWindow) {
            sawActivity = false
            let deadline = now &+ answerSpin.window
            repeat {
                event_base_loop(base, EVLOOP_NONBLOCK | EVLOOP_NO_EXIT_ON_EMPTY)
                if sawActivity || stopped { return true }
            } while MonotonicClock.nanoseconds() < deadline
            answerSpin.timedOut()
        }
        return false
    }
}

// MARK: C callbacks (plain functions: closures cannot be C function pointers with context)

/// CURLMOPT_SOCKETFUNCTION.
func curlSocketCallback(_ easy: UnsafeMutableRawPointer?, _ fd: curl_socket_t, _ what: Int32,
                        _ userp: UnsafeMutableRawPointer?, _ socketp: UnsafeMutableRawPointer?) -> Int32 {
    guard let userp else { return 0 }
    Unmanaged<CurlMultiLoop>.fromOpaque(userp).takeUnretainedValue().watch(fd, what)
    return 0
}

/// CURLMOPT_TIMERFUNCTION. Only arms the timer: libcurl must not be re-entered from here.
func curlTimerCallback(_ multi: UnsafeMutableRawPointer?, _ milliseconds: Int, _ userp: UnsafeMutableRawPointer?) -> Int32 {
    guard let userp else { return 0 }
    Unmanaged<CurlMultiLoop>.fromOpaque(userp).takeUnretainedValue().setCurlTimer(milliseconds: milliseconds)
    return 0
}

/// A socket libcurl watches is ready.
func curlSocketReady(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let loop = Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue()
    loop.sawActivity = true
    var flags: Int32 = 0
    if events & Int16(EV_READ) != 0 { flags |= CURL_CSELECT_IN }
    if events & Int16(EV_WRITE) != 0 { flags |= CURL_CSELECT_OUT }
    loop.socketAction(fd, flags)
    loop.scheduleTurnEnd()
}

/// libcurl's timer is due.
func curlTimerFired(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let loop = Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue()
    loop.sawActivity = true
    loop.socketAction(sg_socket_timeout(), 0)
    loop.rearmCurlTimerIfDropped()
    loop.scheduleTurnEnd()
}

/// One of our own deadlines is due; the loop enforces it when this turn ends.
func curlDeadlineFired(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let loop = Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue()
    loop.sawActivity = true
    loop.armedDeadline = nil
    loop.deadlineDue = true
    loop.scheduleTurnEnd()
}

/// The wake event: commands were submitted.
func curlLoopWoken(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let loop = Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeUnretainedValue()
    loop.runCommands()
    loop.scheduleTurnEnd()
}
