import Foundation
import SkillGateState

/// A state-store test double that hands every call to `base` unless it implements the call itself: a double
/// conforms, keeps a real store in `base`, and writes only the methods it changes (a slow lookup, a gated write).
public protocol ForwardingStateStore: StateStore {
    associatedtype Base: StateStore
    var base: Base { get }
}

extension ForwardingStateStore {
    public func insertToken(_ token: ClientToken, hash: String) throws { try base.insertToken(token, hash: hash) }
    public func token(hash: String) throws -> StoredClientToken? { try base.token(hash: hash) }
    public func tokens() throws -> [ClientToken] { try base.tokens() }
    public func activeTokenHashes(limit: Int) throws -> [String] { try base.activeTokenHashes(limit: limit) }
    public func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash] {
        try base.activeTokenHashes(createdSince: since, limit: limit)
    }
    public func revokeToken(named name: String, at date: Date) throws -> ClientToken? { try base.revokeToken(named: name, at: date) }
    public func updateTokenLimits(named name: String, _ limits: TokenLimits) throws -> ClientToken? { try base.updateTokenLimits(named: name, limits) }
    public func markTokensUsed(_ uses: [String: Date]) throws { try base.markTokensUsed(uses) }
    public func recordUsage(_ record: UsageRecord) throws { try base.recordUsage(record) }
    public func recordUsage(_ records: [UsageRecord]) throws { try base.recordUsage(records) }
    public func usageSummary(tokenId: String?, since: Date) throws -> UsageSummary { try base.usageSummary(tokenId: tokenId, since: since) }
    public func usageSummary(scenario: String, since: Date) throws -> UsageSummary { try base.usageSummary(scenario: scenario, since: since) }
    public func usageReport(since: Date, by grouping: UsageGrouping) throws -> [UsageReportRow] { try base.usageReport(since: since, by: grouping) }
    public func usageReportPerDay(since: Date, by grouping: UsageGrouping) throws -> [UsageDayRow] { try base.usageReportPerDay(since: since, by: grouping) }
}
