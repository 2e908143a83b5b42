"""`bench.py --surfaces`: the gateway's CPU per request on /v1/chat/completions and /v1/responses for the same
upstream answer, measured round-robin in one run against one mock upstream, whole (JSON) and streamed, with the
Responses API's `store` on (its default: each answer is written to the state store) and off. Prints CPU µs per
request for each surface and the ratio responses / chat, against the target of at most 1.15 (decision 0028).
Runs are short slices (`--surface-slice`, 1 s) alternating between the surfaces for `--surface-rounds` rounds: on a
shared machine the CPU time of the same work drifts by tens of percent within a minute (other processes, steal),
and only fine alternation makes that drift hit both surfaces alike.
"""
import json
import os
import statistics
import urllib.request

import measure

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET_RATIO = 1.15
# kind → (chat body, responses body); the upstream answers both alike (mock-model or mock-model-stream).
BODIES = {
    "json": ("request.json", "request-responses.json"),
    "stream": ("request-stream.json", "request-responses-stream.json"),
}


def _body_file(work, name, store):
    """The request body file; `store: false` written beside the run's other files when asked."""
    path = os.path.join(HERE, name)
    if store:
        return path
    body = json.load(open(path))
    body["store"] = False
    out = os.path.join(work, "tmp", name.replace(".json", "-nostore.json"))
    json.dump(body, open(out, "w"))
    return out


def _check(url, body_file, token, expected_object):
    request = urllib.request.Request(url, data=open(body_file, "rb").read(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    text = urllib.request.urlopen(request, timeout=30).read().decode()
    if expected_object not in text:
        raise RuntimeError(f"{url}: the answer is not a {expected_object}: {text[:200]}")


def compare(gateway_pids, base_url, token, work, args, lua, log):
    """Runs the comparison and returns the report's text."""
    variants = []  # (kind, label, chat file, responses file)
    for kind, (chat, responses) in BODIES.items():
        variants.append((kind, "store on", os.path.join(HERE, chat), _body_file(work, responses, True)))
        variants.append((kind, "store off", os.path.join(HERE, chat), _body_file(work, responses, False)))
    urls = {"chat": base_url + "/v1/chat/completions", "responses": base_url + "/v1/responses"}
    for kind, _, chat, responses in variants:
        _check(urls["chat"], chat, token, "chat.completion")
        _check(urls["responses"], responses, token, '"object":"response"' if kind == "json" else "response.completed")
    for surface, file in (("chat", variants[0][2]), ("responses", variants[0][3])):
        measure.run_wrk(urls[surface], file, token, args.surface_connections, args.warmup, lua)
    cpu = {}  # (kind, label, surface) → [µs per request]
    log(f"surfaces: {args.surface_rounds} rounds × {len(variants)} variants × 2 surfaces × {args.surface_slice} s, "
        f"{args.surface_connections} connection(s); short slices alternate so the machine's other load hits both alike")
    for _ in range(args.surface_rounds):
        for kind, label, chat, responses in variants:
            for surface, file in (("chat", chat), ("responses", responses)):
                before = measure.cpu_seconds(gateway_pids())
                result = measure.run_wrk(urls[surface], file, token, args.surface_connections, args.surface_slice, lua)
                used = measure.cpu_seconds(gateway_pids()) - before
                if result["errors"]:
                    raise RuntimeError(f"{surface} {kind}: {result['errors']} errors under load")
                cpu.setdefault((kind, label, surface), []).append(used * 1e6 / max(1, result["requests"]))
        log("   round: " + "  ".join(f"{k[0]}/{k[1]}/{k[2]} {v[-1]:.0f}" for k, v in cpu.items()))
    lines = ["", "CPU per request in the gateway, same upstream answer (median and minimum over the rounds, µs)", "",
             "| answer | store | /v1/chat/completions | /v1/responses | ratio of medians | ratio of minimums | target ≤ 1.15 |",
             "|---|---|---|---|---|---|---|"]
    worst = 0.0
    for kind, label, _, _ in variants:
        c, r = cpu[(kind, label, "chat")], cpu[(kind, label, "responses")]
        median_ratio = statistics.median(r) / statistics.median(c)
        min_ratio = min(r) / min(c)
        worst = max(worst, median_ratio)
        lines.append(f"| {kind} | {label} | {statistics.median(c):.0f} (min {min(c):.0f}) | {statistics.median(r):.0f} (min {min(r):.0f}) "
                     f"| {median_ratio:.3f} | {min_ratio:.3f} | {'met' if median_ratio <= TARGET_RATIO else 'MISSED'} |")
    lines.append("")
    lines.append(f"worst ratio of medians {worst:.3f}: {'met' if worst <= TARGET_RATIO else 'missed'} (at most {TARGET_RATIO})")
    return "\n".join(lines)
