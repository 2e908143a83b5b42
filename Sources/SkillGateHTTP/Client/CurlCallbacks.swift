import CCurl

// libcurl's C callbacks. They are plain C-convention functions (not closures, and not in a
// `main.swift`, which would tie them to the main actor); `userdata` is an unretained pointer to
// the `CurlTransfer`, which the loop thread keeps alive while its easy handle is in the multi.

/// CURLOPT_WRITEFUNCTION: body bytes.
func curlWriteCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                       _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// CURLOPT_HEADERFUNCTION: one response header line at a time.
func curlHeaderCallback(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                        _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// CURLOPT_XFERINFOFUNCTION: a non-zero return aborts the transfer. Catches a cancellation that
/// arrives while libcurl is busy with this transfer inside one `curl_multi_perform`.
func curlProgressCallback(_ userdata: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                          _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let userdata else { return 1 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.control.isCancelled ? 1 : 0
}
