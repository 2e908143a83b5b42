import Glibc
@testable import SkillGateHTTP
import Testing

/// `LaneSocketRegistry`: which epoll operation each of libcurl's socket reports needs, with sockets parked between
/// transfers (decision 0042).
@Suite struct LaneSocketRegistryTests {
    typealias Action = LaneSocketRegistry.Action
    static let readable = LaneSocketRegistry.readable
    static let writable = LaneSocketRegistry.writable

    /// One report: libcurl's interest in descriptor 7 (0: no longer watched) and which open file 7 is at that moment
    /// (0: closed), or an event arriving for it; with the action expected.
    enum Step: Sendable, CustomStringConvertible {
        case watch(LaneSocketRegistry.Interest, file: UInt64, expect: Action)
        case event(expectParked: Bool)

        var description: String {
            switch self {
            case .watch(let interest, let file, let expect): "watch \(interest) on file \(file) -> \(expect)"
            case .event(let parked): "event (parked: \(parked))"
            }
        }
    }

    struct Script: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]
        let reused: Int
        var testDescription: String { name }
    }

    static let scripts: [Script] = [
        Script(name: "a pooled connection's next transfer takes its registration back", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(0, file: 100, expect: .none),
            .watch(readable, file: 100, expect: .none),
            .watch(0, file: 100, expect: .none),
            .watch(readable, file: 100, expect: .none),
        ], reused: 2),
        Script(name: "a parked number reused for another socket is registered again", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(0, file: 100, expect: .none),
            .watch(readable, file: 200, expect: .add(readable)),
            .watch(0, file: 200, expect: .none),
        ], reused: 0),
        Script(name: "a parked socket that was closed is registered again", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(0, file: 100, expect: .none),
            .watch(readable, file: 0, expect: .add(readable)),
        ], reused: 0),
        Script(name: "a socket watched for writing is removed, not parked", steps: [
            .watch(readable | writable, file: 100, expect: .add(readable | writable)),
            .watch(0, file: 100, expect: .remove),
            .watch(readable, file: 100, expect: .add(readable)),
        ], reused: 0),
        Script(name: "a parked socket watched for something else is modified", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(0, file: 100, expect: .none),
            .watch(writable, file: 100, expect: .modify(writable)),
            .watch(readable, file: 100, expect: .modify(readable)),
        ], reused: 1),
        Script(name: "an event on a parked socket drops it; the next transfer registers it again", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(0, file: 100, expect: .none),
            .event(expectParked: true),
            .event(expectParked: false),
            .watch(0, file: 100, expect: .none),
            .watch(readable, file: 300, expect: .add(readable)),
        ], reused: 0),
        Script(name: "an event on a watched socket is libcurl's", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .event(expectParked: false),
            .watch(0, file: 100, expect: .none),
        ], reused: 0),
        Script(name: "the same interest twice for a new file (closed and reused unannounced) is registered again", steps: [
            .watch(readable, file: 100, expect: .add(readable)),
            .watch(readable, file: 100, expect: .none),
            .watch(readable, file: 200, expect: .add(readable)),
        ], reused: 0),
        Script(name: "forgetting a socket never registered does nothing", steps: [
            .watch(0, file: 100, expect: .none),
            .event(expectParked: false),
        ], reused: 0),
        Script(name: "a socket whose file could not be read is never parked", steps: [
            .watch(readable, file: 0, expect: .add(readable)),
            .watch(0, file: 0, expect: .remove),
        ], reused: 0),
    ]

    @Test(arguments: scripts)
    func operations(_ script: Script) {
        var registry = LaneSocketRegistry()
        for (index, step) in script.steps.enumerated() {
            switch step {
            case .watch(let interest, let file, let expected):
                let action = registry.watch(7, for: interest) { file }
                #expect(action == expected, "step \(index): \(step)")
            case .event(let expectParked):
                #expect(registry.eventOnParkedSocket(7) == expectParked, "step \(index): \(step)")
            }
        }
        #expect(registry.reused == script.reused)
    }

    /// Descriptors are kept apart: parking one does not touch another.
    @Test func descriptorsAreIndependent() {
        var registry = LaneSocketRegistry()
        #expect(registry.watch(7, for: Self.readable) { 100 } == .add(Self.readable))
        #expect(registry.watch(8, for: Self.readable) { 200 } == .add(Self.readable))
        #expect(registry.watch(7, for: 0) { 100 } == .none)
        #expect(registry.eventOnParkedSocket(8) == false)
        #expect(registry.eventOnParkedSocket(7) == true)
        #expect(registry.count == 1)
    }
}

/// `LaneSocketRegistry.identity(of:)`: a socket's inode, and 0 for any descriptor that is not a socket (libcurl's
/// eventfds share one anonymous inode, so only sockets can be told apart) or is not open: such a descriptor is never
/// parked.
@Suite struct DescriptorIdentityTests {
    @Test func socketsHaveDistinctIdentitiesAndOtherDescriptorsNone() {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        let first = LaneSocketRegistry.identity(of: pair[0]), second = LaneSocketRegistry.identity(of: pair[1])
        #expect(first != 0 && second != 0 && first != second)

        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        #expect(LaneSocketRegistry.identity(of: pipeEnds[0]) == 0)
        close(pipeEnds[0]); close(pipeEnds[1])
    }

    @Test func aDescriptorThatIsNotOpenHasNone() {
        // Not a number just closed: tests running in parallel open sockets, and the kernel hands out the lowest free
        // number, so a closed one is soon another test's socket. The highest number the file limit allows is taken
        // only when every lower one is.
        let unused = Int32(getdtablesize() - 1)
        #expect(fcntl(unused, F_GETFD) == -1, "descriptor \(unused) is open")
        #expect(LaneSocketRegistry.identity(of: unused) == 0)
        #expect(LaneSocketRegistry.identity(of: -1) == 0)
    }
}
