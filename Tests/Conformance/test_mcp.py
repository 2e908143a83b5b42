"""MCP on both sides, with the official `mcp` Python SDK:

- as a client of SkillGate's `POST /mcp` (streamable HTTP): initialize, tools/list (exactly the scenario's
  skills), tools/call of a built-in and of an MCP server's tool, errors;
- as the upstream MCP servers behind the gateway (the SDK example server over stdio and over streamable
  HTTP), whose tools the agent loop calls through /v1/agent.
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError


def gateway_mcp(gateway, token: str, scenario: str | None = None) -> Client:
    """An SDK client of the gateway's /mcp, authenticated with a SkillGate token (the README's snippet)."""
    headers = {"Authorization": f"Bearer {token}"}
    if scenario:
        headers["x-skillgate-scenario"] = scenario
    http = httpx2.AsyncClient(headers=headers, timeout=30)
    return Client(streamable_http_client(f"{gateway.base}/mcp", http_client=http))


def run(coroutine):
    return asyncio.run(coroutine)


def unwrap(error: BaseException) -> BaseException:
    """The first leaf of an exception group (the SDK raises from inside its task group)."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


@pytest.mark.parametrize("scenario, expected", [
    ("assistant", {"current_time", "calculator"}),
    ("mcp_stdio", {"weather_stdio__add", "weather_stdio__echo", "weather_stdio__get_weather", "weather_stdio__fail",
                   "weather_stdio__slow", "weather_stdio__grow"}),
    ("chat", set()),
])
def test_tools_list_shows_exactly_the_scenarios_skills(gateway, token, scenario, expected):
    async def main():
        async with gateway_mcp(gateway, token, scenario) as client:
            return {t.name for t in (await client.list_tools()).tools}
    assert run(main()) == expected


def test_tools_list_says_what_each_tool_does(gateway, token):
    """MCP tool annotations (decision 0121), as the SDK reads them: the SDK sends MCP-Protocol-Version, so the tool's own
    title comes too."""
    async def main():
        async with gateway_mcp(gateway, token, "assistant") as client:
            return {t.name: t for t in (await client.list_tools()).tools}
    tools = run(main())
    calculator = tools["calculator"]
    assert calculator.title == "Calculator"
    assert calculator.annotations.title == "Calculator"
    assert calculator.annotations.read_only_hint is True
    assert calculator.annotations.open_world_hint is False
    assert calculator.annotations.destructive_hint is None


def test_tools_call_runs_a_builtin_skill(gateway, token):
    async def main():
        async with gateway_mcp(gateway, token, "assistant") as client:
            return await client.call_tool("calculator", {"expression": "17 * 23"})
    result = run(main())
    assert not result.is_error
    assert "391" in result.content[0].text


@pytest.mark.parametrize("tool", ["weather_stdio__get_weather", "weather_http__get_weather"])
def test_tools_call_reaches_an_upstream_mcp_server_through_the_gateway(gateway, token, tool):
    async def main():
        async with gateway_mcp(gateway, token, "mcp") as client:
            return await client.call_tool(tool, {"location": "Lisbon"})
    result = run(main())
    assert not result.is_error
    assert result.content[0].text == "Sunny and 21 degrees in Lisbon (from the example MCP server)"


def test_a_failing_upstream_tool_is_an_error_result(gateway, token):
    async def main():
        async with gateway_mcp(gateway, token, "mcp") as client:
            return await client.call_tool("weather_http__fail", {"reason": "in the conformance suite"})
    result = run(main())
    assert result.is_error


def test_a_tool_outside_the_scenario_is_a_jsonrpc_error(gateway, token):
    async def main():
        async with gateway_mcp(gateway, token, "assistant") as client:
            await client.call_tool("weather_stdio__add", {"a": 1, "b": 2})
    with pytest.raises(BaseException) as caught:
        run(main())
    error = unwrap(caught.value)
    assert isinstance(error, MCPError)
    assert error.error.code == -32602
    assert "tools/list" in error.error.message


def test_a_bad_token_cannot_connect(gateway):
    async def main():
        async with gateway_mcp(gateway, "sg-not-a-real-token") as client:
            await client.list_tools()
    with pytest.raises(BaseException) as caught:
        run(main())
    error = unwrap(caught.value)
    # The 401's body is a JSON-RPC error, which the SDK surfaces with its code and message.
    assert isinstance(error, MCPError), repr(error)
    assert error.error.code == -32001 and "token" in error.error.message


@pytest.mark.parametrize("scenario, skill", [("mcp_stdio", "weather_stdio__get_weather"), ("mcp_http", "weather_http__get_weather")])
def test_the_agent_loop_calls_an_upstream_mcp_servers_tool(gateway, token, scenario, skill):
    body = json.dumps({"scenario": scenario, "messages": [{"role": "user", "content": "What is the weather in Paris?"}]}).encode()
    request = urllib.request.Request(f"{gateway.base}/v1/agent", data=body, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        raw = response.read().decode()
    events = []
    for block in raw.strip().split("\n\n"):
        lines = block.splitlines()
        name = next(l[7:] for l in lines if l.startswith("event: "))
        data = json.loads(next(l[6:] for l in lines if l.startswith("data: ")))
        events.append((name, data))
    started = next(d for n, d in events if n == "skill.started")
    finished = next(d for n, d in events if n == "skill.finished")
    assert started["skill"] == skill and started["arguments"] == {"location": "Paris"}
    assert finished["ok"] is True and "Sunny and 21 degrees in Paris" in finished["summary"]
    assert events[-1][0] == "run.completed"


def test_the_readme_snippet_runs(gateway, token):
    """README.md's "SkillGate as an MCP server" Python snippet, run as written (URL and token substituted)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("### SkillGate as an MCP server"):]
    snippet = section[section.index("```python\n") + len("```python\n"):]
    snippet = snippet[:snippet.index("```")]
    code = snippet.replace("sgk_...", token).replace("http://127.0.0.1:8080", gateway.base)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["['current_time', 'calculator']", "17 * 23 = 391 False"]
