"""Upstream test doubles for the SkillGate conformance suite.

One ThreadingHTTPServer on 127.0.0.1 (ephemeral port) plays three providers, each under its own
path prefix, speaking the real wire formats by serving recorded provider bodies:

  POST /openai/v1/chat/completions                       OpenAI Chat Completions
  POST /openai/v1/responses/input_tokens                 OpenAI's token count (Responses API; the double's own rule)
  POST /anthropic/v1/messages                            Anthropic Messages
  POST /anthropic/v1/messages/count_tokens               Anthropic's token count (the count is the double's own rule)
  POST /gemini/v1beta/models/{model}:generateContent     Gemini (unary)
  POST /gemini/v1beta/models/{model}:streamGenerateContent?alt=sse
  POST /gemini/v1beta/models/{model}:countTokens         Gemini's token count (the double's own rule)

Each count is the double's own rule, a quarter of the request body's bytes, not the provider's tokenizer; each count
endpoint refuses, in its provider's words, any member the real one does not take.

The recording is chosen by what the request asks for: streaming or not, tools offered or not, and
whether the last message is a tool result (then a text answer is served). Scripted failures are
chosen by the model name: `refuses` (a refusal: OpenAI's refusal text, Anthropic's classifier stop),
`rate-limited` (429 + Retry-After: 7), `broken` (500), `html-proxy`
(502 text/html page from a proxy). Every request is recorded (method, path, query, headers, body)
so tests can assert on exactly what the gateway sent upstream.

The double also checks what a real provider checks (key, required fields, headers) and answers in
the provider's own error shape when the gateway gets it wrong.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"
FIXTURES = HERE.parent / "Fixtures"  # Tests/Fixtures/<provider>/ (preferred when present)

RETRY_AFTER_SECONDS = "7"

# Which recording answers which kind of request.
OPENAI_STREAM_TEXT = "openai/test_parse_nothing.sse"
OPENAI_STREAM_TOOL = "openai/test_run_stream_sync_streams_real_model.0.response.sse"
OPENAI_STREAM_AFTER_TOOL = "openai/test_run_stream_sync_streams_real_model.1.response.sse"
OPENAI_JSON_TEXT = "openai/openai-text.json"
OPENAI_JSON_TOOL = "openai/test_temporal_agent_with_hitl_tool.0.response.json"
ANTHROPIC_STREAM_TOOL = "anthropic/tool_use_response.txt"
ANTHROPIC_STREAM_TEXT_CHUNKS = "anthropic/anthropic-text.chunks.txt"
ANTHROPIC_JSON_TEXT = "anthropic/anthropic-text.json"
ANTHROPIC_JSON_TOOL = "anthropic/test_multiple_parallel_tool_calls.0.response.json"
ANTHROPIC_JSON_AFTER_TOOL = "anthropic/test_multiple_parallel_tool_calls.1.response.json"
GEMINI_STREAM_TOOL = "gemini/test_google_streaming_tool_call_thought_signature.0.response.sse"
GEMINI_STREAM_TEXT = "gemini/test_google_streaming_tool_call_thought_signature.1.response.sse"
GEMINI_JSON_TOOL = "gemini/google-tool-call.json"
GEMINI_JSON_TEXT = "gemini/text.json"  # not a file: merged from GEMINI_STREAM_TEXT (see PROVENANCE.md)
GEMINI_429 = "gemini/google-429-retry-info.json"
# The model `refuses` (decision 0114): OpenAI's recorded refusal text (its whole form written from it), Anthropic's
# classifier stop written after its documented format (Tests/Fixtures/*/PROVENANCE.md).
OPENAI_STREAM_REFUSAL = "openai/test_parse_pydantic_model_refusal.sse"
OPENAI_JSON_REFUSAL = "openai/skillgate-refusal.json"
ANTHROPIC_STREAM_REFUSAL = "anthropic/skillgate-refusal.sse"
ANTHROPIC_JSON_REFUSAL = "anthropic/skillgate-refusal.json"

# The members OpenAI's count (`POST /v1/responses/input_tokens`) takes, as the pinned SDK's `input_tokens.count` sends them.
OPENAI_COUNT_MEMBERS = {"conversation", "input", "instructions", "model", "parallel_tool_calls", "personality", "previous_response_id",
                        "reasoning", "text", "tool_choice", "tools", "truncation"}
# The members of Gemini's GenerateContentRequest (`countTokens` takes one as `generateContentRequest`).
GEMINI_GENERATE_CONTENT_MEMBERS = {"model", "contents", "tools", "toolConfig", "safetySettings", "systemInstruction", "generationConfig",
                                   "cachedContent"}


def counted(body: bytes) -> int:
    """The doubles' token count of a request: a quarter of its body's bytes."""
    return len(body) // 4


# Every tool any recording calls, so a client that offers all of them gets a tool call it knows.
RECORDED_TOOLS = {
    "get_capital": {"country": "string"},        # OpenAI stream
    "delete_file": {"path": "string"},           # OpenAI JSON (parallel)
    "create_file": {"path": "string"},           # OpenAI JSON (parallel)
    "get_weather": {"location": "string"},       # Anthropic stream
    "retrieve_entity_info": {"name": "string"},  # Anthropic JSON (parallel)
    "weather": {"location": "string"},           # Gemini JSON
    "get_country": {},                           # Gemini stream
}


def _schema(props: dict) -> dict:
    return {"type": "object", "properties": {k: {"type": v} for k, v in props.items()}, "required": list(props)}


def openai_tools() -> list[dict]:
    """RECORDED_TOOLS as OpenAI `tools`."""
    return [{"type": "function", "function": {"name": n, "description": f"{n} (conformance tool)", "parameters": _schema(p)}}
            for n, p in RECORDED_TOOLS.items()]


def anthropic_tools() -> list[dict]:
    """RECORDED_TOOLS as Anthropic `tools`."""
    return [{"name": n, "description": f"{n} (conformance tool)", "input_schema": _schema(p)} for n, p in RECORDED_TOOLS.items()]


def recording_path(name: str) -> Path:
    """The recording `provider/file`, from Tests/Fixtures if present, else from recordings/."""
    preferred = FIXTURES / name
    if preferred.is_file():
        return preferred
    path = RECORDINGS / name
    if not path.is_file():
        raise FileNotFoundError(f"recording {name} is missing from {RECORDINGS}; restore it from git (recordings/PROVENANCE.md says where each came from)")
    return path


def recording_bytes(name: str) -> bytes:
    return recording_path(name).read_bytes()


def sse_data_payloads(body: bytes) -> list[str]:
    """The `data:` payloads of an SSE body (LF or CRLF framing)."""
    text = body.decode("utf-8").replace("\r\n", "\n")
    out = []
    for event in text.split("\n\n"):
        data = [line[5:].lstrip(" ") if line.startswith("data:") else None for line in event.split("\n")]
        data = [d for d in data if d is not None]
        if data:
            out.append("\n".join(data))
    return out


def anthropic_text_stream_body() -> bytes:
    """The Anthropic text stream rebuilt from vercel/ai's one-payload-per-line file (event name == type)."""
    lines = [line for line in recording_bytes(ANTHROPIC_STREAM_TEXT_CHUNKS).decode("utf-8").splitlines() if line.strip()]
    return "".join(f"event: {json.loads(line)['type']}\ndata: {line}\n\n" for line in lines).encode("utf-8")


