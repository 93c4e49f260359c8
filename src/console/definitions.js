// The quarantine queue: definitions the gateway holds back (new on a server added later, changed since they
// were trusted, or flagged by the scanner), each with what the scanner found and a diff against the definition
// last trusted, and Approve / Reject. A decision names the exact pin shown, so a definition that changed again
// in the meantime is not approved unseen.
import { $, api, ApiError, el, notify, reportError } from './dom.js';
import { coalesce, refresh } from './live.js';

/** Cards by server, kind, name and pin: a definition that changes again gets a fresh card. */
const cards = new Map();
/** Diffs open by default: a long queue (a whole new server) stays readable and cheap. */
const OPEN_FIRST = 5;

const keyOf = (d) => `${d.server}\u0000${d.kind}\u0000${d.name}\u0000${d.hash}`;

async function loadDefinitions() {
  const { definitions } = await api('GET', '/admin/definitions');
  // What a server no longer offers waits for nobody; it is back in the queue if it returns.
  const waiting = definitions.filter((d) => d.status === 'quarantined' && !d.removedAt);
  const keys = new Set(waiting.map(keyOf));
  for (const [key, card] of cards) if (!keys.has(key)) removeCard(key, card);
  const list = $('definitions-list');
  for (const d of waiting) {
    const key = keyOf(d);
    if (cards.has(key)) continue;
    const card = buildCard(d, cards.size < OPEN_FIRST);
    cards.set(key, card);
    list.append(card.node);
  }
  const rejected = definitions.filter((d) => d.status === 'rejected').length;
  $('definitions-count').textContent = String(cards.size);
  $('definitions-count').className = cards.size ? 'count waiting' : 'count';
  $('definitions-empty').hidden = cards.size > 0;
  $('definitions-summary').textContent = `${definitions.length} pinned${rejected ? `, ${rejected} rejected` : ''}`;
}

function removeCard(key, card) {
  const hadFocus = card.node.contains(document.activeElement);
  card.node.remove();
  cards.delete(key);
  if (hadFocus) ($('definitions-list').querySelector('button.approve') ?? $('definitions-title')).focus();
}

/** Why it waits, in words: what the pin history and the findings say. */
function reasonOf(d) {
  const base = d.trustedHash ? 'changed since it was trusted' : 'new: never trusted';
  const serious = d.findings.filter((f) => f.severity !== 'low');
  return serious.length ? `${base}; flagged by the definition scanner` : base;
}

function buildCard(d, open) {
  const tpl = /** @type {HTMLTemplateElement} */ ($('definition-card'));
  const node = /** @type {HTMLElement} */ (tpl.content.firstElementChild.cloneNode(true));
  const q = (sel) => node.querySelector(sel);
  node.dataset.name = d.shownAs;
  node.setAttribute('aria-label', `Quarantined ${d.kind} ${d.shownAs} of ${d.server}`);
  q('.name').textContent = d.shownAs;
  q('.status').textContent = d.status;
  q('.server').textContent = d.server;
  q('.kind').textContent = d.shownAs === d.name ? d.kind : `${d.kind} (${d.name} on the server)`;
  q('.reason').textContent = reasonOf(d);
  q('.pin').textContent = d.trustedHash ? `${d.hash.slice(0, 16)}… (trusted: ${d.trustedHash.slice(0, 16)}…)` : `${d.hash.slice(0, 16)}…`;
  for (const f of d.findings) {
    q('.findings').append(el('li', {}, el('span', { class: `sev-${f.severity}`, text: `${f.severity} ${f.rule}` }), ` in ${f.where}: ${f.evidence}`));
  }
  const details = /** @type {HTMLDetailsElement} */ (q('.diff-box'));
  const card = { node, definition: d, busy: false, diffLoaded: false };
  details.addEventListener('toggle', () => details.open && void showDiff(card));
  details.open = open;
  q('.approve').setAttribute('aria-label', `Approve ${d.kind} ${d.shownAs}`);
  q('.reject').setAttribute('aria-label', `Reject ${d.kind} ${d.shownAs}`);
  q('.approve').addEventListener('click', () => decide(card, 'approve'));
  q('.reject').addEventListener('click', () => decide(card, 'reject'));
  return card;
}

async function showDiff(card) {
  if (card.diffLoaded) return;
  card.diffLoaded = true;
  const d = card.definition;
  const pre = card.node.querySelector('.diff');
  pre.textContent = 'Loading…';
  try {
    const diff = await api('GET', `/admin/definitions/diff?${new URLSearchParams({ name: d.name, server: d.server, kind: d.kind })}`);
    pre.textContent = '';
    pre.setAttribute('aria-label', `Diff of ${d.shownAs}: removed lines are struck through, lines a finding points at are marked`);
    for (const line of diff.lines) {
      const kind = [line.op === '+' ? 'add' : line.op === '-' ? 'del' : '', line.flagged ? 'flagged' : ''].filter(Boolean).join(' ');
      pre.append(el('span', { class: kind || undefined, 'data-op': line.op, text: `${line.op} ${line.text}` }));
    }
  } catch (err) {
    card.diffLoaded = false;
    pre.textContent = `Could not load the diff: ${err.message}`;
  }
}

async function decide(card, decision) {
  if (card.busy) return;
  const d = card.definition;
  const q = (sel) => card.node.querySelector(sel);
  card.busy = true;
  card.node.querySelectorAll('button').forEach((b) => (b.disabled = true));
  q('.card-message').textContent = decision === 'approve' ? 'Approving…' : 'Rejecting…';
  try {
    await api('POST', '/admin/definitions/decide', { name: d.name, server: d.server, kind: d.kind, hash: d.hash, decision });
    notify(decision === 'approve' ? `Approved ${d.kind} ${d.shownAs}: it is offered again.` : `Rejected ${d.kind} ${d.shownAs}: it stays hidden.`, 'ok');
    removeCard(keyOf(d), card);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) {
      notify(`${d.shownAs} changed again since it was shown; look at it again.`, 'warn');
      removeCard(keyOf(d), card);
    } else {
      reportError(err, 'Deciding');
      card.busy = false;
      card.node.querySelectorAll('button').forEach((b) => (b.disabled = false));
      q('.card-message').textContent = '';
    }
  } finally {
    refresh.definitions();
  }
}

refresh.definitions = coalesce(() => loadDefinitions().catch((e) => reportError(e, 'Loading definitions')), 250);
