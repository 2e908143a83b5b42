import CCurl

/// One request in flight. Lives only on the loop thread, together with its easy handle: the
/// libcurl callbacks reach it through an unretained pointer while the loop's table retains it.
final class CurlTransfer {
    let easy: UnsafeMutableRawPointer
    let control: TransferControl
    let delivery: TransferDelivery
    var headerList: UnsafeMutablePointer<curl_slist>?
    var resolveList: UnsafeMutablePointer<curl_slist>?
    var requestBody: UnsafeMutableRawBufferPointer?
    let errorBuffer: UnsafeMutablePointer<CChar>

    // Response head, parsed line by line by the header callback.
    private(set) var status = 0
    private(set) var headers = HTTPHeaders()
    private(set) var headComplete = false
    private var collected: [UInt8] = []

    // Timing (monotonic nanoseconds) for the timeouts libcurl cannot tell apart.
    let startedAt: UInt64
    let timeouts: ResolvedTimeouts
    var requestSentAt: UInt64?
    var lastActivity: UInt64
    var pausedForConsumer = false
    /// A reason to report instead of libcurl's own result (size limit, our own timeouts).
    var abortReason: HTTPClientError?
    private var settled = false

    /// Told when the response head arrives.
    private let notices: TransferNotices

    init(easy: UnsafeMutableRawPointer, spec: TransferSpec, now: UInt64, notices: TransferNotices) {
        self.easy = easy
        self.notices = notices
        self.control = spec.control
        self.delivery = spec.delivery
        self.startedAt = now
        self.lastActivity = now
        self.timeouts = ResolvedTimeouts(spec.request.timeouts)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        if let resolveList { curl_slist_free_all(resolveList) }
        requestBody?.deallocate()
        errorBuffer.deallocate()
    }

    /// libcurl's detailed error text for the last failure (empty when none).
    var curlErrorText: String { String(cString: errorBuffer) }

    // MARK: callbacks (loop thread)

    /// One header line, CRLF included. Returns the bytes consumed.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        if headComplete { return line.count }   // trailers: ignored
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            if status >= 200 || status == 0 { completeHead() } else { status = 0; headers = HTTPHeaders() }
            return line.count
        }
        let text = UnsafeRawBufferPointer(rebasing: line[0..<end])
        if end > 5, text[0] == 0x48, text[1] == 0x54, text[2] == 0x54, text[3] == 0x50, text[4] == 0x2F {  // "HTTP/"
            status = Self.parseStatus(text)
            headers = HTTPHeaders()
            headers.reserveCapacity(12)
            return line.count
        }
        guard let colon = text.firstIndex(of: 0x3A) else { return line.count }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: text[0..<colon]), as: UTF8.self)
        var valueStart = colon + 1
        while valueStart < end, text[valueStart] == 0x20 || text[valueStart] == 0x09 { valueStart += 1 }
        headers.add(name, String(decoding: UnsafeRawBufferPointer(rebasing: text[valueStart..<end]), as: UTF8.self))
        return line.count
    }

    /// A piece of the body. Returns the bytes consumed, `CURL_WRITEFUNC_PAUSE`, or 0 to abort.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !headComplete { completeHead() }
        lastActivity = MonotonicClock.nanoseconds()
        switch delivery {
        case .collect(_, let limit):
            if collected.count + bytes.count > limit {
                abortReason = .responseTooLarge(limit: limit)
                return 0
            }
            collected.append(contentsOf: bytes)
            return bytes.count
        case .stream(let channel):
            switch channel.offer(bytes) {
            case .accepted: return bytes.count
            case .pause:
                pausedForConsumer = true
                return sg_writefunc_pause()
            case .abort:
                abortReason = .cancelledByTask
                return 0
            }
        }
    }

    private func completeHead() {
        headComplete = true
        lastActivity = MonotonicClock.nanoseconds()
        if status == 0 {
            var code = 0
            _ = sg_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
            status = code
        }
        notices.headArrived(self, releasingUpload: delivery.streams && requestBody != nil)
        if case .stream(let channel) = delivery {
            channel.deliverHead(.init(status: status, headers: headers))
        }
    }

    var hasHead: Bool { headComplete }
    /// The outcome was delivered; the easy handle goes back to the loop (and may serve another request).
    var isSettled: Bool { settled }

    // MARK: outcome

    /// Delivers the outcome exactly once: the response (collect), or the end of the stream.
    func settle(_ error: HTTPClientError?) {
        if settled { return }
        settled = true
        switch delivery {
        case .collect(let continuation, _):
            if let error {
                continuation.resume(throwing: error)
            } else {
                if !headComplete { completeHead() }
                continuation.resume(returning: HTTPResponse(status: status, headers: headers, body: collected))
                collected = []
            }
        case .stream(let channel):
            if error == nil, !headComplete { completeHead() }
            channel.finish(error)
        }
    }

    private static func parseStatus(_ line: UnsafeRawBufferPointer) -> Int {
        guard let space = line.firstIndex(of: 0x20) else { return 0 }
        var code = 0
        var i = space + 1
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39, code < 1000 {
            code = code * 10 + Int(line[i] - 0x30)
            i += 1
        }
        return code
    }
}

/// A request's timeouts in nanoseconds (nil: no limit).
struct ResolvedTimeouts {
    var connect: UInt64?
    var firstByte: UInt64?
    var idle: UInt64?
    var total: UInt64?
    var head: UInt64?

    init(_ t: HTTPTimeouts) {
        connect = t.connect?.clampedNanoseconds
        firstByte = t.firstByte?.clampedNanoseconds
        idle = t.idle?.clampedNanoseconds
        total = t.total?.clampedNanoseconds
        head = t.head?.clampedNanoseconds
    }
}
