#if canImport(Darwin)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// The Apple-platform transport: `URLSession.data(for:)` and `bytes(for:)`, with `SSELineDecoder`
/// for event streams. Cancelling the calling task cancels the session's data task.
struct URLSessionTransport: ClientTransport {
    let session: URLSession

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let (data, response) = try await Self.mappingErrors { try await session.data(for: Self.urlRequest(request)) }
        let (status, headers) = try Self.head(response)
        return TransportResponse(status: status, headers: headers, body: [UInt8](data))
    }

    func stream(_ request: TransportRequest, onEvent: (ServerSentEvent) throws -> Void) async throws -> TransportResponse {
        let (bytes, response) = try await Self.mappingErrors { try await session.bytes(for: Self.urlRequest(request)) }
        let (status, headers) = try Self.head(response)
        guard TransportResponse.isEventStream(status: status, contentType: headers["content-type"]) else {
            var body: [UInt8] = []
            try await Self.mappingErrors {
                for try await byte in bytes {
                    guard body.count < TransportResponse.bodyLimit else { break }
                    body.append(byte)
                }
            }
            return TransportResponse(status: status, headers: headers, body: body)
        }
        var decoder = SSELineDecoder()
        var line: [UInt8] = []
        try await Self.mappingErrors {
            for try await byte in bytes {
                line.append(byte)
                // Hand over whole lines, and a long line in pieces (the decoder bounds what it keeps of it).
                guard byte == 0x0A || byte == 0x0D || line.count >= 65_536 else { continue }
                for event in decoder.feed(line) { try onEvent(event) }
                line.removeAll(keepingCapacity: true)
            }
        }
        try Task.checkCancellation()
        for event in decoder.feed(line) + decoder.finish() { try onEvent(event) }
        return TransportResponse(status: status, headers: headers, body: [])
    }

    private static func urlRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = Data(request.body)
        let idle = request.idleTimeout.components
        urlRequest.timeoutInterval = Double(idle.seconds) + Double(idle.attoseconds) / 1e18
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    private static func head(_ response: URLResponse) throws -> (Int, [String: String]) {
        guard let http = response as? HTTPURLResponse else {
            throw SkillGateClientError.malformedResponse("the answer is not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return (http.statusCode, headers)
    }

    /// Runs `body`; URLSession's cancellation stays cancellation, its other errors become network errors.
    private static func mappingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as URLError {
            if error.code == .cancelled { throw CancellationError() }
            throw SkillGateClientError.network(underlying: error)
        }
    }
}
#endif
