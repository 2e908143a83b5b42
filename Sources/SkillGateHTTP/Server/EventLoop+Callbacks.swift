import CEvent

// C callbacks registered with libevent. Each receives its Swift object as the `void *` argument:
// an unretained EventLoop (kept alive by HTTPServer until the loop thread exits), an unretained
// Connection (owned by its loop's table until evhttp frees the connection), or a responder retained by
// the loop until the request is detached.

func onHTTPRequest(_ req: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let req, let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().handleRequest(req)
}

func onLoopWake(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().runPostedJobs()
}

func onResumeAccepting(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().resumeAccepting()
}

func onNewConnectionBufferevent(_ base: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let base, let argument else { return nil }
    return Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().newConnection(base: base)
}

private func connection(_ argument: UnsafeMutableRawPointer) -> Connection {
    Unmanaged<Connection>.fromOpaque(argument).takeUnretainedValue()
}

func onConnectionStep(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionStep(connection)
}

func onConnectionDeadline(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionDeadline(connection)
}

func onConnectionInput(_ buffer: OpaquePointer?, _ info: UnsafePointer<evbuffer_cb_info>?, _ argument: UnsafeMutableRawPointer?) {
    guard let info, info.pointee.n_added > 0, let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionInput(connection)
}

/// evhttp calls a request's header callback with the request's own `cb_arg` (its evhttp), so the
/// connection is found through the close-callback argument `admit` set.
func onRequestHead(_ req: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    guard let req, let evcon = evhttp_request_get_connection(req), let argument = sg_evhttp_connection_closecb_arg(evcon) else { return 0 }
    let connection = connection(argument)
    return connection.loop.requestHead(connection, req)
}

func onRequestComplete(_ req: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.requestCompleted(connection)
}

func onConnectionClosed(_ evcon: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let connection = connection(argument)
    connection.loop.connectionClosed(connection)
}

func onOutputDrained(_ connection: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let responder = Unmanaged<HTTPResponder>.fromOpaque(argument).takeUnretainedValue()
    responder.loop.outputDrained(responder)
}

func onPeerActivity(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let responder = Unmanaged<HTTPResponder>.fromOpaque(argument).takeUnretainedValue()
    responder.loop.peerActivity(responder, fd: fd)
}
