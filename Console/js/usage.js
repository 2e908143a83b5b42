// Usage: cost and tokens per day (hand-written SVG bars), tables by token, model and scenario from the usage ledger,
// and every limit and budget with what is left.
import { api, ApiError } from './api.js';
import { h, s, replace, table, usd, count } from './dom.js';

/** The days of the range, oldest first, as YYYY-MM-DD (UTC). */
function dayKeys(since, days) {
  const start = Date.parse(since);
  return Array.from({ length: days }, (_, i) => new Date(start + i * 86400000).toISOString().slice(0, 10));
}

/** A bar chart: one bar per day, with a title per bar and an accessible summary. */
function barChart(title, days, values, format) {
  const width = 400;
  const height = 170;
  const pad = { left: 6, right: 6, top: 24, bottom: 26 };
  const max = Math.max(...values, 0);
  const step = (width - pad.left - pad.right) / days.length;
  const plot = height - pad.top - pad.bottom;
  const bars = days.map((day, i) => {
    const v = values[i];
    const barHeight = max > 0 ? Math.max(v > 0 ? 2 : 0, (v / max) * plot) : 0;
    return s('rect', { class: 'bar', x: (pad.left + i * step + step * 0.15).toFixed(1), y: (pad.top + plot - barHeight).toFixed(1),
      width: Math.max(1, step * 0.7).toFixed(1), height: barHeight.toFixed(1) }, s('title', {}, `${day}: ${format(v)}`));
  });
  const total = values.reduce((a, b) => a + b, 0);
  return h('figure', { class: 'chart' },
    s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${title}: ${format(total)} in ${days.length} days, at most ${format(max)} a day` },
      s('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: pad.top + plot, y2: pad.top + plot }),
      s('text', { class: 'tick', x: pad.left, y: 16 }, `max ${format(max)}`),
      s('text', { class: 'tick', x: pad.left, y: height - 6 }, days[0] || ''),
      s('text', { class: 'tick', x: width - pad.right, y: height - 6, 'text-anchor': 'end' }, days[days.length - 1] || ''),
      ...bars),
    h('figcaption', {}, `${title} — total ${format(total)}`));
}

function groupTable(caption, rows) {
  return table(caption, ['Name', 'Requests', 'Errors', 'Input tokens', 'Output tokens', 'Cost'],
    rows.map((r) => [r.key, count(r.requests), count(r.errors), count(r.input_tokens), count(r.output_tokens), usd(r.cost_usd)]),
    { 'data-group': caption });
}

export function usage(root, { onUnauthorized }) {
  const range = h('select', { id: 'us-days' }, [7, 30, 90].map((d) => h('option', { value: d, selected: d === 30 }, `Last ${d} days`)));
  const content = h('div', { id: 'us-content' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(root, h('h2', {}, 'Usage'), h('div', { class: 'row' }, h('label', { for: 'us-days' }, 'Range'), range), content);
  range.addEventListener('change', load);
  let alive = true;

  async function load() {
    const days = Number(range.value);
    try {
      const [byDay, byToken, byModel, byScenario, limits] = await Promise.all([
        api(`usage?by=day&days=${days}`), api(`usage?by=token&days=${days}`), api(`usage?by=model&days=${days}`),
        api(`usage?by=scenario&days=${days}`), api('limits'),
      ]);
      if (!alive) return;
      const keys = dayKeys(byDay.since, days);
      const byKey = new Map(byDay.data.map((r) => [r.key, r]));
      const cost = keys.map((k) => byKey.get(k)?.cost_usd ?? 0);
      const tokens = keys.map((k) => (byKey.get(k)?.input_tokens ?? 0) + (byKey.get(k)?.output_tokens ?? 0));
      const total = byDay.data.reduce((a, r) => a + r.cost_usd, 0);
      replace(content,
        h('p', { class: 'total' }, 'Spent in this range: ', h('strong', { id: 'us-total' }, usd(total))),
        h('div', { class: 'charts' }, barChart('Cost per day (USD)', keys, cost, usd), barChart('Tokens per day', keys, tokens, count)),
        groupTable('By token', byToken.data), groupTable('By model', byModel.data), groupTable('By scenario', byScenario.data),
        table('Limits and budgets (this instance’s counters)', ['Scope', 'Name', 'Limit', 'Value', 'Used', 'Left', 'Resets'],
          limits.data.map((l) => {
            const money = l.limit.startsWith('budget');
            const f = (v) => (money ? usd(v) : count(v));
            return [l.scope, l.name, l.limit, f(l.value), f(l.used), f(l.remaining), l.resets_at ?? 'when a request ends'];
          })));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) onUnauthorized(error);
      else replace(content, h('p', { class: 'error', role: 'alert' }, `Could not load usage: ${error.message}`));
    }
  }

  load();
  return { leave() { alive = false; } };
}
