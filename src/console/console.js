// The sluice console: plain ES modules, no framework, no build. Everything shown comes from the admin API (the
// same JSON the CLI uses). This module signs in and out and starts the views; each view is a module of its own.
import { tickCountdowns } from './approvals.js';
import './audit.js';
import './definitions.js';
import { drawCharts } from './charts.js';
import { $, api, AuthError, session } from './dom.js';
import { connectEvents, disconnectEvents, refresh, refreshAll } from './live.js';
import './status.js';

let timers = [];

function showLogin(message) {
  session.signedIn = false;
  disconnectEvents();
  timers.forEach(clearInterval);
  timers = [];
  $('app-view').hidden = true;
  $('bar-items').hidden = true;
  $('login-view').hidden = false;
  $('login-error').textContent = message ?? '';
  document.title = 'sluice console';
  $('token').focus();
}

function showApp() {
  session.signedIn = true;
  $('login-view').hidden = true;
  $('app-view').hidden = false;
  $('bar-items').hidden = false;
  connectEvents();
  refreshAll();
  void drawCharts();
  timers = [
    setInterval(tickCountdowns, 1000),
    setInterval(() => void drawCharts(), 2000),
    // Upstream restarts and session idle times are not pushed as events: look again now and then.
    setInterval(() => refresh.status(), 5000),
  ];
}

session.ended = () => showLogin('Your console session ended. Sign in again.');

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('token'));
  const button = /** @type {HTMLButtonElement} */ ($('login-form').querySelector('button[type=submit]'));
  button.disabled = true;
  $('login-error').textContent = '';
  try {
    const res = await fetch('/admin/login', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: input.value.trim() }) });
    if (res.status === 401) {
      $('login-error').textContent = 'That is not an operator token.';
      input.select();
      return;
    }
    if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error ?? `${res.status} ${res.statusText}`);
    input.value = '';
    showApp();
  } catch (err) {
    $('login-error').textContent = `Could not sign in: ${err.message}`;
  } finally {
    button.disabled = false;
  }
});

$('logout').addEventListener('click', async () => {
  await api('POST', '/admin/logout').catch(() => undefined);
  showLogin('Signed out.');
});

// A console session still open from earlier goes straight in; otherwise, the login form.
api('GET', '/admin/status')
  .then(() => showApp())
  .catch((err) => showLogin(err instanceof AuthError ? undefined : `The gateway did not answer: ${err.message}`));
