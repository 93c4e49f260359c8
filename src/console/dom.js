// Small helpers shared by the console's modules: the DOM, the admin API, notices and formatting. Data only ever
// reaches the page through textContent and attributes, never as HTML.

export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** A DOM element with text and attributes set safely. Children are nodes or strings (as text). */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

export class AuthError extends Error {}
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Whether the page shows the signed-in view, and what to do when a 401 says the console session ended. */
export const session = { signedIn: false, ended: () => {} };

/** Server time minus this browser's time, so countdowns hold even when the clocks disagree. */
let clockSkew = 0;
export const serverNow = () => Date.now() + clockSkew;

/** One call to the admin API (the cookie carries the operator's authority). */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  const serverDate = Date.parse(res.headers.get('date') ?? '');
  if (Number.isFinite(serverDate)) {
    const skew = serverDate - Date.now();
    clockSkew = Math.abs(skew) > 2000 ? skew : 0;
  }
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) {
    if (session.signedIn) session.ended();
    throw new AuthError('signed out');
  }
  if (!res.ok) throw new ApiError(res.status, data.error ?? `${res.status} ${res.statusText}`);
  return data;
}

export function notify(text, kind = 'info') {
  const box = $('notices');
  const note = el('div', { class: `notice ${kind}` }, el('span', { text }), el('button', { type: 'button', class: 'quiet', 'aria-label': 'Dismiss' }, '×'));
  note.querySelector('button').addEventListener('click', () => note.remove());
  box.append(note);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => note.remove(), kind === 'error' ? 12_000 : 6000);
}

export function reportError(err, what) {
  if (err instanceof AuthError) return;
  notify(`${what}: ${err.message}`, 'error');
}

export function fmtTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const sameDay = d.toDateString() === new Date().toDateString();
  const time = d.toLocaleTimeString([], { hour12: false });
  return sameDay ? time : `${d.toLocaleDateString()} ${time}`;
}

export function fmtDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export const labelClass = (label) => (label === 'trusted/public' ? 'badge ok' : /secret|untrusted/.test(label ?? '') ? 'badge bad' : 'badge warn');

export function outcomeClass(outcome) {
  if (outcome === 'allow' || outcome === 'granted') return 'badge ok';
  if (outcome === 'requested' || outcome === 'approve') return 'badge warn';
  return 'badge bad';
}
