// swift-tools-version: 6.0
// The fuzzing targets (docs/decisions/0025-fuzzing-and-sanitizers.md): one libFuzzer binary whose
// target is chosen by SKILLGATE_FUZZ_TARGET. A package of its own, depending on the root package
// by path, so the root's `swift build` and `swift test` never see it. Build and run it with
// scripts/fuzz.sh (`swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing`).
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name (`main`, `wt-fuzz`, ...), not the manifest's.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

let package = Package(
    name: "SkillGateFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "skillgate-fuzz",
            dependencies: [
                .product(name: "SkillGateCore", package: rootIdentity),
                .product(name: "SkillGateHTTP", package: rootIdentity),
                .product(name: "SkillGateProviders", package: rootIdentity),
                .product(name: "SkillGateSkills", package: rootIdentity),
                .product(name: "SkillGateServer", package: rootIdentity),
            ],
            // libFuzzer brings `main`; the target's files are a library's.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
