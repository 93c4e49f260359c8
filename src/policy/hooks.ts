import { pathToFileURL } from 'node:url';
import type { HookConfig } from '../config/schema.js';
import type { Params } from '../protocol/jsonrpc.js';
import { nameMatcher } from './rules.js';

/** What a hook sees of a call. */
export interface HookCall {
  tool: string;
  agent: string;
  arguments: Params;
  result?: Params;
}

/** What a hook may answer: nothing (carry on), new arguments or result, or a block. */
export interface HookAnswer {
  block?: boolean;
  reason?: string;
  arguments?: Params;
  result?: Params;
}

export type HookFn = (call: HookCall) => HookAnswer | void | Promise<HookAnswer | void>;

interface LoadedHook {
  config: HookConfig;
  applies: (tool: string) => boolean;
  fn?: HookFn;
  loadError?: string;
}

export type HookOutcome = { ok: true; arguments: Params; result?: Params } | { ok: false; reason: string; rule: string };

/**
 * Operator-written JavaScript modules that look at calls before and after they run. They fail closed: a hook
 * that throws, times out or cannot be loaded blocks the call, and its error text stays in the gateway's log,
 * never reaching the client (it could hold internals).
 */
export class Hooks {
  private readonly hooks: LoadedHook[];

  constructor(configs: HookConfig[], private readonly onError: (hook: string, error: string) => void) {
    this.hooks = configs.map((config) => ({ config, applies: config.tools ? nameMatcher(config.tools) : () => true }));
  }

  get empty(): boolean {
    return this.hooks.length === 0;
  }

  async load(): Promise<void> {
    for (const h of this.hooks) {
      try {
        const mod = (await import(pathToFileURL(h.config.module).href)) as { default?: unknown };
        if (typeof mod.default !== 'function') throw new Error('the module has no default export function');
        h.fn = mod.default as HookFn;
      } catch (err) {
        h.loadError = (err as Error).message;
        this.onError(h.config.module, `cannot load hook: ${h.loadError}`);
      }
    }
  }

  async run(stage: 'pre' | 'post', call: HookCall): Promise<HookOutcome> {
    let args = call.arguments;
    let result = call.result;
    for (const h of this.hooks) {
      if (h.config.stage !== stage || !h.applies(call.tool)) continue;
      const rule = `${stage}-hook ${h.config.module}`;
      if (!h.fn) return { ok: false, reason: `a ${stage}-hook could not be loaded`, rule };
      let answer: HookAnswer | void;
      try {
        answer = await withTimeout(Promise.resolve(h.fn({ ...call, arguments: args, result })), h.config.timeoutMs);
      } catch (err) {
        this.onError(h.config.module, (err as Error).message ?? String(err));
        return { ok: false, reason: `a ${stage}-hook failed`, rule };
      }
      if (answer?.block) return { ok: false, reason: answer.reason ? `blocked by a ${stage}-hook: ${answer.reason}` : `blocked by a ${stage}-hook`, rule };
      if (answer?.arguments && typeof answer.arguments === 'object') args = answer.arguments;
      if (answer?.result && typeof answer.result === 'object') result = answer.result;
    }
    return { ok: true, arguments: args, result };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}
