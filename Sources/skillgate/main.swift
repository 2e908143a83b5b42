// skillgate: the SkillGate command-line tool (serve, keys, tokens, config, providers).
// Exit codes: 0 ok, 1 runtime failure, 2 usage error.
import FoundationEssentials
import Glibc
import Dispatch

let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
