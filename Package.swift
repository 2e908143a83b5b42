// swift-tools-version: 6.0
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// The gateway's own modules: a nonisolated async function runs where its caller runs (`nonisolated(nonsending)`)
/// instead of hopping to the generic executor on entry and after every await. The gateway has no actors, so each
/// hop led back to the same executor (the request's event loop); a request made ~29 of them (decision 0047). The
/// modules apps link (SkillGateAPI, SkillGateClient, SkillGateChat) keep the default, so a client called from the
/// main actor still leaves it. Changing this setting changes the modules' ABI: build clean afterwards
/// (`swift package clean`), since an incremental build can keep objects compiled against the other ABI.
let serverSwift: [SwiftSetting] = strictSwift + [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "SkillGate",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SkillGateCore", targets: ["SkillGateCore"]),
        .library(name: "SkillGateHTTP", targets: ["SkillGateHTTP"]),
        .library(name: "SkillGateProviders", targets: ["SkillGateProviders"]),
        .executable(name: "skillgate", targets: ["skillgate"]),
        .library(name: "SkillGateKeys", targets: ["SkillGateKeys"]),
        .library(name: "SkillGateState", targets: ["SkillGateState"]),
        // For apps (iOS, macOS, Linux): the API's types, and a client for chat and /v1/agent.
        .library(name: "SkillGateAPI", targets: ["SkillGateAPI"]),
        .library(name: "SkillGateClient", targets: ["SkillGateClient"]),
        // For the fuzzing package (Fuzz/, docs/decisions/0025): the argument validator and the surfaces.
        .library(name: "SkillGateSkills", targets: ["SkillGateSkills"]),
        .library(name: "SkillGateServer", targets: ["SkillGateServer"]),
    ],
    targets: [
        // System libraries (Debian -dev packages; scripts/install-deps.sh installs them).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CEvent", pkgConfig: "libevent", providers: [.apt(["libevent-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // No library: the sched_setattr/sched_getattr system calls, which glibc does not wrap (decision 0048).
        .systemLibrary(name: "CScheduling"),
        // No library: non-blocking TCP connects to numeric addresses for the own HTTP/1.1 client (decision 0051).
        .systemLibrary(name: "CSockets"),
        .systemLibrary(name: "CCodeWarming"),
        // No library: ThreadSanitizer's lock annotations, no-ops unless the build links its runtime (decision 0165).
        .systemLibrary(name: "CThreadSanitizer"),

        // The API's request, answer, error and agent-event types (Codable; Foundation only, no C,
        // no other SkillGate module): the one definition the gateway encodes and clients decode.
        .target(name: "SkillGateAPI", swiftSettings: strictSwift),
        // The Swift client for apps. URLSession on Apple platforms; on Linux SkillGateHTTP (libcurl),
        // because URLSession there cannot stream a response body.
        .target(name: "SkillGateClient", dependencies: ["SkillGateAPI", .target(name: "SkillGateHTTP", condition: .when(platforms: [.linux]))],
                swiftSettings: strictSwift),

        // Wire-neutral chat model, JSON, LLMClient, GatewayError.
        .target(name: "SkillGateCore", dependencies: ["CScheduling", "CThreadSanitizer"], swiftSettings: serverSwift),
        // Outbound HTTP (libcurl multi), inbound HTTP (libevent), SSE.
        .target(name: "SkillGateHTTP", dependencies: ["SkillGateCore", "CCurl", "CEvent", "CSockets", "CCodeWarming"], swiftSettings: serverSwift),
        // Wire-format adapters and the provider catalog.
        .target(name: "SkillGateProviders", dependencies: ["SkillGateCore", "SkillGateHTTP"], swiftSettings: serverSwift),
        .target(name: "SkillGateRouting", dependencies: ["SkillGateCore"], swiftSettings: serverSwift),
        // SkillPacks, relevance ranking (lexical and semantic), argument validation.
        // The built-in word-vector table for skill ranking without an embedding server (decision 0040): the
        // bytes of data/word-vectors.bin, assembled into read-only data (`.incbin`, found on the header search path).
        // DWARF 4: clang's default (5) for the assembled file makes Debian's valgrind 3.19 crash reading the binary.
        .target(name: "CWordVectors", exclude: ["data"], cSettings: [.headerSearchPath("data"), .unsafeFlags(["-gdwarf-4"])]),
        .target(name: "SkillGateSkills", dependencies: ["SkillGateCore", "SkillGateHTTP", "SkillGateProviders", "CWordVectors"], swiftSettings: serverSwift),
        // Provider key file, token crypto and token text format.
        .target(name: "SkillGateKeys", dependencies: ["SkillGateCore", "COpenSSL"], swiftSettings: serverSwift),
        // Embedded SQLite state store (tokens, usage, notes, embedding cache), the PostgreSQL store for several
        // instances (tokens, usage), and the token service.
        .target(name: "SkillGateState", dependencies: ["SkillGateCore", "SkillGateKeys", "CSQLite", "CPostgres"], swiftSettings: serverSwift),

        // The gateway: config, inbound surfaces, auth, routing, logs.
        .target(name: "SkillGateServer", dependencies: ["SkillGateAPI", "SkillGateCore", "SkillGateHTTP", "SkillGateProviders", "SkillGateKeys", "SkillGateState", "SkillGateRouting", "SkillGateSkills"],
                swiftSettings: serverSwift),

        // The terminal chat over /v1/agent (through SkillGateClient): rendering, the command interpreter, the loop.
        .target(name: "SkillGateChat", dependencies: ["SkillGateClient", "SkillGateCore"], swiftSettings: strictSwift),

        // Evaluation of the routing and skill-selection decisions on the labelled corpus (Tests/Eval).
        .target(name: "SkillGateEval", dependencies: ["SkillGateCore", "SkillGateRouting", "SkillGateSkills", "SkillGateServer"], swiftSettings: serverSwift),

        // The command-line tool: serve, keys, tokens, config check, providers.
        .executableTarget(name: "skillgate", dependencies: ["SkillGateServer", "SkillGateKeys", "SkillGateState", "SkillGateProviders", "SkillGateHTTP", "SkillGateChat", "SkillGateClient", "SkillGateEval", "SkillGateRouting"],
                          swiftSettings: serverSwift),

        // Benchmarks that print figures: swift run -c release skillgate-bench
        .executableTarget(name: "skillgate-bench", dependencies: ["SkillGateCore", "SkillGateHTTP", "SkillGateProviders", "SkillGateKeys", "SkillGateState", "SkillGateRouting", "SkillGateSkills", "SkillGateServer"],
                          swiftSettings: serverSwift),

        .testTarget(name: "SkillGateCoreTests", dependencies: ["SkillGateCore", "SkillGateTestSupport"], swiftSettings: strictSwift),
        // Sets the test process's proxy variables before `main` (Tests/CTestProxyEnvironment/proxy_environment.c).
        .target(name: "CTestProxyEnvironment", path: "Tests/CTestProxyEnvironment"),
        .testTarget(name: "SkillGateHTTPTests", dependencies: ["SkillGateHTTP", "SkillGateTestSupport", "CTestProxyEnvironment"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateProvidersTests", dependencies: ["SkillGateProviders", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateServerTests", dependencies: ["SkillGateServer", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateKeysTests", dependencies: ["SkillGateKeys", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateStateTests", dependencies: ["SkillGateState", "SkillGateKeys", "SkillGateTestSupport"], swiftSettings: strictSwift),
        // Test doubles shared by several test targets.
        .target(name: "SkillGateTestSupport", dependencies: ["SkillGateRouting", "SkillGateState", "CTestParallelism"], path: "Tests/SkillGateTestSupport",
                swiftSettings: strictSwift),
        // Bounds how many tests run at once before `main` (Tests/CTestParallelism/parallelism_width.c, decision 0166).
        .target(name: "CTestParallelism", path: "Tests/CTestParallelism"),
        .testTarget(name: "SkillGateRoutingTests", dependencies: ["SkillGateRouting", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateSkillsTests", dependencies: ["SkillGateSkills", "SkillGateHTTP", "SkillGateProviders", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateEvalTests", dependencies: ["SkillGateEval", "SkillGateRouting", "SkillGateTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "SkillGateAPITests", dependencies: ["SkillGateAPI"], swiftSettings: strictSwift),
        // Against a real gateway in-process (hence the server modules) and loopback stubs.
        .testTarget(name: "SkillGateClientTests", dependencies: ["SkillGateClient", "SkillGateServer", "SkillGateSkills", "SkillGateCore", "SkillGateHTTP", "SkillGateTestSupport"],
                    swiftSettings: strictSwift),
        .testTarget(name: "SkillGateChatTests", dependencies: ["SkillGateChat", "SkillGateClient", "SkillGateHTTP"], swiftSettings: strictSwift),
    ],
    swiftLanguageModes: [.v6]
)
