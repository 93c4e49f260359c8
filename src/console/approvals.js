// Pending approvals: one card per waiting call, kept across refreshes, with Approve / Deny and the grant scope.
import { $, api, ApiError, el, fmtDuration, labelClass, notify, reportError, serverNow } from './dom.js';
import { coalesce, refresh } from './live.js';

/** Cards by request id; kept across refreshes so a half-made choice (scope, note) is not wiped. */
const cards = new Map();
/** Requests this console saw decided: a list fetched a moment earlier must not bring their cards back. */
const settled = new Set();

async function loadApprovals() {
  const { pending } = await api('GET', '/admin/approvals');
  const ids = new Set(pending.map((p) => p.id));
  for (const id of settled) if (!ids.has(id)) settled.delete(id);
  for (const [id, card] of cards) if (!ids.has(id)) removeCard(id, card);
  const list = $('approvals-list');
  for (const p of [...pending].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt))) {
    if (!cards.has(p.id) && !settled.has(p.id)) {
      const card = buildCard(p);
      cards.set(p.id, card);
      list.append(card.node);
    }
  }
  showCount();
  tickCountdowns();
}

function showCount() {
  const n = cards.size;
  $('approvals-count').textContent = String(n);
  $('approvals-count').className = n ? 'count waiting' : 'count';
  $('approvals-empty').hidden = n > 0;
  document.title = n ? `(${n}) sluice console` : 'sluice console';
}

function removeCard(id, card) {
  if (!cards.has(id)) return;
  const hadFocus = card.node.contains(document.activeElement);
  card.node.remove();
  cards.delete(id);
  showCount();
  if (hadFocus) {
    const next = $('approvals-list').querySelector('button.approve');
    (next ?? $('approvals-title')).focus();
  }
}

function buildCard(p) {
  const tpl = /** @type {HTMLTemplateElement} */ ($('approval-card'));
  const node = /** @type {HTMLElement} */ (tpl.content.firstElementChild.cloneNode(true));
  const q = (sel) => node.querySelector(sel);
  node.dataset.id = p.id;
  node.setAttribute('aria-label', `Approval for ${p.tool} by ${p.agent}`);
  q('.tool').textContent = p.tool;
  q('.agent').textContent = p.agent;
  q('.session').textContent = p.session;
  q('.session').title = p.session;
  q('.label').append(el('span', { class: labelClass(p.label), text: p.label }));
  q('.reason').textContent = [p.step, p.reason].filter(Boolean).join(': ');
  // The gateway's text: every argument, whole, the tool's required ones first, invisible characters escaped.
  q('.args').textContent = p.argumentsText;
  q('.args').setAttribute('aria-label', `Arguments of ${p.tool}`);

  const scope = q('.scope');
  const lasts = q('.lasts');
  const pin = q('.pin');
  // A standing grant is the only thing these shape; for a single call they mean nothing.
  scope.addEventListener('change', () => {
    const standing = scope.value !== 'once';
    lasts.disabled = !standing;
    pin.disabled = !standing;
  });
  q('.approve').setAttribute('aria-label', `Approve ${p.tool} for ${p.agent}`);
  q('.deny').setAttribute('aria-label', `Deny ${p.tool} for ${p.agent}`);
  const card = { node, pending: p, busy: false };
  q('.approve').addEventListener('click', () => decide(card, 'approve'));
  q('.deny').addEventListener('click', () => decide(card, 'deny'));
  return card;
}

const SCOPE_TEXT = { once: 'this call', session: 'this session', always: 'always' };

async function decide(card, decision) {
  if (card.busy) return;
  const q = (sel) => card.node.querySelector(sel);
  const scope = decision === 'approve' ? q('.scope').value : 'once';
  const standing = scope !== 'once';
  const body = { id: card.pending.id, decision, scope };
  if (standing && q('.pin').checked) body.pinArguments = true;
  // "until restart": the grant dies with the gateway process; "no time limit" (empty) is a grant for good.
  const lasts = q('.lasts').value;
  if (standing && lasts === 'restart') body.untilRestart = true;
  else if (standing && lasts) body.expiresInSeconds = Number(lasts);
  if (q('.why').value.trim()) body.reason = q('.why').value.trim();
  const until = body.untilRestart ? 'until the gateway restarts' : body.expiresInSeconds ? `for ${fmtDuration(body.expiresInSeconds)}` : 'from now on, with no time limit';
  if (scope === 'always' && !window.confirm(`Let ${card.pending.agent} call ${card.pending.tool} ${until} without asking${body.pinArguments ? ', with exactly these arguments' : ''}?`)) return;
  card.busy = true;
  card.node.querySelectorAll('button, select, input').forEach((c) => (c.disabled = true));
  q('.card-message').textContent = decision === 'approve' ? 'Approving…' : 'Denying…';
  try {
    await api('POST', '/admin/approvals/decide', body);
    settled.add(card.pending.id);
    notify(decision === 'approve' ? `Approved ${card.pending.tool} for ${card.pending.agent} (${SCOPE_TEXT[scope]}).` : `Denied ${card.pending.tool} for ${card.pending.agent}.`, 'ok');
    removeCard(card.pending.id, card);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      // Someone else (the CLI, another console, the client's user) decided first, or it expired.
      settled.add(card.pending.id);
      notify(`${card.pending.tool} for ${card.pending.agent} was already decided or has expired.`, 'warn');
      removeCard(card.pending.id, card);
    } else {
      reportError(err, 'Deciding');
      card.busy = false;
      card.node.querySelectorAll('button, select.scope, input.why').forEach((c) => (c.disabled = false));
      q('.scope').dispatchEvent(new Event('change'));
      q('.card-message').textContent = '';
    }
  } finally {
    refresh.approvals();
  }
}

export function tickCountdowns() {
  const now = serverNow();
  for (const card of cards.values()) {
    const left = (Date.parse(card.pending.expiresAt) - now) / 1000;
    const badge = card.node.querySelector('.expiry');
    badge.textContent = left > 0 ? `expires in ${fmtDuration(left)}` : 'expired';
    badge.className = `expiry badge ${left > 30 ? 'neutral' : left > 0 ? 'warn' : 'bad'}`;
    if (left <= 0 && !card.busy) card.node.querySelectorAll('button').forEach((b) => (b.disabled = true));
  }
}

refresh.approvals = coalesce(() => loadApprovals().catch((e) => reportError(e, 'Loading approvals')), 100);
