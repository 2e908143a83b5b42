// ThreadSanitizer and Synchronization.Mutex on Linux (docs/decisions/0025, 0165). Four threads append to an array,
// only inside one Mutex: no race is possible.
// - With `withLock` (-D WITH_LOCK), Swift 6.3.1 on Linux x86_64 reports "Swift access race" in most runs: the Mutex
//   locks with futex system calls, which ThreadSanitizer does not see as synchronisation.
// - With SkillGate's `locked` (Sources/SkillGateCore/Threads/Mutex+ThreadSanitizer.swift, compiled beside this file),
//   which announces the lock's acquire and release to ThreadSanitizer, no run reports anything.
// `scripts/sanitize.sh thread` builds and runs both before the suite:
//   swiftc -sanitize=thread -I Sources/CThreadSanitizer Sources/SkillGateCore/Threads/Mutex+ThreadSanitizer.swift \
//       scripts/sanitizers/tsan-mutex/main.swift [-D WITH_LOCK] -o m && ./m
import Foundation
import Synchronization

final class Box: Sendable {
    let values = Mutex<[Int]>([])
    func append(_ x: Int) {
        #if WITH_LOCK
        values.withLock { $0.append(x); if $0.count > 100 { $0.removeAll() } }
        #else
        values.locked { $0.append(x); if $0.count > 100 { $0.removeAll() } }
        #endif
    }
}

let box = Box()
let threads = (0..<4).map { i in Thread { for j in 0..<2000 { box.append(i * j) } } }
threads.forEach { $0.start() }
while !threads.allSatisfy(\.isFinished) { usleep(1000) }
print("done")
