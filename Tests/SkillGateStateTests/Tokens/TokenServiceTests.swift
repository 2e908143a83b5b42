import Foundation
import SkillGateKeys
import SkillGateTestSupport
import Synchronization
import Testing
@testable import SkillGateState

@Suite struct TokenServiceTests {
    private func makeService(_ dir: String, clock: TestClock = TestClock(), cacheLifetime: Duration = .seconds(30))
        throws -> (TokenService, SQLiteStateStore)
    {
        let store = try SQLiteStateStore(stateDirectory: dir)
        return (TokenService(store: store, cacheLifetime: cacheLifetime, now: { clock.now }), store)
    }

    @Test func createsARandomTokenShownOnceAndAuthenticatesIt() throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            let (token, record) = try service.create(name: "ios-app", scenarios: ["chat", "calendar-assistant", "chat"],
                                                     models: ["light"], defaultScenario: "chat")
            #expect(token.hasPrefix("sgk_"))
            #expect(token.count == 47)
            #expect(TokenFormat.looksLikeToken(token))
            #expect(record.scenarios == ["chat", "calendar-assistant"], "duplicates dropped, order kept")
            #expect(record.id.hasPrefix("tok_"))
            let (other, _) = try service.create(name: "ci")
            #expect(other != token)

            let authenticated = try #require(service.authenticate(token))
            #expect(authenticated.id == record.id)
            #expect(authenticated.allows(scenario: "chat") && !authenticated.allows(scenario: "admin"))
            #expect(authenticated.allows(model: "gpt-4o-mini", tier: "light") && !authenticated.allows(model: "gpt-4o", tier: "strong"))
            #expect(service.authenticate(other)?.name == "ci")
            #expect(try service.list().map(\.name) == ["ios-app", "ci"])
        }
    }

    /// A request keeps a grant and asks again while it runs: a revocation here is seen at once,
    /// one by another process (another service on the same file) once the cache entry expires.
    @Test func aGrantIsStillValidUntilTheTokenIsRevoked() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (service, _) = try makeService(dir, clock: clock, cacheLifetime: .seconds(2))
            let (token, record) = try service.create(name: "ios-app")
            let (other, _) = try service.create(name: "ci")
            let grant = try #require(service.grant(for: token))
            let otherGrant = try #require(service.grant(for: other))
            #expect(grant.token.id == record.id)
            #expect(!String(describing: grant).contains(grant.digest.hex) && !String(reflecting: grant).contains(grant.digest.hex))
            #expect(service.isStillValid(grant))

            try service.revoke(name: "ios-app")
            #expect(!service.isStillValid(grant), "revoked through this service: at once")

            let (cli, _) = try makeService(dir, clock: clock)
            try cli.revoke(name: "ci")
            #expect(service.isStillValid(otherGrant), "another process's revocation: after the cache lifetime")
            clock.advance(seconds: 2.5)
            #expect(!service.isStillValid(otherGrant))
            #expect(service.grant(for: "sgk_not-a-token") == nil)
        }
    }

    /// A SQLite store that counts its token reads, and fails them while `failing` is set.
    final class CountedLookups: ForwardingStateStore {
        let base: SQLiteStateStore
        let reads = Mutex((single: 0, many: 0))
        let failing = Mutex(false)
        init(_ base: SQLiteStateStore) { self.base = base }
        struct Down: Error {}
        func token(hash: String) throws -> StoredClientToken? {
            reads.locked { $0.single += 1 }
            if failing.locked({ $0 }) { throw Down() }
            return try base.token(hash: hash)
        }
        func tokens(hashes: [String]) throws -> [StoredClientToken] {
            reads.locked { $0.many += 1 }
            if failing.locked({ $0 }) { throw Down() }
            return try base.tokens(hashes: hashes)
        }
    }

    /// The revocation sweep's question for many grants at once (decision 0142): the cache answers for those it vouches
    /// for, one store read for the rest (whose answers are cached then), and a store that cannot be read leaves them
    /// `.unknown`.
    @Test func standingsOfManyGrantsTakeOneStoreRead() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let store = CountedLookups(try SQLiteStateStore(stateDirectory: dir))
            let service = TokenService(store: store, cacheLifetime: .seconds(2), now: { clock.now })
            let made = try (0..<4).map { try service.create(name: "app-\($0)").token }
            let grants = try made.map { try #require(service.grant(for: $0)) }
            store.reads.locked { $0 = (0, 0) }
            #expect(service.standings(of: grants + [grants[0]]) == [.valid, .valid, .valid, .valid, .valid])
            #expect(store.reads.locked { $0 } == (0, 0), "all cached: no store read")

            clock.advance(seconds: 1.5)  // past half the entries' lifetime: one read renews them all, no refresh of each
            #expect(service.standings(of: grants) == [.valid, .valid, .valid, .valid])
            #expect(store.reads.locked { $0 } == (0, 1))
            #expect(service.standings(of: grants) == [.valid, .valid, .valid, .valid])
            #expect(store.reads.locked { $0 } == (0, 1), "renewed")
            store.reads.locked { $0 = (0, 0) }

            clock.advance(seconds: 3)
            let elsewhere = TokenService(store: try SQLiteStateStore(stateDirectory: dir))
            try elsewhere.revoke(name: "app-1")
            _ = try service.revoke(name: "app-2")  // through this service: cached as revoked, fresh again
            #expect(service.standings(of: grants) == [.valid, .revoked, .revoked, .valid])
            #expect(store.reads.locked { $0 } == (0, 1), "one read for the three the cache no longer vouched for")
            #expect(service.standings(of: grants) == [.valid, .revoked, .revoked, .valid])
            #expect(store.reads.locked { $0 } == (0, 1), "their answers were cached")

            clock.advance(seconds: 1.5)
            store.failing.locked { $0 = true }
            #expect(service.standings(of: grants) == [.valid, .revoked, .revoked, .valid], "while the entries still vouch")
            clock.advance(seconds: 1)
            #expect(service.standings(of: grants) == [.unknown, .revoked, .revoked, .unknown],
                    "once they no longer do, but a revocation is final (decision 0144)")
        }
    }

    /// A revocation is final, so the cache keeps a revoked entry for good (decision 0144): a revoked token presented
    /// again and again, or a sweep over answers of one still under way, reads the store once, not every lifetime; also
    /// after the wall clock was set back.
    @Test func aRevocationIsCachedForGood() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let store = CountedLookups(try SQLiteStateStore(stateDirectory: dir))
            let service = TokenService(store: store, cacheLifetime: .seconds(2), now: { clock.now })
            let (revokedElsewhere, _) = try service.create(name: "elsewhere")
            let (revokedHere, _) = try service.create(name: "here")
            let (kept, _) = try service.create(name: "kept")
            let grants = try [revokedElsewhere, revokedHere, kept].map { try #require(service.grant(for: $0)) }
            try TokenService(store: try SQLiteStateStore(stateDirectory: dir)).revoke(name: "elsewhere")
            try service.revoke(name: "here")

            clock.advance(seconds: 3)
            #expect(service.authenticate(revokedElsewhere) == nil, "the store is read once the entry expired")
            #expect(service.authenticate(revokedHere) == nil)
            #expect(service.authenticate(kept) != nil)
            store.reads.locked { $0 = (0, 0) }
            for hours in [1.0, 24, -48] {  // later, much later, and after the clock was set back
                clock.advance(seconds: hours * 3_600)
                #expect(service.authenticate(revokedElsewhere) == nil)
                if case .refused = service.cachedGrant(for: revokedHere) {} else { Issue.record("a revoked entry expired (\(hours) h)") }
                #expect(service.cachedStanding(of: grants[0]) == .revoked)
                #expect(service.standings(of: grants) == [.revoked, .revoked, .valid])
            }
            #expect(store.reads.locked { $0 } == (0, 3), "only the valid token was read again, once per sweep")
        }
    }

    @Test func storesOnlyTheHashOnDisk() throws {
        try withTemporaryDirectory { dir in
            let (service, store) = try makeService(dir)
            let (token, _) = try service.create(name: "ios-app")
            var bytes = try readBytes(store.path)
            if FileManager.default.fileExists(atPath: store.path + "-wal") { bytes += try readBytes(store.path + "-wal") }
            let onDisk = String(decoding: bytes, as: UTF8.self)
            #expect(onDisk.contains(TokenFormat.hash(token)), "the hash is there, so this reads the right bytes")
            #expect(!onDisk.contains(token))
            #expect(!onDisk.contains(String(token.dropFirst(4).prefix(20))))
        }
    }

    @Test(arguments: ["", "sgk_", "Bearer sgk_x", "sk-proj-abc", "sgk_" + String(repeating: "-", count: 43)])
    func malformedTokensAreRejected(_ presented: String) throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            _ = try service.create(name: "a")
            #expect(service.authenticate(presented) == nil)
        }
    }

    @Test func unknownAndRevokedTokensAreRejectedEvenWhenCached() throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            let (token, _) = try service.create(name: "ios-app")
            #expect(service.authenticate(try TokenFormat.generate()) == nil)
            #expect(service.authenticate(token) != nil)  // now cached
            let revoked = try service.revoke(name: "ios-app")
            #expect(revoked.revokedAt != nil)
            #expect(service.authenticate(token) == nil)
            #expect(try service.list().first?.isRevoked == true)
        }
    }

    /// After a start, the tokens the store holds as active are known before their first use (their lookups queue
    /// ahead of never-seen tokens'); revoked and made-up ones are not, and a token created through the service is.
    @Test func theActiveTokensAreKnownFromTheStart() throws {
        try withTemporaryDirectory { dir in
            let (cli, _) = try makeService(dir)  // another process, before the gateway started
            let (active, _) = try cli.create(name: "ios-app")
            let (revoked, _) = try cli.create(name: "old")
            try cli.revoke(name: "old")
            let (server, _) = try makeService(dir)
            func isKnown(_ token: String) -> Bool? {
                if case .notCached(let known) = server.cachedGrant(for: token) { return known }
                return nil
            }
            #expect(isKnown(active) == false, "before it learns them, the new service knows no token")
            #expect(try server.learnActiveTokens() == 1)
            #expect(isKnown(active) == true)
            #expect(isKnown(revoked) == false)
            #expect(isKnown("sgk_" + String(repeating: "A", count: 43)) == false)
            let (created, _) = try server.create(name: "web")
            #expect(isKnown(created) == true)
            let (elsewhere, _) = try cli.create(name: "later")  // created elsewhere after the start: learnt when accepted
            #expect(isKnown(elsewhere) == false)
            #expect(try server.checkedGrant(for: elsewhere) != nil)
        }
    }

    /// Tokens created elsewhere while the service runs are learnt by `learnNewTokens` (decision 0088), looking a minute
    /// back before the last listing for a creator whose clock is a little behind.
    @Test func tokensCreatedElsewhereAfterTheStartAreLearnt() throws {
        try withTemporaryDirectory { dir in
            let serverClock = TestClock()
            let (server, _) = try makeService(dir, clock: serverClock)
            func isKnown(_ token: String) -> Bool? {
                if case .notCached(let known) = server.cachedGrant(for: token) { return known }
                return nil
            }
            #expect(try server.learnActiveTokens() == 0)
            serverClock.advance(seconds: 10)
            let (cli, _) = try makeService(dir, clock: TestClock(serverClock.now))
            let (later, _) = try cli.create(name: "later")
            let (gone, _) = try cli.create(name: "gone")
            try cli.revoke(name: "gone")
            #expect(isKnown(later) == false)
            #expect(try server.learnNewTokens() == 1)
            #expect(isKnown(later) == true)
            #expect(isKnown(gone) == false, "a revoked token is not listed")

            serverClock.advance(seconds: 2)
            let (skewed, _) = try makeService(dir, clock: TestClock(serverClock.now.addingTimeInterval(-30))).0.create(name: "skewed")
            let (farBehind, _) = try makeService(dir, clock: TestClock(serverClock.now.addingTimeInterval(-300))).0.create(name: "far")
            #expect(try server.learnNewTokens() == 2, "the minute before the last listing is listed again: `later` and `skewed`")
            #expect(isKnown(skewed) == true, "a creator's clock 30 s behind is within the overlap")
            #expect(isKnown(farBehind) == false, "a creator's clock 5 min behind is not: learnt when first accepted")
            #expect(try server.checkedGrant(for: farBehind) != nil)
            serverClock.advance(seconds: 31)  // past the cache's lifetime
            #expect(isKnown(farBehind) == true)
        }
    }

    /// A wall clock set back (an NTP step, a resumed VM) does not keep cached entries: a token revoked elsewhere is
    /// refused at once, not when the clock catches up; and the next listings still find tokens created since.
    @Test func aClockSetBackDoesNotKeepTheCache() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, _) = try makeService(dir, clock: clock)
            try server.learnActiveTokens()
            let (cli, _) = try makeService(dir, clock: clock)
            let (token, _) = try cli.create(name: "ios-app")
            let grant = try #require(server.grant(for: token))
            #expect(!server.cacheNoLongerVouches(for: grant))
            try cli.revoke(name: "ios-app")
            clock.advance(seconds: -3_600)
            #expect(server.cacheNoLongerVouches(for: grant), "a grant fetched an hour 'ahead' no longer vouches")
            #expect(server.authenticate(token) == nil, "a token revoked elsewhere was still accepted from the cache")

            let (later, _) = try makeService(dir, clock: clock).0.create(name: "later")  // stamped with the earlier time
            _ = try server.learnNewTokens()  // still looks back from the last listing's time, an hour ahead
            _ = try server.learnNewTokens()  // looks back from now
            guard case .notCached(known: true) = server.cachedGrant(for: later) else {
                Issue.record("a token created after the clock went back was not learnt")
                return
            }
        }
    }

    /// A listing that fills its limit is followed, at the next call, by one from its last token's time, until every token
    /// created meanwhile is known.
    @Test func aFullListingGoesOnAtTheNextCall() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, _) = try makeService(dir, clock: clock)
            try server.learnActiveTokens()
            var created: [String] = []
            for i in 0..<5 {
                clock.advance(seconds: 1)
                created.append(try makeService(dir, clock: TestClock(clock.now)).0.create(name: "t\(i)").token)
            }
            func knownCount() -> Int {
                created.filter { token in
                    if case .notCached(known: true) = server.cachedGrant(for: token) { return true }
                    return false
                }.count
            }
            var listings = [Int]()
            while knownCount() < created.count && listings.count < 10 {
                listings.append(try server.learnNewTokens(listingAtMost: 2))
            }
            #expect(knownCount() == created.count)
            #expect(listings == [2, 2, 2, 2], "each full listing goes on from its last token: t0 t1, t1 t2, t2 t3, t3 t4")
            #expect(try server.learnNewTokens(listingAtMost: 2) == 1, "the last token again, then a listing that is not full")
        }
    }

    /// A full listing whose tokens were all created in one millisecond (a bulk insert) does not hold the listing there:
    /// the next one goes on past it, so tokens created later are still learnt.
    @Test func aFullListingOfOneMillisecondGoesOnPastIt() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, store) = try makeService(dir, clock: clock)
            try server.learnActiveTokens()
            let bulk = clock.now.addingTimeInterval(1)
            for i in 0..<3 {
                try store.insertToken(ClientToken(id: "tok_bulk\(i)", name: "bulk-\(i)", createdAt: bulk), hash: String(repeating: "\(i)", count: 64))
            }
            clock.advance(seconds: 2)
            let (later, _) = try makeService(dir, clock: TestClock(clock.now)).0.create(name: "later")
            var known = false
            for _ in 0..<4 where !known {
                _ = try server.learnNewTokens(listingAtMost: 2)
                if case .notCached(known: true) = server.cachedGrant(for: later) { known = true }
            }
            #expect(known, "the listing stayed at the bulk insert's millisecond")
        }
    }

    /// A store that cannot list tokens while `failing` is set.
    final class ListingFailsStore: ForwardingStateStore {
        let base: SQLiteStateStore
        let failing = Mutex(true)
        init(_ base: SQLiteStateStore) { self.base = base }
        struct Down: Error {}
        func activeTokenHashes(limit: Int) throws -> [String] {
            if failing.locked({ $0 }) { throw Down() }
            return try base.activeTokenHashes(limit: limit)
        }
        func activeTokenHashes(createdSince since: Date, limit: Int) throws -> [CreatedTokenHash] {
            if failing.locked({ $0 }) { throw Down() }
            return try base.activeTokenHashes(createdSince: since, limit: limit)
        }
    }

    /// When the store could not be read at the start, the first listing that works learns every active token, not only
    /// the new ones.
    @Test func aListingAfterAFailedStartLearnsEveryActiveToken() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (old, _) = try makeService(dir, clock: clock).0.create(name: "old")
            clock.advance(seconds: 3_600)
            let store = ListingFailsStore(try SQLiteStateStore(stateDirectory: dir))
            let server = TokenService(store: store, now: { clock.now })
            #expect(throws: ListingFailsStore.Down.self) { try server.learnActiveTokens() }
            #expect(throws: ListingFailsStore.Down.self) { try server.learnNewTokens() }
            store.failing.locked { $0 = false }
            #expect(try server.learnNewTokens() == 1)
            guard case .notCached(known: true) = server.cachedGrant(for: old) else {
                Issue.record("a token created an hour before the start is known after the first listing that worked")
                return
            }
        }
    }

    /// `cachedGrant` answers from the cache alone (the head gate on an event loop): it never reads the store.
    @Test func theCacheAloneTellsWhatItHoldsAndNothingElse() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, _) = try makeService(dir, clock: clock)
            let (cli, _) = try makeService(dir, clock: clock)  // another process creates the token
            let (token, _) = try cli.create(name: "ios-app")
            let neverAccepted: Bool
            if case .notCached(known: false) = server.cachedGrant(for: token) { neverAccepted = true } else { neverAccepted = false }
            #expect(neverAccepted, "a token only the store knows is not decided from the cache")
            if case .refused = server.cachedGrant(for: "sgk_short") {} else { Issue.record("a malformed token is refused") }
            #expect(try server.checkedGrant(for: token) != nil)  // the store is read: now cached
            guard case .granted(let grant) = server.cachedGrant(for: token) else {
                Issue.record("a cached token is granted from the cache")
                return
            }
            #expect(grant.token.name == "ios-app")
            clock.advance(seconds: 31)
            if case .notCached(known: true) = server.cachedGrant(for: token) {} else {
                Issue.record("an expired entry is not used, and the token is known as accepted before")
            }
            #expect(try server.checkedGrant(for: token) != nil)
            // A limit change through the service puts the new record in the cache: the cache alone grants it, with them.
            try server.updateLimits(name: "ios-app", TokenLimits(requestsPerMinute: 7))
            guard case .granted(let updated) = server.cachedGrant(for: token) else {
                Issue.record("a token whose limits changed through the service is still decided from the cache")
                return
            }
            #expect(updated.token.limits.requestsPerMinute == 7)
            // A revocation through the service keeps the revoked record cached: the cache alone refuses it at once, with
            // no store read on the way (decision 0086), and the store agrees.
            try server.revoke(name: "ios-app")
            if case .refused = server.cachedGrant(for: token) {} else { Issue.record("a token revoked through the service is refused from the cache") }
            #expect(try server.checkedGrant(for: token) == nil)
        }
    }

    /// A grant says until when the cache vouches for it: the head gate's grant, and one read from the store.
    @Test func aGrantCarriesItsCacheEntrysExpiry() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, _) = try makeService(dir, clock: clock, cacheLifetime: .seconds(2))
            let (token, _) = try server.create(name: "ios-app")
            let start = clock.now
            let read = try #require(try server.checkedGrant(for: token))
            #expect(read.cachedUntil == start.addingTimeInterval(2))
            clock.advance(seconds: 1.5)
            guard case .granted(let cached) = server.cachedGrant(for: token) else {
                Issue.record("a cached token is granted from the cache")
                return
            }
            #expect(cached.cachedUntil == start.addingTimeInterval(2), "the entry's own expiry, not the lookup's time + 2 s")
        }
    }

    @Test func revokeErrorsNameTheToken() throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            let unknown = #expect(throws: TokenError.self) { try service.revoke(name: "nightly-ci") }
            #expect(unknown?.description.contains("\"nightly-ci\"") == true)
            _ = try service.create(name: "ci")
            try service.revoke(name: "ci")
            #expect(throws: TokenError.alreadyRevoked("ci")) { try service.revoke(name: "ci") }
            // A revoked token's limits are not "already revoked; nothing to do": they cannot change, and a new token can.
            let limits = #expect(throws: TokenError.revokedLimits("ci")) { try service.updateLimits(name: "ci", TokenLimits(requestsPerMinute: 5)) }
            #expect(limits?.description.contains("cannot change") == true && limits?.description.contains("tokens create") == true)
        }
    }

    @Test func revocationByAnotherProcessTakesEffectWhenTheCacheExpires() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (server, _) = try makeService(dir, clock: clock)
            let (cli, _) = try makeService(dir, clock: clock)  // a second connection, like the CLI
            let (token, _) = try cli.create(name: "ios-app")
            #expect(server.authenticate(token) != nil)
            try cli.revoke(name: "ios-app")
            #expect(server.authenticate(token) != nil, "still cached: documented staleness up to cacheLifetime")
            clock.advance(seconds: 31)
            #expect(server.authenticate(token) == nil)

            let (second, _) = try cli.create(name: "ios-app")
            #expect(server.authenticate(second) != nil)
            try cli.revoke(name: "ios-app")
            server.invalidateCache()
            #expect(server.authenticate(second) == nil)
        }
    }

    @Test func lastUsedIsWrittenAtMostOncePerInterval() throws {
        try withTemporaryDirectory { dir in
            let clock = TestClock()
            let (service, _) = try makeService(dir, clock: clock)
            let (token, _) = try service.create(name: "ios-app")
            #expect(try service.list().first?.lastUsedAt == nil)
            let t0 = clock.now
            _ = service.authenticate(token)
            try service.flushLastUsed()
            #expect(try service.list().first?.lastUsedAt == t0)
            clock.advance(seconds: 10)
            _ = service.authenticate(token)
            try service.flushLastUsed()
            #expect(try service.list().first?.lastUsedAt == t0, "within a minute nothing new is written")
            clock.advance(seconds: 51)
            let t1 = clock.now
            #expect(service.authenticate(token)?.lastUsedAt == t1)
            try service.flushLastUsed()
            #expect(try service.list().first?.lastUsedAt == t1)
        }
    }

    /// A name starting with `-` reads as an option on the command line (`tokens revoke --admin`), so names start with a
    /// letter or digit (decision 0137).
    @Test(arguments: ["", "has space", "semi;colon", String(repeating: "x", count: 65), "ünïcode", "-x", "--admin", ".hidden", "_x"])
    func invalidNamesAreRefused(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            let error = #expect(throws: TokenError.self) { try service.create(name: name) }
            #expect(error?.description.contains("1 to 64 characters") == true)
        }
    }

    @Test func scopesAreValidated() throws {
        try withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir)
            #expect(throws: TokenError.defaultScenarioNotAllowed("admin")) {
                try service.create(name: "a", scenarios: ["chat"], defaultScenario: "admin")
            }
            #expect(throws: TokenError.self) { try service.create(name: "a", scenarios: [""]) }
            #expect(throws: TokenError.self) { try service.create(name: "a", models: ["gpt 4"]) }
            #expect(try service.create(name: "a", defaultScenario: "chat").record.defaultScenario == "chat")
            #expect(throws: TokenError.duplicateName("a")) { try service.create(name: "a") }
        }
    }

    @Test func concurrentAuthenticationAgrees() async throws {
        try await withTemporaryDirectory { dir in
            let (service, _) = try makeService(dir, clock: TestClock(), cacheLifetime: .zero)
            let tokens = try (0..<4).map { try service.create(name: "t\($0)").token }
            let bogus = try TokenFormat.generate()
            let results = await withTaskGroup(of: Bool.self) { group in
                for i in 0..<200 {
                    group.addTask { i % 5 == 4 ? service.authenticate(bogus) == nil : service.authenticate(tokens[i % 4])?.name == "t\(i % 4)" }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 200 && results.allSatisfy { $0 })
            try service.flushLastUsed()
            #expect(try service.list().allSatisfy { $0.lastUsedAt != nil })
        }
    }
}

