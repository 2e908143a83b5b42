import CEvent

// C callbacks registered with libevent. Each receives its Swift object as the `void *` argument:
// an unretained EventLoop (kept alive by HTTPServer until the loop thread exits) or a responder
// retained by the loop until the request is detached.

func onHTTPRequest(_ req: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let req, let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().handleRequest(req)
}

func onLoopWake(_ fd: Int32, _ events: Int16, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue().runPostedJobs()
}

func onConnectionClosed(_ connection: OpaquePointer?, _ argument: UnsafeMutableRawPointer?) {
    guard let argument else { return }
    let responder = Unmanaged<HTTPResponder>.fromOpaque(argument).takeUnretainedValue()
    responder.loop.connectionClosed(responder)
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
