// Setup: tokens (create — the secret shown once —, revoke), providers and whether their keys are set, scenarios,
// skill packs and server skills as loaded, and each model's cooldown state.
import { api, ApiError } from './api.js';
import { h, replace, table } from './dom.js';

function limitsText(limits) {
  const entries = Object.entries(limits || {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : 'defaults';
}

export function setup(root, { onUnauthorized }) {
  let alive = true;
  const tokens = h('div', { id: 'st-tokens' });
  const catalog = h('div', { id: 'st-catalog' });
  const secret = h('div', { id: 'st-secret', role: 'status' });
  const error = h('p', { id: 'st-error', class: 'error', role: 'alert' });

  const name = h('input', { id: 'st-name', name: 'name', required: true, pattern: '[A-Za-z0-9._\\-]{1,64}', autocomplete: 'off' });
  const scenarios = h('input', { id: 'st-scenarios', name: 'scenarios', placeholder: 'all', autocomplete: 'off' });
  const admin = h('input', { id: 'st-admin', name: 'admin', type: 'checkbox' });
  const chat = h('input', { id: 'st-chat', name: 'chat', type: 'checkbox' });
  const rpm = h('input', { id: 'st-rpm', name: 'rpm', type: 'number', min: '1', inputmode: 'numeric' });
  const budget = h('input', { id: 'st-budget', name: 'budget', type: 'number', min: '0', step: '0.01', inputmode: 'decimal' });
  const form = h('form', { id: 'st-create', class: 'grid' },
    h('label', { for: 'st-name' }, 'Name'), name,
    h('label', { for: 'st-scenarios' }, 'Scenarios (comma-separated)'), scenarios,
    h('label', { for: 'st-rpm' }, 'Requests per minute'), rpm,
    h('label', { for: 'st-budget' }, 'Budget per day (USD)'), budget,
    h('span', {}, 'Role'), h('div', {},
      h('label', { class: 'check' }, admin, ' Admin (console and admin API)'),
      h('label', { class: 'check' }, chat, ' Admin may also chat')),
    h('span', {}), h('button', { type: 'submit' }, 'Create token'));

  replace(root, h('h2', {}, 'Setup'),
    h('section', { 'aria-labelledby': 'st-tokens-title' }, h('h3', { id: 'st-tokens-title' }, 'Tokens'), form, secret, error, tokens),
    h('section', { 'aria-labelledby': 'st-catalog-title' }, h('h3', { id: 'st-catalog-title' }, 'Providers, scenarios and skills'), catalog));

  const handle = (e) => {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) onUnauthorized(e);
    else error.textContent = e.message;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body = { name: name.value.trim(), admin: admin.checked, chat: admin.checked ? chat.checked : true, limits: {} };
    const list = scenarios.value.split(',').map((x) => x.trim()).filter(Boolean);
    if (list.length) body.scenarios = list;
    if (rpm.value) body.limits.requests_per_minute = Number(rpm.value);
    if (budget.value) body.limits.budget_usd_per_day = Number(budget.value);
    try {
      const created = await api('tokens', { method: 'POST', body });
      const output = h('output', { id: 'st-new-token', class: 'secret' }, created.token);
      replace(secret, h('div', { class: 'card ok' }, h('strong', {}, `Token “${created.record.name}” created.`),
        h('p', {}, 'Copy it now: it is shown only this once (only its hash is stored).'), output));
      form.reset();
      loadTokens();
    } catch (e) { handle(e); }
  });

  function revokeButton(t) {
    const button = h('button', { type: 'button', class: 'secondary', 'data-revoke': t.name, 'aria-label': `Revoke ${t.name}` }, 'Revoke');
    let armed = null;
    button.addEventListener('click', async () => {
      if (!armed) {
        button.textContent = 'Confirm revoke';
        armed = setTimeout(() => { armed = null; button.textContent = 'Revoke'; }, 5000);
        return;
      }
      clearTimeout(armed);
      try {
        await api(`tokens/${encodeURIComponent(t.name)}/revoke`, { method: 'POST' });
        loadTokens();
      } catch (e) { handle(e); }
    });
    return button;
  }

  let loads = 0;
  async function loadTokens() {
    const load = ++loads;
    try {
      const list = await api('tokens');
      if (!alive || load !== loads) return;
      replace(tokens, table('Tokens', ['Name', 'Role', 'Scenarios', 'Models', 'Limits', 'Created', 'Last used', 'Status', ''],
        list.data.map((t) => [t.name, t.admin ? (t.chat ? 'admin + chat' : 'admin') : 'chat', t.scenarios.join(', ') || 'all',
          t.models.join(', ') || 'all', limitsText(t.limits), t.created_at.slice(0, 16).replace('T', ' '),
          t.last_used_at ? t.last_used_at.slice(0, 16).replace('T', ' ') : 'never',
          h('span', { class: `badge ${t.status === 'active' ? 'ok' : 'failed'}`, 'data-status': t.name }, t.status),
          t.status === 'active' ? revokeButton(t) : '']),
        { id: 'st-token-table' }));
    } catch (e) { handle(e); }
  }

  async function loadCatalog() {
    try {
      const [providers, loaded, cooldowns] = await Promise.all([api('providers'), api('scenarios'), api('cooldowns')]);
      if (!alive) return;
      replace(catalog,
        table('Providers', ['Provider', 'Wire format', 'Enabled', 'Key', 'Chat models'],
          providers.data.map((p) => [p.name, p.wire_format, p.enabled ? 'yes' : 'no',
            h('span', { class: `badge ${p.key_set ? 'ok' : 'failed'}` }, !p.key_needed ? 'none needed' : p.key_set ? `set (${p.key_name})` : `not set (${p.key_name ?? '?'})`),
            p.models.map((m) => m.id.split('/')[1]).join(', ')])),
        table('Scenarios', ['Scenario', 'Description', 'Skill packs', 'Default model', 'Allowed models', 'Max visible skills'],
          loaded.scenarios.map((s) => [s.default ? `${s.name} (default)` : s.name, s.description ?? '', s.skill_packs.join(', ') || 'none',
            s.default_model, s.allowed_models.join(', ') || 'all', s.max_visible_skills ?? 'no cap'])),
        table('Skill packs', ['Pack', 'Skills', 'Pinned'], loaded.skill_packs.map((p) => [p.name, p.skills.join(', '), p.pinned.join(', ') || 'none'])),
        table('Server skills', ['Skill', 'Description', 'Needs confirmation'],
          loaded.server_skills.map((k) => [k.name, k.description, k.requires_confirmation ? 'yes' : 'no'])),
        rankingTable(loaded.skill_ranking),
        table('Model health', ['Model', 'Failures in a row', 'Cooling down', 'In flight'],
          cooldowns.data.map((c) => [c.model, String(c.consecutive_failures),
            c.cooling_down ? `yes, ${Math.ceil(c.cooldown_remaining_ms / 1000)} s left`
              : c.cooling_down_for_tokens ? `for ${c.cooling_down_for_tokens} token${c.cooling_down_for_tokens === 1 ? '' : 's'} only` : 'no',
            String(c.in_flight)])));
    } catch (e) { handle(e); }
  }

  // How skills are ranked when a scenario cuts, and how the cuts since start were ranked.
  function rankingTable(r) {
    const ranking = r.ranking === 'hybrid' ? `hybrid: BM25 + ${r.embedding_model} (${r.embedding_timeout_ms} ms)` : 'lexical';
    const without = r.word_vectors ? 'BM25 + built-in word vectors' : 'BM25';
    const selector = r.selector ? `${r.selector.model}, top ${r.selector.candidates} (${r.selector.timeout_ms} ms)` : 'none';
    const cuts = `hybrid ${r.cuts.hybrid}, lexical ${r.cuts.lexical}, fallback ${r.cuts.lexical_fallback}`;
    const calls = r.selector ? `chose ${r.selector_calls.chose}, failed ${r.selector_calls.failed}` : '—';
    return table('Skill ranking', ['Ranking', 'Without the model', 'Selector', 'Cuts since start', 'Selector calls'],
      [[ranking, without, selector, cuts, calls]], { id: 'st-ranking' });
  }

  loadTokens();
  loadCatalog();
  return { leave() { alive = false; } };
}
