// Playground: chat over /v1/agent and watch each step arrive — route and why, skills shown and cut, skill cards,
// the answer streaming in (drawn once per animation frame), usage and cost. Everything the model or a skill wrote is
// set as text, never parsed as markup.
import { api, agent, readEvents, ApiError } from './api.js';
import { h, replace, usd, count, pretty } from './dom.js';

/** `tier=light; by=score; score=0.12` → [['tier','light'], ...]. */
function pairs(header) {
  return (header || '').split(';').map((part) => part.trim()).filter(Boolean).map((part) => {
    const eq = part.indexOf('=');
    return eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
  });
}

function chips(label, header) {
  return h('dl', { class: 'chips', 'aria-label': label },
    pairs(header).map(([key, value]) => h('div', {}, h('dt', {}, key), h('dd', {}, value || '✓'))));
}

export function playground(root, { onUnauthorized }) {
  const history = [];
  let controller = null;

  const scenario = h('select', { id: 'pg-scenario', name: 'scenario' });
  const model = h('select', { id: 'pg-model', name: 'model' }, h('option', { value: 'auto' }, 'auto'));
  const input = h('textarea', { id: 'pg-input', name: 'message', rows: '3', required: true,
    placeholder: 'Ask something that needs a skill: What is 17*23? What time is it in Tokyo?' });
  const send = h('button', { type: 'submit', id: 'pg-send' }, 'Send');
  const stop = h('button', { type: 'button', id: 'pg-stop', class: 'secondary', disabled: true }, 'Stop');
  const clear = h('button', { type: 'button', id: 'pg-clear', class: 'link' }, 'New conversation');
  const transcript = h('div', { id: 'pg-transcript', class: 'transcript', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const form = h('form', { id: 'pg-form', class: 'composer' },
    h('div', { class: 'row' },
      h('label', { for: 'pg-scenario' }, 'Scenario'), scenario,
      h('label', { for: 'pg-model' }, 'Model'), model),
    h('label', { for: 'pg-input' }, 'Message'), input,
    h('div', { class: 'row' }, send, stop, clear));

  replace(root, h('h2', {}, 'Playground'), form, transcript);

  api('scenarios').then((loaded) => {
    for (const s of loaded.scenarios) {
      scenario.append(h('option', { value: s.name, selected: s.default }, s.description ? `${s.name} — ${s.description}` : s.name));
    }
    for (const m of loaded.models.filter((name) => name !== 'auto')) model.append(h('option', { value: m }, m));
    return api('providers');
  }).then((providers) => {
    for (const p of providers.data.filter((p) => p.enabled && p.key_set)) {
      for (const m of p.models) model.append(h('option', { value: m.id }, m.id));
    }
  }).catch((error) => {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) onUnauthorized(error);
    else transcript.append(h('p', { class: 'error', role: 'alert' }, `Could not load scenarios: ${error.message}`));
  });

  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });
  stop.addEventListener('click', () => controller?.abort());
  clear.addEventListener('click', () => { history.length = 0; replace(transcript); input.focus(); });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || controller) return;
    input.value = '';
    run(text);
  });

  async function run(text) {
    controller = new AbortController();
    send.disabled = true;
    stop.disabled = false;
    const steps = h('div', { class: 'steps' });
    const answerText = document.createTextNode('');
    const answer = h('div', { class: 'answer', 'data-testid': 'answer' }, answerText);
    const footer = h('p', { class: 'usage muted' });
    const turn = h('article', { class: 'turn', 'aria-busy': 'true' },
      h('p', { class: 'user' }, h('span', { class: 'sr-only' }, 'You: '), text), steps, answer, footer);
    transcript.append(turn);
    turn.scrollIntoView({ block: 'end' });

    const cards = new Map();
    let pending = '';
    let frame = 0;
    let full = '';
    let completed = false;
    const flush = () => { frame = 0; answerText.data += pending; pending = ''; };
    const fail = (title, message) => steps.append(h('div', { class: 'card failed', role: 'alert' }, h('strong', {}, title), h('p', {}, message)));

    history.push({ role: 'user', content: text });
    try {
      const response = await agent({ messages: history.slice(), model: model.value, scenario: scenario.value }, controller.signal);
      const skills = response.headers.get('x-skillgate-skills');
      if (skills) steps.append(h('div', { class: 'step' }, h('span', { class: 'label' }, 'Skills'), chips('Skills shown and cut', skills)));
      await readEvents(response, (name, data) => {
        switch (name) {
          case 'run.started':
            steps.append(h('p', { class: 'muted small' }, `Run ${data.run_id} · scenario ${data.scenario} · model ${data.model}`));
            break;
          case 'route.selected':
            steps.append(h('div', { class: 'step route' },
              h('span', { class: 'label' }, `Call ${data.iteration} → ${data.model}`), chips('Why this model', data.route)));
            break;
          case 'skill.started': {
            const status = h('span', { class: 'badge running' }, 'running');
            const result = h('div', { class: 'result' });
            const card = h('div', { class: 'card skill', 'data-skill': data.skill },
              h('div', { class: 'card-head' }, h('strong', {}, data.skill), status),
              h('details', { open: true }, h('summary', {}, 'Arguments'), h('pre', {}, pretty(data.arguments))), result);
            cards.set(data.call_id, { card, status, result });
            steps.append(card);
            break;
          }
          case 'skill.finished': {
            const entry = cards.get(data.call_id);
            if (!entry) break;
            entry.card.classList.add(data.ok ? 'ok' : 'failed');
            entry.status.className = `badge ${data.ok ? 'ok' : 'failed'}`;
            entry.status.textContent = `${data.ok ? 'ok' : 'failed'} · ${data.duration_ms} ms`;
            entry.result.append(h('p', { class: 'summary' }, data.summary));
            if (data.payload !== undefined && data.payload !== null) {
              entry.result.append(h('details', {}, h('summary', {}, 'Result'), h('pre', {}, pretty(data.payload))));
            }
            break;
          }
          case 'text.delta':
            pending += data.text;
            full += data.text;
            if (!frame) frame = requestAnimationFrame(flush);
            break;
          case 'tool.call':
            steps.append(h('div', { class: 'card' }, h('div', { class: 'card-head' }, h('strong', {}, data.name), h('span', { class: 'badge' }, 'client tool')),
              h('p', { class: 'muted' }, data.requires_confirmation ? 'Needs a person’s confirmation; the playground does not run client tools.' : 'A client tool; the playground does not run client tools.'),
              h('pre', {}, pretty(data.arguments))));
            break;
          case 'run.completed':
            completed = true;
            footer.textContent = `${count(data.usage.input_tokens)} in · ${count(data.usage.output_tokens)} out tokens · ${usd(data.cost_usd)} · `
              + `${data.iterations} model call${data.iterations === 1 ? '' : 's'} · ${data.finish_reason}${data.message ? ` — ${data.message}` : ''}`;
            break;
          case 'run.failed':
            fail('The run failed', data.error?.message || 'unknown error');
            break;
          default:
            break;
        }
      });
      if (!completed && !turn.querySelector('.failed[role=alert]')) fail('The run ended early', 'The stream closed before run.completed; the gateway may have restarted. Send the message again.');
    } catch (error) {
      if (error.name === 'AbortError') steps.append(h('p', { class: 'muted', role: 'status' }, 'Stopped.'));
      else fail(error instanceof ApiError ? `Refused (${error.status})` : 'Request failed', error.message);
    } finally {
      if (frame) cancelAnimationFrame(frame);
      flush();
      if (completed && full) history.push({ role: 'assistant', content: full });
      else history.pop();
      turn.setAttribute('aria-busy', 'false');
      controller = null;
      send.disabled = false;
      stop.disabled = true;
      input.focus();
    }
  }

  return { leave() { controller?.abort(); } };
}
