"""A small MCP server written with the official `mcp` SDK (MCPServer, formerly FastMCP), used as an
upstream MCP server behind the gateway by the Swift tests and the conformance suite.

    python example_server.py stdio              # newline-delimited JSON-RPC on stdin/stdout
    python example_server.py http PORT          # streamable HTTP on 127.0.0.1:PORT/mcp

Tools: add, echo, get_weather, fail (raises: an isError result), slow (sleeps), and grow, which
registers the tool `extra` and sends notifications/tools/list_changed.
"""

import sys

import anyio
from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("skillgate-example")


@server.tool()
def add(a: int, b: int) -> str:
    """Add two integers and return the sum."""
    return str(a + b)


@server.tool()
def echo(text: str) -> str:
    """Echo the text back, prefixed with 'echo: '."""
    return f"echo: {text}"


@server.tool()
def get_weather(location: str) -> str:
    """Current weather forecast for a city."""
    return f"Sunny and 21 degrees in {location} (from the example MCP server)"


@server.tool()
def fail(reason: str = "on purpose") -> str:
    """Always fails, with the reason given."""
    raise ValueError(f"failed {reason}")


@server.tool()
async def slow(seconds: float) -> str:
    """Sleep for the given number of seconds, then answer."""
    await anyio.sleep(seconds)
    return f"slept {seconds}"


@server.tool()
async def grow(ctx: Context) -> str:
    """Register the tool `extra` and tell the client that the tool list changed."""

    def extra() -> str:
        """A tool that exists only after grow ran."""
        return "extra here"

    server.add_tool(extra, name="extra")
    await ctx.session.send_tool_list_changed()
    return "grown"


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
