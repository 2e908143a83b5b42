import Dispatch
import Foundation
import Synchronization
import Testing
import SkillGateCore
import SkillGateSkills
@testable import SkillGateHTTP
@testable import SkillGateServer

/// A task executor on one named thread: stands in for an HTTP server's event loop.
private final class OneThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let signal = DispatchSemaphore(value: 0)

    init(name: String) {
        Thread { [self] in
            ThreadName.set(name)
            while true {
                signal.wait()
                for job in jobs.locked({ q in defer { q = [] }; return q }) { job.runSynchronously(on: asUnownedTaskExecutor()) }
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.locked { $0.append(job) }
        signal.signal()
    }
}

/// Request handlers run on the server's event loops, and skills may block (SQLite, DNS): a skill
/// must run on the global executor, whatever executor its caller prefers — unless it says it never blocks
/// (`mayBlock == false`, the calculator), which runs where its caller runs.
@Suite struct SkillExecutionExecutorTests {
    @Test func skillsRunOffTheCallersEventLoop() async throws {
        let loop = OneThreadExecutor(name: "test-loop")
        let ranOn = Mutex("")
        let skill = TestSkill("where_am_i") { _ in
            ranOn.locked { $0 = ThreadName.current }
            return SkillResult(text: "ok")
        }
        let (callerThread, result) = await Task(executorPreference: loop) {
            (ThreadName.current, try? await SkillExecution.run(skill, arguments: [:], context: SkillContext(tokenName: "t", requestId: "req_1"),
                                                                timeout: .seconds(60)))
        }.value
        #expect(callerThread == "test-loop")
        #expect(result?.text == "ok")
        #expect(ranOn.locked { $0 } != "test-loop")
    }

    @Test func aSkillThatNeverBlocksRunsOnTheCallersEventLoop() async throws {
        let loop = OneThreadExecutor(name: "test-loop-2")
        let ranOn = Mutex("")
        let skill = TestSkill("pure", mayBlock: false) { _ in
            ranOn.locked { $0 = ThreadName.current }
            return SkillResult(text: "ok")
        }
        let result = await Task(executorPreference: loop) {
            try? await SkillExecution.run(skill, arguments: [:], context: SkillContext(tokenName: "t", requestId: "req_1"),
                                          timeout: .seconds(60))
        }.value
        #expect(result?.text == "ok")
        #expect(ranOn.locked { $0 } == "test-loop-2")
        #expect(CalculatorSkill().mayBlock == false)
        #expect(CurrentTimeSkill().mayBlock, "current_time reads zone files")
    }
}
