// Why ThreadSanitizer's reports on Mutex-guarded state are false positives here (docs/decisions/0025).
// Four threads append to an array, only inside one Synchronization.Mutex's withLock: no race is possible.
//   swiftc -sanitize=thread tsan-mutex.swift -o m && ./m          (-Onone or -O)
// Swift 6.3.1 on Linux x86_64: "Swift access race" reports in most runs (up to 51 in one run),
// because TSan does not see the Mutex's futex-based lock and unlock as synchronisation. The same program
// with NSLock (a pthread mutex, which TSan intercepts) reports nothing in any run: `-D NSLOCK`.
import Foundation
import Synchronization

#if NSLOCK
final class Box: @unchecked Sendable {
    let lock = NSLock()
    var values: [Int] = []
    func append(_ x: Int) { lock.withLock { values.append(x); if values.count > 100 { values.removeAll() } } }
}
#else
final class Box: Sendable {
    let values = Mutex<[Int]>([])
    func append(_ x: Int) { values.withLock { $0.append(x); if $0.count > 100 { $0.removeAll() } } }
}
#endif

let box = Box()
let threads = (0..<4).map { i in Thread { for j in 0..<2000 { box.append(i * j) } } }
threads.forEach { $0.start() }
while !threads.allSatisfy(\.isFinished) { usleep(1000) }
print("done")
