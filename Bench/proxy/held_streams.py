"""The held-streams test: open N slow streaming requests at once through a target and hold them until each
ends with `data: [DONE]`. Reports how many completed, the most open at once, and the time to open them.

Usable alone: python3 held_streams.py URL BODY_FILE TOKEN N [RAMP_PER_S]
"""
import asyncio
import collections
import resource
import sys
import time
import urllib.parse


def raise_file_limit():
    """Raises this process's open-file limit to its hard limit (children inherit it); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


async def _one_stream(host, port, request, state, deadline_s):
    writer, counted = None, False
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(request)
        await writer.drain()
        state["open"] += 1
        counted = True
        state["max_open"] = max(state["max_open"], state["open"])
        status = await asyncio.wait_for(reader.readline(), deadline_s)
        if b" 200 " not in status:
            state["errors"][status.decode(errors="replace").strip()[:60]] += 1
            return
        async def until_done():
            while True:
                line = await reader.readline()
                if not line:
                    return False
                if line.startswith(b"data: [DONE]"):
                    return True
        if await asyncio.wait_for(until_done(), deadline_s):
            state["completed"] += 1
        else:
            state["errors"]["closed before [DONE]"] += 1
    except asyncio.TimeoutError:
        state["errors"]["timed out"] += 1
    except OSError as error:
        state["errors"][type(error).__name__ + ": " + (error.strerror or "")] += 1
    finally:
        if counted:
            state["open"] -= 1
        if writer is not None:
            writer.close()


async def hold_streams(url, body, token, count, ramp_per_s=2000, deadline_s=180.0):
    """Opens `count` streams (at most `ramp_per_s` new ones a second) and waits for all of them."""
    u = urllib.parse.urlsplit(url)
    request = (f"POST {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nContent-Type: application/json\r\n"
               f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\nConnection: close\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    state = {"open": 0, "max_open": 0, "completed": 0, "errors": collections.Counter()}
    started = time.perf_counter()
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(_one_stream(u.hostname, u.port, request, state, deadline_s)))
        if (i + 1) % 100 == 0:
            await asyncio.sleep(max(0.0, started + (i + 1) / ramp_per_s - time.perf_counter()))
    opened_s = time.perf_counter() - started
    await asyncio.gather(*tasks)
    return {"requested": count, "completed": state["completed"], "max_open": state["max_open"],
            "open_s": round(opened_s, 2), "total_s": round(time.perf_counter() - started, 2),
            "errors": dict(state["errors"].most_common(5))}


def main():
    url, body_file, token, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ramp = int(sys.argv[5]) if len(sys.argv) > 5 else 2000
    raise_file_limit()
    print(asyncio.run(hold_streams(url, open(body_file, "rb").read(), token, count, ramp)))


if __name__ == "__main__":
    main()
