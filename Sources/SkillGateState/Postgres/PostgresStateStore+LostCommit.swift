import Glibc
import Synchronization

/// A ledger batch whose `COMMIT` lost its connection before the server answered: the server may have committed it.
/// Kept by `PostgresStateStore` until the server says (decision 0139).
public struct UnsettledUsageBatch: Sendable, Equatable {
    /// The batch's transaction (`pg_current_xact_id()`, as text).
    public let transactionId: String
    /// The records it held, in order: the ledger's writer puts a failed batch back at the front of its queue, so a
    /// committed batch's records are the first ones of the next batch the writer hands over.
    public let records: [UsageRecord]

    public init(transactionId: String, records: [UsageRecord]) {
        self.transactionId = transactionId
        self.records = records
    }
}

extension PostgresStateStore {
    public func unsettledUsage() -> UnsettledUsageBatch? {
        unsettledUsageBatch.locked { $0 }
    }

    public func resumeUnsettledUsage(_ batch: UnsettledUsageBatch) {
        unsettledUsageBatch.locked { $0 = batch }
    }

    /// How often, and how long apart, the server is asked about a lost commit it is still ending before the batch is
    /// left unsettled for the next write to ask again.
    static let lostCommitChecks = 5
    static let lostCommitCheckMicroseconds: UInt32 = 100_000

    /// After the connection was lost at a batch's `COMMIT`: asks the server (on a new connection) whether transaction
    /// `id` was committed. Returns when it was (the batch is written), throws `error`, told so, when it was rolled back
    /// (the writer retries the records, none of which were kept). When the server cannot be asked, or is still ending
    /// the transaction, the batch is kept as unsettled and `error` thrown, told so: the next write asks first
    /// (`settleEarlierBatch`).
    func settleLostCommit(_ error: PostgresError, of id: String, records: [UsageRecord], on db: PostgresConnection) throws {
        asking: for check in 0..<Self.lostCommitChecks {
            switch try? db.commitStatus(ofTransaction: id) {
            case .committed?:
                return
            case .rolledBack?:
                throw Self.told(error, "the server rolled the batch back; its records stay queued and are written again")
            case .inProgress?:
                if check + 1 < Self.lostCommitChecks { usleep(Self.lostCommitCheckMicroseconds) }
            case nil:
                // The server could not be asked (still unreachable) or no longer knows: the next write asks again.
                break asking
            }
        }
        unsettledUsageBatch.locked { $0 = UnsettledUsageBatch(transactionId: id, records: records) }
        throw Self.told(error, "whether the server committed the batch is not known yet; its records stay queued, and the next write asks the server first, so none is written twice")
    }

    /// `error` with what became of the batch in place of the connection's guess.
    private static func told(_ error: PostgresError, _ outcome: String) -> PostgresError {
        var told = error
        let note = PostgresConnection.lostCommitNote
        let said = error.message.hasSuffix(note) ? String(error.message.dropLast(note.count)) : error.message
        told.message = said + " (the connection was lost while committing: \(outcome))"
        return told
    }

    /// Before writing `records`: when an earlier batch's commit was lost unheard, asks the server about it and returns
    /// how many of `records`' first records that batch already wrote (0 when it was rolled back). Throws, leaving the
    /// batch unsettled, while the server cannot be asked or is still ending it, so nothing is written twice.
    ///
    /// A server that no longer knows the transaction (an id older than its commit log keeps, after hundreds of
    /// millions of later transactions) is taken as not having committed it: the records are written again rather than
    /// dropped.
    func settleEarlierBatch(on db: PostgresConnection, before records: [UsageRecord]) throws -> Int {
        guard let earlier = unsettledUsageBatch.locked({ $0 }) else { return 0 }
        let status = try db.commitStatus(ofTransaction: earlier.transactionId)
        if status == .inProgress {
            throw PostgresError(message: "the server is still committing an earlier ledger batch whose connection was lost; the records stay queued and are written once it has",
                                context: "writing usage records to \(target)")
        }
        unsettledUsageBatch.locked { $0 = nil }
        guard status == .committed else { return 0 }
        return zip(earlier.records, records).prefix { $0 == $1 }.count
    }
}
