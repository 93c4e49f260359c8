// The gateway's state: the pause switch, upstreams, sessions and agents with their labels (and resetting them).
import { $, api, el, fmtDuration, labelClass, notify, reportError } from './dom.js';
import { coalesce, refresh } from './live.js';

let paused = false;

async function loadStatus() {
  const status = await api('GET', '/admin/status');
  renderPause(status.paused);
  renderUpstreams(status.upstreams ?? [], status.conflicts ?? []);
  renderSessions(status.sessions ?? [], status.identities ?? {});
}

function renderPause(value) {
  paused = value === true;
  const button = $('pause');
  button.setAttribute('aria-checked', String(paused));
  button.classList.toggle('on', paused);
  $('pause-state').hidden = !paused;
  button.title = paused ? 'Every tool call is refused. Click to resume.' : 'Click to pause: every tool call will be refused until you resume.';
  document.body.classList.toggle('is-paused', paused);
}

$('pause').addEventListener('click', async () => {
  const button = /** @type {HTMLButtonElement} */ ($('pause'));
  button.disabled = true;
  try {
    const result = await api('POST', paused ? '/admin/resume' : '/admin/pause');
    renderPause(result.paused);
    notify(result.paused ? 'Paused: every tool call is refused until you resume.' : 'Resumed: tool calls go through again.', result.paused ? 'warn' : 'ok');
  } catch (err) {
    reportError(err, paused ? 'Resuming' : 'Pausing');
  } finally {
    button.disabled = false;
    refresh.status();
  }
});

function renderUpstreams(upstreams, conflicts) {
  const body = $('upstreams-body');
  body.replaceChildren(
    ...upstreams.map((u) => {
      const perSession = u.mode === 'per-session';
      const state = perSession ? 'per-session' : u.state;
      const stateClass = perSession ? 'badge neutral' : u.state === 'ready' ? 'badge ok' : u.state === 'connecting' ? 'badge warn' : 'badge bad';
      const why = u.lastError ?? u.reason;
      const error = why ? `${why}${u.retryInMs !== undefined ? ` (retry in ${fmtDuration(u.retryInMs / 1000)})` : ''}` : '';
      return el(
        'tr',
        {},
        el('th', { scope: 'row', text: u.name }),
        el('td', {}, el('span', { class: stateClass, text: state })),
        el('td', { class: 'num', text: perSession ? `${u.sessions} running` : u.heldBack ? `${u.tools} · ${u.heldBack} definition${u.heldBack === 1 ? "" : "s"} held back` : u.tools, title: perSession ? undefined : `${u.resources ?? 0} resources, ${u.prompts ?? 0} prompts${u.heldBack ? `; ${u.heldBack} definitions held back (see Quarantined definitions)` : ''}` }),
        el('td', { text: `${u.transport ?? ''}${u.protocolVersion ? ` · ${u.protocolVersion}` : ''}` }),
        el('td', { class: 'error-text', text: error, title: error || undefined }),
      );
    }),
  );
  const ready = upstreams.filter((u) => u.state === 'ready').length;
  const shared = upstreams.filter((u) => u.mode !== 'per-session').length;
  $('upstreams-summary').textContent = shared ? `${ready} of ${shared} ready` : '';
  $('conflicts').hidden = conflicts.length === 0;
  $('conflicts').textContent = conflicts.length ? `Name clashes (not offered): ${conflicts.join('; ')}` : '';
}

function resetButton(text, ariaLabel, target, confirmText) {
  const button = el('button', { type: 'button', class: 'small', 'aria-label': ariaLabel }, text);
  button.addEventListener('click', async () => {
    if (!window.confirm(confirmText)) return;
    button.disabled = true;
    try {
      const { reset } = await api('POST', '/admin/sessions/reset', target);
      notify(`Label reset to trusted/public${reset.length ? ` (${reset.length} session${reset.length === 1 ? '' : 's'})` : ''}.`, 'ok');
    } catch (err) {
      reportError(err, 'Resetting the label');
    } finally {
      button.disabled = false;
      refresh.status();
    }
  });
  return button;
}

function renderSessions(sessions, identities) {
  const sorted = [...sessions].sort((a, b) => a.agent.localeCompare(b.agent) || a.idleSeconds - b.idleSeconds);
  $('sessions-body').replaceChildren(
    ...sorted.map((s) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row', text: s.agent }),
        el('td', {}, el('code', { text: s.id.slice(0, 8), title: s.id })),
        el('td', { text: `${s.transport}${s.protocolVersion ? ` · ${s.protocolVersion}` : ''}` }),
        el('td', {}, el('span', { class: labelClass(s.label), text: s.label })),
        el('td', { class: 'num', text: fmtDuration(s.idleSeconds) }),
        el('td', {}, resetButton('Reset label', `Reset the label of ${s.agent}'s session ${s.id.slice(0, 8)}`, { session: s.id }, `Lower the label of ${s.agent}'s session ${s.id.slice(0, 8)} (now ${s.label}) to trusted/public? Data it has seen will no longer restrict what it may write.`)),
      ),
    ),
  );
  $('sessions-empty').hidden = sessions.length > 0;

  const agents = Object.entries(identities).sort(([a], [b]) => a.localeCompare(b));
  $('agents-body').replaceChildren(
    ...agents.map(([agent, label]) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row', text: agent }),
        el('td', {}, el('span', { class: labelClass(label), text: label })),
        el('td', {}, resetButton('Reset agent', `Reset the label of ${agent} and all its sessions`, { agent }, `Lower the label of ${agent} (now ${label}) and of all its sessions to trusted/public?`)),
      ),
    ),
  );
  $('agents-empty').hidden = agents.length > 0;

  const names = new Set([...sessions.map((s) => s.agent), ...Object.keys(identities)]);
  $('agent-names').replaceChildren(...[...names].sort().map((n) => el('option', { value: n })));
}

refresh.status = coalesce(() => loadStatus().catch((e) => reportError(e, 'Loading status')), 500);
