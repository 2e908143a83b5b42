"""The nginx configurations of the side-by-side benchmark: a mock OpenAI-compatible upstream and a plain
nginx reverse proxy in front of it (the cheapest possible proxy hop, the reference the gateway is held to).

Both are generated, so the event payloads, ports and limits live in one place. The mock upstream needs the
echo module (Debian package libnginx-mod-http-echo) for paced and slow streams.
"""
import json
import os
import subprocess

ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so"

COMPLETION = {
    "id": "chatcmpl-skillgate-bench-1", "object": "chat.completion", "created": 1767225600,
    "model": "mock-model", "system_fingerprint": "fp_skillgate_bench",
    "choices": [{"index": 0, "message": {"role": "assistant", "content":
        "The nightly build failed in the linker step; rerunning with the cache cleared fixed it."},
        "logprobs": None, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 388, "completion_tokens": 24, "total_tokens": 412},
}
WORDS = ["The", " nightly", " build", " failed", " in", " the", " linker", " step;", " rerunning", " with",
         " the", " cache", " cleared", " fixed", " it", "."]


def _chunk(delta, finish=None):
    return {"id": "chatcmpl-skillgate-bench-stream-1", "object": "chat.completion.chunk", "created": 1767225600,
            "model": "mock-model", "system_fingerprint": "fp_skillgate_bench",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}


def stream_events(words=WORDS):
    """The SSE `data:` payloads of one streamed completion, `[DONE]` last."""
    events = [_chunk({"role": "assistant", "content": ""})]
    events += [_chunk({"content": w}) for w in words]
    events.append(_chunk({}, "stop"))
    return [json.dumps(e, separators=(",", ":")) for e in events] + ["[DONE]"]


def _nginx_string(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _echo_stream(events, pause_s):
    lines = []
    for i, payload in enumerate(events):
        # nginx's parser turns the two-character escape \\n inside a quoted string into a newline
        lines.append(f"            echo -n {_nginx_string('data: ' + payload)[:-1]}\\n\\n';")
        if pause_s:
            lines.append("            echo_flush;")
            if i < len(events) - 1:
                lines.append(f"            echo_sleep {pause_s};")
    return "\n".join(lines)


_COMMON = """worker_processes 1;
worker_rlimit_nofile {nofile};
pid {name}.pid;
error_log logs/{name}.error.log warn;
events {{ worker_connections {conns}; multi_accept on; use epoll; }}
http {{
    access_log off;
    server_tokens off;
    tcp_nodelay on;
    keepalive_timeout 300s;
    keepalive_requests 1000000;
    client_body_buffer_size 64k;
    client_max_body_size 4m;
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
"""


def make_certificate(work):
    """A throwaway CA and a certificate it signs for 127.0.0.1 (openssl CLI); returns (ca, certificate, key) paths."""
    ca, ca_key, cert, key, csr, ext = (os.path.join(work, n) for n in
                                       ["bench-ca.pem", "bench-ca.key", "upstream.pem", "upstream.key", "upstream.csr", "san.ext"])
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True)
    run("req", "-x509", *ec, "-days", "2", "-subj", "/CN=SkillGate bench CA", "-keyout", ca_key, "-out", ca)
    run("req", *ec, "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", csr)
    open(ext, "w").write("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", cert)
    return ca, cert, key


def mock_upstream_conf(port, nofile, slow_pause_s=1.0, tls=None):
    """The mock upstream: `/v1` answers at once, `/stream/v1` streams all events at once, `/paced/v1` 10 ms
    apart (shows whether a proxy buffers), `/slow/v1` `slow_pause_s` apart (the held-streams test).

    With `tls=(tls_port, certificate, key)` the same paths are also served over TLS with HTTP/2 (ALPN) on `tls_port`,
    as real providers are reached: the held-streams test's upstream side then shares a few multiplexed connections
    (nginx's default of 128 streams per connection) instead of taking a socket per stream."""
    events = stream_events()
    body = json.dumps(COMPLETION, separators=(",", ":"))
    models = '{"object":"list","data":[{"id":"mock-model","object":"model","created":1767225600,"owned_by":"bench"}]}'
    def stream_location(prefix, pause):
        return f"""        location = {prefix}/chat/completions {{
            default_type text/event-stream;
            add_header Cache-Control no-cache;
{_echo_stream(events, pause)}
        }}
        location = {prefix}/models {{ default_type application/json; return 200 {_nginx_string(models)}; }}
"""
    tls_listen = ""
    if tls:
        tls_port, certificate, key = tls
        tls_listen = (f"        listen 127.0.0.1:{tls_port} ssl http2 backlog=4096;\n"
                      f"        ssl_certificate {certificate};\n        ssl_certificate_key {key};\n")
    return (f"load_module {ECHO_MODULE};\n" + _COMMON.format(name="mock-upstream", nofile=nofile, conns=nofile - 100)
            + f"""    server {{
        listen 127.0.0.1:{port} backlog=4096;
{tls_listen}        location = /v1/chat/completions {{ default_type application/json; return 200 {_nginx_string(body)}; }}
        location = /v1/models {{ default_type application/json; return 200 {_nginx_string(models)}; }}
{stream_location("/stream/v1", 0)}{stream_location("/paced/v1", 0.01)}{stream_location("/slow/v1", slow_pause_s)}
        location / {{ default_type application/json;
            return 404 '{{"error":{{"message":"not found","type":"invalid_request_error"}}}}'; }}
    }}
}}
""")


def nginx_proxy_conf(port, upstream_port, nofile):
    """nginx as a plain reverse proxy with a keep-alive upstream pool and unbuffered streams."""
    return _COMMON.format(name="nginx-proxy", nofile=nofile, conns=nofile - 100) + f"""    upstream mock {{
        server 127.0.0.1:{upstream_port};
        keepalive 256;
        keepalive_requests 1000000;
        keepalive_timeout 300s;
    }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_read_timeout 120s;
        proxy_buffering off;
        location / {{ proxy_pass http://mock; }}
    }}
}}
"""