/// A token's text given where its name belongs (`tokens revoke sgk_…`) is not quoted back: the message says what was
/// given and how to find the names; no token may be named with the tokens' prefix (decision 0153).
@Suite struct TokenTextGivenAsANameTests {
    @Test func aTokensTextGivenAsItsNameIsNotEchoed() throws {
        try withTemporaryDirectory { dir in
            let service = TokenService(store: try SQLiteStateStore(stateDirectory: dir))
            let (token, _) = try service.create(name: "ios-app")
            var refusals: [TokenError] = []
            do { _ = try service.revoke(name: token) } catch let error as TokenError { refusals.append(error) }
            do { _ = try service.updateLimits(name: token, TokenLimits()) } catch let error as TokenError { refusals.append(error) }
            do { _ = try service.create(name: String(token.prefix(20))) } catch let error as TokenError { refusals.append(error) }
            #expect(refusals.count == 3)
            for refusal in refusals {
                #expect(!refusal.description.contains(token.dropFirst(4).prefix(8)), "\(refusal.description)")
                #expect(refusal.description.contains("a token's text") && refusal.description.contains("skillgate tokens list"))
            }
            #expect(try service.list().map(\.name) == ["ios-app"], "nothing named with the prefix was made")
            #expect(TokenError.unknownToken("ios-ap").description.contains("\"ios-ap\""), "an ordinary name is still quoted")
        }
    }
}
