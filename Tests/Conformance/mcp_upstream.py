"""The MCP servers behind the conformance gateway: the SDK example server of
Tests/Fixtures/mcp/example_server.py (written with the official `mcp` SDK's MCPServer, formerly
FastMCP), once over stdio (the gateway starts it as a child process) and once over streamable HTTP
(started here, on a free port)."""
from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLE_SERVER = HERE.parent / "Fixtures" / "mcp" / "example_server.py"


def with_mcp(config: dict, http_url: str | None) -> dict:
    """`config` with the example server as `mcp_servers` (stdio always, HTTP when `http_url`) and scenarios
    that show their tools: `mcp_stdio` and `mcp_http` (one server each, the offline demo model, which calls a
    weather tool for weather questions) and `mcp` (both servers' tools and the calculator)."""
    servers = {"weather_stdio": {"command": sys.executable, "args": [str(EXAMPLE_SERVER), "stdio"], "connect_timeout_seconds": 60}}
    if http_url:
        servers["weather_http"] = {"url": http_url, "connect_timeout_seconds": 60}
    config["mcp_servers"] = servers
    packs = config.setdefault("skill_packs", {})
    scenarios = config.setdefault("scenarios", {})
    for name in servers:
        packs[name] = [f"{name}.*"]
        scenarios[name.replace("weather_", "mcp_")] = {"skill_packs": [name], "default_model": "demo/demo-light"}
    packs["mcp_all"] = ["calculator", *[f"{name}.*" for name in servers]]
    scenarios["mcp"] = {"skill_packs": ["mcp_all"], "default_model": "demo/demo-light"}
    return config


@contextlib.contextmanager
def mcp_http_server(timeout: float = 60):
    """Runs the example server over streamable HTTP; yields its MCP endpoint URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([sys.executable, str(EXAMPLE_SERVER), "http", str(port)], stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the example MCP server exited with {process.returncode}: {log.read().decode(errors='replace')[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the example MCP server did not listen on port {port} within {timeout} s")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
