// The console's shell: log in with an admin token, then one page at a time by the URL's hash.
import { api, session, ApiError } from './api.js';
import { replace } from './dom.js';
import { playground } from './playground.js';
import { traffic } from './traffic.js';
import { usage } from './usage.js';
import { setup } from './setup.js';

const pages = { playground, traffic, usage, setup };
const $ = (id) => document.getElementById(id);
let current = null;

function showLogin(message = '') {
  session.token = null;
  current?.leave?.();
  current = null;
  $('nav').hidden = true;
  $('who').hidden = true;
  $('login').hidden = false;
  replace($('page'));
  $('login-error').textContent = message;
}

async function logIn(token) {
  session.token = token;
  try {
    const me = await api('whoami');
    $('login').hidden = true;
    $('login-error').textContent = '';
    $('nav').hidden = false;
    $('who').hidden = false;
    $('who-name').textContent = `${me.name}${me.chat ? '' : ' (admin only: no playground)'}`;
    route();
  } catch (error) {
    const message = error instanceof ApiError && error.status === 403
      ? `Refused: ${error.message}`
      : error instanceof ApiError && error.status === 401 ? `Refused: ${error.message}` : `Cannot reach the gateway: ${error.message}`;
    showLogin(message);
  }
}

function route() {
  if ($('nav').hidden) return;
  const name = (location.hash || '#playground').slice(1);
  const page = pages[name] || playground;
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.page === (pages[name] ? name : 'playground')) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  current?.leave?.();
  const root = $('page');
  replace(root);
  current = page(root, { onUnauthorized: (error) => showLogin(`Refused: ${error.message}`) });
  document.title = `SkillGate – ${name[0].toUpperCase()}${name.slice(1)}`;
}

$('login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('login-token').value.trim();
  $('login-token').value = '';
  if (token) logIn(token);
});
$('logout').addEventListener('click', () => showLogin('Logged out.'));
window.addEventListener('hashchange', route);
if (session.token) logIn(session.token); else showLogin();
