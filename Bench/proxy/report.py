"""Turns the measurements of one benchmark run into figures per target (medians over the repeats) and checks
them against the targets of the hardening-and-speed issue; renders both as a plain-text table."""
import statistics


def _median(values):
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def summarise(targets, args):
    figures = {}
    for t in targets:
        per_conn = {}
        for c in sorted({r["connections"] for r in t.runs}):
            runs = [r for r in t.runs if r["connections"] == c]
            per_conn[c] = {"rps": _median([r["rps"] for r in runs]),
                           "p50_ms": _median([r["p50_us"] for r in runs]) / 1000,
                           "p99_ms": _median([r["p99_us"] for r in runs]) / 1000,
                           "cpu_us_per_request": _median([r["cpu_us_per_request"] for r in runs]),
                           "errors": sum(r["errors"] for r in runs),
                           "machine_busy_percent": max(r["machine_busy_percent"] for r in runs)}
        figures[t.name] = {"load": per_conn, "first_event_ms": _median(t.first_event),
                           "streams_complete": t.streams_complete, "idle_rss_mb": round(t.idle_rss, 1),
                           "peak_rss_mb": round(t.peak_rss, 1), "held_streams": t.held}
    direct = figures.get("direct")
    for name, f in figures.items():
        if direct:
            for c, load in f["load"].items():
                base = direct["load"].get(c)
                if base:
                    load["added_p50_ms"] = load["p50_ms"] - base["p50_ms"]
                    load["added_p99_ms"] = load["p99_ms"] - base["p99_ms"]
            f["added_first_event_ms"] = f["first_event_ms"] - direct["first_event_ms"]
    return {"parameters": vars(args), "figures": figures, "targets": _checks(figures)}


def _checks(figures):
    gateway, nginx = figures.get("skillgate"), figures.get("nginx")
    checks = []

    def check(what, value, limit, ok, note=None):
        checks.append({"target": what, "value": value, "limit": limit, "met": bool(ok), **({"note": note} if note else {})})

    if not gateway:
        return checks
    g1, g32 = gateway["load"].get(1, {}), gateway["load"].get(32, {})
    if nginx and g32 and 32 in nginx["load"]:
        ratio = g32["rps"] / nginx["load"][32]["rps"]
        check("req/s at 32 connections vs nginx", round(ratio, 3), ">= 0.40", ratio >= 0.40)
    if "added_p50_ms" in g1:
        check("added p50 at 1 connection (ms)", round(g1["added_p50_ms"], 3), "<= 0.15", g1["added_p50_ms"] <= 0.15)
    if nginx and "added_p99_ms" in g1 and "added_p99_ms" in nginx["load"].get(1, {}):
        nginx_added = nginx["load"][1]["added_p99_ms"]
        limit = 1.5 * max(nginx_added, 0.0)
        # nginx's p99 below the direct path's own means the run's one-connection tail was noise larger than a proxy hop:
        # the target still counts as written, and the report says why its limit is zero.
        note = (f"nginx's own added p99 was {nginx_added:+.3f} ms: this run's tail noise exceeded a proxy hop"
                if nginx_added <= 0 else None)
        check("added p99 at 1 connection (ms)", round(g1["added_p99_ms"], 3), f"<= 1.5 × nginx = {limit:.3f}",
              g1["added_p99_ms"] <= limit, note)
    if "added_first_event_ms" in gateway:
        check("first streamed event after direct (ms)", round(gateway["added_first_event_ms"], 3), "<= 0.3",
              gateway["added_first_event_ms"] <= 0.3)
    check("idle RSS (MB)", gateway["idle_rss_mb"], "<= 30", gateway["idle_rss_mb"] <= 30)
    held = gateway.get("held_streams")
    if held:
        asked = held.get("asked_for", held["requested"])
        capped = f" (capped from {asked} by the file limit)" if asked != held["requested"] else ""
        check(f"held streams completed of {asked}{capped}", held["completed"], f"== {asked}", held["completed"] == asked)
        check("RSS while holding them (MB)", held["peak_rss_mb"], "<= 400", held["peak_rss_mb"] <= 400)
    return checks


def render(results):
    figures = results["figures"]
    names = list(figures)
    rows = []
    conns = sorted({c for f in figures.values() for c in f["load"]})
    for c in conns:
        rows.append((f"req/s, {c} conn", [f["load"].get(c, {}).get("rps") for f in figures.values()], "{:.0f}"))
        rows.append((f"CPU µs/request, {c} conn", [f["load"].get(c, {}).get("cpu_us_per_request")
                                                    for f in figures.values()], "{:.1f}"))
        for p in ["p50", "p99"]:
            rows.append((f"{p} ms, {c} conn", [f["load"].get(c, {}).get(f"{p}_ms") for f in figures.values()], "{:.3f}"))
            rows.append((f"  added {p} ms", [f["load"].get(c, {}).get(f"added_{p}_ms") for f in figures.values()],
                         "{:+.3f}"))
        rows.append((f"errors, {c} conn", [f["load"].get(c, {}).get("errors") for f in figures.values()], "{}"))
    rows.append(("first event ms (paced)", [f["first_event_ms"] for f in figures.values()], "{:.3f}"))
    rows.append(("  added first event ms", [f.get("added_first_event_ms") for f in figures.values()], "{:+.3f}"))
    rows.append(("idle RSS MB", [f["idle_rss_mb"] for f in figures.values()], "{:.1f}"))
    rows.append(("peak RSS MB under load", [f["peak_rss_mb"] for f in figures.values()], "{:.1f}"))
    width = max(len(r[0]) for r in rows) + 2
    lines = ["".ljust(width) + "".join(n.rjust(12) for n in names)]
    for label, values, fmt in rows:
        cells = ["—" if v is None or v != v else fmt.format(v) for v in values]
        lines.append(label.ljust(width) + "".join(c.rjust(12) for c in cells))
    for f in figures.values():
        if f.get("held_streams"):
            lines.append("")
            lines.append("held streams: " + ", ".join(f"{k} {v}" for k, v in f["held_streams"].items()))
    policy = results.get("idle_policy")
    if policy:
        lines.append("")
        lines.append(f"idle policy: cpuidle {policy['driver']} ({policy['governor']}), guest_halt_poll_ns "
                     f"{policy['guest_halt_poll_ns'] if policy['guest_halt_poll_ns'] is not None else 'n/a'}")
    lines.append("")
    lines.append("targets (issue: hardening and speed)")
    for c in results["targets"]:
        lines.append(f"  [{'met' if c['met'] else 'MISSED':>6}] {c['target']}: {c['value']} (target {c['limit']})"
                     + (f"; {c['note']}" if c.get("note") else ""))
    return "\n".join(lines)
