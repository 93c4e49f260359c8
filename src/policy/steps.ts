import type { Bucket, RoleConfig } from '../config/schema.js';
import { scanPayload, type Finding } from '../filters/scan.js';
import { join, type Label } from '../ifc/label.js';
import type { Params } from '../protocol/jsonrpc.js';
import type { SwitchStore } from '../state/ports.js';
import { deny, type Destination, type RequestState, type Resolved, type StepFn } from './checked-request.js';
import type { Refusal, Step } from './decision.js';
import type { CheckedMethod } from './methods.js';
import { findingsLabel } from './findings.js';
import { checkFilePath, checkPaths, pathMatches } from './paths.js';
import { checkFolders } from './denied-below.js';
import { FsBudget } from './fs-budget.js';
import { hideDenied, searchArguments } from './hide-denied.js';
import { allowedBy, deniedBy, resourceUri, type ResourceUriCheck } from './resource-uri.js';
import { printable } from './printable.js';
import { parserInput } from '../urls/parser-input.js';
import { checkUrls, NETWORK_SCHEMES } from './url-rules.js';
import { writeDown } from './write-down.js';
import { isOpenWorld, matchName, operationOf, toolSecurity } from './rules.js';

/** The role, which `authenticate` guarantees for every later step. */
function roleOf(s: RequestState): RoleConfig {
  if (!s.role) throw new Error('no role: the authenticate step did not run');
  return s.role;
}

function resolvedOf(s: RequestState): Resolved {
  if (!s.resolved) throw new Error('nothing resolved: the resolve step did not run');
  return s.resolved;
}

// ---- before execute ------------------------------------------------------------------------------------

const authenticate: StepFn = (s) => {
  const role = s.req.security.role(s.req.principal);
  if (!s.req.principal || !role) return deny('authenticate', 'no identity with a role is attached to this session');
  s.role = role;
  return undefined;
};

const pause: StepFn = async (s) => ((await s.req.security.switches.get('paused')) ? deny('pause', PAUSED) : undefined);

const PAUSED = 'sluice is paused by the operator';

/**
 * The pause, read outside the pipeline's own step (after an approval, for what an upstream asks a client): a
 * switch that cannot be read refuses, as the step's failure would.
 */
export async function pausedRefusal(switches: SwitchStore, reason = PAUSED): Promise<Refusal | undefined> {
  try {
    return (await switches.get('paused')) ? deny('pause', reason) : undefined;
  } catch (err) {
    return deny('pause', `the pause switch could not be read: ${(err as Error).message}`);
  }
}

/** Every bucket that applies — the agent's, and for tools each matching per-tool one — checked before any is taken. */
const rateLimit: StepFn = async (s) => {
  const limit = roleOf(s).rateLimit;
  if (!limit) return undefined;
  const agent = s.req.principal!.agent;
  // JSON keys: an identity key may hold any character (an OAuth subject), so no separator could keep them apart.
  const takes: { key: string; bucket: Bucket; rule: string; what: string }[] = [{ key: JSON.stringify(['agent', agent]), bucket: limit, rule: `${limit.perSecond}/s`, what: 'rate limit' }];
  if (s.req.method === 'tools/call') {
    for (const [glob, bucket] of limit.tools) if (matchName(glob, s.req.target)) takes.push({ key: JSON.stringify(['agent', agent, 'tool', glob]), bucket, rule: glob, what: `rate limit for ${glob}` });
  }
  const taken = await s.req.security.limits.take(takes);
  if (taken.ok) return undefined;
  const t = takes[taken.index];
  return deny('rate-limit', `${t.what} exceeded; retry in ${(taken.retryAfterMs / 1000).toFixed(1)} s`, t.rule);
};

/** The rule a refusal of a held-back definition names: the handlers tell it from an unknown name by it. */
export const QUARANTINE_RULE = 'definitions';

const UNKNOWN: Record<CheckedMethod, string> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
  'resources/subscribe': 'resource',
  'completion/complete': 'prompt or resource template',
};

