// Usage: cost and tokens per day (hand-written SVG bars), tables by token, model and scenario from the usage ledger,
// and every limit and budget with what is left.
import { api, ApiError } from './api.js';
import { h, s, replace, table, usd, count } from './dom.js';

/** The days of the range, oldest first, as YYYY-MM-DD (UTC). */
function dayKeys(since, days) {
  const start = Date.parse(since);
  return Array.from({ length: days }, (_, i) => new Date(start + i * 86400000).toISOString().slice(0, 10));
}

const SERIES = 6;

/**
 * A stacked bar chart: one bar per day, one colour per series (the largest five and "other"), a title per segment,
 * an accessible summary and a legend.
 */
function barChart(title, days, series, format) {
  const width = 400;
  const height = 170;
  const pad = { left: 6, right: 6, top: 24, bottom: 26 };
  const totals = days.map((_, i) => series.reduce((sum, serie) => sum + serie.values[i], 0));
  const max = Math.max(...totals, 0);
  const step = (width - pad.left - pad.right) / days.length;
  const plot = height - pad.top - pad.bottom;
  const bars = [];
  days.forEach((day, i) => {
    let y = pad.top + plot;
    series.forEach((serie, n) => {
      const v = serie.values[i];
      if (v <= 0 || max <= 0) return;
      const h = Math.max(1.5, (v / max) * plot);
      y -= h;
      bars.push(s('rect', { class: `bar series-${n % SERIES}`, x: (pad.left + i * step + step * 0.15).toFixed(1), y: y.toFixed(1),
        width: Math.max(1, step * 0.7).toFixed(1), height: h.toFixed(1) }, s('title', {}, `${day} · ${serie.name}: ${format(v)}`)));
    });
  });
  const total = totals.reduce((a, b) => a + b, 0);
  return h('figure', { class: 'chart' },
    s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${title}: ${format(total)} in ${days.length} days, at most ${format(max)} a day` },
      s('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: pad.top + plot, y2: pad.top + plot }),
      s('text', { class: 'tick', x: pad.left, y: 16 }, `max ${format(max)}`),
      s('text', { class: 'tick', x: pad.left, y: height - 6 }, days[0] || ''),
      s('text', { class: 'tick', x: width - pad.right, y: height - 6, 'text-anchor': 'end' }, days[days.length - 1] || ''),
      ...bars),
    h('figcaption', {}, `${title} — total ${format(total)}`),
    series.length > 1 ? h('ul', { class: 'legend' }, series.map((serie, n) => h('li', {},
      h('span', { class: `swatch series-${n % SERIES}`, 'aria-hidden': 'true' }), serie.name))) : null);
}

/**
 * The series of a per-day report for one measure: the five largest keys by total and the rest as "other"
 * (one series, "all", for a report by day).
 */
function seriesOf(rows, days, measure, single) {
  const totals = new Map();
  if (single) rows = rows.map((r) => ({ ...r, key: 'all' }));
  for (const r of rows) totals.set(r.key, (totals.get(r.key) ?? 0) + r.cost_usd + (r.input_tokens + r.output_tokens) * 1e-9);
  const keys = [...totals.keys()].sort((a, b) => totals.get(b) - totals.get(a));
  const top = keys.slice(0, SERIES - 1);
  const names = keys.length > SERIES - 1 ? [...top, 'other'] : top;
  const index = new Map(days.map((d, i) => [d, i]));
  const series = names.map((name) => ({ name, values: days.map(() => 0) }));
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    const n = top.includes(r.key) ? top.indexOf(r.key) : names.length - 1;
    if (n >= 0) series[n].values[i] += measure(r);
  }
  return series;
}

function groupTable(caption, rows) {
  return table(caption, ['Name', 'Requests', 'Errors', 'Input tokens', 'Output tokens', 'Cost'],
    rows.map((r) => [r.key, count(r.requests), count(r.errors), count(r.input_tokens), count(r.output_tokens), usd(r.cost_usd)]),
    { 'data-group': caption });
}

export function usage(root, { onUnauthorized }) {
  const range = h('select', { id: 'us-days' }, [7, 30, 90].map((d) => h('option', { value: d, selected: d === 30 }, `Last ${d} days`)));
  const split = h('select', { id: 'us-split' }, [['model', 'By model'], ['token', 'By token'], ['scenario', 'By scenario'], ['day', 'Total']]
    .map(([value, label]) => h('option', { value }, label)));
  const content = h('div', { id: 'us-content' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(root, h('h2', {}, 'Usage'), h('div', { class: 'row' }, h('label', { for: 'us-days' }, 'Range'), range,
    h('label', { for: 'us-split' }, 'Charts'), split), content);
  range.addEventListener('change', load);
  split.addEventListener('change', load);
  let alive = true;

  async function load() {
    const days = Number(range.value);
    try {
      const [byDay, perDay, byToken, byModel, byScenario, limits] = await Promise.all([
        api(`usage?by=day&days=${days}`), api(`usage?by=${split.value}&days=${days}&per_day=true`), api(`usage?by=token&days=${days}`),
        api(`usage?by=model&days=${days}`), api(`usage?by=scenario&days=${days}`), api('limits'),
      ]);
      if (!alive) return;
      const keys = dayKeys(byDay.since, days);
      const single = split.value === 'day';
      const cost = seriesOf(perDay.data, keys, (r) => r.cost_usd, single);
      const tokens = seriesOf(perDay.data, keys, (r) => r.input_tokens + r.output_tokens, single);
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
