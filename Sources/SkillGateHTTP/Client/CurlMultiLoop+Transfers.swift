import CCurl

/// Adding, removing, resuming and collecting transfers, and the spare easy handles. Loop thread only.
extension CurlMultiLoop {
    /// Starts a transfer: on the own HTTP/1.1 client when it takes the request (`HTTP1Target`), else on libcurl.
    /// Returns whether it was added to the multi handle (libcurl then needs a call to start it).
    func add(_ spec: TransferSpec) -> Bool {
        if spec.control.isCancelled {
            spec.delivery.fail(.cancelledByTask)
            return false
        }
        if let http1, let target = HTTP1Target(spec.request) {
            http1.start(spec, target: target)
            return false
        }
        let streams = spec.delivery.streams
        guard let multi, let easy = (streams ? spareStreamHandles.popLast() : spareEasyHandles.popLast()) ?? newEasyHandle(for: spec)
        else { return false }
        let transfer = CurlTransfer(easy: easy, spec: spec, now: MonotonicClock.nanoseconds(), notices: notices)
        if let problem = transfer.configure(spec.request, configuration: configuration) {
            transfer.settle(problem)
            recycle(easy, streams: streams)
            return false
        }
        let code = curl_multi_add_handle(multi, easy)
        guard code == CURLM_OK else {
            transfer.settle(HTTPClientError(kind: .transport,
                detail: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code))); retry later"))
            recycle(easy, streams: streams)
            return false
        }
        active[ObjectIdentifier(spec.control)] = transfer
        notices.deadlinesChanged = true
        return true
    }

    /// Removes a transfer before it finished (cancelled, or one of our own timeouts). For
    /// HTTP/1.1 this closes its connection at once, so the upstream sees the close.
    func remove(_ control: TransferControl, reason: HTTPClientError) {
        if let http1, http1.remove(control, reason: reason) { return }
        guard let multi, let transfer = active.removeValue(forKey: ObjectIdentifier(control)) else { return }
        _ = curl_multi_remove_handle(multi, transfer.easy)
        transfer.settle(reason)
        recycle(transfer.easy, streams: transfer.delivery.streams)
    }

    func resume(_ control: TransferControl) {
        if let http1, http1.resume(control) { return }
        guard let transfer = active[ObjectIdentifier(control)], transfer.pausedForConsumer else { return }
        transfer.pausedForConsumer = false
        transfer.lastActivity = MonotonicClock.nanoseconds()
        notices.deadlinesChanged = true   // its idle clock runs again
        // May call the write callback (and pause again) right here; libcurl re-arms the socket
        // through the socket callback and its timer.
        _ = sg_easy_unpause(transfer.easy)
        collectFinished()
    }

    /// Settles every transfer libcurl reports done.
    func collectFinished() {
        guard let multi else { return }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = sg_multi_msg_result(message)
            var pointer: UnsafeMutableRawPointer?
            _ = sg_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &pointer)
            guard let pointer else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
            active.removeValue(forKey: ObjectIdentifier(transfer.control))
            if transferCount == 0 { answerSpin.waitEnded(at: MonotonicClock.nanoseconds()) }
            let error = code == CURLE_OK ? nil : (transfer.abortReason ?? HTTPClientError(curlCode: code, transfer: transfer))
            // The waiting task first, the bookkeeping after: the task's thread wakes meanwhile.
            transfer.settle(error)
            _ = curl_multi_remove_handle(multi, easy)
            recycle(easy, streams: transfer.delivery.streams)
        }
        notices.releaseSentUploads()
    }

    /// A new easy handle with the options all transfers share, or nil after failing `spec`.
    private func newEasyHandle(for spec: TransferSpec) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else {
            spec.delivery.fail(HTTPClientError(kind: .transport, detail: "curl_easy_init failed (out of memory?); retry later"))
            return nil
        }
        let buffer = spec.delivery.streams ? ReceiveBuffer.stream : ReceiveBuffer.whole
        if let refused = CurlHandleDefaults.apply(to: easy, configuration: configuration, receiveBufferBytes: buffer) {
            curl_easy_cleanup(easy)
            spec.delivery.fail(HTTPClientError(kind: .transport,
                detail: "libcurl refused option \(refused.rawValue) while setting up a handle; check that libcurl4 (7.85 or newer) is installed"))
            return nil
        }
        return easy
    }

    /// Keeps a finished transfer's handle for the next request of its kind (its shared options and its receive buffer
    /// stay set).
    private func recycle(_ easy: UnsafeMutableRawPointer, streams: Bool) {
        guard (streams ? spareStreamHandles.count : spareEasyHandles.count) < configuration.maxConnections else {
            return curl_easy_cleanup(easy)
        }
        CurlHandleDefaults.detach(easy)
        if streams { spareStreamHandles.append(easy) } else { spareEasyHandles.append(easy) }
    }
}
