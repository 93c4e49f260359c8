// Live updates: the gateway's server-sent events are nudges ("approvals changed"), and each view re-fetches
// its own data from the admin API, at a pace a busy gateway cannot turn into a flood.
import { $, api, AuthError } from './dom.js';

/**
 * Runs `fn` at most once per `gap` ms (a number, or a function giving one), never twice at once, and always
 * once more after the last request.
 */
export function coalesce(fn, gap) {
  let running = false;
  let again = false;
  let last = 0;
  let timer;
  const run = async () => {
    timer = undefined;
    if (running) return void (again = true);
    running = true;
    last = Date.now();
    try {
      await fn();
    } finally {
      running = false;
      if (again) {
        again = false;
        kick();
      }
    }
  };
  const kick = () => {
    if (timer === undefined) timer = setTimeout(run, Math.max(0, last + (typeof gap === 'function' ? gap() : gap) - Date.now()));
  };
  /** For a person's explicit request: no waiting out the gap. */
  kick.now = () => {
    clearTimeout(timer);
    timer = undefined;
    void run();
  };
  return kick;
}

/** Each view registers its refresher here: approvals, status, audit, verify. */
export const refresh = {};
export const refreshAll = () => Object.values(refresh).forEach((kick) => kick());

let events;

export function connectEvents() {
  events?.close();
  const source = new EventSource('/admin/events');
  events = source;
  source.addEventListener('open', () => {
    setLive('live', 'ok');
    refreshAll(); // anything that happened while we were not listening
  });
  source.addEventListener('approvals', () => refresh.approvals());
  source.addEventListener('audit', () => {
    refresh.audit();
    refresh.verify();
  });
  // A rebuilt catalog is a status change: the quarantine queue may have changed with it.
  source.addEventListener('status', () => {
    refresh.status();
    refresh.definitions();
  });
  source.addEventListener('error', () => {
    if (events !== source) return;
    setLive('reconnecting…', 'warn');
    // A refused stream (signed out, gateway restarted) is not retried by the browser: find out why.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => {
        if (events !== source) return;
        api('GET', '/admin/status')
          .then(() => events === source && connectEvents())
          .catch((err) => {
            if (err instanceof AuthError) return;
            setLive('offline', 'bad');
            setTimeout(() => events === source && connectEvents(), 3000);
          });
      }, 1000);
    }
  });
}

export function disconnectEvents() {
  events?.close();
  events = undefined;
}

function setLive(text, kind) {
  const badge = $('live');
  badge.textContent = text;
  badge.className = `badge ${kind}`;
}
