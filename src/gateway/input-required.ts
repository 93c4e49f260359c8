import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';
import { ErrorCode, RpcError, type Params } from '../protocol/jsonrpc.js';
import { seal, unseal } from '../state/seal.js';
import type { CallRecord } from './calls.js';

/** How long a parked call waits for the client to come back with its answers. */
const PARK_MS = 5 * 60_000;

interface Question {
  key: string;
  method: string;
  params: Params | undefined;
  resolve(answer: Params): void;
  reject(err: Error): void;
}

/**
 * A call to a (legacy) upstream that asked its client something — sampling, elicitation, roots — on behalf of a
 * stateless (2026-07-28) client, which cannot receive requests. The upstream keeps waiting; the client gets an
 * `input_required` result with the questions, answers them on a fresh request carrying our `requestState`, and
 * that request picks the call up where it stopped.
 */
export class ParkedCall {
  private questions: Question[] = [];
  private nextKey = 1;
  private wake?: () => void;
  private timer?: NodeJS.Timeout;
  readonly abort = new AbortController();
  readonly result: Promise<Params>;

  constructor(
    readonly method: string,
    readonly record: CallRecord,
    start: (signal: AbortSignal) => Promise<Params>,
    private readonly release: () => void,
  ) {
    record.parked = this;
    this.result = start(this.abort.signal);
    this.result.then(
      () => this.finish(),
      () => this.finish(),
    );
  }

  /** Called on the upstream's behalf: queues a question and waits for the client's answer. */
  ask(method: string, params: Params | undefined): Promise<Params> {
    return new Promise((resolve, reject) => {
      this.questions.push({ key: `input-${this.nextKey++}`, method, params, resolve, reject });
      this.wake?.();
    });
  }

  /** Waits until the upstream either answers the call or asks a question, whichever comes first. */
  async next(signal: AbortSignal): Promise<{ result: Params } | { questions: Params }> {
    clearTimeout(this.timer);
    const onAbort = () => this.abort.abort(signal.reason ?? 'client went away');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const asked = new Promise<'asked'>((resolve) => {
        this.wake = () => resolve('asked');
        if (this.questions.length > 0) resolve('asked');
      });
      const outcome = await Promise.race([this.result, asked]);
      if (outcome !== 'asked') return { result: outcome };
      return { questions: Object.fromEntries(this.questions.map((q) => [q.key, q.params === undefined ? { method: q.method } : { method: q.method, params: q.params }])) };
    } finally {
      this.wake = undefined;
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Delivers the client's answers; a question left unanswered fails on the upstream's side. */
  answer(responses: Params): void {
    const pending = this.questions;
    this.questions = [];
    for (const q of pending) {
      const answer = Object.hasOwn(responses, q.key) ? responses[q.key] : undefined;
      if (answer && typeof answer === 'object' && !Array.isArray(answer)) q.resolve(answer as Params);
      else q.reject(new RpcError(ErrorCode.InvalidRequest, `the client gave no answer to ${q.method}`));
    }
  }

  /** Gives up (the client never came back): the upstream's questions fail and its call is cancelled. */
  expireAfter(onExpire: () => void): void {
    this.timer = setTimeout(() => {
      onExpire();
      this.cancel('the client did not answer in time');
    }, PARK_MS);
    this.timer.unref();
  }

  /** The upstream's questions fail and its call is cancelled. */
  cancel(reason: string): void {
    clearTimeout(this.timer);
    this.answer({});
    this.abort.abort(reason);
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.release();
  }
}

/** What a parked call is bound to: a retry that names anything else resumes nothing. */
export interface ParkedBinding {
  method: string;
  /** The identity that made the call. */
  agent: string;
  /** The tool or prompt name, or the URI, as the client named it. */
  target: string;
  /** A digest of the arguments as they were checked and forwarded (see argumentsDigest). */
  digest: string;
}

/** The digest a parked call's arguments are bound by: SHA-256 over their canonical JSON (key order never matters). */
export function argumentsDigest(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args ?? {})).digest('base64url');
}

/**
 * Parked calls. The `requestState` a client carries back is sealed (HMAC, see state/seal.ts) over the call's
 * id and everything it is bound to — its method, the identity that made it, the tool, prompt or URI and a
 * digest of its arguments — and whether a human approved it, with an expiry: any instance with the key can tell
 * that we issued it, for whom and for which call, and that it is still good. A client cannot forge one, use
 * someone else's, or resume a call under another tool's name or with other arguments. The retry runs the
 * whole pipeline again (with the label the identity has by then); only the approval is not asked twice. The
 * live upstream call it resumes is here, in the process that holds the connection.
 */
export class ParkedCalls {
  private readonly byId = new Map<string, ParkedCall>();

  constructor(
    private readonly key: Buffer,
    /** This replica: a requestState names where its call is parked, so another replica can pass the retry on. */
    private readonly replica: string,
  ) {}

  park(call: ParkedCall, binding: ParkedBinding, approved: boolean): string {
    const id = randomBytes(16).toString('base64url');
    this.byId.set(id, call);
    call.expireAfter(() => this.byId.delete(id));
    return seal({ id, ...bindingOf(binding), approved, replica: this.replica }, this.key, PARK_MS);
  }

  /**
   * Where the call a requestState resumes is parked — 'here', or the id of the replica that holds it — and
   * whether it was approved. Throws for a state we did not seal, an expired one, or one bound to anything else.
   */
  locate(state: string, binding: ParkedBinding): { /** 'here', or the id of the replica holding it. */ where: string; approved: boolean } {
    const payload = unseal(state, this.key);
    const want = bindingOf(binding);
    if (!payload || typeof payload.id !== 'string' || Object.entries(want).some(([k, v]) => payload[k] !== v)) throw unknownState();
    const where = typeof payload.replica === 'string' && payload.replica !== this.replica ? payload.replica : 'here';
    return { where, approved: payload.approved === true };
  }

  /** Takes a parked call back out; each requestState is good for exactly one retry of the call it was issued for. */
  take(state: string, binding: ParkedBinding): { call: ParkedCall; approved: boolean } {
    const { approved } = this.locate(state, binding);
    const id = unseal(state, this.key)!.id as string;
    const call = this.byId.get(id);
    if (!call || call.method !== binding.method) throw unknownState();
    this.byId.delete(id);
    return { call, approved };
  }

  /** Gives up a call whose retry the pipeline refused: its questions fail upstream and the call is cancelled. */
  abandon(state: string, binding: ParkedBinding): void {
    let taken: { call: ParkedCall } | undefined;
    try {
      if (this.locate(state, binding).where === 'here') taken = this.take(state, binding);
    } catch {
      return; // not a state of ours, or not for this call: nothing to give up
    }
    taken?.call.cancel('the retry was refused by sluice');
  }
}

/** Only the binding's own fields, whatever else the object carries. */
function bindingOf(b: ParkedBinding): ParkedBinding {
  return { method: b.method, agent: b.agent, target: b.target, digest: b.digest };
}

const unknownState = () => new RpcError(ErrorCode.InvalidParams, 'Unknown or expired requestState, or one issued for another call (a retry must repeat the same tool, prompt or URI with the same arguments)');
