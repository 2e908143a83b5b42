#!/usr/bin/env python3
"""Instructions per agent run (`POST /v1/agent`) under callgrind (decisions 0070-0073).

Starts a mock OpenAI-format upstream (Python, on loopback) that streams a call to the built-in `calculator` skill and,
once the conversation holds the skill's result, a short text answer; and one gateway built from BINARY inside callgrind,
with the `calculator` and `current_time` skills in its scenario. Each run is then: two model calls, one skill run,
nine SSE events to the client (the count is printed), the log line and the usage rows. It warms the gateway with W runs, counts N more and
prints the instructions per run by Swift module and shared object (all threads: the agent's work spans the event
loop, the skill's task and the writers), and the functions with the most instructions of their own.

    python3 Bench/profile/callgrind_agent.py .build/release/skillgate [--runs 100] [--warm 30] [--functions 30]

Needs valgrind (Bench/install-tools.sh installs it). Run it on two binaries to compare a change to the agent's path;
the upstream's own time is not counted (it is another process).
"""
import argparse
import collections
import http.client
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
import callgrind_request  # noqa: E402
import delayed_upstream  # noqa: E402

GATEWAY_PORT = 18191


def completion_events(with_result):
    """The upstream's streamed answer: a `calculator` call, or (once a tool result is in the conversation) text."""
    base = {"id": "chatcmpl-agent-bench", "object": "chat.completion.chunk", "created": 1767225600, "model": "mock-model"}
    if with_result:
        deltas = [{"role": "assistant", "content": ""}] + [{"content": w} for w in ["17 * 23 ", "is ", "391."]]
        finish, usage = "stop", {"prompt_tokens": 350, "completion_tokens": 10, "total_tokens": 360}
    else:
        arguments = json.dumps({"expression": "17 * 23"})
        deltas = [{"role": "assistant", "content": None},
                  {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "calculator", "arguments": ""}}]}]
        deltas += [{"tool_calls": [{"index": 0, "function": {"arguments": arguments[i:i + 8]}}]} for i in range(0, len(arguments), 8)]
        finish, usage = "tool_calls", {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320}
    chunks = [dict(base, choices=[{"index": 0, "delta": d, "finish_reason": None}]) for d in deltas]
    chunks.append(dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]))
    chunks.append(dict(base, choices=[], usage=usage))
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


class Upstream(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not body.get("stream"):
            self.send_error(400, "the agent bench's upstream only streams")
            return
        data = completion_events(any(m.get("role") == "tool" for m in body.get("messages", [])))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def write_config(binary, work, upstream_port):
    """Writes the mock provider and the gateway's config into `work`; returns the config's path and a new token."""
    providers = os.path.join(work, "providers")
    os.makedirs(providers)
    json.dump({"id": "mock", "display_name": "agent bench upstream", "wire_format": "openai-chat",
               "base_url": f"http://127.0.0.1:{upstream_port}/v1", "auth": "none",
               "models": [{"id": "mock-model", "tier": "light", "context_window": 128000, "tools": "native",
                           "price": {"input_per_mtok": 0.15, "output_per_mtok": 0.6}}]},
              open(os.path.join(providers, "mock.json"), "w"))
    config = os.path.join(work, "skillgate.json")
    json.dump({"listen": f"127.0.0.1:{GATEWAY_PORT}", "state_dir": os.path.join(work, "state"), "providers_dir": providers,
               "tiers": {"light": ["mock/mock-model"], "strong": ["mock/mock-model"]}, "default_model": "light",
               "default_scenario": "assistant", "scenarios": {"assistant": {"skill_packs": ["builtin"]}},
               "skill_packs": {"builtin": {"skills": ["current_time", "calculator"]}},
               "server_skills": {"builtin": ["current_time", "calculator"]},
               # As callgrind_request.py: every run comes to a loop that slept, and prefetching would count each time.
               "warm_code": False, "limits": {"shutdown_grace_seconds": 2}}, open(config, "w"))
    token = subprocess.run([binary, "tokens", "create", "--config", config, "--name", "bench"], check=True,
                           capture_output=True, text=True).stdout.strip().splitlines()[-1]
    return config, token


def run_once(token, body):
    connection = http.client.HTTPConnection("127.0.0.1", GATEWAY_PORT, timeout=60)
    connection.request("POST", "/v1/agent", body=body, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.status != 200 or b"event: run.completed" not in data:
        raise SystemExit(f"the agent run did not complete: {response.status} {data[:400]!r}")
    return data


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--functions", type=int, default=30, help="how many functions to list by their own instructions")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    work = tempfile.mkdtemp(prefix="sg-agent-callgrind-")
    callgrind_request.bench.require_free_port(GATEWAY_PORT, "the gateway")
    body = json.dumps({"messages": [{"role": "user", "content": "What is 17 * 23?"}]}).encode()
    gateway = None
    try:
        with delayed_upstream.serving(Upstream) as upstream_port:
            config, token = write_config(binary, work, upstream_port)
            gateway = subprocess.Popen(["valgrind", "--tool=callgrind", "--dump-instr=no", "--separate-threads=yes",
                                        f"--callgrind-out-file={work}/callgrind.out", binary, "serve", "--config", config],
                                       stdout=open(os.path.join(work, "skillgate.log"), "w"), stderr=subprocess.STDOUT)
            deadline = time.time() + 120
            while True:
                try:
                    events = run_once(token, body).count(b"event: ")
                    break
                except (ConnectionError, OSError):
                    if time.time() > deadline or gateway.poll() is not None:
                        raise SystemExit(f"the gateway did not come up; see {work}/skillgate.log")
                    time.sleep(0.3)
            for _ in range(args.warm):
                run_once(token, body)
            subprocess.run(["callgrind_control", "-z", str(gateway.pid)], check=True, capture_output=True)
            for _ in range(args.runs):
                run_once(token, body)
            time.sleep(0.5)
            subprocess.run(["callgrind_control", "-d", str(gateway.pid)], check=True, capture_output=True)
            time.sleep(0.5)
        dumps = [os.path.join(work, p) for p in os.listdir(work) if p.startswith("callgrind.out.1-")]
        by_module, by_function = collections.Counter(), collections.Counter()
        for dump in dumps:
            for (function, obj), cost in callgrind_request.self_cost_by_function(dump).items():
                by_module[callgrind_request.module_of(function, obj, binary)] += cost
                by_function[function] += cost
        print(f"{args.runs} agent runs (2 model calls, 1 skill, {events} events each) after {args.warm} to warm up; "
              f"instructions per run, all threads")
        for name, cost in by_module.most_common(16):
            print(f"  {cost / args.runs / 1000:8.1f}k  {name}")
        print(f"  {sum(by_module.values()) / args.runs / 1000:8.1f}k  in all")
        top = by_function.most_common(args.functions)
        names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(f for f, _ in top),
                               capture_output=True, text=True).stdout.splitlines() if shutil.which("swift") else [f for f, _ in top]
        print("functions with the most instructions of their own:")
        for (_, cost), name in zip(top, names):
            print(f"  {cost / args.runs / 1000:8.2f}k  {name[:140]}")
    finally:
        if gateway and gateway.poll() is None:
            gateway.terminate()
            gateway.wait()
        if os.environ.get("SKILLGATE_KEEP_WORK"):
            print(f"callgrind dumps kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
