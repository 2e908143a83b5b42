import CEvent

/// evhttp answers requests it cannot parse itself (400 malformed, 413 too large or bad chunking,
/// 501 unknown method) with a fixed HTML page, before any handler runs and without a hook. This
/// watches each connection's output buffer and replaces exactly that page — recognised by its fixed
/// shape — with the configured `errorBody`, so clients always get the gateway's JSON error shape.
enum EvhttpErrorRewriter {
    /// evhttp 2.1's error page ends with this; its body is 90–130 bytes.
    private static let pageEnd = Array("</BODY></HTML>\n".utf8)
    private static let pageStart = Array("<HTML><HEAD>\n<TITLE>".utf8)
    private static let pageSizes = 80...200

    /// Called for every change of a connection's output buffer: must stay cheap when nothing matches.
    static func outputChanged(_ buffer: OpaquePointer, added: Int, loop: EventLoop) {
        guard !loop.rewritingOutput, pageSizes.contains(added) else { return }
        let length = evbuffer_get_length(buffer)
        guard length >= added else { return }
        // The response head is written just before the page: take both (heads are < 400 bytes here).
        let window = min(length, added + 400)
        var pointer = evbuffer_ptr()
        guard evbuffer_ptr_set(buffer, &pointer, length - window, EVBUFFER_PTR_SET) == 0 else { return }
        var tail = [UInt8](repeating: 0, count: window)
        let copied = tail.withUnsafeMutableBytes { evbuffer_copyout_from(buffer, &pointer, $0.baseAddress, window) }
        guard copied == window, tail.suffix(pageEnd.count).elementsEqual(pageEnd) else { return }
        let pageOffset = window - added
        guard tail[pageOffset...].starts(with: pageStart),
              let headOffset = lastResponseStart(in: tail, before: pageOffset),
              let status = statusCode(tail, at: headOffset) else { return }
        let head = tail[headOffset..<pageOffset]
        guard String(decoding: head, as: UTF8.self).contains("Content-Type: text/html\r\n") else { return }

        let statusLineEnd = tail[headOffset...].firstIndex(of: 0x0A).map { $0 + 1 } ?? pageOffset
        let (contentType, body) = loop.configuration.errorBody(status, message(for: status, maxBody: loop.configuration.maxBodyBytes))
        var replacement = Array(tail[headOffset..<statusLineEnd])
        var extra = ""
        for field in loop.configuration.errorHeaders(status) { extra += "\(field.name): \(field.value)\r\n" }
        replacement += Array("Content-Type: \(contentType)\r\n\(extra)Connection: close\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        replacement += body

        loop.rewritingOutput = true
        defer { loop.rewritingOutput = false }
        let keep = length - window + headOffset
        guard let saved = evbuffer_new() else { return }
        defer { evbuffer_free(saved) }
        if keep > 0 { _ = evbuffer_remove_buffer(buffer, saved, keep) }
        evbuffer_drain(buffer, evbuffer_get_length(buffer))
        evbuffer_add_buffer(buffer, saved)
        replacement.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
    }

    private static func lastResponseStart(in bytes: [UInt8], before end: Int) -> Int? {
        let marker = Array("HTTP/1.".utf8)
        var index = end - marker.count
        while index >= 0 {
            if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker),
               index == 0 || bytes[index - 1] == 0x0A {
                return index
            }
            index -= 1
        }
        return nil
    }

    private static func statusCode(_ bytes: [UInt8], at offset: Int) -> Int? {
        // "HTTP/1.1 413 ..."
        let digits = offset + 9
        guard digits + 3 <= bytes.count else { return nil }
        var code = 0
        for byte in bytes[digits..<(digits + 3)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            code = code * 10 + Int(byte - 0x30)
        }
        return code
    }

    static func message(for status: Int, maxBody: Int) -> String {
        switch status {
        case 400:
            return "The request is not valid HTTP/1.1 (malformed request line, header, header block over the size limit, or Content-Length); fix the request and send it again."
        case 413:
            return "The request body is over this endpoint's size limit (at most \(maxBody) bytes; less where no token is needed) or its chunked encoding is malformed; send a smaller, well-formed body."
        case 501:
            return "The request method is not supported; use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS."
        default:
            return "The server could not process the request (HTTP \(status)); check the request and try again."
        }
    }
}

func onConnectionOutputChanged(_ buffer: OpaquePointer?, _ info: UnsafePointer<evbuffer_cb_info>?,
                               _ argument: UnsafeMutableRawPointer?) {
    guard let buffer, let info, info.pointee.n_added > 0, let argument else { return }
    let loop = Unmanaged<EventLoop>.fromOpaque(argument).takeUnretainedValue()
    EvhttpErrorRewriter.outputChanged(buffer, added: info.pointee.n_added, loop: loop)
}