def gemini_text_json_body() -> bytes:
    """A unary Gemini text answer merged from the recorded text stream's chunks."""
    chunks = [json.loads(p) for p in sse_data_payloads(recording_bytes(GEMINI_STREAM_TEXT))]
    merged = json.loads(json.dumps(chunks[-1]))
    text = "".join(part.get("text", "") for c in chunks for cand in c.get("candidates", [])[:1]
                   for part in cand.get("content", {}).get("parts", []))
    merged["candidates"][0]["content"]["parts"] = [{"text": text}]
    return json.dumps(merged, indent=2).encode("utf-8")


# ---- what the recordings say, for assertions -----------------------------------------------------

def expected_text(name: str) -> str:
    """The assistant text a recording carries (streamed deltas joined, or the JSON message's text)."""
    if name == ANTHROPIC_STREAM_TEXT_CHUNKS:
        body, is_json = anthropic_text_stream_body(), False
    elif name == GEMINI_JSON_TEXT:
        body, is_json = gemini_text_json_body(), True
    else:
        body, is_json = recording_bytes(name), name.endswith(".json")
    provider = name.split("/")[0]
    if is_json:
        doc = json.loads(body)
        if provider == "openai":
            return doc["choices"][0]["message"].get("content") or ""
        if provider == "anthropic":
            return "".join(b.get("text", "") for b in doc["content"] if b["type"] == "text")
        return "".join(p.get("text", "") for p in doc["candidates"][0]["content"]["parts"])
    text = []
    for payload in sse_data_payloads(body):
        if payload == "[DONE]":
            continue
        doc = json.loads(payload)
        if provider == "openai":
            for ch in doc.get("choices", []):
                text.append(ch.get("delta", {}).get("content") or "")
        elif provider == "anthropic":
            if doc.get("type") == "content_block_delta" and doc["delta"].get("type") == "text_delta":
                text.append(doc["delta"]["text"])
        else:
            for cand in doc.get("candidates", [])[:1]:
                text += [p.get("text", "") for p in cand.get("content", {}).get("parts", [])]
    return "".join(text)


