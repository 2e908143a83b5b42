/// The checks every outbound request passes before any byte is sent, whichever client carries it (libcurl or the own
/// HTTP/1.1 client): a field that could split the request head is refused, never sent.
extension HTTPRequest {
    /// Why the method cannot be sent (not an HTTP token), nil when it can.
    var methodProblem: HTTPClientError? {
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return HTTPClientError(kind: .invalidRequest, detail: "HTTP method \"\(method)\" is not a token; use GET, POST, ...")
        }
        return nil
    }

    /// The method in upper case, as sent; the common already-upper-case method is returned as it is, without the
    /// Unicode-aware `uppercased()`.
    var upperCaseMethod: String {
        method.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? method.uppercased() : method
    }

    /// Why a header field cannot be sent (a colon or line break in its name, a line break or NUL in its value), nil
    /// when all can.
    var headerProblem: HTTPClientError? {
        for field in headers where Self.breaksHead(field) {
            return HTTPClientError(kind: .invalidRequest,
                                   detail: "header field \"\(field.name)\" contains a colon or line break in its name or a line break in its value; remove it")
        }
        return nil
    }

    /// Over the fields' contiguous bytes: the `UTF8View` iterator cost ~1.8k instructions for a provider request's
    /// five fields, on every upstream request.
    private static func breaksHead(_ field: HTTPHeaders.Field) -> Bool {
        var name = field.name, value = field.value
        let nameBreaks = name.withUTF8 { bytes in bytes.contains { $0 == 0x3A || $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
        return nameBreaks || value.withUTF8 { bytes in bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } }
    }
}

extension HTTPClientError {
    /// A whole-body request whose answer outgrew `HTTPClient.Configuration.maxResponseBytes`.
    static func responseTooLarge(limit: Int) -> HTTPClientError {
        HTTPClientError(kind: .responseTooLarge,
                        detail: "the response body exceeded maxResponseBytes (\(limit) bytes); raise HTTPClient.Configuration.maxResponseBytes or use stream(_:)")
    }
}