/** The name as sent, looked up in the caller's catalog: an unknown or look-alike name goes no further. */
const resolve: StepFn = (s) => {
  const resolved = s.req.resolve();
  if (!resolved) return deny('resolve', `no ${UNKNOWN[s.req.method]} "${printable(s.req.target)}" is offered`);
  if ('heldBack' in resolved) return deny('resolve', resolved.heldBack, QUARANTINE_RULE);
  s.resolved = resolved;
  if (s.req.method === 'tools/call') {
    s.toolSec = toolSecurity(resolved.server.tools, resolved.upstreamName);
    s.operation = operationOf(resolved.definition, s.toolSec);
    s.egress = s.operation === 'write' || isOpenWorld(resolved.definition, s.toolSec, resolved.server.openWorld);
  } else if (isResourceMethod(s.req.method)) {
    // A URI the server listed carries nothing of the client's; one built from a template carries what was put
    // in it, out of the boundary when the server is open-world or the URI itself reaches a host.
    s.egress = !resolved.listed && (resolved.server.openWorld ?? reachesHost(s.req.target));
  } else {
    // Prompt and completion arguments go to the server like a tool's arguments: open-world unless it says not.
    s.egress = isOpenWorld(undefined, undefined, resolved.server.openWorld);
  }
  return undefined;
};

const isResourceMethod = (m: CheckedMethod) => m === 'resources/read' || m === 'resources/subscribe';

function reachesHost(uri: string): boolean {
  // The scheme as a URL parser reads it: tabs and newlines anywhere and leading controls and spaces do not count.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(parserInput(uri))?.[1]?.toLowerCase();
  return scheme !== undefined && NETWORK_SCHEMES.has(scheme);
}

const toolRule: StepFn = (s) => {
  const role = roleOf(s);
  const verdict = s.req.security.toolRules(role).evaluate(s.req.target);
  if (verdict.policy === 'deny') return deny('tool-rule', `role "${role.name}" may not call ${s.req.target}`, verdict.rule);
  if (verdict.policy === 'approve') return { outcome: 'approve', step: 'tool-rule', rule: verdict.rule, reason: `calls to ${s.req.target} need a human's approval` };
  return undefined;
};

const operation: StepFn = (s) => {
  const role = roleOf(s);
  return s.operation === 'write' && role.readOnly ? deny('operation', `role "${role.name}" is read-only and ${s.req.target} is a write tool`) : undefined;
};

/**
 * Path rules: on a tool's path arguments, and on the file a `file:` resource names (canonicalised alike). A
 * path that is a folder above denied paths is refused to a write (moving, renaming, copying or deleting it
 * would carry them out of the rule's reach), and a read of it has them hidden from its result (path-filter).
 */
const paths: StepFn = async (s) => {
  if (isResourceMethod(s.req.method)) return resourcePath(s);
  if (s.req.method !== 'tools/call') return undefined;
  const { server, definition } = resolvedOf(s);
  const role = roleOf(s);
  const base = server.transport === 'stdio' ? server.cwd : undefined;
  const budget = new FsBudget();
  const schema = definition?.inputSchema as Params | undefined;
  const checked = await checkPaths(s.args, schema, s.toolSec?.paths, role, base, budget);
  if (!checked.ok) return deny('paths', checked.reason, checked.rule);
  s.args = checked.arguments;
  s.paths = checked.paths;
  if (role.paths.deny.length === 0) return undefined;
  const folders = await checkFolders(s.paths, s.operation, role.paths.deny, budget, () => searchArguments(s.args, checked.where, schema));
  if (!folders.ok) return deny('paths', folders.reason, folders.rule);
  s.hidden = folders.hidden;
  return undefined;
};

/**
 * URL rules (SSRF): every URL an argument carries, canonicalised to the host it really reaches; loopback,
 * private, link-local and metadata hosts are refused unless the role allows them by name.
 */
const urls: StepFn = (s) => {
  const { definition } = resolvedOf(s);
  const role = roleOf(s);
  let checked;
  if (s.req.method === 'tools/call') checked = checkUrls(s.args, definition?.inputSchema as Params | undefined, s.toolSec?.urls, role.urls, s.toolSec?.paths);
  else if (isResourceMethod(s.req.method)) checked = reachesHost(s.req.target) ? checkUrls({ uri: s.req.target }, undefined, undefined, role.urls, undefined, NETWORK_SCHEMES) : { ok: true as const };
  else checked = checkUrls(s.args, undefined, undefined, role.urls, undefined, NETWORK_SCHEMES);
  return checked.ok ? undefined : deny('urls', checked.reason, checked.rule);
};