# ---- the double --------------------------------------------------------------------------------

@dataclass
class RecordedRequest:
    """One request the double received."""
    provider: str               # "openai" | "anthropic" | "gemini" | "unknown"
    method: str
    path: str                   # without the query
    query: dict                 # parsed query string (name → [values])
    raw_path: str               # path with query, as sent
    headers: dict               # lower-cased name → value (last one wins)
    header_list: list           # [(name, value)] as sent
    body: bytes
    json: object = None         # parsed body, or None
    model: str | None = None    # from the body (OpenAI/Anthropic) or the URL (Gemini)
    answered_with: str = ""     # recording name or scripted failure
    status: int = 0

    def header_blob(self) -> str:
        return "\n".join(f"{k}: {v}" for k, v in self.header_list)


@dataclass
class Reply:
    status: int
    content_type: str
    body: bytes
    headers: dict = field(default_factory=dict)
    stream: bool = False  # send as chunked, one SSE event per chunk
    label: str = ""


class UpstreamDouble:
    """Fake OpenAI, Anthropic and Gemini APIs on one ephemeral loopback port."""

    def __init__(self, keys: dict[str, str]):
        """`keys`: provider ("openai", "anthropic", "gemini") → the key the gateway must send."""
        self.keys = dict(keys)
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle
    def start(self) -> "UpstreamDouble":
        double = self

        class Handler(_Handler):
            owner = double

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="upstream-double", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def port(self) -> int:
        assert self._server, "start() the double first"
        return self._server.server_address[1]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # inspection
    def mark(self) -> int:
        """A position in the request log; pass it to `since`."""
        with self._lock:
            return len(self._requests)

    def since(self, mark: int) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests[mark:])

    def all(self) -> list[RecordedRequest]:
        return self.since(0)

    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(req)

    # answering
    def answer(self, req: RecordedRequest) -> Reply:
        if req.provider == "openai":
            return self._openai(req)
        if req.provider == "anthropic":
            return self._anthropic(req)
        if req.provider == "gemini":
            return self._gemini(req)
        return Reply(404, "application/json", json.dumps({"error": {"message": f"no such endpoint {req.path} on the upstream double", "type": "invalid_request_error", "param": None, "code": None}}).encode(), label="404")

    def _openai(self, req: RecordedRequest) -> Reply:
        def err(status, message, type_, code=None, param=None, headers=None):
            body = json.dumps({"error": {"message": message, "type": type_, "param": param, "code": code}}, indent=2) + "\n"
            return Reply(status, "application/json", body.encode(), headers or {}, label=f"error {status}")

        if req.path not in ("/openai/v1/chat/completions", "/openai/v1/responses/input_tokens") or req.method != "POST":
            return err(404, f"Invalid URL ({req.method} {req.path})", "invalid_request_error")
        auth = req.headers.get("authorization", "")
        if auth != f"Bearer {self.keys['openai']}":
            return err(401, "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key")
        body = req.json
        if not isinstance(body, dict):
            return err(400, "We could not parse the JSON body of your request.", "invalid_request_error")
        if req.path.endswith("/input_tokens"):
            # As the API: a member it does not take is refused by name; a response id it never made is not found.
            for name in sorted(set(body) - OPENAI_COUNT_MEMBERS):
                return err(400, f"Unknown parameter: '{name}'.", "invalid_request_error", "unknown_parameter", name)
            if body.get("previous_response_id"):
                return err(404, f"Previous response with id '{body['previous_response_id']}' not found.", "invalid_request_error",
                           "previous_response_not_found", "previous_response_id")
            for i, tool in enumerate(body.get("tools") or []):
                for name in ("type", "name", "parameters", "strict"):
                    if tool.get("type") == "function" and name not in tool:
                        return err(400, f"Missing required parameter: 'tools[{i}].{name}'.", "invalid_request_error",
                                   "missing_required_parameter", f"tools[{i}].{name}")
            scripted = self._scripted(req, "openai")
            if scripted:
                return scripted
            return Reply(200, "application/json", json.dumps({"object": "response.input_tokens", "input_tokens": counted(req.body)}).encode(),
                         label="input_tokens")
        for name in ("model", "messages"):
            if name not in body:
                return err(400, f"Missing required parameter: '{name}'.", "invalid_request_error", "missing_required_parameter", name)
        scripted = self._scripted(req, "openai")
        if scripted:
            return scripted
        messages = body["messages"] if isinstance(body["messages"], list) else []
        after_tool = bool(messages) and isinstance(messages[-1], dict) and messages[-1].get("role") == "tool"
        tools = bool(body.get("tools"))
        if body.get("stream"):
            name = OPENAI_STREAM_AFTER_TOOL if after_tool else OPENAI_STREAM_TOOL if tools else OPENAI_STREAM_TEXT
            return Reply(200, "text/event-stream; charset=utf-8", recording_bytes(name), stream=True, label=name)
        name = OPENAI_JSON_TOOL if tools and not after_tool else OPENAI_JSON_TEXT
        return Reply(200, "application/json", recording_bytes(name), label=name)

    def _anthropic(self, req: RecordedRequest) -> Reply:
        def err(status, type_, message, headers=None):
            body = json.dumps({"type": "error", "error": {"type": type_, "message": message}, "request_id": "req_011CTestDouble0000000000"})
            return Reply(status, "application/json", body.encode(), headers or {}, label=f"error {status}")

        if req.path not in ("/anthropic/v1/messages", "/anthropic/v1/messages/count_tokens") or req.method != "POST":
            return err(404, "not_found_error", "Not Found")
        # The API takes the key as x-api-key, or (SDK 2.x) as Authorization: Bearer.
        if self.keys["anthropic"] not in (req.headers.get("x-api-key"), req.headers.get("authorization", "").removeprefix("Bearer ")):
            return err(401, "authentication_error", "invalid x-api-key")
        if not req.headers.get("anthropic-version"):
            return err(400, "invalid_request_error", "anthropic-version: header is required")
        body = req.json
        if not isinstance(body, dict):
            return err(400, "invalid_request_error", "There was an error parsing the body")
        if req.path.endswith("/count_tokens"):
            # As the API: model and messages required, members it does not take refused; the count itself is the
            # double's own rule (a quarter of the body's bytes), not Anthropic's tokenizer.
            for name in ("model", "messages"):
                if name not in body:
                    return err(400, "invalid_request_error", f"{name}: Field required")
            for name in sorted(set(body) - {"model", "messages", "system", "tools", "tool_choice", "thinking", "mcp_servers"}):
                return err(400, "invalid_request_error", f"{name}: Extra inputs are not permitted")
            return Reply(200, "application/json", json.dumps({"input_tokens": counted(req.body)}).encode(), label="count_tokens")
        for name in ("model", "max_tokens", "messages"):
            if name not in body:
                return err(400, "invalid_request_error", f"{name}: Field required")
        messages = body["messages"] if isinstance(body["messages"], list) else []
        for i, m in enumerate(messages):
            if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
                return err(400, "invalid_request_error", f"messages.{i}.role: Input should be 'user' or 'assistant'")
        scripted = self._scripted(req, "anthropic")
        if scripted:
            return scripted
        last = messages[-1] if messages else {}
        content = last.get("content")
        after_tool = last.get("role") == "user" and isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        tools = bool(body.get("tools"))
        if body.get("stream"):
            if tools and not after_tool:
                return Reply(200, "text/event-stream; charset=utf-8", recording_bytes(ANTHROPIC_STREAM_TOOL), stream=True, label=ANTHROPIC_STREAM_TOOL)
            return Reply(200, "text/event-stream; charset=utf-8", anthropic_text_stream_body(), stream=True, label=ANTHROPIC_STREAM_TEXT_CHUNKS)
        name = ANTHROPIC_JSON_AFTER_TOOL if after_tool else ANTHROPIC_JSON_TOOL if tools else ANTHROPIC_JSON_TEXT
        return Reply(200, "application/json", recording_bytes(name), label=name)

    def _gemini(self, req: RecordedRequest) -> Reply:
        def err(status, code, message):
            body = json.dumps({"error": {"code": status, "message": message, "status": code}}, indent=2)
            return Reply(status, "application/json; charset=UTF-8", body.encode(), label=f"error {status}")

        prefix = "/gemini/v1beta/models/"
        if req.method != "POST" or not req.path.startswith(prefix) or ":" not in req.path[len(prefix):]:
            return err(404, "NOT_FOUND", f"The requested URL {req.path} was not found on this server.")
        method = req.path[len(prefix):].rsplit(":", 1)[1]
        if method not in ("generateContent", "streamGenerateContent", "countTokens"):
            return err(404, "NOT_FOUND", f"Method {method} not found.")
        if req.headers.get("x-goog-api-key") != self.keys["gemini"]:
            return err(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.")
        body = req.json
        if method == "countTokens":
            return self._gemini_count(req, err)
        if not isinstance(body, dict) or not isinstance(body.get("contents"), list) or not body["contents"]:
            return err(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified")
        scripted = self._scripted(req, "gemini")
        if scripted:
            return scripted
        last = body["contents"][-1] if isinstance(body["contents"][-1], dict) else {}
        after_tool = any(isinstance(p, dict) and "functionResponse" in p for p in last.get("parts", []))
        tools = any(isinstance(t, dict) and t.get("functionDeclarations") for t in body.get("tools", []) or [])
        if method == "streamGenerateContent":
            name = GEMINI_STREAM_TOOL if tools and not after_tool else GEMINI_STREAM_TEXT
            raw = recording_bytes(name)
            if req.query.get("alt") == ["sse"]:
                return Reply(200, "text/event-stream", raw, stream=True, label=name)
            # Without alt=sse the real API streams a JSON array.
            array = "[" + ",\n".join(sse_data_payloads(raw)) + "]"
            return Reply(200, "application/json; charset=UTF-8", array.encode(), label=name + " (as JSON array)")
        if tools and not after_tool:
            return Reply(200, "application/json; charset=UTF-8", recording_bytes(GEMINI_JSON_TOOL), label=GEMINI_JSON_TOOL)
        return Reply(200, "application/json; charset=UTF-8", gemini_text_json_body(), label=GEMINI_JSON_TEXT)

    def _gemini_count(self, req: RecordedRequest, err) -> Reply:
        """`models/{model}:countTokens` as the API answers it: `contents`, or a whole `generateContentRequest` (never
        both) whose `model` names the model of the URL; unknown members refused by name."""
        body = req.json
        if not isinstance(body, dict):
            return err(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
        for name in sorted(set(body) - {"contents", "generateContentRequest"}):
            return err(400, "INVALID_ARGUMENT", f'Invalid JSON payload received. Unknown name "{name}": Cannot find field.')
        if "contents" in body and "generateContentRequest" in body:
            return err(400, "INVALID_ARGUMENT", "contents and generate_content_request are mutually exclusive; send one of them.")
        inner = body.get("generateContentRequest", body)
        if not isinstance(inner, dict):
            return err(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unknown name \"generateContentRequest\": Proto field is not repeating, cannot start list.")
        if "generateContentRequest" in body:
            for name in sorted(set(inner) - GEMINI_GENERATE_CONTENT_MEMBERS):
                return err(400, "INVALID_ARGUMENT", f'Invalid JSON payload received. Unknown name "{name}" at \'generate_content_request\': Cannot find field.')
            if inner.get("model") != f"models/{req.model}":
                return err(400, "INVALID_ARGUMENT", "* GenerateContentRequest.model: unexpected model name format")
        if not isinstance(inner.get("contents"), list) or not inner["contents"]:
            return err(400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified")
        scripted = self._scripted(req, "gemini")
        if scripted:
            return scripted
        tokens = counted(req.body)
        return Reply(200, "application/json; charset=UTF-8",
                     json.dumps({"totalTokens": tokens, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": tokens}]}).encode(),
                     label="countTokens")

    def _scripted(self, req: RecordedRequest, provider: str) -> Reply | None:
        model = req.model or ""
        if model == "rate-limited":
            headers = {"Retry-After": RETRY_AFTER_SECONDS}
            if provider == "openai":
                body = {"error": {"message": "Rate limit reached for gpt-test in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s.",
                                  "type": "requests", "param": None, "code": "rate_limit_exceeded"}}
                headers.update({"x-ratelimit-limit-requests": "3", "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "7s"})
            elif provider == "anthropic":
                body = {"type": "error", "error": {"type": "rate_limit_error", "message": "This request would exceed the rate limit for your organization of 50 requests per minute."}}
                headers.update({"anthropic-ratelimit-requests-remaining": "0"})
            else:
                return Reply(429, "application/json; charset=UTF-8", recording_bytes(GEMINI_429), headers, label="rate-limited")
            return Reply(429, "application/json", json.dumps(body).encode(), headers, label="rate-limited")
        if model == "broken":
            if provider == "openai":
                body = {"error": {"message": "The server had an error while processing your request. Sorry about that!", "type": "server_error", "param": None, "code": None}}
            elif provider == "anthropic":
                body = {"type": "error", "error": {"type": "api_error", "message": "Internal server error"}}
            else:
                body = {"error": {"code": 500, "message": "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", "status": "INTERNAL"}}
            return Reply(500, "application/json", json.dumps(body).encode(), label="broken")
        if model == "refuses" and provider in ("openai", "anthropic"):
            stream = isinstance(req.json, dict) and req.json.get("stream")
            names = {"openai": (OPENAI_STREAM_REFUSAL, OPENAI_JSON_REFUSAL), "anthropic": (ANTHROPIC_STREAM_REFUSAL, ANTHROPIC_JSON_REFUSAL)}
            name = names[provider][0 if stream else 1]
            if stream:
                return Reply(200, "text/event-stream; charset=utf-8", recording_bytes(name), stream=True, label="refuses")
            return Reply(200, "application/json", recording_bytes(name), label="refuses")
        if model == "html-proxy":
            page = ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
                    "<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n")
            return Reply(502, "text/html", page.encode(), label="html-proxy")
        return None


def _model_of(provider: str, path: str, body: object) -> str | None:
    if provider == "gemini":
        tail = path.split("/models/", 1)[1] if "/models/" in path else ""
        return tail.rsplit(":", 1)[0] or None
    if isinstance(body, dict) and isinstance(body.get("model"), str):
        return body["model"]
    return None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    owner: UpstreamDouble

    def log_message(self, format, *args):  # quiet
        pass

    def _read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            out = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _handle(self):
        raw_body = self._read_body()
        split = urlsplit(self.path)
        path = split.path
        provider = next((p for p in ("openai", "anthropic", "gemini") if path.startswith(f"/{p}/")), "unknown")
        try:
            parsed = json.loads(raw_body) if raw_body else None
        except ValueError:
            parsed = None
        req = RecordedRequest(provider=provider, method=self.command, path=path, query=parse_qs(split.query),
                              raw_path=self.path, headers={k.lower(): v for k, v in self.headers.items()},
                              header_list=list(self.headers.items()), body=raw_body, json=parsed,
                              model=_model_of(provider, path, parsed))
        reply = self.owner.answer(req)
        req.answered_with, req.status = reply.label, reply.status
        self.owner._record(req)
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("x-request-id", f"req_double_{id(req):x}")
        for k, v in reply.headers.items():
            self.send_header(k, v)
        if reply.stream:
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            sep = b"\r\n\r\n" if b"\r\n\r\n" in reply.body else b"\n\n"
            parts = reply.body.split(sep)
            for i, part in enumerate(parts):
                piece = part + (sep if i < len(parts) - 1 else b"")
                if piece:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                    time.sleep(0.001)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        else:
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
            self.wfile.flush()

    do_POST = _handle
    do_GET = _handle
    do_PUT = _handle
    do_DELETE = _handle
