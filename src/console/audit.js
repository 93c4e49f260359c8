// The audit log: a filterable table of the newest records, and the chain's verification badge.
import { $, api, ApiError, el, fmtTime, notify, outcomeClass, reportError } from './dom.js';
import { coalesce, refresh } from './live.js';

let brokenAt;
/** How long the last verification took, which sets how often the console verifies again. */
let verifyMs = 0;

function auditQuery() {
  const form = /** @type {HTMLFormElement} */ ($('audit-filters'));
  const data = new FormData(form);
  const params = new URLSearchParams();
  for (const key of ['agent', 'tool', 'outcome']) {
    const value = String(data.get(key) ?? '').trim();
    if (value) params.set(key, value);
  }
  const since = String(data.get('since') ?? '');
  if (since) {
    const d = new Date(since); // datetime-local is local time; the log holds UTC
    if (!Number.isNaN(d.getTime())) params.set('since', d.toISOString());
  }
  params.set('limit', '200');
  return params;
}

async function loadAudit() {
  let records;
  try {
    ({ records } = await api('GET', `/admin/audit?${auditQuery()}`));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      $('audit-body').replaceChildren();
      $('audit-summary').textContent = 'The audit log is off in this gateway’s config.';
      return;
    }
    throw err;
  }
  // Keep open detail panels open across refreshes.
  const open = new Set([...$('audit-body').querySelectorAll('details[open]')].map((d) => d.dataset.seq));
  $('audit-body').replaceChildren(...records.map((r) => auditRow(r, open.has(String(r.seq)))));
  $('audit-empty').hidden = records.length > 0;
  $('audit-summary').textContent = `${records.length === 200 ? 'newest 200' : records.length} record${records.length === 1 ? '' : 's'}`;
}

function auditRow(r, open) {
  const why = [r.step, r.rule && `rule ${r.rule}`, r.reason].filter(Boolean).join(' · ');
  const label = r.labelBefore && r.labelAfter ? `${r.labelBefore} → ${r.labelAfter}` : r.labelAfter ? `→ ${r.labelAfter}` : (r.labelBefore ?? '');
  const { seq, time, agent, method, target, outcome, step, rule, reason, labelBefore, labelAfter, ...rest } = r;
  const details = el('details', { 'data-seq': seq, open }, el('summary', { text: 'more', 'aria-label': `Details of record ${seq}` }), el('pre', { text: JSON.stringify(rest, null, 2) }));
  return el(
    'tr',
    { class: seq === brokenAt ? 'broken' : undefined, 'data-seq': seq, 'data-outcome': outcome },
    el('td', { class: 'num', text: seq }),
    el('td', { text: fmtTime(time), title: time }),
    el('td', { text: agent }),
    el('td', { text: method }),
    el('td', { class: 'target', text: target, title: target }),
    el('td', {}, el('span', { class: outcomeClass(outcome), text: outcome })),
    el('td', { class: 'why', text: why, title: why || undefined }),
    el('td', { class: 'label-change', text: label }),
    el('td', {}, details),
  );
}

$('audit-filters').addEventListener('submit', (event) => {
  event.preventDefault();
  refresh.audit.now();
});
$('audit-filters').addEventListener('change', (event) => {
  if (event.target instanceof HTMLSelectElement) refresh.audit();
});
// The form's fields are cleared only after the reset event has run.
$('audit-filters').addEventListener('reset', () => setTimeout(() => refresh.audit(), 0));
// The button asks for a full pass; the live refreshes check only what is new since the last one.
let fullPass = false;
$('verify').addEventListener('click', () => {
  fullPass = true;
  refresh.verify.now();
});

async function verifyChain() {
  const full = fullPass;
  fullPass = false;
  const badge = $('chain');
  let v;
  const started = performance.now();
  try {
    v = await api('GET', full ? '/admin/audit/verify?full=1' : '/admin/audit/verify');
    verifyMs = performance.now() - started;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      badge.textContent = 'audit off';
      badge.className = 'badge neutral';
      return;
    }
    throw err;
  }
  const before = brokenAt;
  if (v.ok) {
    brokenAt = undefined;
    badge.textContent = `chain verified · ${v.checked} record${v.checked === 1 ? '' : 's'}`;
    badge.className = 'badge ok';
    badge.title = `Every record's hash and link checked${v.anchorSeq ? ` (from record ${v.anchorSeq + 1}, after pruning)` : ''}, at ${fmtTime(new Date().toISOString())}.`;
  } else {
    brokenAt = v.brokenAt;
    badge.textContent = `chain broken at record ${v.brokenAt}`;
    badge.className = 'badge bad';
    badge.title = v.reason;
    if (before !== v.brokenAt) notify(`The audit chain is broken at record ${v.brokenAt}: ${v.reason}`, 'error');
  }
  if (before !== brokenAt) refresh.audit();
}

refresh.audit = coalesce(() => loadAudit().catch((e) => reportError(e, 'Loading the audit log')), 400);
// Even incremental verification runs inside the gateway: the longer it takes, the less often we ask.
refresh.verify = coalesce(() => verifyChain().catch((e) => reportError(e, 'Verifying the chain')), () => Math.min(120_000, Math.max(1000, verifyMs * 50)));