/**
 * The URI of a resources/read in the one form that is checked and forwarded: whichever step needs it first
 * works it out, and the resolved target then names that form, so what the upstream is sent is what was checked.
 */
function resourceOf(s: RequestState): ResourceUriCheck {
  if (!s.resource) {
    s.resource = resourceUri(s.req.target);
    if (s.resource.ok) s.resolved = { ...resolvedOf(s), upstreamName: s.resource.uri.forward };
  }
  return s.resource;
}

/**
 * A `file:` resource is a file like any other: the role's path rules apply to the file its canonical URI
 * names, resolved on disk the way it will be opened (symlinks, Unicode-equivalent names).
 */
async function resourcePath(s: RequestState): Promise<Refusal | undefined> {
  const r = resourceOf(s);
  if (!r.ok) return deny('paths', r.reason);
  const role = roleOf(s);
  if (r.uri.path === undefined || (role.paths.allow.length === 0 && role.paths.deny.length === 0)) return undefined;
  const checked = await checkFilePath(r.uri.path, role, new FsBudget());
  if (!checked.ok) return deny('paths', checked.reason, checked.rule);
  s.paths = checked.paths;
  return undefined;
}

/**
 * The role's resource rules: URI globs, deny first — under every spelling of the URI — and with an allow list,
 * a URI must match one of it.
 */
const resourceRule: StepFn = (s) => {
  if (!isResourceMethod(s.req.method)) return undefined;
  const r = resourceOf(s);
  if (!r.ok) return deny('resource-rule', r.reason);
  const role = roleOf(s);
  const { allow, deny: denied } = role.resources;
  const shown = printable(s.req.target);
  const hit = deniedBy(denied, r.uri);
  if (hit) return deny('resource-rule', `role "${role.name}" may not read ${shown}`, hit);
  if (allow.length > 0 && !allowedBy(allow, r.uri)) return deny('resource-rule', `${shown} matches none of the resources role "${role.name}" may read`);
  return undefined;
};

/**
 * No write-down: what the session holds (and what the arguments themselves carry — a secret pasted into a
 * write) may only go to a tool cleared for it; an untrusted session may not drive a trusted-only tool.
 * Outgoing means more than writes: the arguments of any open-world tool (a fetch, a search) leave too.
 */
const informationFlow: StepFn = async (s) => {
  if (!s.egress) return undefined;
  const held = await s.req.security.labels.of(s.req.holder);
  const { clean, refused } = writeDown(held, outgoingOf(s), destinationOf(s), printable(s.req.target));
  s.argsClean = clean;
  if (!refused) return undefined;
  const policy = roleOf(s).onFlowViolation;
  if (policy === 'allow') return undefined;
  const reason = refused.kind === 'confidentiality' ? `${refused.reason}${egressWhy(s)}` : refused.reason;
  return { outcome: policy, step: 'information-flow', rule: refused.rule, reason };
};

/** Where a request's data goes, for what the upstream asks the client while it runs. */
export function destinationOf(s: RequestState): Destination {
  return { egress: s.egress, clearance: s.toolSec?.clearance ?? 'public', requireTrusted: s.toolSec?.requireTrusted === true };
}

/** Why a request that is not a write counts as data leaving. */
function egressWhy(s: RequestState): string {
  if (s.req.method === 'tools/call') return s.operation === 'write' ? '' : ' (it is open-world: its arguments leave the trust boundary)';
  if (isResourceMethod(s.req.method)) return ' (the URI was built by the client and is fetched beyond the trust boundary: what it carries leaves)';
  return ' (its server is open-world: the arguments leave the trust boundary)';
}

