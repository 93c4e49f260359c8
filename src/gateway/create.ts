import { randomUUID } from 'node:crypto';
import { createApprover } from '../approvals/approver.js';
import { ApprovalQueue } from '../approvals/queue.js';
import { AuditLog } from '../audit/log.js';
import { AuditRecorder } from '../audit/recorder.js';
import { HeadSigner } from '../audit/signing.js';
import type { AuditStore } from '../audit/store.js';
import type { GatewayConfig } from '../config/schema.js';
import { silentLogger, type Logger } from '../log.js';
import { Hooks } from '../policy/hooks.js';
import { Security } from '../policy/security.js';
import type { StateStores, TokenStore } from '../state/ports.js';
import { OAuthResource } from '../identity/oauth-resource.js';
import { UpstreamTokens } from '../identity/upstream-tokens.js';
import { Gateway } from './gateway.js';
import { openState } from './open-state.js';
import { auditStoreFor, tokenStoreFor } from './stores.js';

export { auditStoreFor, tokenStoreFor } from './stores.js';

/** What a caller may supply instead of what the config would build (tests, library use, other backends). */
export interface GatewayDeps {
  log?: Logger;
  /** Every state port; default: Redis at `state.url`, else the embedded SQLite store in the data dir. */
  state?: StateStores;
  /** The audit store; default: Postgres at `audit.url`, else SQLite at `audit.file` (when `audit.enabled`). `false`: no audit log. */
  audit?: AuditStore | false;
  /** Default: the shared state's token store, else the token file (hashes) in the data dir. */
  tokens?: TokenStore;
}

/**
 * The composition root: the one place that builds every collaborator from config — state stores, the audit
 * log with its signer, the recorder, hooks, approvals, the token store, the policy context — and passes each
 * in. `sluice serve`, the CLI and the tests all come through here; no constructor builds its own store.
 */
export async function createGateway(config: GatewayConfig, deps: GatewayDeps = {}): Promise<Gateway> {
  const log = deps.log ?? silentLogger;
  const state = deps.state ?? (await openState(config, log));
  const audit = await openAudit(config, deps.audit, log);
  // What the gateway's decisions carry on the process-wide lifecycle channel (Gateway.onDecision filters by it).
  const id = randomUUID();
  const recorder = new AuditRecorder(audit, log, config.security.audit.maxFieldBytes, id);
  const hooks = new Hooks(config.security.hooks, (module, error) => log.error({ hook: module, error }, 'hook failed'));
  await hooks.load();
  const approvals = new ApprovalQueue(state.approvals, config.security.approvals.timeoutMs);
  const { askClient, keepAliveMs } = config.security.approvals;
  const security = new Security(config, {
    labels: state.labels,
    limits: state.limits,
    switches: state.switches,
    tokens: deps.tokens ?? state.tokens ?? tokenStoreFor(config),
    hooks,
    recorder,
    approver: createApprover(approvals, recorder, { askClient, keepAliveMs }),
  });
  const oauth = config.security.oauth && new OAuthResource(config.security.oauth);
  return new Gateway({ id, config, log, security, approvals, state, audit, oauth, upstreamTokens: new UpstreamTokens() });
}

/** The audit log over its store, with the head signer from the data dir; none when it is switched off. */
async function openAudit(config: GatewayConfig, given: AuditStore | false | undefined, log: Logger): Promise<AuditLog | undefined> {
  const settings = config.security.audit;
  if (given === false || (!settings.enabled && given === undefined)) return undefined;
  // busyTimeoutMs 0: a lock held by another process delays records (the log retries), never the event loop.
  const store = given ?? (await auditStoreFor(config, { busyTimeoutMs: 0 }));
  return new AuditLog(store, {
    signer: HeadSigner.fromFile(settings.signingKeyFile),
    signIntervalMs: settings.signIntervalMs,
    retentionMs: settings.retentionMs,
    commitTimeoutMs: settings.commitTimeoutMs,
    maxQueue: settings.maxQueue,
    onStoreTrouble: ({ failing, error, waiting }) =>
      failing ? log.warn({ error, waiting }, 'audit store refused a batch; records are queued and retried') : log.info({ waiting }, 'audit store takes records again'),
  });
}
