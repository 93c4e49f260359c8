import { randomBytes } from 'node:crypto';
import type { Logger } from '../log.js';
import { toWire } from '../protocol/errors.js';
import { ErrorCode, RpcError, type Params } from '../protocol/jsonrpc.js';
import type { Bus, ParkedMessage } from '../state/ports.js';
import type { ParkedBinding, ParkedCalls } from './input-required.js';

/** How long the replica holding a parked call has to say it took the retry: longer means it is gone. */
const ACCEPT_MS = 3000;

export type ParkedOutcome = { result: Params } | { questions: Params; requestState: string };

interface Waiting {
  accepted: boolean;
  resolve(outcome: ParkedOutcome): void;
  reject(err: Error): void;
}

/**
 * A stateless client's retry that lands on another replica than the one holding its parked call (no
 * stickiness) is passed there over the bus: the holder delivers the answers and sends back what the upstream
 * did next — its result, or new questions under a new requestState. The retry's own replica still runs
 * every check on the result, as for any call. A holder that does not take the retry within ACCEPT_MS has
 * died, and its upstream call with it: the client is told to start again.
 */
export class ParkedRelay {
  private readonly waiting = new Map<string, Waiting>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly parked: ParkedCalls,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {
    this.unsubscribe = bus.subscribe('parked', (m) => {
      if (m.to !== bus.replicaId) return;
      if (m.kind === 'resume') void this.serve(m);
      else this.answer(m);
    });
  }

  stop(): void {
    this.unsubscribe();
    for (const w of this.waiting.values()) w.reject(new RpcError(ErrorCode.InternalError, 'the gateway is stopping'));
    this.waiting.clear();
  }

  /** Resumes on `replica` the call `requestState` names, with the client's answers. */
  resume(replica: string, request: { requestState: string; binding: ParkedBinding; answers: Params }, signal: AbortSignal): Promise<ParkedOutcome> {
    const reply = randomBytes(12).toString('base64url');
    return new Promise<ParkedOutcome>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(reply);
      };
      const timer = setTimeout(() => {
        if (this.waiting.get(reply)?.accepted) return;
        done();
        reject(new RpcError(ErrorCode.InvalidParams, 'the gateway replica holding this call has stopped, and the call with it: start the call again without requestState'));
      }, ACCEPT_MS);
      const onAbort = () => (done(), reject(new RpcError(ErrorCode.RequestCancelled, 'request cancelled')));
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(reply, {
        accepted: false,
        resolve: (o) => (done(), resolve(o)),
        reject: (e) => (done(), reject(e)),
      });
      this.bus
        .publish('parked', { kind: 'resume', to: replica, from: this.bus.replicaId, reply, requestState: request.requestState, ...request.binding, answers: request.answers })
        .catch((err: Error) => this.waiting.get(reply)?.reject(new RpcError(ErrorCode.InternalError, `could not reach the replica holding this call: ${err.message}`)));
    });
  }

  /** The holder's side: take the call, say so, deliver the answers, send back what happens next. */
  private async serve(m: ParkedMessage): Promise<void> {
    const to = m.from;
    const binding = bindingIn(m);
    if (!to || typeof m.requestState !== 'string' || !binding) return;
    const send = (message: Omit<ParkedMessage, 'to' | 'reply'>) =>
      this.bus.publish('parked', { ...message, to, reply: m.reply }).catch((err: Error) => this.log.warn({ err: err.message }, 'could not answer a relayed retry'));
    try {
      const { call, approved } = this.parked.take(m.requestState, binding);
      await send({ kind: 'accepted' });
      const answers = m.answers !== null && typeof m.answers === 'object' && !Array.isArray(m.answers) ? m.answers : {};
      call.answer(answers);
      const outcome = await call.next(new AbortController().signal);
      if ('result' in outcome) await send({ kind: 'outcome', result: outcome.result });
      else await send({ kind: 'outcome', questions: outcome.questions, requestState: this.parked.park(call, binding, approved) });
    } catch (err) {
      await send({ kind: 'outcome', error: toWire(err) });
    }
  }

  private answer(m: ParkedMessage): void {
    const w = this.waiting.get(m.reply);
    if (!w) return;
    if (m.kind === 'accepted') return void (w.accepted = true);
    if (m.error) return w.reject(new RpcError(Number(m.error.code) || ErrorCode.InternalError, String(m.error.message), m.error.data));
    if (m.result && typeof m.result === 'object') return w.resolve({ result: m.result });
    if (m.questions && typeof m.requestState === 'string') return w.resolve({ questions: m.questions, requestState: m.requestState });
    w.reject(new RpcError(ErrorCode.InternalError, 'the replica holding this call sent an outcome sluice cannot read'));
  }
}

/** The binding a relayed retry names, when every part of it is there. */
function bindingIn(m: ParkedMessage): ParkedBinding | undefined {
  const { method, agent, target, digest } = m;
  if (typeof method !== 'string' || typeof agent !== 'string' || typeof target !== 'string' || typeof digest !== 'string') return undefined;
  return { method, agent, target, digest };
}