/** Everything the request carries to the server: the arguments (for a resource, its URI) and the rest it forwards. */
function outgoingOf(s: RequestState): Params {
  const args = isResourceMethod(s.req.method) ? { uri: s.req.target } : s.args;
  return s.req.outgoing ? { arguments: args, outgoing: s.req.outgoing } : args;
}

const preHook: StepFn = async (s) => {
  const hooks = s.req.security.hooks;
  if (hooks.empty) return undefined;
  const outcome = await hooks.run('pre', { tool: s.req.target, agent: s.req.principal!.agent, arguments: s.args });
  if (!outcome.ok) return deny('pre-hook', outcome.reason, outcome.rule);
  if (outcome.arguments !== s.args) s.argsClean = undefined;
  s.args = outcome.arguments;
  return undefined;
};

// ---- after execute -------------------------------------------------------------------------------------

export function describeFinding(f: Finding): string {
  return `${f.category} (${f.kind})`;
}

/** A read of a folder above denied paths: their names taken out of its result, or the result withheld. */
const pathFilter: StepFn = (s) => {
  if (!s.hidden) return undefined;
  const { result, leaked } = hideDenied(s.result!, s.hidden, roleOf(s).paths.deny);
  if (leaked) return deny('path-filter', `the result names a denied path below ${s.hidden.map((h) => h.dir).join(', ')} in a form sluice could not take out, so it was withheld`);
  s.result = result;
  return undefined;
};

const contentFilter: StepFn = (s) => {
  const filters = roleOf(s).filters;
  const scanned = scanPayload(s.result!, filters);
  s.findings = scanned.findings;
  const blocked = scanned.findings.find((f) => filters[f.category] === 'block');
  if (blocked) return deny('content-filter', `the ${s.req.method === 'tools/call' ? 'result' : 'content'} contained ${describeFinding(blocked)} and was withheld`, blocked.kind);
  s.result = scanned.value;
  return undefined;
};

const postHook: StepFn = async (s) => {
  const hooks = s.req.security.hooks;
  if (hooks.empty) return undefined;
  const post = await hooks.run('post', { tool: s.req.target, agent: s.req.principal!.agent, arguments: s.args, result: s.result });
  if (!post.ok) return deny('post-hook', post.reason, post.rule);
  s.result = post.result ?? s.result;
  return undefined;
};

/** The session sees what came back: its label rises by the source's label and by what the filters found. */
const label: StepFn = async (s) => {
  const filters = roleOf(s).filters;
  const seen = join(sourceLabel(s), findingsLabel(s.findings.filter((f) => filters[f.category] === 'label')));
  s.labelAfter = (await s.req.security.labels.raise(s.req.holder, seen)).after;
  return undefined;
};

/**
 * The label of what came back: a tool's or resource's from config, else its server's; a tool's result stays
 * trusted when every path it touched is one of the operator's trusted paths.
 */
function sourceLabel(s: RequestState): Label {
  const { server } = resolvedOf(s);
  if (isResourceMethod(s.req.method)) {
    const r = resourceOf(s);
    const forms = r.ok ? r.uri.allowForms : [s.req.target];
    for (const [glob, l] of server.resources) if (forms.some((form) => pathMatches([glob], form))) return l;
    return server.label;
  }
  if (s.req.method !== 'tools/call') return server.label;
  const base = s.toolSec?.label ?? server.label;
  const trusted = server.trustedPaths;
  if (base.integrity === 'untrusted' && trusted.length > 0 && s.paths.length > 0 && s.paths.every((p) => pathMatches(trusted, p))) {
    return { ...base, integrity: 'trusted' };
  }
  return base;
}

/** Every step that is a check, by name; `execute` and `record` belong to the runner. */
export const STEP_FUNCTIONS = new Map<Step, StepFn>([
  ['authenticate', authenticate],
  ['pause', pause],
  ['rate-limit', rateLimit],
  ['resolve', resolve],
  ['resource-rule', resourceRule],
  ['tool-rule', toolRule],
  ['operation', operation],
  ['paths', paths],
  ['urls', urls],
  ['information-flow', informationFlow],
  ['pre-hook', preHook],
  ['path-filter', pathFilter],
  ['content-filter', contentFilter],
  ['post-hook', postHook],
  ['label', label],
]);
