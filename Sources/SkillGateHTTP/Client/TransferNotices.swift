import CCurl

/// What a loop's transfers tell it from inside libcurl's callbacks, where libcurl's options must not change and the
/// loop's bookkeeping should not run. The loop acts on it after each `curl_multi_socket_action`. Loop thread only.
final class TransferNotices {
    /// A transfer's deadlines may have become earlier than the armed deadline timer (a new transfer, a response head
    /// that starts the idle clock, a resumed stream): the loop looks at every transfer's deadlines again at the end of
    /// its turn. Otherwise it looks only when the timer fires, not on every turn (decision 0037: with thousands of
    /// held streams a look per turn cost more than relaying the event that caused the turn).
    var deadlinesChanged = false
    /// Streams whose response head arrived and whose upload memory can go (decision 0037): the copy of the request
    /// body and libcurl's upload buffer, which libcurl allocates for every HTTP/2 request with a body (16 KiB, its
    /// minimum) and otherwise keeps until the transfer ends. A held stream then keeps neither for the minutes it may
    /// last. Released once libcurl reports the whole body sent.
    private var uploadsToRelease: [CurlTransfer] = []
    private let counters: HTTPClientCounters

    init(counters: HTTPClientCounters) { self.counters = counters }

    /// `transfer`'s response head arrived.
    func headArrived(_ transfer: CurlTransfer, releasingUpload: Bool) {
        deadlinesChanged = true
        if releasingUpload { uploadsToRelease.append(transfer) }
    }

    /// Releases what the waiting streams no longer need; keeps those still uploading.
    func releaseSentUploads() {
        guard !uploadsToRelease.isEmpty else { return }
        uploadsToRelease.removeAll { transfer in
            switch transfer.releaseUploadMemoryIfSent() {
            case .released: counters.countUploadRelease(); return true
            case .nothingToRelease: return true
            case .stillUploading: return false
            }
        }
    }
}

extension CurlTransfer {
    /// Frees the request body's copy and libcurl's upload buffer once the whole body was handed to libcurl's
    /// connection (`CURLINFO_SIZE_UPLOAD_T`): after the response head nothing re-sends it (libcurl retries a request
    /// only before any response byte arrived).
    func releaseUploadMemoryIfSent() -> UploadRelease {
        // A settled transfer's handle may already serve another request: never touch it.
        guard !isSettled, let body = requestBody else { return .nothingToRelease }
        var uploaded: curl_off_t = 0
        guard sg_easy_getinfo_off(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded) == CURLE_OK else { return .nothingToRelease }
        guard uploaded >= body.count else { return .stillUploading }
        _ = sg_easy_setopt_ptr(easy, CURLOPT_POSTFIELDS, nil)
        // Setting the upload buffer size frees the buffer (libcurl allocates a new one for the next upload).
        _ = sg_easy_setopt_long(easy, CURLOPT_UPLOAD_BUFFERSIZE, CurlHandleDefaults.uploadBufferBytes)
        body.deallocate()
        requestBody = nil
        return .released
    }

    enum UploadRelease { case released, nothingToRelease, stillUploading }
}
