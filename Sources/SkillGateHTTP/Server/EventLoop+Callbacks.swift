import CEvent

// C callbacks registered with libevent. Each receives its Swift object as the `void *` argument: an unretained
// EventLoop (kept alive by HTTPServer until the loop thread exits) or an unretained Connection (owned by its loop's
// table until the loop closes it, which frees its events first).

func onLoopWake(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().runPostedJobs()
}

func onListenerReadable(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().acceptConnections()
}

func onResumeAccepting(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().resumeAccepting()
}

private func connection(_ argument: UnsafeMutableRawPointer) -> Connection {
    Unmanaged<Connection>.fromOpaque(argument).takeUnretainedValue()
}

func onConnectionReadable(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionReadable(connection)
}

func onConnectionWritable(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionWritable(connection)
}

func onLingeringSocketReadable(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let socket = Unmanaged<LingeringSocket>.fromOpaque(argument).takeUnretainedValue()
    socket.loop.lingeringSocketReady(socket, timedOut: events & Int16(EV_TIMEOUT) != 0 && events & Int16(EV_READ) == 0)
}

func onConnectionTimer(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionTimerFired(connection)
}
