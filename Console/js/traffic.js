// Traffic: the requests the gateway finished, newest first, live over /admin/api/traffic (SSE), filterable.
// Reconnects on its own when the stream ends (a gateway restart), merging what it missed from /admin/api/requests.
import { api, trafficTail, readEvents, ApiError } from './api.js';
import { h, replace, usd, count } from './dom.js';

const MAX_ROWS = 500;
const COLUMNS = ['Time', 'Token', 'Scenario', 'Model', 'Status', 'Latency', 'Tokens in/out', 'Cost', 'Fallbacks', 'Escalations'];

export function traffic(root, { onUnauthorized }) {
  const events = [];
  const seen = new Set();
  let controller = null;
  let retry = null;
  let delay = 1000;
  let left = false;

  const filter = h('input', { id: 'tr-filter', type: 'search', placeholder: 'token, scenario, model, status…', autocomplete: 'off' });
  const state = h('p', { id: 'tr-state', class: 'muted', role: 'status' }, 'Connecting…');
  const body = h('tbody', { id: 'tr-rows' });
  replace(root, h('h2', {}, 'Traffic'),
    h('div', { class: 'row' }, h('label', { for: 'tr-filter' }, 'Filter'), filter), state,
    h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'Requests' },
      h('table', { id: 'tr-table' }, h('caption', {}, 'Requests, newest first'),
        h('thead', {}, h('tr', {}, COLUMNS.map((c) => h('th', { scope: 'col' }, c)))), body)));

  filter.addEventListener('input', render);

  function row(e) {
    const time = e.time.slice(11, 19);
    const status = h('span', { class: `badge ${e.status >= 400 || e.outcome !== 'ok' ? 'failed' : 'ok'}` }, e.outcome === 'ok' ? String(e.status) : `${e.status} ${e.outcome}`);
    return h('tr', { 'data-request-id': e.request_id },
      h('td', {}, h('time', { datetime: e.time }, time)), h('td', {}, e.token ?? '–'), h('td', {}, e.scenario ?? '–'),
      h('td', {}, e.model ?? '–'), h('td', {}, status), h('td', { class: 'num' }, `${Math.round(e.latency_ms)} ms`),
      h('td', { class: 'num' }, `${count(e.input_tokens)} / ${count(e.output_tokens)}`), h('td', { class: 'num' }, usd(e.cost_usd)),
      h('td', { class: 'num' }, String(e.fallbacks)), h('td', { class: 'num' }, String(e.escalations)));
  }

  function matches(e, words) {
    const text = [e.token, e.scenario, e.model, e.provider, e.surface, String(e.status), e.outcome].join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  }

  function render() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = events.filter((e) => matches(e, words));
    replace(body, shown.length ? shown.map(row) : h('tr', {}, h('td', { colspan: COLUMNS.length, class: 'muted' }, events.length ? 'No request matches the filter.' : 'No requests yet.')));
  }

  function add(e, render_ = true) {
    if (seen.has(e.request_id)) return;
    seen.add(e.request_id);
    events.push(e);
    events.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
    while (events.length > MAX_ROWS) seen.delete(events.pop().request_id);
    if (render_) render();
  }

  async function connect() {
    if (left) return;
    controller = new AbortController();
    try {
      const recent = await api('requests?limit=200', { signal: controller.signal });
      for (const e of recent.data) add(e, false);
      render();
      const response = await trafficTail(controller.signal);
      state.textContent = 'Live';
      state.className = 'live';
      delay = 1000;
      await readEvents(response, (name, data) => {
        if (name === 'request') add(data);
        else if (name === 'dropped') state.textContent = `Live (${data.count} requests skipped: this tab fell behind)`;
      });
      throw new Error('the stream ended');
    } catch (error) {
      if (left) return;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) { onUnauthorized(error); return; }
      state.className = 'muted';
      state.textContent = `Reconnecting (${error.message})…`;
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    }
  }

  render();
  connect();
  return { leave() { left = true; clearTimeout(retry); controller?.abort(); } };
}
