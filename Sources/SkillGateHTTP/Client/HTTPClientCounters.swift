import Synchronization

/// Figures of one `HTTPClient`, shared by its own loop and its lanes on server event loops.
final class HTTPClientCounters: Sendable {
    private let peakStreamBuffered = Atomic<Int>(0)
    private let laneTransfers = Atomic<Int>(0)
    private let uploadReleases = Atomic<Int>(0)
    private let laneSocketReuses = Atomic<Int>(0)
    private let ownHTTP1Transfers = Atomic<Int>(0)

    /// Transfers the own HTTP/1.1 client carried instead of libcurl (decision 0051).
    var transfersOnOwnHTTP1Client: Int { ownHTTP1Transfers.load(ordering: .relaxed) }

    func countOwnHTTP1Transfer() { ownHTTP1Transfers.add(1, ordering: .relaxed) }

    /// Most bytes any streamed body of this client held unread (diagnostics for bounded buffering).
    var peakStreamBufferedBytes: Int { peakStreamBuffered.load(ordering: .relaxed) }

    /// Transfers started on a server event loop's lane instead of the client's own thread.
    var transfersOnServerLoops: Int { laneTransfers.load(ordering: .relaxed) }

    func recordBufferedPeak(_ bytes: Int) {
        var current = peakStreamBuffered.load(ordering: .relaxed)
        while bytes > current {
            let (exchanged, original) = peakStreamBuffered.compareExchange(expected: current, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    func countLaneTransfer() { laneTransfers.add(1, ordering: .relaxed) }

    /// Streams whose request body and upload buffer were freed once the head arrived (`TransferNotices`).
    var streamUploadsReleased: Int { uploadReleases.load(ordering: .relaxed) }

    func countUploadRelease() { uploadReleases.add(1, ordering: .relaxed) }

    /// Transfers whose socket was still registered on its lane from the connection's previous transfer
    /// (`LaneSocketRegistry`): no system call to watch it again.
    var laneSocketsReused: Int { laneSocketReuses.load(ordering: .relaxed) }

    func countLaneSocketReuse() { laneSocketReuses.add(1, ordering: .relaxed) }
}
