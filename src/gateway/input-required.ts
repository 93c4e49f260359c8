import { randomBytes } from 'node:crypto';
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
      this.answer({});
      this.abort.abort('the client did not answer in time');
    }, PARK_MS);
    this.timer.unref();
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.release();
  }
}

/**
 * Parked calls. The `requestState` a client carries back is sealed (HMAC, see state/seal.ts) over the call's
 * id, its method and the identity that made it, with an expiry: any instance with the key can tell that we
 * issued it, for whom, and that it is still good — a client cannot forge one, guess another's, or use
 * someone else's. The live upstream call it resumes is here, in the process that holds the connection.
 */
export class ParkedCalls {
  private readonly byId = new Map<string, ParkedCall>();

  constructor(
    private readonly key: Buffer,
    /** This replica: a requestState names where its call is parked, so another replica can pass the retry on. */
    private readonly replica: string,
  ) {}

  park(call: ParkedCall, agent: string): string {
    const id = randomBytes(16).toString('base64url');
    this.byId.set(id, call);
    call.expireAfter(() => this.byId.delete(id));
    return seal({ id, method: call.method, agent, replica: this.replica }, this.key, PARK_MS);
  }

  /**
   * Where the call a requestState resumes is parked: 'here', or the id of the replica that holds it. Throws
   * for a state we did not seal, an expired one, or one made for another method or identity.
   */
  locate(state: string, method: string, agent: string): 'here' | string {
    const payload = unseal(state, this.key);
    if (!payload || typeof payload.id !== 'string' || payload.method !== method || payload.agent !== agent) throw unknownState();
    return typeof payload.replica === 'string' && payload.replica !== this.replica ? payload.replica : 'here';
  }

  /** Takes a parked call back out; each requestState is good for exactly one retry, by the identity it was issued to. */
  take(state: string, method: string, agent: string): ParkedCall {
    this.locate(state, method, agent);
    const id = unseal(state, this.key)!.id as string;
    const call = this.byId.get(id);
    if (!call || call.method !== method) throw unknownState();
    this.byId.delete(id);
    return call;
  }
}

const unknownState = () => new RpcError(ErrorCode.InvalidParams, 'Unknown or expired requestState');
