// The admin API and /v1/agent, with the admin token from session storage as a bearer header. Same origin only.

const KEY = 'skillgate.adminToken';

export const session = {
  get token() { return sessionStorage.getItem(KEY); },
  set token(value) { if (value) sessionStorage.setItem(KEY, value); else sessionStorage.removeItem(KEY); },
};

/** An error answer of the gateway: its status and the message it sent (which says what to do next). */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function headers(extra = {}) {
  return { authorization: `Bearer ${session.token || ''}`, ...extra };
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    message = body?.error?.message || message;
  } catch { /* not JSON: keep the status line */ }
  return new ApiError(response.status, message);
}

/** GET/POST/PUT an admin route; resolves to its JSON or throws an ApiError. */
export async function api(path, { method = 'GET', body, signal } = {}) {
  const response = await fetch(`/admin/api/${path}`, {
    method, signal, cache: 'no-store',
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * Reads a server-sent event stream from a fetch response, calling onEvent(name, data) for each event (data parsed
 * as JSON when it is). Resolves when the stream ends.
 */
export async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = text;
        else if (field === 'data') data.push(text);
      }
      if (!data.length) continue;
      let parsed = data.join('\n');
      try { parsed = JSON.parse(parsed); } catch { /* keep the text */ }
      onEvent(name, parsed);
    }
  }
}

/** POST /v1/agent as a stream; resolves to the response (headers readable) or throws an ApiError. */
export async function agent(body, signal) {
  const response = await fetch('/v1/agent', {
    method: 'POST', signal, cache: 'no-store',
    headers: headers({ 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response;
}

/** GET /admin/api/traffic as a stream; resolves to the response or throws an ApiError. */
export async function trafficTail(signal) {
  const response = await fetch('/admin/api/traffic', { signal, cache: 'no-store', headers: headers({ accept: 'text/event-stream' }) });
  if (!response.ok) throw await failure(response);
  return response;
}
